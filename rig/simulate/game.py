"""A whole game turned into a board session: the two players, the clock, and what the engine must find.

:func:`simulate_game` plays a list of moves (a real game or random legal
play) on a physical board model with the seeded :class:`HumanModel`, and
returns a :class:`SimulatedSession`: the session header and events, plus the
moves and irregularities the reconstruction engine must report
(SESSION-FORMAT.md "Transcription").

Move numbers are PDN move numbers: a game from a position with black to move
starts at ``1...``. A *turn* is one player's slot in the alternation; the
``ply`` of an injection is the 0-based turn index.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Iterable, Sequence

from rig.board import Board
from rig.errors import IllegalMoveError
from rig.move import Move
from rig.session import ClockEvent, Event, Frame, Header
from rig.simulate.hands import Hands, SimClock, between
from rig.simulate.model import HumanModel
from rig.simulate.sessiontypes import (ExpectedMove, Injection, InjectionError, SimulatedSession, Turn,
                                       move_number, side_name)
from rig.variants import Variant, get_variant

if TYPE_CHECKING:
    from rig.simulate.behaviours import Quirk, TurnQuirks

__all__ = [
    "SimulatedSession",
    "ExpectedMove",
    "Turn",
    "Injection",
    "InjectionError",
    "simulate_game",
    "random_game",
    "side_name",
    "move_number",
]


def random_game(variant: Variant | str, plies: int, seed: int | str = 0, fen: str | None = None) -> list[Move]:
    """Random legal play: up to ``plies`` moves (fewer if the game ends), each chosen by a seeded RNG
    among the legal moves, with a random landing path where a capture has several."""
    rng = random.Random(f"random-game:{seed}")
    board = Board(variant, fen)
    out: list[Move] = []
    for _ in range(plies):
        moves = board.legal_moves_all_paths()
        if not moves:
            break
        m = rng.choice(moves)
        out.append(m)
        board.push(m)
    return out


def _occupancy_after(board: Board, move: Move) -> frozenset[int]:
    b = board.copy(stack=False)
    b.push(move)
    return frozenset(b.occupied())


def _resolve(variant: Variant, moves: Sequence[Move | str], fen: str | None) -> list[Move]:
    board = Board(variant, fen)
    out = []
    for i, m in enumerate(moves):
        if isinstance(m, str):
            try:
                mv = board.parse_move(m)
            except IllegalMoveError as exc:
                raise IllegalMoveError(f"move {i + 1} ({m!r}) of the game: {exc}") from None
        else:
            mv = m
            if not board.is_legal(mv):
                raise IllegalMoveError(f"move {i + 1} ({mv}) of the game is not legal in {board.fen()}")
        out.append(mv)
        board.push(mv)
    return out


class Simulation:
    """The state of one simulated game: the rules position, the physical board, the clock, the answers.

    Injection handlers (:mod:`rig.simulate.injections`) drive it through its public methods.
    """

    def __init__(self, variant: Variant, board: Board, rng: random.Random, model: HumanModel, clock: bool):
        self.variant = variant
        self.board = board
        self.rng = rng
        self.model = model
        self.white_first = board.turn
        self.use_clock = clock
        self.hands = Hands(board.occupied(), rng, model)
        self.clock: SimClock | None = None
        self.ply = 0
        self.expected: list[ExpectedMove] = []
        self.made: list[str] = []
        self.irregularities: list[dict] = []
        self._pending: list[int] = []
        self.position_changed = False
        self.turn_start = 0.0
        #: squares the next turn's player must not move from (pieces left on the board irregularly)
        self.avoid: frozenset[int] = frozenset()
        #: the next player waits for the board to stand still (after an irregular turn, no quick reply)
        self.settle_next = False
        #: the next turn's move must not leave the board with this occupancy (an ambiguous reply)
        self.avoid_occupancy: frozenset[int] | None = None
        #: real-board behaviours (rig.simulate.behaviours): their own RNG, and what they did
        self.quirk_rng = random.Random(0)
        self.quirks: list[Quirk] = []
        #: the last move's pick-up and landing times (set by :meth:`execute`)
        self.span: list[float] = [0.0, 0.0]

    # -- bookkeeping ------------------------------------------------------------------------

    @property
    def side(self) -> bool:
        return self.board.turn

    @property
    def number(self) -> int:
        return move_number(self.ply, self.white_first)

    def start_clock(self) -> None:
        if self.use_clock and self.clock is None:
            m = self.model
            self.clock = SimClock(m.base_ms, m.increment_ms, self.board.turn, self.hands.t)
            self.hands.clock(ClockEvent(round(self.hands.t, 4), "time", white_ms=m.base_ms, black_ms=m.base_ms))

    def withdraw(self, text: str) -> None:
        """The last expected move was put back before the opponent moved: it no longer stands (the engine's
        report keeps it, marked withdrawn: docs/engine-contract.md, ``MoveWithdrawn``)."""
        last = self.expected.pop()
        assert last.text == text, (last, text)

    def expect(self, text: str, side: bool | None = None) -> None:
        """Record a move the engine must report for the current turn; a move by the opponent of a
        pending irregularity accepts it (004 art. 42, 43)."""
        side = self.side if side is None else side
        self.expected.append(ExpectedMove(self.number, side_name(side), text))
        self.made.append(text)
        name = side_name(side)
        still = []
        for i in self._pending:
            if self.irregularities[i]["side"] != name:
                self.irregularities[i]["status"] = "accepted"
            else:
                still.append(i)
        self._pending = still

    def irregular(self, kind: str, corrected: bool = False) -> int:
        """Record an irregularity of the current turn's player; it stays pending until the opponent's next
        move accepts it, unless ``corrected``."""
        self.irregularities.append({"type": kind, "number": self.number, "side": side_name(self.side),
                                    "status": "corrected" if corrected else "open"})
        idx = len(self.irregularities) - 1
        if not corrected:
            self._pending.append(idx)
        return idx

    def set_position(self, pieces: dict[int, tuple[bool, bool]], white_to_move: bool) -> None:
        """Continue from an irregular position (the record goes on from it: 004 art. 42)."""
        self.board.set_pieces(pieces, white_to_move)
        self.position_changed = True

    # -- time -------------------------------------------------------------------------------

    def correct(self, index: int) -> None:
        """The board was put right before the opponent moved: the irregularity is ``corrected``."""
        self.irregularities[index]["status"] = "corrected"
        if index in self._pending:
            self._pending.remove(index)

    def think(self, settled: bool = False) -> None:
        """The player to move thinks: from the opponent's press with a clock, from the end of the last
        move without one (``settled``: only after the board stood still longer than ``stable_s``, so the
        last move is over before anything irregular starts)."""
        settled, self.settle_next = settled or self.settle_next, False
        if settled and not self.use_clock and self.ply > 0:
            self.hands.wait(self.model.slow_reply_s)
        elif self.use_clock or self.ply == 0:
            self.hands.wait(self.model.think(self.rng))
        else:
            self.hands.wait(self.model.reply_without_clock(self.rng))

    def press(self, delay: float | None = None) -> None:
        """The mover presses the clock after a short delay (``press_delay_s`` unless given; only with a
        clock)."""
        if self.clock is None:
            return
        h = self.hands
        h.wait(self.model.press_delay_s if delay is None else delay)
        t = round(h.t, 4)
        side = side_name(self.clock.running)
        white_ms, black_ms = self.clock.press(t)
        h.clock(ClockEvent(t, "press", side=side))
        h.clock(ClockEvent(t, "time", white_ms=white_ms, black_ms=black_ms))

    # -- hands ------------------------------------------------------------------------------

    def any_path(self, move: Move, text: str | None = None) -> Move:
        """One of the landing paths of a legal move, chosen at random (the human's way); with ``text``, one
        the move's text names (a text with the full path names one: the hands follow it, and the landings
        they touch down on show it)."""
        alts = [m for m in self.board.legal_moves_all_paths() if m.key == move.key
                and (text is None or self.board.move_text(m) == text)]
        return self.rng.choice(alts) if alts else move

    def execute(self, move: Move, *, removal: list[int] | None = None, early: int | None = None,
                king: bool | None = None, quirks: "TurnQuirks | None" = None) -> None:
        """Do a move with the hands: lift, touch down on the landing squares of a capture (most of the
        time), release on the last square, then remove ``removal`` (default: all captured pieces, in random
        order). ``early``: a captured piece removed while the capturing piece is still under way.
        ``quirks``: the real-board behaviours of this turn (:mod:`rig.simulate.behaviours`)."""
        h, m, rng = self.hands, self.model, self.rng
        if king is None:
            piece = self.board.piece_at(move.origin)
            king = bool(piece and piece[1])
        flown = quirks is not None and quirks.flown and len(move.path) > 2
        detour = quirks.detour if quirks is not None else None
        slide = king and not flown and detour is None and rng.random() < m.slide_p
        path = list(move.path)
        # a capture ending on its origin is always shown square by square: straight to the last square
        # would be the piece lifted and put back, a touch (docs/reconstruction.md, Limits); so is one with
        # several landing paths: the landings tell which one was played (unless flown: a real board)
        touch = not flown and len(path) > 2 and (move.destination == move.origin or self._paths(move) > 1
                                                 or rng.random() < m.landing_p)
        stops = range(1, len(path)) if touch else [len(path) - 1]
        h.pick_up(move.origin)
        self.span = [h.t, h.t]
        if detour is not None:
            # change of mind: set down, not released, on a square the piece could reach; then on its way
            h.wait(m.travel_s)
            set_t = h.t
            h.place(detour)
            h.wait(quirks.detour_s)
            h.pick_up(detour)
            quirks.log("change-of-mind", set_t, h.t, (detour,))
        prev_index = 0
        for idx in stops:
            stop = path[idx]
            crossed: list[int] = []
            for a, b in zip(path[prev_index:idx], path[prev_index + 1: idx + 1]):
                crossed += between(self.variant, a, b) + [b]
            crossed.pop()
            h.carry(crossed, slide)
            last = idx == len(path) - 1
            if last and early is not None:
                h.lift(early)
                h.settle(early)         # the removal is over, bounce included, before the piece lands
                h.wait(m.slide_gap_s)
            if last and quirks is not None and quirks.magnet_s:
                quirks.magnet_until = h.place_late(stop, quirks.magnet_s, quirks.flickers)
            else:
                h.place(stop)
            if not last:
                h.wait(m.hold_s)
                h.pick_up(stop)
            prev_index = idx
        self.span[1] = h.t
        if removal is None:
            removal = [c for c in move.captured if c != early]
            rng.shuffle(removal)
        pair = quirks.pair_index(len(removal)) if quirks is not None else None
        for k, c in enumerate(removal):
            if pair is None or k != pair + 1:       # two at once: the second in the same frame as the first
                h.wait(m.removal_first_s if k == 0 else m.removal_gap_s)
            h.lift(c)
            if pair is not None and k == pair + 1:
                quirks.log("two-at-once", h.t, h.t, (removal[pair], c))

    def _paths(self, move: Move) -> int:
        """How many landing paths the legal move ``move`` has (0 for a move that is not legal)."""
        return len({m.path for m in self.board.legal_moves_all_paths() if m.key == move.key})

    def touch(self, square: int) -> None:
        """Lift a piece and put it back on its square (a deliberate touch, longer than touch_s)."""
        h = self.hands
        h.lift(square)
        h.wait(self.model.touch_hold_s)
        h.place(square)
        h.wait(self.model.settle_s)

    def play(self, move: Move, draw=None, **kw) -> str:
        """Play a legal move of the side to move with the hands and on the board; returns its text.
        ``draw(sim, path)``: the real-board behaviours of the move, once its landing path is chosen."""
        text = self.board.move_text(move)
        move = self.any_path(move, text)
        if draw is not None:
            kw["quirks"] = draw(self, move)
        self.execute(move, **kw)
        side = self.side
        self.board.push(move)
        self.expect(text, side)
        return text

    def piece_name(self, square: int) -> str:
        return self.variant.square_name(square)


def simulate_game(variant: Variant | str, moves: Sequence[Move | str], *, fen: str | None = None,
                  ruleset: str | None = None, seed: int | str = 0, clock: bool = True,
                  inject: Iterable[Injection | str | tuple] = (), model: HumanModel | None = None,
                  tags: dict[str, str] | None = None) -> SimulatedSession:
    """Turn a game into a realistic board session (seeded: the same arguments give the same session).

    ``moves``: :class:`Move` objects or their notation, legal from ``fen`` (the variant's initial position
    when None). ``inject``: irregularities to commit (:class:`Injection`, ``"TYPE@PLY[:corrected]"`` or
    ``(type, ply)``); after one that changes the position, the game's moves are kept while they stay legal,
    then random legal play takes over (see ``SimulatedSession.notes`` and ``diverged_at``).
    """
    from rig.simulate.behaviours import clean_turn
    from rig.simulate.injections import HANDLERS, check_injection, prepare_setup

    v = get_variant(variant)
    model = model or HumanModel()
    plan = _resolve(v, moves, fen)
    rng = random.Random(f"simulate:{v.name}:{seed}")
    injections = sorted((Injection.of(i) for i in inject), key=lambda i: i.ply)
    by_ply: dict[int, Injection] = {}
    for inj in injections:
        if inj.type not in HANDLERS:
            raise InjectionError(f"unknown or unsupported irregularity type {inj.type!r}; supported: "
                                 + ", ".join(sorted(HANDLERS)))
        if not 0 <= inj.ply < max(1, len(plan)):
            raise InjectionError(f"{inj}: the game has turns 0..{len(plan) - 1}")
        if inj.type == "wrong-setup" and inj.ply != 0:
            raise InjectionError(f"{inj}: a wrong set-up is seen before the first move (ply 0)")
        if inj.ply in by_ply:
            raise InjectionError(f"{inj}: turn {inj.ply} already has {by_ply[inj.ply]}")
        if any(abs(inj.ply - p) < 2 for p in by_ply):
            raise InjectionError(f"{inj}: irregularities need at least one clean turn between them")
        by_ply[inj.ply] = inj

    board = Board(v, fen)
    sim = Simulation(v, board, rng, model, clock)
    sim.quirk_rng = random.Random(f"behaviours:{v.name}:{seed}")
    notes: list[str] = []
    if 0 in by_ply and by_ply[0].type == "wrong-setup":
        prepare_setup(sim)
    sim.start_clock()

    turns: list[Turn] = []
    diverged_at: int | None = None
    for ply in range(len(plan)):
        if board.is_game_over():
            notes.append(f"the game ended after turn {ply - 1}: {side_name(board.turn)} has no move")
            break
        sim.ply = ply
        move: Move | None = None
        if diverged_at is None:
            planned = plan[ply]
            legal = [m for m in board.legal_moves_all_paths() if m.key == planned.key]
            if legal:
                # the game's own landing path where it is one of the move's (a real game's record, random play)
                move = next((m for m in legal if m.path == planned.path), legal[0])
            else:
                diverged_at = ply
                notes.append(f"turn {ply}: the game's move {planned} no longer applies in {board.fen()}; "
                             "random legal play from here")
        if move is not None and move.origin in sim.avoid:
            notes.append(f"turn {ply}: the game's move {move} would move a piece left on the board "
                         "irregularly; random legal play from here")
            diverged_at, move = ply, None
        if move is None:
            legal = board.legal_moves
            move = rng.choice([m for m in legal if m.origin not in sim.avoid] or legal)
        if sim.avoid_occupancy is not None and _occupancy_after(board, move) == sim.avoid_occupancy:
            others = [m for m in board.legal_moves if _occupancy_after(board, m) != sim.avoid_occupancy]
            if others:
                notes.append(f"turn {ply}: {move} would put the board back as before the opponent's last move "
                             "(read as that move taken back); random legal play from here")
                diverged_at, move = ply, rng.choice(others)
        sim.avoid, sim.avoid_occupancy = frozenset(), None
        start = sim.hands.t
        side = side_name(board.turn)
        n_before = len(sim.expected)
        inj = by_ply.get(ply)
        if inj is not None:
            check_injection(sim, inj, move)
            HANDLERS[inj.type](sim, move, inj.corrected)
            sim.settle_next = True
        else:
            clean_turn(sim, move)
        turns.append(Turn(ply, sim.number, side, round(start, 4), round(sim.hands.t, 4),
                          tuple(e.text for e in sim.expected[n_before:]), frozenset(sim.hands.occupied),
                          board.fen(), str(inj) if inj else None))
        if sim.position_changed and diverged_at is None and not any("irregular position" in n for n in notes):
            notes.append(f"turn {ply}: play continues from the irregular position {board.fen()}")
    # let the board stand still past stable_s so a clockless engine can commit the last move
    sim.hands.wait(model.stable_s + 0.5)
    frames = sim.hands.frames()
    frames.append(Frame(round(sim.hands.t, 4), frozenset(sim.hands.occupied)))
    events: list[Event] = sorted(frames + sim.hands.clock_events,
                                 key=lambda e: (e.t, 0 if isinstance(e, Frame) else 1))
    hdr_tags = dict(tags or {})
    header = Header(variant=v.name, ruleset=ruleset or v.default_ruleset, fen=fen, tags=hdr_tags,
                    extra={"clock": clock, "simulator": {"seed": seed,
                                         "inject": [str(i) for i in injections]}})
    return SimulatedSession(header=header, events=events, expected_moves=[e.text for e in sim.expected],
                            expected_irregularities=[dict(i) for i in sim.irregularities],
                            expected_record=list(sim.expected), expected_report_moves=list(sim.made),
                            turns=turns, final_fen=board.fen(),
                            notes=notes, diverged_at=diverged_at, behaviours=list(sim.quirks))
