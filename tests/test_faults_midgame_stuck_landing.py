"""Failing switches, issue 9 (plies 13, 19, 25, 31 of bench/bench_faults.py --midgame --games 24, branch faults10b):
a capture landing on a switch that stuck closed just before it, a capture reply from a stuck origin onto the square
the mover's capture cleared, and a ``dead`` pair the later frames settle. Each test builds the bench's session for
one case (the switch fails half a second before the ply's turn), cut a few plies after it, and reads it in both
modes: the moves exact, no player irregularity standing, the fault named on its square."""

from __future__ import annotations

import pytest

from tests.test_faults_matrix import MODES
from simulate_helpers import midgame_case


def _read(variant: str, index: int, ply: int, case: str, clock: bool, health: bool, plies: int):
    s, r, square = midgame_case(variant, index, ply, case, clock, health, plies)
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert [x for x in r.irregularities if x.status != "dismissed"] == []
    return s, r, square, got


def _faults(r) -> list[tuple[int, str]]:
    return [(f.square, f.kind) for f in r.sensor_faults if not f.withdrawn]


def _dismissed(r) -> list[tuple[str, tuple[int, ...]]]:
    return [(x.type, x.squares) for x in r.irregularities if x.status == "dismissed"]


# -- a captured piece's square sticks after its removal, held as a touch; the reply lands there ------------------


@pytest.mark.parametrize("health", MODES)
def test_stuck_landing_international_clock_game_8_removal_read_as_a_touch(health):
    """White's 29x20 takes 24, whose switch sticks closed 0.16 s after the removal: longer than ``touch_s``, so the
    capture reads as 24 left standing and touched (``capture-not-removed``, ``opponent-piece-touched``). Black's
    15x24 then shows the lift of 15 and the removal of 20 only: with 24 stuck it is exactly that capture, so 29x20
    is read again (both irregularities dismissed: one reading of the same square), 24 named stuck closed."""
    s, r, square, got = _read("international", 8, 31, "stuck-on-empty", True, health, plies=34)
    assert got[29:33] == ["20-25", "29x20", "15x24", "28-23"]
    assert _faults(r) == [(square, "stuck-closed")]
    assert _dismissed(r) == [("capture-not-removed", (square,)), ("opponent-piece-touched", (square,))]


@pytest.mark.parametrize("health", MODES)
def test_stuck_landing_international_clock_game_16_removal_read_as_a_touch(health):
    """The same shape: white's 26x17 takes 21, whose switch sticks 0.2 s after the removal; black's 12x21 shows
    the lift of 12 and the removal of 17 only. Read 26x17, 12x21 with 21 stuck closed."""
    s, r, square, got = _read("international", 16, 31, "stuck-on-empty", True, health, plies=34)
    assert got[29:33] == ["17-21", "26x17", "12x21", "41-37"]
    assert _faults(r) == [(square, "stuck-closed")]


@pytest.mark.parametrize("health", MODES)
def test_stuck_landing_brazilian_clock_game_1_removal_read_as_a_touch(health):
    """White's f2xb6 takes e3 and c5; c5's switch closes again after its removal (stuck), read as c5 left standing
    and touched. Black's a7xc5 shows the lift of a7 and the removal of b6 only: read as that capture, c5 stuck."""
    s, r, square, got = _read("brazilian", 1, 13, "stuck-on-empty", True, health, plies=16)
    assert got[11:15] == ["g5xe3", "f2xb6", "a7xc5", "a1-b2"]
    assert _faults(r) == [(square, "stuck-closed")]


# -- without a clock: a reply from a stuck origin lands on the square the mover's capture cleared --------------


@pytest.mark.parametrize("health", MODES)
def test_stuck_landing_international_no_clock_game_8_reply_onto_the_cleared_square(health):
    """15 sticks closed under black's piece. White's 29x20 takes 24 (lift 29, landing 20, 24 off), then 24 closes
    1.3 s later and 20 goes off: black's 15x24, its lift unseen. The closing is on the square white's capture
    cleared, which a captured piece put back reads the same, but only a reply from the stuck 15 that takes the
    piece being lifted fits: 29x20 is committed, 15 named stuck, and the landing begins black's turn (no touch of
    24 in white's). Was 28-23 with `capture-not-taken`, `own-piece-removed`, `opponent-piece-touched`."""
    s, r, square, got = _read("international", 8, 31, "stuck-closed", False, health, plies=34)
    assert got[29:33] == ["20-25", "29x20", "15x24", "28-23"]
    assert _faults(r) == [(square, "stuck-closed")]


@pytest.mark.parametrize("health", MODES)
def test_stuck_landing_international_no_clock_game_21_reply_onto_the_cleared_square(health):
    """The same shape at ply 19: 15 sticks, white's 29x20 clears 24, black's 15x24 lands there unseen from 15 and
    takes 20. Was 45-40 2-7 read for 29x20 15x24, with three irregularities."""
    s, r, square, got = _read("international", 21, 19, "stuck-closed", False, health, plies=22)
    assert got[17:21] == ["20-24", "29x20", "15x24", "45-40"]
    assert _faults(r) == [(square, "stuck-closed")]


# -- a dead pair settled by the other square's switch closing later -------------------------------------------


@pytest.mark.parametrize("clock", [True, False], ids=["clock", "no-clock"])
@pytest.mark.parametrize("health", MODES)
def test_stuck_landing_international_game_0_dead_pair_settled_by_the_other_switch_closing(clock, health):
    """20 dies; 14-20 shows only the lift of 14 (20 or 19 dead: 20 read, the pair open). 20-24 later shows only its
    landing, then white's 30x19 lands on 19 and 19 closes: a dead switch never closes, so 19 is not the dead one.
    Black's 13x33 takes 19 and 29; at the removal of 29, 19 (still to be taken off) reads closed as its switch
    says, not as the other reading would mask it, so 14-20 is not re-read as 14-19 (was: 19 named dead, 14-19 and
    19-24 read)."""
    s, r, square, got = _read("international", 0, 31, "dead", clock, health, plies=37)
    assert got[31:36] == ["14-20", "45-40", "20-24", "30x19", "13x33"]
    assert _faults(r) == [(square, "dead")]


@pytest.mark.parametrize("health", MODES)
def test_stuck_landing_international_clock_game_0_dead_under_piece_pair_settled_later(health):
    """20's switch dies under black's piece at ply 13; the same pair at move 31 (14-20 onto the dead 20, 19 closing
    under 30x19 later) is not re-read as 14-19 when 13x33 clears 19."""
    s, r, square, got = _read("international", 0, 13, "dead-under-piece", True, health, plies=37)
    assert got[31:36] == ["14-20", "45-40", "20-24", "30x19", "13x33"]
    assert _faults(r) == [(square, "dead")]
