"""Failing switches, issue 9 (``faults10c``): a switch that fails in the middle of a game and then works again (a
stuck reed freed by a knock, a cold joint that comes back; bench/bench_faults.py --midgame ``stuck-closed-recovering-N``
and ``dead-recovering-N``: the bench's ``stuck-closed`` or ``dead`` case, the switch working again half a second
before ply ``ply + N``). The moves are read exactly, no player irregularity stands, and the fault stays in
``sensor_faults`` with its span (``until``): the recovery re-reads no move it does not contradict."""

from __future__ import annotations

import pytest

from rig.reconstruct import Reconstructor
from rig.session import HealthLine
from rig.simulate import HumanModel, simulate_game
from sensors.simulation import through_matrix
from simulate_helpers import midgame_case, moves_read, standing
from tests.test_faults_matrix import MODES, _game


def _recovered(r, square: int, kind: str) -> float:
    """The one fault read: on ``square``, ``kind``, standing (not withdrawn) and recovered; its ``until``."""
    assert [(f.square, f.kind, f.withdrawn) for f in r.sensor_faults] == [(square, kind, "")]
    until = r.sensor_faults[0].until
    assert until is not None and until > r.sensor_faults[0].since
    assert r.report()["sensor_faults"][0]["until"] == round(until, 4)
    return until


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_recovering_brazilian_clock_pair_read_right_stays(health):
    """Brazilian game 2, ply 16, with a clock: a1 sticks under the piece of a1-b2, which c1-b2 explains as well (c1
    never opening either): a1-b2 is read (the switch never seen closing first) and an observation names both. Two
    plies later, after black's e5-d4 lands, a1 opens: the switch freed itself. Taken for the piece of c1-b2's
    reading being lifted, it re-read a1-b2 as c1-b2 and then white's own piece as gone (`wrong-piece-removed`, then
    a crash). White's next change is d2 lifted, not a move of a piece from a1: the switch recovered, a1-b2 stays."""
    s, r, square = midgame_case("brazilian", 2, 16, "stuck-closed-recovering-2", True, health, plies=24)
    assert square == 29
    got = moves_read(r)
    assert got == s.expected_moves
    assert got[16:19] == ["a1-b2", "e5-d4", "d2-e3"]
    assert standing(r) == []
    assert not any("re-read" in o.detail for o in r.observations)
    assert 86.0 < _recovered(r, square, "stuck-closed") < 86.5


@pytest.mark.parametrize("health", MODES)
def test_dead_recovering_portuguese_clock_fault_kept_with_its_span(health):
    """Portuguese game 0, ply 10, with a clock: 18 dies before 13-18 lands on it (named dead, masked occupied) and
    closes again under that piece two plies later, 12 s after the fault was read. No piece stays in the hand that
    long: the switch recovered (was: the fault withdrawn as a late landing)."""
    s, r, square = midgame_case("portuguese", 0, 10, "dead-recovering-2", True, health, plies=16)
    assert moves_read(r) == s.expected_moves
    assert standing(r) == []
    assert _recovered(r, square, "dead") - r.sensor_faults[0].since > 10


@pytest.mark.parametrize("health", MODES)
def test_stuck_from_the_start_recovering_international_no_clock(health):
    """International game 0, without a clock: 25 (empty until 75 s) is stuck closed from the set-up and frees itself
    at 60 s. With health lines the scanner masks it at the start and says ``recovered``; from the frames
    alone the engine names it at the first move and, with no reading left open, takes its opening as the switch
    working again. Either way the fault ends there and the moves after it are read from its switch."""
    game = _game("international", 0)
    seed = "recovering:international:0:False"
    s = simulate_game("international", game.moves[:30], fen=game.fen, seed=seed, clock=False,
                      model=HumanModel(bounce_p=0.0), tags=game.tags)
    s = through_matrix(s, ["stuck-closed:25@0-60"], seed=7, checks=health)
    r = Reconstructor(s.header)
    for ev in s.events:
        if health or not isinstance(ev, HealthLine):
            r.feed(ev)
    r.finish()
    assert moves_read(r) == s.expected_moves
    assert standing(r) == []
    until = _recovered(r, 25, "stuck-closed")
    assert 60.0 <= until < 60.2
    assert 25 not in r._mask


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_recovering_international_clock_under_a_captured_piece(health):
    """International game 1, ply 10, with a clock: 27 sticks under black's piece before white's 33x31 takes it; its
    removal unseen, the capture reads `capture-not-removed` (a piece left standing, or a stuck switch: stuckcapture.py
    keeps it open). Two plies later 27 opens on its own while the turn is otherwise one legal move, and every move
    since reads legal with the piece gone: the switch recovered. The capture is read again with 27 removed (its
    irregularity dismissed, an observation names 27), the fault spans the capture to the opening (was:
    `capture-not-removed`, `capture-not-taken` and `own-piece-removed` standing)."""
    s, r, square = midgame_case("international", 1, 10, "stuck-closed-recovering-2", True, health, plies=18)
    assert square == 27
    assert moves_read(r) == s.expected_moves
    assert standing(r) == []
    assert [(i.type, i.status) for i in r.irregularities] == [("capture-not-removed", "dismissed")]
    assert any("27 read as left standing" in o.detail for o in r.observations)
    assert 78.8 < _recovered(r, square, "stuck-closed") < 79.1


