"""Failing switches, issue 9: the switch under the piece that then moves dies half a second before the ply
(bench/bench_faults.py --midgame --variant international ``dead-under-piece``, held-out games 7-23). A switch that
dies under a standing piece reads exactly like the piece lifted; only what follows tells (the piece never lands
anywhere, the mover presses, the opponent moves on). The moves are read exactly and no player irregularity
stands (rig/reconstruct/unseen.py, stuckcapture.py, presses.py)."""

from __future__ import annotations

import pytest

from simulate_helpers import midgame_case
from tests.test_faults_matrix import MODES


def _dead_under_piece(index: int, ply: int, clock: bool, health: bool, plies: int | None):
    """International real game ``index``, the switch under the piece ply ``ply`` moves dying half a second
    before that turn, the game cut after ``plies`` plies. (session, reconstructor, square)."""
    return midgame_case("international", index, ply, "dead-under-piece", clock, health, plies)


def _read_exactly(s, r) -> list[str]:
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert [x for x in r.irregularities if x.status != "dismissed"] == []
    return got


@pytest.mark.parametrize("index, ply, plies, moves", [
    pytest.param(7, 10, 14, ["25x14", "35-30", "18-23", "30-25"], id="game7-landing-30"),
    pytest.param(23, 28, 32, ["19x28", "33x31", "12-18", "31-26"], id="game23-capture-landing-31"),
])
@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_international_no_clock_mover_landing_reads_off_before_the_reply(index, ply, plies, moves,
                                                                                         health):
    """White's piece lands (35-30; 33x31) and its switch dies 0.6 s later, a moment before black lifts his piece
    for the reply: the mover's own landing square reads off again. The board stays still with it off, which no
    move explains. Set apart as the mover's piece read off after his move (a dead switch, or the piece picked
    up for his next move; no rule forbids either): his move, the reply, and the square off begins his next
    move. Not a lost position; no irregularity."""
    s, r, _square = _dead_under_piece(index, ply, False, health, plies)
    got = _read_exactly(s, r)
    assert got[ply - 3:ply + 1] == moves
    assert not any(x.type == "position-lost" for x in r.irregularities)


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_international_no_clock_piece_read_taken_off_before_a_stuck_origin(health):
    """Game 15: 34 dies 0.65 s after white's 43-38 lands, 0.09 s before black lifts 20: 43-38 is read with 34
    taken off (``own-piece-removed``, an open reading). White's 34-30 then shows only its landing on 30, before
    black lifts 12. 35-30 from a switch stuck under 35 fits too, but the piece read taken off makes the move
    and explains its own lift: black's 20-24 is committed at the landing, and white's turn (the landing on 30,
    no lift) re-reads 43-38 with 34 standing and its switch dead (the removal dismissed, an observation). No
    stuck switch is named on 35."""
    s, r, square = _dead_under_piece(15, 22, False, health, 26)
    assert _read_exactly(s, r)[20:24] == ["43-38", "20-24", "34-30", "12-18"]
    assert [(f.square, f.kind) for f in r.sensor_faults if not f.withdrawn] == [(square, "dead")]
    assert [(x.type, x.status) for x in r.irregularities] == [("own-piece-removed", "dismissed")]


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_international_clock_last_move_lands_on_the_dead_switch(health):
    """Game 16: 36 dies under white's piece at ply 16 (read as its early lift, 36-31); nothing stands on 36 again
    until white's last move, 41-36: the session ends on white's press with 41 lifted and 36 never closed. The
    press completes the move and 41-36 is the only legal move one square short: read, with an observation (a
    dead switch and a slow magnet the recording stopped before read the same), not ``?(-41)`` illegal."""
    s, r, square = _dead_under_piece(16, 16, True, health, None)
    assert _read_exactly(s, r)[-2:] == ["21-27", "41-36"]
    assert [(o.type, o.squares) for o in r.observations if o.number == r.moves[-1].number] == [
        ("illegal-move", (square,))]


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_international_no_clock_recapture_lifted_during_the_reply(health):
    """Game 10: white's 31-26, then 32 dies while black plays 21-27 (read off between the lift of 21 and the
    landing on 27); white's 32x21 shows its landing on 21 and the removal of 27, then black lifts 11. The turn
    shows no move (32, 21 and 27 touched: irregular as one move of white). Read in the order the game allows:
    31-26, 21-27, and 32x21 from the square read off during the reply (the lift of 11 begins black's next
    move), not 31-26 with ``own-piece-removed``, ``opponent-piece-touched`` and ``piece-moved-after-release``."""
    s, r, _square = _dead_under_piece(10, 16, False, health, 20)
    assert _read_exactly(s, r)[13:18] == ["16-21", "31-26", "21-27", "32x21", "11-16"]
    assert r.irregularities == []


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_international_no_clock_landing_on_the_dead_switch_taken_at_once(health):
    """Game 10: 30 died under white's piece before 30-24; black's 19x30 over 24 lands on the dead 30 unseen,
    and white's 35x24 over 30 takes it off unseen too: the board stays still with 19, 24 (back again) and 35
    changed, pieces of both colours gone, which no move explains. Read in order: 19x30 one square short (its
    destination never changed in the turn), then a legal reply that captures the piece on it: 30 is ``dead``
    and both moves are read, not a lost position."""
    s, r, square = _dead_under_piece(10, 28, False, health, 34)
    assert _read_exactly(s, r)[30:33] == ["33x24", "19x30", "35x24"]
    assert [(f.square, f.kind) for f in r.sensor_faults if not f.withdrawn] == [(square, "dead")]
