"""Failing switches, issue 9 (branch faults18): the misses of bench/bench_faults.py --midgame --games 24 on plies 17
23 29 35 (never looked at before the seventh round), every one a switch stuck closed on an international game without
a clock. Each test builds the bench's session (tests/simulate_helpers.py ``midgame_case``) and reads it in both
modes: the moves exact, the fault named on its square, no player irregularity standing.

- recovery.py ``_piece_lands``: a held opening's piece is judged with the mover's pending move played first;
- ghostread.py ``_ghost_origin``: no ghost of the square the opponent lifts in that very frame;
- ghostsplit.py: the pending move read from a ghost's square is read the other way once the rectangle breaks;
- earlylift.py ``_stuck_lifted``: a masked stuck switch opening under its own piece works again."""

from __future__ import annotations

import pytest

from simulate_helpers import midgame_case, moves_read, standing
from tests.test_faults_matrix import MODES

STUCK_KINDS = ("stuck-closed", "stuck-closed-recovering-2", "stuck-closed-recovering-8")


def _named(r) -> list[tuple[int, str]]:
    """The faults named and not withdrawn (current or ended), as (square, kind)."""
    return [(f.square, f.kind) for f in r.sensor_faults if not f.withdrawn]


@pytest.mark.parametrize("health", MODES)
@pytest.mark.parametrize("case", ["stuck-closed", "stuck-closed-recovering-8"])
def test_stuck_closed_held_opening_judged_after_the_pending_move_international_no_clock_game_12(case, health):
    """Game 12, without a clock (ply 17): 11 sticks under black's piece; 11-17 read (11 or 12 stuck, an open
    reading). Ten plies later white plays 37-32 and black lifts 12 for 12-18, 37-32 still pending (a masked square's
    opening commits nothing). 12's opening is held and 18's closing tells: before 37-32, black must capture 23x32,
    so 12-18 was judged no move of that piece and the three plies were re-read with 12 stuck. With the pending move
    played first, 12-18 is that piece's move: its lift, and 11 stays the stuck switch."""
    s, r, square = midgame_case("international", 12, 17, case, False, health)
    assert square == 11
    assert moves_read(r) == s.expected_moves
    assert moves_read(r)[17] == "11-17" and moves_read(r)[20:22] == ["37-32", "12-18"]
    assert standing(r) == []
    assert _named(r) == [(11, "stuck-closed")]
    assert (11, 12) in [o.squares for o in r.observations]
    recovered = [f.until is not None for f in r.sensor_faults if not f.withdrawn]
    assert recovered == [case != "stuck-closed"]


@pytest.mark.parametrize("health", MODES)
@pytest.mark.parametrize("case", STUCK_KINDS)
def test_stuck_closed_origin_no_ghost_of_the_square_just_lifted_international_no_clock_game_1(case, health):
    """Game 1, without a clock (ply 35): 17 sticks under black's piece; 17-22 leaves 17 and 18 reading closed.
    At white's lift of 25 (25x14), 17 was read as a ghost of 25's missing diode (25 and a corner in its row and one
    in its column closed), though that frame reads 17 closed with 25 open, which no ghost of 25 does: the move was
    re-read 18-22 and the game lost. No ghost of the square just lifted: 17 stuck (17 or 18, an observation)."""
    s, r, square = midgame_case("international", 1, 35, case, False, health)
    assert square == 17
    assert moves_read(r) == s.expected_moves
    assert moves_read(r)[35:37] == ["17-22", "25x14"]
    assert standing(r) == []
    assert _named(r) == [(17, "stuck-closed")]
    assert not any(f.kind == "ghost" for f in r.sensor_faults)
    assert (17, 18) in [o.squares for o in r.observations]


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_recovering_ghost_split_read_the_other_way_international_no_clock_game_13(health):
    """Game 13, without a clock (stuck-closed-recovering-2 at ply 23): 19 sticks under black's piece; 19-23 leaves
    18 and 19 reading closed, and 18 is a ghost of 24 where 19 stuck fits too: 18-23 read, 24's diode named, the
    move pending at white's lift of 28. 19's switch frees itself, which breaks the rectangle, and 18 still reads
    closed: no ghost explains it. The pending move is read 19-23, the ghost fault becomes 19's stuck switch, ended
    at that opening, and an observation names the re-read."""
    s, r, square = midgame_case("international", 13, 23, "stuck-closed-recovering-2", False, health)
    assert square == 19
    assert moves_read(r) == s.expected_moves
    assert moves_read(r)[23:26] == ["19-23", "28x19", "24x13"]
    assert standing(r) == []
    assert _named(r) == [(19, "stuck-closed")]
    (fault,) = [f for f in r.sensor_faults if not f.withdrawn]
    assert fault.until is not None and fault.since < fault.until
    assert [(o.squares, o.detail) for o in r.observations] == [((19, 23), "18-23 re-read as 19-23")]
    assert not any(f.kind == "ghost" and not f.withdrawn for f in r.sensor_faults)


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_recovering_opening_under_its_piece_unmasks_international_no_clock_game_19(health):
    """Game 19, without a clock (stuck-closed-recovering-8 at ply 35): 20 sticks; 20-24 (read 19-24, then re-read)
    and 15-20 put a piece back on 20, and the switch frees itself under it. Masked, its openings read nothing: white's
    20-14 seventy plies later went unseen, and the game was lost. The switch opening under its own piece, with no
    reading naming it and no move pending, works again: unmasked, the lift is read."""
    s, r, square = midgame_case("international", 19, 35, "stuck-closed-recovering-8", False, health)
    assert square == 20
    assert moves_read(r) == s.expected_moves
    assert moves_read(r)[104:109] == ["49-43", "19-23", "20-14", "15-20", "14x25"]
    assert standing(r) == []
    assert _named(r) == [(20, "stuck-closed")]
    (fault,) = [f for f in r.sensor_faults if not f.withdrawn]
    assert fault.until is not None and not fault.current
