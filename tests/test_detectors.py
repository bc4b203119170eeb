"""The pure irregularity detectors (rig/reconstruct/detectors.py), one irregularity id at a time, from small
boards and hand-made segments: no session, no engine."""

from __future__ import annotations

import pytest

from rig.board import Board
from rig.law import BOOKS
from rig.reconstruct.detectors import (
    Context,
    cite,
    clock_without_move,
    held_off_observation,
    move_findings,
    move_taken_back,
    position_lost,
    removal_out_of_order,
    touched_not_moved,
    trail_findings,
    turned_start,
    two_moves,
    unexplained_change,
    wrong_setup,
)
from rig.reconstruct.matcher import Explanation, PositionIndex, explain
from rig.reconstruct.occupancy import SquareChange
from rig.reconstruct.outputs import OPEN, Irregularity, Observation
from rig.reconstruct.settings import Settings
from rig.reconstruct.state import Segment
from rig.variants import get_variant

SETTINGS = Settings()


def ctx(ruleset: str = "fpd-2026", white: bool = True, t: float = 10.0, number: int = 7) -> Context:
    return Context(BOOKS[ruleset], t, white, number)


def read(variant: str, fen: str, occ: set[int]) -> tuple[Board, PositionIndex, Explanation]:
    """The board, its candidates and the explanation of ``occ`` seen after the side to move played."""
    board = Board(variant, fen)
    index = PositionIndex(board)
    expl = explain(board, board.occupied(), frozenset(occ), index=index)
    assert expl is not None
    return board, index, expl


def kinds(findings) -> list[tuple[str, str]]:
    return [(type(f).__name__, f.type) for f in findings]


def test_context_makes_findings_cited_by_the_book_in_force():
    irr = ctx("codex-64", white=False, t=3.5, number=12).irregularity("two-moves", [9, 13], "d")
    assert irr == Irregularity("two-moves", 12, "black", 3.5, (9, 13), BOOKS["codex-64"].law("two-moves").article,
                               OPEN, "d")
    assert cite(BOOKS["fpd-2026"], "two-moves") != cite(BOOKS["fmjd"], "two-moves")
    # a type the book does not name keeps every book's article (rig.reconstruct.outputs.RULES)
    assert cite(BOOKS["fpd-classic"], "uncrowned-king-moved")


# -- what the move shows ----------------------------------------------------------------------------------

def test_capture_not_taken():
    board, index, expl = read("portuguese", "W:W10,14:B18", {13, 14, 18})
    found = move_findings(ctx(), board, index, expl, "10-13")
    assert kinds(found) == [("Irregularity", "capture-not-taken")]
    assert found[0].squares == (10, 13) and "14x21" in found[0].detail


def test_capture_rule_violated():
    board, index, expl = read("international", "W:W31,40:B13,23,27,34", {22, 40, 13, 23, 34})
    found = move_findings(ctx("fmjd"), board, index, expl, "31x22")
    assert kinds(found) == [("Irregularity", "capture-rule-violated")]
    assert "the law requires one of 40x9" in found[0].detail


def test_capture_incomplete():
    board, index, expl = read("international", "W:W40,45:B34,23,13", {29, 45, 23, 13})
    found = move_findings(ctx("fmjd"), board, index, expl, "40x29")
    assert kinds(found) == [("Irregularity", "capture-incomplete")]
    assert found[0].detail == "40x29 stopped before the end of the capture"


def test_illegal_move():
    board, index, expl = read("portuguese", "W:W10,14:B18,27", {14, 18, 27, 19})
    found = move_findings(ctx(), board, index, expl, "10-19")
    assert kinds(found) == [("Irregularity", "illegal-move")]
    assert found[0].detail == "10-19 is not a move the rules allow"


def test_capture_not_removed():
    board, index, expl = read("portuguese", "W:W10,14:B18", {10, 18, 21})
    found = move_findings(ctx(), board, index, expl, "14x21")
    assert kinds(found) == [("Irregularity", "capture-not-removed")]
    assert found[0].squares == (18,) and found[0].side == "white" and found[0].number == 7


def test_wrong_piece_removed_and_own_piece_removed():
    board, index, expl = read("portuguese", "W:W10,14:B18,27", {10, 21})
    assert kinds(move_findings(ctx(), board, index, expl, "14x21")) == [("Irregularity", "wrong-piece-removed")]
    board, index, expl = read("portuguese", "W:W5,10,14:B18", {10, 21})
    found = move_findings(ctx(), board, index, expl, "14x21")
    assert kinds(found) == [("Irregularity", "own-piece-removed")] and found[0].squares == (5,)


def test_a_legal_exact_move_shows_nothing():
    board, index, expl = read("portuguese", "W:W10,14:B18", {10, 21})
    assert move_findings(ctx(), board, index, expl, "14x21") == []
    assert trail_findings(ctx(), board, index, expl, Segment(0.0, board.occupied()), SETTINGS) == []


