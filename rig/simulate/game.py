"""A whole game turned into a board session: the two players, the clock, and what the engine must find.

:func:`simulate_game` plays a list of moves (a real game or random legal
play) on a physical board model with the seeded :class:`HumanModel`, and
returns a :class:`SimulatedSession`: the session header and events, plus the
moves and irregularities the reconstruction engine must report
(docs/session-format.md "Transcription").

Move numbers are PDN move numbers: a game from a position with black to move
starts at ``1...``. A *turn* is one player's slot in the alternation; the
``ply`` of an injection is the 0-based turn index.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Iterable, Sequence

from rig.board import Board
from rig.move import Move
from rig.rulesets import RuleSet, default_ruleset_for, get_ruleset
from rig.session import Event, Frame, Header
from rig.simulate.model import HumanModel
from rig.simulate.behaviours import clean_turn
from rig.simulate.injections import HANDLERS, check_injection, prepare_setup
from rig.simulate.sessiontypes import (ExpectedMove, Injection, InjectionError, SimulatedSession, Turn,
                                       move_number, side_name)
from rig.simulate.simulation import Simulation, occupancy_after, resolve_moves
from rig.variants import Variant, get_variant

if TYPE_CHECKING:
    pass

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


def simulate_game(variant: Variant | str, moves: Sequence[Move | str], *, fen: str | None = None,
                  ruleset: RuleSet | str | None = None, seed: int | str = 0, clock: bool = True,
                  inject: Iterable[Injection | str | tuple] = (), model: HumanModel | None = None,
                  tags: dict[str, str] | None = None) -> SimulatedSession:
    """Turn a game into a realistic board session (seeded: the same arguments give the same session).

    ``moves``: :class:`Move` objects or their notation, legal from ``fen`` (the variant's initial position
    when None). ``inject``: irregularities to commit (:class:`Injection`, ``"TYPE@PLY[:corrected]"`` or
    ``(type, ply)``); after one that changes the position, the game's moves are kept while they stay legal,
    then random legal play takes over (see ``SimulatedSession.notes`` and ``diverged_at``).
    ``variant`` and ``ruleset`` (default: the variant's) are objects or their names: this is a public entry.
    """
    v = get_variant(variant)
    rs = get_ruleset(ruleset) if ruleset else default_ruleset_for(v)
    model = model or HumanModel()
    plan = resolve_moves(v, moves, fen)
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
    sim.ruleset = rs
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
        if sim.avoid_occupancy is not None and occupancy_after(board, move) == sim.avoid_occupancy:
            others = [m for m in board.legal_moves if occupancy_after(board, m) != sim.avoid_occupancy]
            if others:
                notes.append(f"turn {ply}: {move} would put the board back as before the opponent's last move "
                             "(read as that move taken back); random legal play from here")
                diverged_at, move = ply, rng.choice(others)
        sim.avoid, sim.avoid_occupancy = frozenset(), None
        start = sim.hands.t
        side = side_name(board.turn)
        n_before = len(sim.expected)
        injection = by_ply.get(ply)
        if injection is not None:
            check_injection(sim, injection, move)
            HANDLERS[injection.type](sim, move, injection.corrected)
            sim.settle_next = True
        else:
            clean_turn(sim, move)
        turns.append(Turn(ply, sim.number, side, round(start, 4), round(sim.hands.t, 4),
                          tuple(e.text for e in sim.expected[n_before:]), frozenset(sim.hands.occupied),
                          board.fen(), str(injection) if injection else None))
        if sim.position_changed and diverged_at is None and not any("irregular position" in n for n in notes):
            notes.append(f"turn {ply}: play continues from the irregular position {board.fen()}")
    # let the board stand still past stable_s so a clockless engine can commit the last move
    sim.hands.wait(model.stable_s + 0.5)
    frames = sim.hands.frames()
    frames.append(Frame(round(sim.hands.t, 4), frozenset(sim.hands.occupied)))
    events: list[Event] = sorted([*frames, *sim.hands.clock_events],
                                 key=lambda e: (e.t, 0 if isinstance(e, Frame) else 1))
    hdr_tags = dict(tags or {})
    header = Header(variant=v, ruleset=rs, fen=fen, tags=hdr_tags,
                    extra={"clock": clock, "simulator": {"seed": seed,
                                         "inject": [str(i) for i in injections]}})
    return SimulatedSession(header=header, events=events, expected_moves=[e.text for e in sim.expected],
                            expected_irregularities=[dict(i) for i in sim.irregularities],
                            expected_observations=[dict(o) for o in sim.observations],
                            expected_record=list(sim.expected), expected_report_moves=list(sim.made),
                            turns=turns, final_fen=board.fen(),
                            notes=notes, diverged_at=diverged_at, behaviours=list(sim.quirks))
