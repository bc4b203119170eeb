"""Failing switches, issue 9 (branch faults14b): misses of bench/bench_faults.py --midgame --games 24 on plies 15 21
27 33 (kinds dead, dead-recovering-2, dead-recovering-8): a capture lands on a square whose switch is dead, and the
opponent lifts his piece less than ``magnet_s`` after the capture's last removal, so the dead landing is not read
at that lift (a slow magnet may still close it). Each test builds the bench's session (tests/simulate_helpers.py
``midgame_case``) and reads it in both modes; the last plays the same captures with a real early removal whose
landing closes just after the opponent's lift, which must read as before."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rig.reconstruct import Settings
from rig.session import Frame
from rig.simulate import HumanModel, SimulatedSession, simulate_game
from simulate_helpers import contact_changes, midgame_case, moves_read, real_games, run_engine, standing
from tests.test_faults_matrix import MODES

MAGNET_S = Settings().magnet_s


@pytest.mark.parametrize("health", MODES)
@pytest.mark.parametrize("case", ["dead", "dead-recovering-2", "dead-recovering-8"])
def test_capture_onto_a_dead_square_reply_lifted_within_the_magnet_window_international_no_clock(health, case):
    """Game 9, without a clock: 29's switch dies on the empty square; black's 20x29 lands there unseen, 24 comes
    off, and white lifts 34 0.29 s later (under ``magnet_s``: 29 may still close), for 34x12 over 29 and 18. At the
    lift nothing was read; at white's landing, the window past and 29 still open, the turn is read as at the lift
    (magnetwait.py): 20x29, 29 dead, and white's capture takes the piece standing there unseen. Was
    `position-lost` at the still board after black's 7x18, nothing read from move 15 on."""
    s, r, square = midgame_case("international", 9, 15, case, False, health, plies=24)
    assert square == 29
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[15:18] == ["20x29", "34x12", "7x18"]
    assert standing(r) == []
    assert [(f.square, f.kind) for f in r.sensor_faults] == [(29, "dead")]


@pytest.mark.parametrize("health", MODES)
@pytest.mark.parametrize("case", ["dead", "dead-recovering-8"])
def test_capture_onto_a_dead_square_the_early_removal_its_death_international_no_clock(health, case):
    """Game 19, without a clock: 20's switch dies under the piece white's 25x14 takes, 0.3 s before its landing (read
    as that piece taken off early). Black's 9x20 then lands on 20 unseen, 14 comes off, and white lifts 37 0.27 s
    later for 37-31. Read once the magnet's window passed (magnetwait.py): 9x20 with 20 dead, and the early removal
    the next move found dead is an observation (deadremoval.py). Was 10x31 `illegal-move`, `own-piece-removed` and
    `capture-removed-early` standing, and `capture-not-taken` for four moves after."""
    s, r, square = midgame_case("international", 19, 21, case, False, health, plies=30)
    assert square == 20
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[20:23] == ["25x14", "9x20", "37-31"]
    assert standing(r) == []
    assert [(f.square, f.kind) for f in r.sensor_faults] == [(20, "dead")]
    assert [(o.type, o.squares) for o in r.observations] == [("capture-removed-early", (20,))]


def _early_removal(variant: str, index: int, ply: int, plies: int) -> SimulatedSession:
    """The game played with the capture of ``ply`` taken off early (the simulator's injected
    `capture-removed-early`), no clock, no switch failing."""
    game = real_games(variant)[index]
    return simulate_game(variant, game.moves[:plies], fen=game.fen, seed=f"early:{variant}:{index}", clock=False,
                         inject=[f"capture-removed-early@{ply}"], model=HumanModel(bounce_p=0.0), tags=game.tags)


def _slow_landing(s: SimulatedSession, ply: int, landing: int, captured: int, gap: float,
                  late: float) -> SimulatedSession:
    """``s`` with the events after the landing moved so that the opponent lifts ``gap`` s after the early removal,
    and the landing square kept open until ``late`` s after that lift (a slow magnet under the capturing piece)."""
    changes = contact_changes(s)
    start = s.turns[ply].start_t
    removed = min(t for t, on in changes[captured] if not on and t > start)
    closed = min(t for t, on in changes[landing] if on and t > start)
    lift = min(t for ch in changes.values() for t, on in ch if not on and t > closed)
    shift = lift - (removed + gap)
    events = [e if e.t <= closed else replace(e, t=round(e.t - shift, 4)) for e in s.events]
    events = [replace(e, occupied=e.occupied - {landing}) if isinstance(e, Frame) and closed <= e.t < removed + gap + late
              else e for e in events]
    return replace(s, events=sorted(events, key=lambda e: e.t))


@pytest.mark.parametrize("variant, index, ply, plies, landing, captured",
                         [("international", 9, 15, 24, 29, 24), ("international", 19, 21, 30, 20, 14)])
@pytest.mark.parametrize("late", [0.05, 0.3])
def test_capture_removed_early_no_clock_landing_closing_after_a_quick_reply_lift_stays(variant, index, ply, plies,
                                                                                     landing, captured, late):
    """The captures above played by a player who takes the captured piece off early, his opponent lifting 0.2 s
    after the removal (within ``magnet_s``) and the landing closing ``late`` s after that lift: the landing closes
    in the frame of the opponent's next change or before it, so no dead switch is read there (magnetwait.py), and
    the early removal stands."""
    s = _slow_landing(_early_removal(variant, index, ply, plies), ply, landing, captured, 0.2, late)
    r = run_engine(s)
    assert moves_read(r) == s.expected_moves
    assert not r.sensor_faults
    assert ("capture-removed-early", (captured,)) in standing(r)