def test_the_live_screen_names_a_recovered_switch_with_its_span_brazilian_clock():
    """``rig run``'s screen still asks to check a switch that failed and recovered (an intermittent switch is a
    fault to mend), with its span instead of "masked"."""
    from rig.live.screen import RunView

    s, r, square = midgame_case("brazilian", 2, 16, "stuck-closed-recovering-2", True, False, plies=24)
    view = RunView("t", r.board)
    for f in r.sensor_faults:
        view.update(f)
    assert view.warnings() == [f"check square a1: switch stuck-closed from {r.sensor_faults[0].since:.1f} s to "
                               f"{r.sensor_faults[0].until:.1f} s (works again)"]


@pytest.mark.parametrize("health", MODES)
def test_dead_recovering_brazilian_no_clock_capture_landing_unseen(health):
    """Brazilian game 1, ply 22, without a clock: a1 dies before white's a5xa1 lands on it; b4 and b2 come off, the
    board stands still 4.6 s, then a1 closes (the switch works again) and black lifts e7 at once. No piece stays in
    the hand that long: the landing came down unseen on a dead switch, which the fault records with its span; the
    removals read before the closing prove nothing (an observation). Was: `capture-removed-early` accepted."""
    s, r, square = midgame_case("brazilian", 1, 22, "dead-recovering-2", False, health, plies=28)
    assert square == 29
    assert moves_read(r) == s.expected_moves
    assert standing(r) == []
    until = _recovered(r, square, "dead")
    assert 129.6 < until < 129.7
    assert [(o.type, o.squares) for o in r.observations] == [("capture-removed-early", (17, 25))]


def _capture_closing_after(pause: float) -> Reconstructor:
    """International, without a clock: white's capture lifted, its captured piece taken off, the landing square
    closing ``pause`` seconds later (the board still in between), then black's reply."""
    from tests.reconstruct_helpers import line_to_capture
    from tests.session_builder import SessionBuilder, play_line, run

    b = play_line(SessionBuilder("international"), line_to_capture("international"), clock=False)
    cap = b.board.legal_moves[0]
    b.lift(cap.origin).remove(cap.captured[0]).place(cap.destination, pause, piece="w")
    b.board.push(cap)
    b.play(b.board.legal_moves[0])
    return run(b)


def test_capture_removed_early_still_raised_international_no_clock():
    """The same removal before the landing, the landing 1.5 s after it (under ``stable_s``: a piece still in the
    hand): the early removal stands, no fault is read."""
    r = _capture_closing_after(1.5)
    assert [i.type for i in r.irregularities] == ["capture-removed-early"]
    assert r.sensor_faults == []


def test_capture_landing_closing_after_a_still_board_international_no_clock():
    """The landing 3 s after the removal, the board still meanwhile: the landing was unseen (a dead switch that came
    back), a fault with its span and an observation, no irregularity."""
    r = _capture_closing_after(3.0)
    assert standing(r) == []
    assert [(f.kind, f.withdrawn) for f in r.sensor_faults] == [("dead", "")]
    assert r.sensor_faults[0].until is not None
    assert [o.type for o in r.observations] == ["capture-removed-early"]