def test_two_moves():
    board = Board("portuguese")
    move = next(m for m in board.legal_moves if (m.origin, m.destination) == (10, 14))
    irr = two_moves(ctx("codex-64", white=False), move, "10-14")
    assert (irr.type, irr.side, irr.squares, irr.detail) == ("two-moves", "black", (10, 14), "black moved again: 10-14")


# -- the turn's trail -------------------------------------------------------------------------------------

def start_turn(variant: str = "portuguese", fen: str | None = None, occ_after: set[int] | None = None,
               move: tuple[int, int] = (10, 14)):
    board = Board(variant, fen) if fen else Board(variant)
    occ0 = board.occupied()
    occ = frozenset(occ_after) if occ_after is not None else (occ0 - {move[0]}) | {move[1]}
    index = PositionIndex(board)
    expl = explain(board, occ0, occ, index=index)
    assert expl is not None and expl.legal
    return board, index, expl, Segment(0.0, occ0)


def test_touched_piece_not_moved_each_book_its_own_way():
    board, index, expl, seg = start_turn()
    seg.touches.append((9, 1.0, 1.5))                   # 9 lifted and put back, then 10-14 played
    seg.changes.extend([SquareChange(1.0, 9, True), SquareChange(1.5, 9, False), SquareChange(2.0, 10, True),
                        SquareChange(2.5, 14, False)])
    found = trail_findings(ctx("fpd-2026"), board, index, expl, seg, SETTINGS)
    assert kinds(found) == [("Irregularity", "touched-piece-not-moved")] and found[0].squares == (9,)
    assert found[0].detail == "touched 9, played 10"
    # FPD 000 4.4: only the first touched piece binds; the played piece lifted first releases it
    assert touched_not_moved(BOOKS["fpd-2026"], index, expl.move, seg.touches, 0.5) == ()
    # FMJD 002 3.11: every touched playable piece binds
    assert touched_not_moved(BOOKS["fmjd"], index, expl.move, [(9, 1.0, 1.5), (11, 1.6, 1.9)], 0.5) == (9, 11)
    # a touched piece with no legal move binds nobody
    assert touched_not_moved(BOOKS["fmjd"], index, expl.move, [(1, 1.0, 1.5)], 2.0) == ()


def test_touch_move_gives_way_to_a_compulsory_capture_under_the_codex():
    # 12x19 and 14x23 both capture one man, either may be played: 12 touched, the capture 14x23 played
    board, index, expl, seg = start_turn("brazilian", "W:W12,14:B16,18", {12, 16, 23}, (14, 23))
    seg.touches.append((12, 1.0, 1.5))
    assert trail_findings(ctx("codex-64"), board, index, expl, seg, SETTINGS) == []
    assert kinds(trail_findings(ctx("fmjd"), board, index, expl, seg, SETTINGS)) == [
        ("Irregularity", "touched-piece-not-moved")]


def test_opponent_piece_touched():
    board, index, expl, seg = start_turn()
    seg.touches.append((22, 1.0, 1.4))                  # a black man lifted and put back
    found = trail_findings(ctx("fpd-2026"), board, index, expl, seg, SETTINGS)
    assert kinds(found) == [("Irregularity", "opponent-piece-touched")] and found[0].squares == (22,)
    # the FPD classic book makes it an observation for the arbiter
    found = trail_findings(ctx("fpd-classic"), board, index, expl, seg, SETTINGS)
    assert kinds(found) == [("Observation", "opponent-piece-touched")] and found[0].why.endswith("for the arbiter")


@pytest.mark.parametrize("dwell, kind", [(0.6, "Irregularity"), (0.2, "Observation")])
def test_piece_moved_after_release(dwell, kind):
    board, index, expl, seg = start_turn()
    seg.landings[13] = dwell                            # set down on 13, then moved on to 14
    found = trail_findings(ctx("fmjd"), board, index, expl, seg, SETTINGS)
    assert kinds(found) == [(kind, "piece-moved-after-release")]
    assert found[0].squares == (13,) and found[0].detail == "set down on 13, then moved on to 14"
    if kind == "Observation":
        assert found[0].why.startswith("set down 0.20 s (under 0.4 s)")


@pytest.mark.parametrize("lifted, kind", [(1.0, "Irregularity"), (1.49, "Observation")])
def test_capture_removed_early(lifted, kind):
    board, index, expl, seg = start_turn("portuguese", "W:W10,14:B18", {10, 21}, (14, 21))
    seg.lifted_at[18] = lifted                          # the captured man taken off ...
    seg.placed_at[21] = 1.5                             # ... before the capturing man's landing was read
    found = trail_findings(ctx("fpd-2026"), board, index, expl, seg, SETTINGS)
    assert kinds(found) == [(kind, "capture-removed-early")] and found[0].squares == (18,)
    if kind == "Observation":
        assert found[0].why.startswith("taken off 10 ms before the landing was read (under 50 ms)")


