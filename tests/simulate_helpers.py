"""Shared helpers for the simulator tests: real games from tests/data, contact analysis, engine runs."""

from __future__ import annotations

import os
from functools import lru_cache

from rig.board import Board
from rig.reconstruct import Reconstructor
from rig.session import ClockEvent, Frame
from rig.simulate import SimulatedSession
from rig.simulate.games import GameSource, load_pdn_folder

DATA = os.path.join(os.path.dirname(__file__), "data")
VARIANTS = ("portuguese", "brazilian", "international")


@lru_cache(maxsize=None)
def real_games(variant: str) -> tuple[GameSource, ...]:
    """Every game of tests/data/<variant>/*.pdn that replays (real tournament games, tests/data/SOURCES.md)."""
    return tuple(load_pdn_folder(os.path.join(DATA, variant), variant))


def contact_changes(session: SimulatedSession) -> dict[int, list[tuple[float, bool]]]:
    """Per square: [(t, closed), ...] of every change between consecutive frames."""
    out: dict[int, list[tuple[float, bool]]] = {}
    prev = None
    for f in session.frames:
        if prev is not None:
            for s in f.occupied ^ prev:
                out.setdefault(s, []).append((f.t, s in f.occupied))
        prev = f.occupied
    return out


def occupancy_at(session: SimulatedSession, t: float) -> frozenset[int]:
    occ = frozenset()
    for f in session.frames:
        if f.t > t:
            break
        occ = f.occupied
    return occ


def presses(session: SimulatedSession) -> list[ClockEvent]:
    return [e for e in session.events if isinstance(e, ClockEvent) and e.event == "press"]


def frames_between(session: SimulatedSession, t0: float, t1: float) -> list[Frame]:
    return [f for f in session.frames if t0 < f.t <= t1]


def run_engine(session: SimulatedSession, settings=None):
    """Feed the session to the reconstruction engine; returns the engine after ``finish``."""
    from rig.reconstruct import Reconstructor

    engine = Reconstructor(session.header, settings)
    for ev in session.events:
        engine.feed(ev)
    engine.finish()
    return engine


def engine_irregularities(engine) -> list[dict]:
    return [{"type": i.type, "number": i.number, "side": i.side, "status": i.status}
            for i in engine.irregularities]


def texts_of(variant: str, moves, fen: str | None = None) -> list[str]:
    board = Board(variant, fen)
    out = []
    for m in moves:
        out.append(board.move_text(m))
        board.push(m)
    return out


def read_with_health(session: SimulatedSession, health: bool) -> Reconstructor:
    """``session`` transcribed with the scanner's health lines (as ``rig run`` journals them) or from the
    frames alone (a scanner without its checks): the two modes of bench/bench_faults.py, read by its own
    ``transcribe`` so that the tests and the bench cannot drift apart."""
    return _bench_faults().transcribe(session, health)


@lru_cache(maxsize=None)
def moves_read(r) -> list[str]:
    """The moves a reconstructor read, those withdrawn left out."""
    return [m.move_text for m in r.moves if not m.withdrawn]


def standing(r) -> list:
    """The irregularities still standing (not dismissed), as (type, squares)."""
    return [(i.type, i.squares) for i in r.irregularities if i.status != "dismissed"]


def current_faults(r) -> list[tuple[int, str]]:
    """The sensor faults named and current, as (square, kind)."""
    return [(f.square, f.kind) for f in r.sensor_faults if f.current]


def _bench_faults():
    from tests.bench_helpers import load_bench
    return load_bench("bench_faults")


def midgame_case(variant: str, index: int, ply: int, case: str, clock: bool, health: bool,
                 plies: int | None = None) -> tuple[SimulatedSession, Reconstructor, int]:
    """``bench/bench_faults.py --midgame``'s case ``case`` (``dead``, ``stuck-closed``, ``dead-under-piece``,
    ``stuck-on-empty``) at ply ``ply`` of real game ``index`` of ``variant``, the game cut after ``plies``
    plies, read in the bench's mode ``health``. Built by the bench's own ``midgame_session``, so a test replays
    exactly the bench's game. (session, reconstructor, the failing switch's square)."""
    bench = _bench_faults()
    game = bench.real_games(variant, index + 1)[index]
    s, _seed, square = bench.midgame_session(variant, game, index, ply, case, clock, plies)
    return s, read_with_health(s, health), square