@pytest.mark.parametrize("health", MODES)
def test_dead_recovering_international_no_clock_closing_under_the_other_reading_read_again_at_once(health):
    """International game 5, ply 10, without a clock: 30 dies before white's 34-30 lands on it, read 34-29 (29 named
    dead, an observation names both). 30 works again while black plays 7-12: no black move reaches 30 and the other
    reading has white's piece there, so 34-29 is read again as 34-30 at that closing, the fault moved to 30 and
    ended there (was: the closing read as black's piece set down, `piece-moved-after-release`, dismissed only when
    white's 30-25 re-read the moves)."""
    s, r, square = midgame_case("international", 5, 10, "dead-recovering-2", False, health, plies=16)
    assert square == 30
    assert moves_read(r) == s.expected_moves
    assert r.irregularities == []
    assert 55.7 < _recovered(r, square, "dead") < 55.8


@pytest.mark.parametrize("health", MODES)
def test_dead_recovering_international_no_clock_no_release_on_a_square_read_again_occupied(health):
    """International game 12, ply 28, without a clock: 31-27 lands on a dead 27, read 31-26. 27 works again under
    white's piece before black's 22x31 takes it: black's turn shows 27 closing then opening (the removal), and the
    commit re-reads 31-26 as 31-27. On the board read again a piece stood on 27: no `piece-moved-after-release`."""
    s, r, square = midgame_case("international", 12, 28, "dead-recovering-2", False, health, plies=34)
    assert square == 27
    assert moves_read(r) == s.expected_moves
    assert standing(r) == []
    assert not any(i.type == "piece-moved-after-release" for i in r.irregularities)


@pytest.mark.parametrize("health", MODES)
def test_dead_recovering_international_clock_no_release_where_the_reply_landed(health):
    """International game 21, ply 10, with a clock: 31-26 lands on a dead 26, read 31-27 (27 named dead). 26 closes
    during black's 22-27 (works again) and the press re-reads 31-26; 27, unmasked, shows black's piece only in
    white's next turn, as a piece set down there before 32x21 takes it. A piece stood on 27 when that turn began:
    no `piece-moved-after-release` (was: raised and accepted)."""
    s, r, square = midgame_case("international", 21, 10, "dead-recovering-2", True, health, plies=16)
    assert square == 26
    assert moves_read(r) == s.expected_moves
    assert standing(r) == []
    assert not any(i.type == "piece-moved-after-release" for i in r.irregularities)


@pytest.mark.parametrize("health", MODES)
@pytest.mark.parametrize("index, ply, stuck, other, plies", [(11, 10, 37, 36, 16), (17, 22, 37, 36, 28)])
def test_stuck_closed_recovering_international_clock_other_square_opens_in_the_reply(health, index, ply, stuck,
                                                                                     other, plies):
    """International, with a clock: 37-31 leaves a 37 stuck closed, read 36-31 (36 named stuck, an observation names
    both). 37 frees itself while black plays: read the way taken, white's piece on 37 lifted in black's turn (black's
    move then read onto the masked 36: `illegal-move`, then `position-lost`). The next change is black's landing,
    which no move of a piece from 37 makes: the switch under 37 was the stuck one; 36-31 is read again as 37-31, the
    fault moves to 37 and ends at its opening."""
    s, r, square = midgame_case("international", index, ply, "stuck-closed-recovering-2", True, health, plies=plies)
    assert square == stuck
    assert moves_read(r) == s.expected_moves
    assert standing(r) == []
    until = _recovered(r, stuck, "stuck-closed")
    read = [m for m in r.moves if not m.withdrawn]
    assert read[ply].t < until < read[ply + 1].t     # it opened during black's reply
    assert other not in r._mask
    assert any(f"{stuck} opened" in o.why for o in r.observations)


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_recovering_international_clock_other_square_opens_before_a_wrong_piece_read(health):
    """International game 21, ply 16, with a clock: 40-34 read 39-34 (39 named stuck). 40 frees itself before black's
    20-24, whose landing no move of a piece from 40 makes: 40-34 is read again, the fault moves to 40 and ends at
    its opening (was: white's piece on 40 read lifted, then `wrong-piece-removed` and `illegal-move`)."""
    s, r, square = midgame_case("international", 21, 16, "stuck-closed-recovering-2", True, health, plies=22)
    assert square == 40
    assert moves_read(r) == s.expected_moves
    assert standing(r) == []
    _recovered(r, 40, "stuck-closed")


