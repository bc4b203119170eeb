"""Failing switches, issue 9 (held-out games, ``faults9n``): a switch that sticks closed under a piece half a second
before the move that empties its square (bench/bench_faults.py --midgame --games 16 --variant international
``stuck-closed``), in international games 8-15, never used to tune the engine. Each test builds the bench's session
(its seed and fault), cut a few plies after the fault: the moves are read exactly, the switch is named and no player
irregularity stands."""

from __future__ import annotations


import pytest

from tests.test_faults_matrix import MODES
from simulate_helpers import midgame_case, standing


def _stuck_leaving(index: int, ply: int, clock: bool, health: bool, plies: int):
    """bench_faults.py --midgame ``stuck-closed`` on international game ``index``: the switch under the lowest
    square ply ``ply`` empties sticks closed half a second before that turn. (session, reconstructor, square)."""
    return midgame_case("international", index, ply, "stuck-closed", clock, health, plies)


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_international_clock_game_10_captured_pieces_cleared_in_any_order(health):
    """Game 10, with a clock: 23 sticks under black's piece of 19-23 as it lands; white's 28x19 takes it, its
    removal unseen (read capture-not-removed). Black's 14x34 passes over 23 (19 and 29 taken) and takes 29 off
    before 19: that lift is his capture being cleared, not white beginning, so the capture is read again with 23
    removed and its switch stuck (stuckcapture.py), and 14x34 is read as played."""
    s, r, square = _stuck_leaving(10, 10, True, health, plies=16)
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert got[9:13] == ["19-23", "28x19", "14x34", "39x30"]
    assert standing(r) == []
    assert [(i.type, i.squares, i.status) for i in r.irregularities] == [("capture-not-removed", (23,), "dismissed")]
    assert [(f.square, f.kind) for f in r.sensor_faults if not f.withdrawn] == [(square, "stuck-closed")] == [
        (23, "stuck-closed")]


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_international_no_clock_game_10_lifted_piece_lands_on_the_stuck_square(health):
    """Game 10, without a clock: 23 sticks 0.2 s before black lifts 19 for 19-23 (its landing unseen). The lift
    is not read as white lifting after a black reply 18-23 from a switch stuck under 18: the piece lifted can land
    on 23, so it is the piece played (unseen.py ``_stuck_reply``), and 23 is named stuck (stuckempty rule), the
    moves exact, no irregularity."""
    s, r, square = _stuck_leaving(10, 10, False, health, plies=16)
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert got[9:13] == ["19-23", "28x19", "14x34", "39x30"]
    assert standing(r) == []
    assert [(f.square, f.kind) for f in r.sensor_faults if not f.withdrawn] == [(square, "stuck-closed")] == [
        (23, "stuck-closed")]


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_international_no_clock_game_9_mover_lifts_the_piece_he_played_after_a_stuck_reply(health):
    """Game 9, without a clock: 32 sticks under white's piece; 32-28 shows only its landing on 28, then black lifts
    21 (the piece of 16-21) for 21-26. That lift reads 16-21 and white's reply onto 28 from a stuck origin (32 or
    33: 32, an observation), and, the reply being over, it is black's first lift after it: the reply is committed
    there (segmenter.py, the lift looked at again on the new segment), not run into black's turn (was
    position-lost)."""
    s, r, square = _stuck_leaving(9, 10, False, health, plies=16)
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert got[9:13] == ["16-21", "32-28", "21-26", "28x17"]
    assert standing(r) == []
    assert [(f.square, f.kind) for f in r.sensor_faults if not f.withdrawn] == [(square, "stuck-closed")] == [
        (32, "stuck-closed")]
    assert [o.squares for o in r.observations if o.type == "illegal-move"] == [(32, 33)]


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_international_no_clock_game_13_reply_committed_at_the_movers_next_lift(health):
    """Game 13, without a clock: the same order at ply 22 (32 sticks, 32-28 shows only its landing, black lifts
    19, the piece of 14-19, for 19-23): 14-19, 32-28 (32 named stuck), 19-23, 28x19 read exactly."""
    s, r, square = _stuck_leaving(13, 22, False, health, plies=26)
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert got[21:25] == ["14-19", "32-28", "19-23", "28x19"]
    assert standing(r) == []
    assert [(f.square, f.kind) for f in r.sensor_faults if not f.withdrawn] == [(square, "stuck-closed")] == [
        (32, "stuck-closed")]


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_international_no_clock_game_5_stuck_reply_then_re_read_by_the_capture(health):
    """Game 5, without a clock: 44 sticks under white's piece; 44-39 shows only its landing, then black lifts 25
    (the piece of 20-25) for 25x34. That lift reads 20-25 and a reply onto 39 from a stuck origin (43 or 44: 43,
    the lowest, open) and begins black's move; 25x34 then fits only with 44-39, which the re-read takes (the fault
    moves to 44). Was position-lost: the lift ran into white's turn."""
    s, r, square = _stuck_leaving(5, 22, False, health, plies=28)
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert got[21:25] == ["20-25", "44-39", "25x34", "39x30"]
    assert standing(r) == []
    assert [(f.square, f.kind) for f in r.sensor_faults if not f.withdrawn] == [(square, "stuck-closed")] == [
        (44, "stuck-closed")]
