"""Real-board behaviours of hands, magnets and switches (issue 9): none is an irregularity, none changes the game.

A reed board is messier than a clean model: captures flown straight to their
last square, a magnet closing a neighbouring switch as it passes, a weak magnet
closing its switch late, a piece set down unreleased on another square before
it is played (FMJD 002 art. 3.12: a piece is played when released), two
captured pieces taken off in one grab, a piece jostled, the piece held in the
air and put back before it is played, and a reply that starts right after the
last contact change. Each has its own probability on :class:`HumanModel`
(:data:`rig.simulate.model.BEHAVIOURS`); :meth:`HumanModel.hard` turns all on.

They are drawn from their own seeded RNG and only in clean turns (a turn with
no injected irregularity), so the irregularities the simulator expects stay
what the frames prove, and a model with all of them off gives the same session
byte for byte as before. Every behaviour done is logged as a :class:`Quirk`
(``SimulatedSession.behaviours``) so tests can find it in the frames.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rig.board import Board
from rig.move import Move
from rig.simulate.hands import between, step_squares

if TYPE_CHECKING:
    from rig.simulate.simulation import Simulation

__all__ = ["Quirk", "TurnQuirks", "clean_turn", "identified_by_removals"]


@dataclass(frozen=True)
class Quirk:
    """One real-board behaviour as done: its name (a ``BEHAVIOURS`` key), the turn, when it started and
    ended (session seconds), and the squares it concerns."""

    kind: str
    ply: int
    t: float
    until: float
    squares: tuple[int, ...]


def _chance(rng: random.Random, p: float) -> bool:
    """A draw only when the behaviour is on: a model with it off consumes nothing."""
    return p > 0 and rng.random() < p


@dataclass
class TurnQuirks:
    """The behaviours drawn for one move (read by ``Simulation.execute``)."""

    sim: "Simulation"
    move: Move
    flown: bool = False
    detour: int | None = None
    detour_s: float = 0.0
    magnet_s: float = 0.0
    flickers: int = 0
    magnet_until: float = 0.0
    two_at_once: bool = False

    def pair_index(self, count: int) -> int | None:
        """Which two consecutive removals of ``count`` go in the same frame (None: one by one)."""
        if not self.two_at_once or count < 2:
            return None
        return self.sim.quirk_rng.randrange(count - 1)

    def log(self, kind: str, t: float, until: float, squares) -> None:
        _log(self.sim, kind, t, until, squares)


def _log(sim: "Simulation", kind: str, t: float, until: float, squares) -> None:
    sim.quirks.append(Quirk(kind, sim.ply, round(t, 4), round(until, 4), tuple(squares)))


def identified_by_removals(board: Board, move: Move) -> bool:
    """Flown (no landing touched down), the frames show only the origin, the last square and the removals:
    every landing path with those squares must read as the same text (one path, or several taking the same
    pieces written the short way: ``Board.move_text``)."""
    texts = {board.move_text(m) for m in board.legal_moves_all_paths() if m.key == move.key}
    return len(texts) == 1


def _draw(sim: "Simulation", move: Move) -> TurnQuirks:
    m, q = sim.model, sim.quirk_rng
    tq = TurnQuirks(sim, move)
    if len(move.path) > 2 and _chance(q, m.flown_capture_p) and identified_by_removals(sim.board, move):
        tq.flown = True
    if _chance(q, m.change_mind_p):
        reach = {x.destination for x in sim.board.legal_moves_all_paths() if x.origin == move.origin}
        options = sorted(reach - set(move.path))
        if options:
            tq.detour, tq.detour_s = q.choice(options), q.uniform(*m.change_mind_s)
    if _chance(q, m.slow_magnet_p):
        tq.magnet_s = q.uniform(*m.slow_magnet_s)
        tq.flickers = q.randint(1, 2) if _chance(q, m.flicker_p) else 0
    tq.two_at_once = len(move.captured) > 1 and _chance(q, m.two_at_once_p)
    return tq


def _route(sim: "Simulation", move: Move) -> list[int]:
    """Every square the piece passes over or stops on, origin first."""
    out = [move.origin]
    for a, b in zip(move.path, move.path[1:]):
        out += between(sim.variant, a, b) + [b]
    return out


def _phantom(sim: "Simulation", tq: TurnQuirks) -> None:
    """An empty square diagonally next to the route reads occupied 30-150 ms as the piece travels or lands."""
    h, m, q = sim.hands, sim.model, sim.quirk_rng
    lift_t, land_t = sim.span
    t0 = q.uniform(max(lift_t, land_t - 0.3), land_t + 0.05)
    route = _route(sim, tq.move)
    near = {n for sq in route for n in step_squares(sim.variant, sq)} - set(route) - {tq.detour}
    options = [s for s in sorted(near) if s not in h.occupied and h.free_since(s) <= t0]
    _pulse_one(sim, tq, "neighbour-phantom", options, t0, m.phantom_ms)


def _jostle(sim: "Simulation", tq: TurnQuirks) -> None:
    """A piece not in the move reads empty 5-20 ms while the move is under way."""
    h, m, q = sim.hands, sim.model, sim.quirk_rng
    t0 = q.uniform(sim.span[0], h.t)
    involved = set(tq.move.path) | set(tq.move.captured) | {tq.detour}
    options = [s for s in sorted(h.occupied) if s not in involved and h.free_since(s) <= t0]
    _pulse_one(sim, tq, "jostle", options, t0, m.jostle_ms)


def _pulse_one(sim: "Simulation", tq: TurnQuirks, kind: str, options: list[int], t0: float,
               span_ms: tuple[float, float]) -> None:
    """One of ``options`` (drawn) reads the other way from ``t0`` for a span drawn from ``span_ms``; logged as
    ``kind`` where the pulse is seen."""
    if options:
        q = sim.quirk_rng
        sq = q.choice(options)
        span = q.uniform(*span_ms) / 1000
        if sim.hands.pulse(sq, t0, span):
            tq.log(kind, t0, t0 + span, (sq,))


def clean_turn(sim: "Simulation", move: Move) -> None:
    """A turn without an irregularity: think (or reply fast), maybe hold the piece in the air and put it
    back, play the move with this turn's behaviours, press."""
    h, m, q = sim.hands, sim.model, sim.quirk_rng
    if not sim.use_clock and sim.ply > 0 and not sim.settle_next and _chance(q, m.fast_reply_p):
        last = max(h.t, h.last_change())
        h.t = last + q.uniform(*m.fast_reply_s)
        _log(sim, "fast-reply", last, h.t, (move.origin,))
    else:
        sim.think()
    if _chance(q, m.long_hold_p):
        # touched, then moved (FPD 000 art. 4.3; FMJD 002 art. 3.11): regular on the record; the board stands
        # with the piece in the air meanwhile
        t0 = h.t
        h.pick_up(move.origin)
        h.wait(q.uniform(*m.long_hold_s))
        h.place(move.origin)
        _log(sim, "long-hold", t0, h.t, (move.origin,))
        h.wait(q.uniform(*m.settle_s))
    drawn: list[TurnQuirks] = []

    def draw(s: "Simulation", path: Move) -> TurnQuirks:
        drawn.append(_draw(s, path))
        return drawn[-1]

    sim.play(move, draw=draw)
    if drawn:
        tq = drawn[0]
        if tq.flown:
            tq.log("flown-capture", sim.span[0], sim.span[1], tq.move.path)
        if tq.magnet_s:
            tq.log("slow-magnet", tq.magnet_until - tq.magnet_s, tq.magnet_until, (tq.move.destination,))
        if _chance(q, m.phantom_p):
            _phantom(sim, tq)
        if _chance(q, m.jostle_p):
            _jostle(sim, tq)
        if tq.magnet_s > 0.04 and sim.clock is not None and not tq.move.captured and _chance(q, m.early_press_p):
            # a quick press before the weak magnet has closed its switch
            arrival = tq.magnet_until - tq.magnet_s
            sim.press(max(0.0, arrival + q.uniform(0.02, tq.magnet_s - 0.01) - h.t))
            return
    sim.press()