def test_other_square_of_a_stuck_reading_lifted_international_clock():
    """The held opening is a lift when the next change is a square that square's piece reaches: white's 36-31 with
    36 stuck closed reads 36-31 or 37-31 (36 named stuck, an observation); after black's reply white lifts 37 and
    puts it on 32, which 37-32 reaches: the lift is shown (dated before the landing), 37-32 read, 36 stays stuck."""
    from tests.session_builder import SessionBuilder, run

    b = SessionBuilder("international", fen="W:W36,37,46:B3,4")
    b.place(31, 1.1, piece="w")           # 36's switch stuck closed: it never reads the lift
    b.board.push(b.board.parse_move("36-31"))
    b.press("white")
    for text, side in (("3-8", "black"), ("37-32", "white"), ("8-12", "black")):
        b.move(text).press(side)
    r = run(b)
    assert moves_read(r) == ["36-31", "3-8", "37-32", "8-12"]
    assert r.irregularities == []
    assert [(f.square, f.kind, f.until) for f in r.sensor_faults] == [(36, "stuck-closed", None)]


@pytest.mark.parametrize("health", MODES)
@pytest.mark.parametrize("clock", [True, False])
def test_dead_recovering_international_closing_with_no_piece_lifted_to_reach_it(health, clock):
    """International game 14, ply 22, with and without a clock: 43-38 lands on a dead 38, read right (an observation
    names 38 and 39). Eight plies later 38 works again under that piece, during black's 12x21, whose lifted piece
    cannot reach 38. Taken as "the switch works, the piece went to 39", it re-read seven moves and left black's
    turn unexplained (`illegal-move` or `position-lost`). Read the other way the closing must be a landing, and no
    piece lifted in the turn (nor the opponent's, pending) has a move onto 38: the switch recovered, nothing is read
    again."""
    s, r, square = midgame_case("international", 14, 22, "dead-recovering-8", clock, health, plies=34)
    assert square == 38
    assert moves_read(r) == s.expected_moves
    assert not any(m.withdrawn for m in r.moves)
    assert standing(r) == []
    _recovered(r, 38, "dead")


@pytest.mark.parametrize("health", MODES)
def test_dead_recovering_international_clock_late_closing_not_a_piece_in_the_hand(health):
    """International game 6, ply 16, with a clock: 31-26 lands on a dead 26, read 31-27 (27 named dead). 26 works
    again 5 s after white's press, during black's 21-27. Read as white's piece still in the hand coming down late,
    it withdrew the fault on 27 and left 27's reading stale: white's next 43-38 read `illegal-move`. No piece stays
    in the hand ``stable_s`` past its lift: not a late landing; the moves after it show 31-26, and the fault moves to
    26 and stands."""
    s, r, square = midgame_case("international", 6, 16, "dead-recovering-2", True, health, plies=22)
    assert square == 26
    assert moves_read(r) == s.expected_moves
    assert standing(r) == []
    assert [(f.square, f.kind, f.withdrawn) for f in r.sensor_faults] == [(26, "dead", "")]


@pytest.mark.parametrize("health", MODES)
def test_dead_recovering_international_no_clock_reply_lands_on_the_square_the_pending_move_left(health):
    """International game 23, ply 16, without a clock: 36x27 lands on a dead 27 (named, masked). Six plies later
    white plays 27-22 off it (unseen) and black's 18x27 lands there just as the switch works again, while white's
    move is still pending (black's lift read, not yet committed). Taken as the switch closing under white's piece,
    the landing was swallowed: black's move read 19x28 then `illegal-move`, `own-piece-removed`,
    `capture-removed-early`. The pending move leaves 27: the closing is black's landing, read as his change."""
    s, r, square = midgame_case("international", 23, 16, "dead-recovering-8", False, health, plies=30)
    assert square == 27
    assert moves_read(r) == s.expected_moves
    assert standing(r) == []
    _recovered(r, 27, "dead")


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_recovering_international_no_clock_other_square_opens_while_the_move_pends(health):
    """International game 9, ply 28, without a clock: 33-28 leaves a 33 stuck closed, read 32-28 (32 stuck); white's
    move is still pending (black's 26x37 lifted, not yet committed) when 33 frees itself, just after 37 closes. Taken
    as white beginning his next move, black's capture read `capture-not-removed`, then `illegal-move`,
    `own-piece-removed`... The next change, black taking 31 off, is no move of a piece from 33: the pending move is
    read 33-28, the fault moves to 33 and ends at its opening."""
    s, r, square = midgame_case("international", 9, 28, "stuck-closed-recovering-2", False, health, plies=34)
    assert square == 33
    assert moves_read(r) == s.expected_moves
    assert standing(r) == []
    assert 166.4 < _recovered(r, 33, "stuck-closed") < 166.6


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_international_no_clock_other_square_lifted_once(health):
    """International game 4, ply 22, without a clock: 36-31 with 36 stuck, read right (an observation names 36 and
    37). Eight plies on, white lifts his piece on 37 for 37x28: the opening is held, 28 closes (37x28 reaches it):
    a lift, shown. The lift shown is one opening, not a second to hold (was: held again, then black's next lift read
    as the switch under 37 freed, sixteen plies re-read with 37-31)."""
    s, r, square = midgame_case("international", 4, 22, "stuck-closed-recovering-2", False, health, plies=42)
    assert square == 36
    assert moves_read(r) == s.expected_moves
    assert not any(m.withdrawn for m in r.moves)
    assert standing(r) == []
    assert [(f.square, f.kind) for f in r.sensor_faults] == [(36, "stuck-closed")]


