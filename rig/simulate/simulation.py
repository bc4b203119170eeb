"""The simulated game's state: the rules position, the physical board under the hands, the clock, the answers.

:class:`Simulation` is what :func:`rig.simulate.game.simulate_game` and the injection handlers
(:mod:`rig.simulate.injections`) drive through its public methods; :func:`resolve_moves` checks a game's
moves against the rules before any is played.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Mapping, Sequence

from rig.board import Board
from rig.errors import IllegalMoveError
from rig.law import status_after_reply
from rig.move import Move
from rig.rulesets import default_ruleset_for
from rig.session import ClockEvent
from rig.simulate.hands import Hands, PlayersClock, between
from rig.simulate.model import HumanModel
from rig.simulate.sessiontypes import ExpectedMove, move_number, side_name
from rig.variants import Variant

if TYPE_CHECKING:
    from rig.simulate.behaviours import Quirk, TurnQuirks

__all__ = ["Simulation", "resolve_moves", "occupancy_after"]


def occupancy_after(board: Board, move: Move) -> frozenset[int]:
    b = board.copy(stack=False)
    b.push(move)
    return frozenset(b.occupied())


def resolve_moves(variant: Variant, moves: Sequence[Move | str], fen: str | None) -> list[Move]:
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
        self.ruleset = default_ruleset_for(variant)     # whose book says what the opponent's move does (rig.law)
        self.hands = Hands(board.occupied(), rng, model)
        self.clock: PlayersClock | None = None
        self.ply = 0
        self.expected: list[ExpectedMove] = []
        self.made: list[str] = []
        self.irregularities: list[dict] = []
        #: irregularities committed whose frames the engine must keep as observations (:meth:`removal_unproven`)
        self.observations: list[dict] = []
        #: the last capture's switch times (:meth:`execute`): its ply, its landing's closing, each removal's opening
        self.capture_switches: tuple[int, float, dict[int, float]] | None = None
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
            self.clock = PlayersClock(m.base_ms, m.increment_ms, self.board.turn, self.hands.t)
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
                # accepted (CODEX art. 50, FMJD 5.7), or open for the arbiter under the FPD (000 7.5a)
                self.irregularities[i]["status"] = status_after_reply(self.ruleset, self.irregularities[i]["type"])
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

    def observe(self, kind: str) -> None:
        """Record an irregularity of the current turn's player that its frames cannot prove: the engine must keep
        it as an observation for review, not raise it (docs/reconstruction.md, "Certain or not")."""
        self.observations.append({"type": kind, "number": self.number, "side": side_name(self.side)})

    def removal_unproven(self, destination: int) -> bool:
        """Without a clock, a capture landing on ``destination``, the square whose piece the last ply's capture took
        off less than ``touch_s`` after its landing closed (or less than ``removal_margin_s`` before), no change
        on it since, as the switches show both: that removal is no deliberate act by the engine's measure, and a
        switch dying under the piece then, working again under this landing, gives the same frames; so a removal
        of this capture read before its landing closed proves no early removal (rig/reconstruct/replyfirst.py,
        ``landing_on_quick_removal``)."""
        last = self.capture_switches
        if self.use_clock or last is None or last[0] != self.ply - 1 or destination not in last[2]:
            return False
        _, landed, removed = last
        off = removed[destination]
        return -self.model.removal_margin_s < off - landed < self.model.touch_s \
            and self.hands.settled_at(destination) == off

    def set_position(self, pieces: Mapping[int, tuple[bool, bool]], white_to_move: bool) -> None:
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
        time), release on the last square, then remove ``removal`` (default: all captured pieces, in the
        order jumped or its reverse, FMJD 4.11). ``early``: a captured piece removed while the capturing piece
        is still under way. ``quirks``: the real-board behaviours of this turn (:mod:`rig.simulate.behaviours`)."""
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
            assert quirks is not None   # a detour is a quirk of the turn
            h.wait(quirks.detour_s)
            h.pick_up(detour)
            quirks.log("change-of-mind", set_t, h.t, (detour,))
        prev_index = 0
        landed: float | None = None
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
                h.wait(m.early_removal_s)
            if last and quirks is not None and quirks.magnet_s:
                quirks.magnet_until = h.place_late(stop, quirks.magnet_s, quirks.flickers)
            else:
                h.place(stop)
            if last:
                landed = h.settled_at(stop)
            if not last:
                h.wait(m.hold_s)
                h.pick_up(stop)
            prev_index = idx
        self.span[1] = h.t
        if removal is None:
            removal = [c for c in move.captured if c != early]
            rng.shuffle(removal)
            # FMJD 4.11: in the order jumped or its reverse (the shuffle, drawn as before, picks which)
            if removal and removal[0] != removal[-1] and move.captured.index(removal[0]) > \
                    move.captured.index(removal[-1]):
                removal.sort(key=move.captured.index, reverse=True)
            else:
                removal.sort(key=move.captured.index)
        pair = quirks.pair_index(len(removal)) if quirks is not None else None
        for k, c in enumerate(removal):
            if pair is None or k != pair + 1:       # two at once: the second in the same frame as the first
                h.wait(m.removal_first_s if k == 0 else m.removal_gap_s)
            h.lift(c)
            if quirks is not None and pair is not None and k == pair + 1:
                quirks.log("two-at-once", h.t, h.t, (removal[pair], c))
        if move.captured and landed is not None:
            times = {c: h.settled_at(c) for c in [*removal, *([] if early is None else [early])]}
            self.capture_switches = (self.ply, landed, {c: t for c, t in times.items() if t is not None})

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
