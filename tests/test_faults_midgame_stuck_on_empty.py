"""Failing switches, issue 9 (fifth pass): a switch that sticks closed on an empty square half a second before
the move that lands there (bench/bench_faults.py --midgame ``stuck-on-empty``). It sticks on the square the
opponent's piece has just left, or on a square no move has reached yet; the moves are read exactly, the switch
is named ``stuck-closed`` and no player irregularity stands (rig/reconstruct/stuckempty.py)."""

from __future__ import annotations


import pytest

from tests.test_faults_matrix import MODES
from simulate_helpers import midgame_case


def _stuck_on_empty(variant: str, ply: int, clock: bool, health: bool, plies: int, game_index: int = 0):
    """bench_faults.py --midgame stuck-on-empty: the switch under the square ply ``ply``'s move lands on sticks
    closed half a second before that turn; the game (``game_index`` of the variant's real games, the bench's
    ``--games``) cut after ``plies`` plies. (session, reconstructor, square)."""
    return midgame_case(variant, game_index, ply, "stuck-on-empty", clock, health, plies)


def _read_exactly(s, r, square: int) -> list[str]:
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert [x for x in r.irregularities if x.status != "dismissed"] == []
    assert [(f.square, f.kind) for f in r.sensor_faults] == [(square, "stuck-closed")]
    return got


@pytest.mark.parametrize("clock", [True, False], ids=["clock", "no-clock"])
@pytest.mark.parametrize("health", MODES)
def test_stuck_on_empty_portuguese_switch_sticks_under_the_origin_after_the_lift(clock, health):
    """Black lifts 19 for 19-14 and 19 reads occupied again 0.2 s later (stuck), before the piece lands on 14;
    white's 10x19 then lands on it unseen. Read as 19-14 (the switch stuck after the lift: no other piece was
    lifted to put on 19), 10x19, 23x14, not as an illegal move with a touched piece."""
    s, r, square = _stuck_on_empty("portuguese", 16, clock, health, plies=20)
    assert _read_exactly(s, r, square)[15:19] == ["19-14", "10x19", "23x14", "6-10"]


@pytest.mark.parametrize("clock", [True, False], ids=["clock", "no-clock"])
@pytest.mark.parametrize("health", MODES)
def test_stuck_on_empty_brazilian_capture_not_read_as_a_take_back(clock, health):
    """Black's c5xa3 over b4: c5 reads occupied again after its lift (stuck), so the board shows b4 off and a3
    on, as before white's a3-b4. But a3 closed before b4 was lifted: the capture, not a take-back (no hand puts
    a piece down before lifting it). White's e3xc5 then lands on the masked c5."""
    s, r, square = _stuck_on_empty("brazilian", 22, clock, health, plies=26)
    assert _read_exactly(s, r, square)[20:24] == ["a3-b4", "c5xa3", "e3xc5", "d6xb4"]
    assert not any(o.type == "move-taken-back" for o in r.irregularities)


@pytest.mark.parametrize("health", MODES)
def test_stuck_on_empty_portuguese_no_clock_landing_closed_before_the_move(health):
    """7 sticks closed during black's 28-23, before white's 4-7; the move reads from the lift of 4 alone. A piece
    cannot land before it is lifted: 7 is named stuck (masked, occupied), so white's last move 7-11, whose lift
    shows nothing, is read from its landing at the end of the input."""
    s, r, square = _stuck_on_empty("portuguese", 22, False, health, plies=25)
    assert _read_exactly(s, r, square)[20:25] == ["1x10", "28-23", "4-7", "29-26", "7-11"]


@pytest.mark.parametrize("clock", [True, False], ids=["clock", "no-clock"])
@pytest.mark.parametrize("health", MODES)
def test_stuck_on_empty_international_captured_square_sticks_before_the_reply_lands(clock, health):
    """29 sticks closed while black's 23x34 takes the piece there (with a clock 0.1 s after its removal, without
    one before it): the capture reads as ``capture-not-removed``. White's 40x29 then shows its lift and the
    removal of 34 only; with the piece on 29 standing no move explains it, with 29 stuck it is exactly 40x29.
    The capture is read again (the irregularity dismissed, an observation names 29) and 6-11 follows."""
    s, r, square = _stuck_on_empty("international", 28, clock, health, plies=32)
    assert _read_exactly(s, r, square)[27:31] == ["23x34", "40x29", "6-11", "35-30"]
    dismissed = [x for x in r.irregularities if x.status == "dismissed"]
    assert [(x.type, x.squares) for x in dismissed] == [("capture-not-removed", (square,))]
    assert [(o.type, o.squares) for o in r.observations] == [("capture-not-removed", (square,))]