@pytest.mark.parametrize("health", MODES)
def test_dead_recovering_international_no_clock_died_under_a_captured_piece_then_landed_on(health):
    """International game 23, ply 12, without a clock: 29 dies under white's piece a moment before black's 23x34 lands,
    which reads as that piece taken off early; it works again 0.6 s after white's 40x29 takes 34 off, which reads as
    40x29's removal before its landing. 29 read empty between: one dead switch over that span explains both, which
    the sensors cannot tell from two players' early removals: the fault with its span and two observations (was:
    `capture-removed-early` accepted twice)."""
    s, r, square = midgame_case("international", 23, 12, "dead-recovering-2", False, health, plies=18)
    assert square == 29
    assert moves_read(r) == s.expected_moves
    assert standing(r) == []
    assert [(i.type, i.squares, i.status) for i in r.irregularities] == [("capture-removed-early", (29,), "dismissed")]
    assert [(o.type, o.squares) for o in r.observations] == [("capture-removed-early", (29,)),
                                                              ("capture-removed-early", (34,))]
    until = _recovered(r, square, "dead")
    assert 63.0 < until < 63.1


@pytest.mark.parametrize("health", MODES)
def test_dead_recovering_international_no_clock_still_board_landing_on_a_square_read_off_early(health):
    """International game 8, ply 24, without a clock: 27 dies under black's piece as white's 22x31 is played (read off
    before the landing), then white's 36x27 comes down there unseen and the switch works again after the board stood
    still. The landing rule named the fault and made 36x27's removal an observation, but 22x31's early removal stood:
    that was the same switch dying (dismissed, an observation)."""
    s, r, square = midgame_case("international", 8, 24, "dead-recovering-2", False, health, plies=30)
    assert square == 27
    assert moves_read(r) == s.expected_moves
    assert standing(r) == []
    assert [o.type for o in r.observations] == ["capture-removed-early"] * 2
    assert 125.6 < _recovered(r, square, "dead") < 125.8


@pytest.mark.parametrize("health", MODES)
def test_dead_recovering_international_no_clock_other_square_closes_as_the_reply_begins(health):
    """International game 19, ply 18, without a clock: 30-25 lands on a dead 25, read 30-24 (24 named dead, an
    observation names both). Black lifts 4 and 25 closes 40 ms later (the switch works again), 1.3 s after 30 left:
    read so, white's piece was still in his hand at black's lift. No black move reaches 25, the other reading has
    white's piece there: 30-24 is read again as 30-25 at once and the fault withdrawn (was: the closing read as
    black's piece set down, white's 25x14 lift taken into black's turn, 4-9 read `capture-not-taken`, then
    `wrong-piece-removed` and the game lost). Since faults14c, 25's closing, confirmed in the same batch as
    black's lift, keeps the engine from naming 24 dead at all (faults.py ``_fault_plan``): 30-25 is read from the
    closing, with no fault and no reading to take back."""
    s, r, square = midgame_case("international", 19, 18, "dead-recovering-2", False, health, plies=24)
    assert square == 25
    assert moves_read(r) == s.expected_moves
    assert r.irregularities == []
    assert [(f.square, f.kind) for f in r.sensor_faults if not f.withdrawn] == []
    assert not any("30-24" in o.detail for o in r.observations)