def test_capture_removed_out_of_order():
    board, index, expl, seg = start_turn("international", "W:W40,45:B34,23,13", {9, 45}, (40, 9))
    seg.placed_at[9] = 2.0
    seg.lifted_at.update({34: 2.1, 13: 2.2, 23: 2.3})   # jumped 34, 23, 13; removed 34, 13, 23
    found = trail_findings(ctx("fmjd"), board, index, expl, seg, SETTINGS)
    assert kinds(found) == [("Observation", "capture-removed-out-of-order")]
    assert found[0].squares == (34, 13, 23) and "opponent's request" in found[0].why
    # in the order jumped, or its reverse, or in one frame: in order
    for times in ({34: 2.1, 23: 2.2, 13: 2.3}, {34: 2.3, 23: 2.2, 13: 2.1}, {34: 2.1, 23: 2.1, 13: 2.1}):
        assert removal_out_of_order(BOOKS["fmjd"], expl.move, times) is None


def test_uncrowned_king_moved():
    # a white king on 5 moves back to 1; the camera sees a man there: the crown is missing
    board, index, expl, seg = start_turn("portuguese", "W:WK5:B30", None, (5, 1))
    seg.pieces = {5: "w", 30: "b"}
    assert kinds(trail_findings(ctx("codex-64"), board, index, expl, seg, SETTINGS)) == [
        ("Irregularity", "uncrowned-king-moved")]
    found = trail_findings(ctx("fpd-2026"), board, index, expl, seg, SETTINGS)
    assert kinds(found) == [("Observation", "uncrowned-king-moved")] and "missing crown" in found[0].why
    # a book that makes it no fault: nothing; a crowned piece seen as a king: nothing
    assert trail_findings(ctx("fpd-classic"), board, index, expl, seg, SETTINGS) == []
    seg.pieces = {5: "W", 30: "b"}
    assert trail_findings(ctx("codex-64"), board, index, expl, seg, SETTINGS) == []


def test_detectors_change_none_of_their_inputs():
    board, index, expl, seg = start_turn("portuguese", "W:W10,14:B18", {10, 21}, (14, 21))
    seg.lifted_at[18] = 1.0
    seg.placed_at[21] = 1.5
    seg.landings[13] = 0.6
    seg.touches.append((10, 0.2, 0.5))
    key, fields = board.key(), (dict(seg.lifted_at), dict(seg.placed_at), dict(seg.landings), list(seg.touches))
    first = trail_findings(ctx("fmjd"), board, index, expl, seg, SETTINGS)
    assert trail_findings(ctx("fmjd"), board, index, expl, seg, SETTINGS) == first
    assert board.key() == key and (seg.lifted_at, seg.placed_at, seg.landings, seg.touches) == fields


# -- what the other stages decide -------------------------------------------------------------------------

def test_clock_without_move():
    irr = clock_without_move(ctx("fpd-2026", white=False, number=4))
    assert (irr.type, irr.side, irr.number, irr.squares) == ("clock-without-move", "black", 4, ())
    assert irr.rule == BOOKS["fpd-2026"].law("clock-without-move").article


def test_unexplained_change_is_an_illegal_move():
    irr = unexplained_change(ctx(), {22, 9, 13})
    assert (irr.type, irr.squares) == ("illegal-move", (9, 13, 22))
    assert irr.detail == "the board changed in a way no single move explains"


def test_move_taken_back():
    board = Board("portuguese")
    move = next(m for m in board.legal_moves if (m.origin, m.destination) == (11, 15))
    irr = move_taken_back(ctx("fmjd"), move, "11-15")
    assert (irr.type, irr.squares, irr.detail) == ("move-taken-back", (11, 15), "11-15 was taken back")


def test_position_lost():
    irr = position_lost(ctx(), (3, 8, 9, 14, 20))
    assert (irr.type, irr.squares) == ("position-lost", (3, 8, 9, 14, 20))
    assert irr.detail == "5 squares changed with no move to explain them"


def test_wrong_setup_three_ways():
    variant = get_variant("portuguese")
    target = Board("portuguese").occupied()
    turned = turned_start(variant)
    assert turned != target and len(turned) == len(target)
    irr = wrong_setup(ctx(), target - {3} | {17}, target, True, turned)
    assert (irr.type, irr.squares) == ("wrong-setup", (3, 17))
    assert irr.detail == "start position differs: missing [3], extra [17]"
    assert wrong_setup(ctx(), turned, target, True, turned).detail.startswith("the board is turned a quarter")
    assert wrong_setup(ctx(), turned, target, True, None).detail.startswith("start position differs")
    irr = wrong_setup(ctx(), target, target, False, turned)
    assert irr.squares == () and "turned round (180 degrees)" in irr.detail


def test_held_off_observation_is_never_an_alarm():
    obs = held_off_observation(ctx("codex-64", white=True), 22, 2.0, str)
    assert isinstance(obs, Observation) and obs.type == "wrong-piece-removed" and obs.squares == (22,)
    assert obs.detail == "22 off the board after the move" and "for 2 s" in obs.why
