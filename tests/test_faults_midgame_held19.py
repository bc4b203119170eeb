"""Failing switches, issue 9 (branch faults19): the misses of bench/bench_faults.py --midgame --games 24 on plies 18
24 30 36 (never looked at before the ninth round). Each test builds the bench's session (tests/simulate_helpers.py
``midgame_case``) and reads it in both modes: the moves exact, the fault named on its square, no player
irregularity standing.

- stuckcapture.py ``_standing_chain``: a capture landing on the square of a captured piece read standing, its own
  captured piece being taken off, is over (FMJD 002 art. 4.4): the standing piece is re-read as a stuck switch;
- ownlift.py ``_reply_lands_first``: a held opening of the other square of a stuck reading, the next change a landing
  of the opponent's lifted piece replying to the move pending, is that switch working again (ply 35: the name the
  eighth round left on the wrong square)."""

from __future__ import annotations

import pytest

from simulate_helpers import midgame_case, moves_read, standing
from tests.test_faults_matrix import MODES


def _named(r) -> list[tuple[int, str]]:
    """The faults named and not withdrawn (current or ended), as (square, kind)."""
    return [(f.square, f.kind) for f in r.sensor_faults if not f.withdrawn]


@pytest.mark.parametrize("health", MODES)
def test_stuck_on_empty_capture_onto_the_stuck_square_international_no_clock_game_0(health):
    """Game 0, without a clock (ply 36): black's 13x33 takes 19 and 29, and 29's switch sticks closed as the piece
    leaves it: read as 29 left standing (``capture-not-removed``, open). White's 38x29 lands on 29 (no change) and
    takes 33 off. At that removal the turn read with 29 standing was 38-32 onto a dead 32 and black's 33 taken off
    by white (``capture-not-taken``, ``own-piece-removed`` and a fault on 32 followed). A piece the move captured
    being taken off ends the capture (FMJD 002 art. 4.4): 38x29 is one legal move with 29 stuck, every turn since
    the capture reads so, and the switch is named on 29."""
    s, r, square = midgame_case("international", 0, 36, "stuck-on-empty", False, health)
    assert square == 29
    assert moves_read(r) == s.expected_moves
    assert moves_read(r)[35:38] == ["13x33", "38x29", "5-10"]
    assert standing(r) == []
    assert _named(r) == [(29, "stuck-closed")]
    assert [(o.type, o.squares) for o in r.observations if o.type == "capture-not-removed"] == [
        ("capture-not-removed", (29,))]


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_recovering_reply_lands_names_the_switch_that_opened_international_no_clock_game_19(health):
    """Game 19, without a clock (stuck-closed-recovering-2 at ply 35): 20 sticks under black's piece; 20-24 shows
    only its landing, read 19-24 (19 or 20 stuck, 19 assumed). White lifts 30, then 20's switch frees itself and
    30-25 lands. 20's opening was read as black's piece lifted for 20-25 (a second move, white's piece in the air):
    the moves came out right by another path, but the fault stayed on 19 until that piece moved 200 s later. 25 is
    where white's lifted piece lands replying to 20-24: the opening is 20's stuck switch working again, the fault
    moves to 20 and ends there, and an observation names the re-read."""
    s, r, square = midgame_case("international", 19, 35, "stuck-closed-recovering-2", False, health)
    assert square == 20
    assert moves_read(r) == s.expected_moves
    assert moves_read(r)[35:38] == ["20-24", "30-25", "15-20"]
    assert standing(r) == []
    (fault,) = [f for f in r.sensor_faults if not f.withdrawn]
    assert (fault.square, fault.kind) == (20, "stuck-closed")
    assert fault.since < fault.until < 181.0
    assert ("illegal-move", (20, 24), "19-24 re-read as 20-24") in [(o.type, o.squares, o.detail)
                                                                    for o in r.observations]
