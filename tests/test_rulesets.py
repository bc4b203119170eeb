"""Rule sets: one hand-built position per draw rule, named after its article (docs/rulesets.md)."""

import pytest

from rig.board import Board
from rig.rulesets import (RULESETS, DrawCounter, EmptyHistoryError, GameTracker, UnknownRuleSetError,
                          default_ruleset_for, get_ruleset)
from rig.variants import BRAZILIAN, INTERNATIONAL, PORTUGUESE


def tracker(ruleset, fen=None, **kw):
    variant = get_ruleset(ruleset).variant
    return GameTracker(ruleset, Board(variant, fen) if fen else None, **kw)


def play(t, *moves):
    for text in moves:
        t.push(t.board.parse_move(text))


def counter(t, article):
    label = f"{t.ruleset.id} {article}"
    found = [c for c in t.counters() if c.rule == label]
    return found[0] if found else None


def rules(t):
    return sorted(c.rule for c in t.draws())


# -- the registry -----------------------------------------------------------------------------

def test_registry_and_defaults():
    assert set(RULESETS) == {"fpd-2026", "fpd-classic", "fmjd", "codex-64", "codex-100"}
    assert default_ruleset_for(PORTUGUESE).id == "fpd-2026"
    assert default_ruleset_for(BRAZILIAN).id == "codex-64"
    assert default_ruleset_for(INTERNATIONAL).id == "fmjd"
    assert get_ruleset("FPD-2026") is RULESETS["fpd-2026"]
    with pytest.raises(UnknownRuleSetError, match="unknown rule set 'chess'"):
        get_ruleset("chess")
    with pytest.raises(KeyError):
        get_ruleset("chess")


def test_ruleset_variant_must_match_board():
    with pytest.raises(ValueError, match="codex-64 is for brazilian"):
        GameTracker("codex-64", Board("portuguese"))
    with pytest.raises(ValueError, match="unknown rate"):
        GameTracker("codex-100", rate="slow")


def test_draw_counter_str():
    c = DrawCounter("fpd-2026 3.9b", "20-move rule", 7, 20, "moves each", 31, False)
    assert str(c) == "fpd-2026 3.9b: 7/20"


# -- scoring and game end -----------------------------------------------------------------------

@pytest.mark.parametrize("ruleset,points", [
    ("fpd-2026", (1, 0.5, 0)), ("fpd-classic", (1, 0.5, 0)),
    ("fmjd", (2, 1, 0)), ("codex-64", (2, 1, 0)), ("codex-100", (2, 1, 0))])
def test_scoring_fpd_10_1_codex_53(ruleset, points):
    t = GameTracker(ruleset)
    win, draw, loss = points
    assert t.score("white") == (win, loss)
    assert t.score("black") == (loss, win)
    assert t.score("draw") == (draw, draw)
    with pytest.raises(ValueError, match="outcome must be"):
        t.score("1-0")


def test_fpd_5_2_no_pieces_loses():
    t = tracker("fpd-2026", "W:WK5:B10")  # white king on 5 takes the last black man on 10
    assert t.outcome() is None and not t.is_game_over()
    play(t, "5x14")
    assert t.is_game_over() and t.outcome() == "white"


def test_fpd_5_2_no_move_loses():
    t = tracker("fpd-2026", "B:W1,2:B5")  # black man on 5 (g2) is blocked by 1 and 2
    assert t.board.legal_moves == []
    assert t.is_game_over() and t.outcome() == "white"


def test_fmjd_7_2_blocked_side_loses():
    t = tracker("fmjd", "W:W46:B41,37")  # white man a1 blocked by b2, b2 guarded by c3
    assert t.outcome() == "black"


def test_draw_rule_does_not_end_the_game():
    t = tracker("fpd-2026", "W:WK4:BK29")
    for _ in range(10):
        play(t, "4-8", "29-25", "8-4", "25-29")
    assert t.claimable_draw()
    assert not t.is_game_over() and t.outcome() is None


# -- fpd-2026 -----------------------------------------------------------------------------------

# White king 4 (b1) <-> 8 (a2), black king 29 (g8) <-> 25 (h7): no contact on any diagonal.
SHUTTLE_PT = ("4-8", "29-25", "8-4", "25-29")


def test_fpd2026_3_9b_twenty_moves_each():
    t = tracker("fpd-2026", "W:WK4,9:BK29,24")  # 2 pieces each, a king each: counting starts at once
    c = counter(t, "3.9b")
    assert (c.count, c.limit, c.unit, c.from_number, c.reached) == (0, 20, "moves each", 1, False)
    for i in range(39):
        play(t, SHUTTLE_PT[i % 4])
    c = counter(t, "3.9b")
    assert (c.count, c.reached) == (19, False)
    assert str(c) == "fpd-2026 3.9b: 19/20"
    play(t, SHUTTLE_PT[39 % 4])
    c = counter(t, "3.9b")
    assert (c.count, c.reached) == (20, True)
    assert "fpd-2026 3.9b" in rules(t)


def test_fpd2026_3_9b_man_move_changes_the_ending_and_restarts():
    t = tracker("fpd-2026", "W:WK4,9:BK29,24")
    play(t, *SHUTTLE_PT, *SHUTTLE_PT, "4-8")
    assert counter(t, "3.9b").count == 4
    play(t, "24-20")  # black man a6-b5 (move 5...)
    c = counter(t, "3.9b")
    assert (c.count, c.from_number) == (0, 6)
    play(t, "8-4", "29-25")
    assert counter(t, "3.9b").count == 1
    play(t, "9-13")  # white man h3-g4
    assert counter(t, "3.9b").count == 0


def test_fpd2026_3_9b_needs_a_king_each_and_at_most_four_pieces():
    assert counter(tracker("fpd-2026", "W:WK4,9:B29,24"), "3.9b") is None  # black has no king
    assert counter(tracker("fpd-2026", "W:WK4,9,10,11,12:BK29"), "3.9b") is None  # white has 5
    assert counter(tracker("fpd-2026", "W:WK4,9,10,11:BK29,24,23,22"), "3.9b").count == 0


def test_fpd2026_3_9b_4_not_in_the_forcada():
    t = tracker("fpd-2026", "W:WK2,K3,K4:BK29")
    assert counter(t, "3.9b") is None


def test_fpd2026_3_9a_forcada_counts_after_rio():
    # 3 kings on 2, 3, 4 (none on the Rio 1-5-10-14-19-23-28-32) v king 29; white to move (3.9a(3))
    t = tracker("fpd-2026", "W:WK2,K3,K4:BK29")
    assert counter(t, "3.9a") is None  # waiting for the Rio
    play(t, "2-5")  # occupies the Rio: not counted
    c = counter(t, "3.9a")
    assert (c.count, c.limit, c.reached) == (0, 12, False)
    play(t, "29-25")
    assert counter(t, "3.9a").count == 0  # black's moves do not count
    assert counter(t, "3.9a").from_number == 2
    shuttle = ("3-7", "25-29", "7-3", "29-25")
    for i in range(22):
        play(t, shuttle[i % 4])
    c = counter(t, "3.9a")
    assert (c.count, c.reached) == (11, False)
    play(t, shuttle[22 % 4])
    c = counter(t, "3.9a")
    assert (c.count, c.reached) == (12, True)
    assert "fpd-2026 3.9a" in rules(t)
    assert str(c) == "fpd-2026 3.9a: 12/12"


def test_fpd2026_3_9a_forcada_strong_side_not_to_move():
    t = tracker("fpd-2026", "B:WK2,K3,K4:BK29")
    play(t, "29-25")
    assert counter(t, "3.9a") is None
    play(t, "2-5", "25-29")
    assert counter(t, "3.9a").count == 0
    play(t, "3-7")
    assert counter(t, "3.9a").count == 1


def test_fpd2026_3_9a_forcada_rio_already_occupied():
    t = tracker("fpd-2026", "W:WK5,K3,K4:BK29")
    c = counter(t, "3.9a")
    assert (c.count, c.from_number) == (0, 1)
    play(t, "3-7")
    assert counter(t, "3.9a").count == 1
    # black to move with the Rio already held: the first counted move is white's next
    t = tracker("fpd-2026", "B:WK5,K3,K4:BK29")
    assert counter(t, "3.9a").from_number == 2
    play(t, "29-25")
    assert counter(t, "3.9a").count == 0
    play(t, "3-7")
    assert counter(t, "3.9a").count == 1


def test_fpd2026_3_9a_forcada_leaving_the_rio_keeps_counting():
    t = tracker("fpd-2026", "W:WK5,K3,K4:BK29")
    play(t, "5-2", "29-25")  # leaves the Rio: the count goes on
    assert counter(t, "3.9a").count == 1


def test_fpd2026_3_9a_2_capture_counts_and_wins():
    # white kings 5 (Rio), 3, 4 v black king 14 (e4): the king on 5 takes it along the Rio
    t = tracker("fpd-2026", "W:WK5,K3,K4:BK14")
    assert counter(t, "3.9a").count == 0
    captures = [m for m in t.board.legal_moves if m.captured]
    assert captures and all(m.captured == (14,) for m in captures)
    t.push(captures[0])
    assert t.outcome() == "white"


def test_fpd2026_5_3_threefold_repetition_of_the_pieces():
    t = tracker("fpd-2026", "W:WK4:BK29")
    assert counter(t, "5.3") is None
    play(t, *SHUTTLE_PT)
    c = counter(t, "5.3")
    assert (c.count, c.limit, c.unit, c.reached) == (2, 3, "occurrences", False)
    play(t, *SHUTTLE_PT)
    c = counter(t, "5.3")
    assert (c.count, c.reached, c.from_number) == (3, True, 1)
    assert "fpd-2026 5.3" in rules(t)


def test_fpd2026_5_3_position_of_the_pieces_whatever_the_side_to_move():
    # white king 4 (b1) goes 4-11-7-4 along its diagonal: same pieces, black now to move
    t = tracker("fpd-2026", "W:WK4:BK29")
    play(t, "4-11", "29-26", "11-7", "26-29", "7-4")
    assert t.board.turn is False
    assert counter(t, "5.3").count == 2


# -- fpd-classic ----------------------------------------------------------------------------------

def test_fpdclassic_3_2_1a_twenty_moves_by_both_without_man_move_or_capture():
    t = tracker("fpd-classic", "W:WK4,9,10,11,12:BK29,24,23,22,21")  # no material condition in 001
    assert counter(t, "3.2.1a") is None  # nothing counted yet
    for i in range(39):
        play(t, SHUTTLE_PT[i % 4])
    c = counter(t, "3.2.1a")
    assert (c.count, c.limit, c.unit, c.reached) == (19, 20, "moves each", False)
    play(t, SHUTTLE_PT[39 % 4])
    assert counter(t, "3.2.1a").reached
    play(t, "9-13")
    assert counter(t, "3.2.1a") is None  # restarts with the next move
    play(t, "29-25")
    c = counter(t, "3.2.1a")
    assert (c.count, c.from_number) == (0, 21)


def test_fpdclassic_3_2_1b_forcada():
    t = tracker("fpd-classic", "W:WK2,K3,K4:BK29")
    play(t, "2-5", "29-25", "3-7")
    c = counter(t, "3.2.1b")
    assert (c.count, c.limit) == (1, 12)


def test_fpdclassic_3_2_1c_repetition_consecutive_or_not():
    t = tracker("fpd-classic", "W:WK4:BK29")
    play(t, *SHUTTLE_PT, "4-11", "29-26", "11-4", "26-29", *SHUTTLE_PT)
    c = counter(t, "3.2.1c")
    assert (c.count, c.reached) == (4, True)


# -- fmjd -------------------------------------------------------------------------------------------

# White king 46 (a1) <-> 41 (b2), black king 1 (b10) <-> 6 (a9).
SHUTTLE_INT = ("46-41", "1-6", "41-46", "6-1")


def test_fmjd_6_1_threefold_same_side_to_move():
    t = tracker("fmjd", "W:WK46,35:BK1,16")
    play(t, "46-37", "1-6", "37-41", "6-1", "41-46")  # same pieces, black to move: another position
    assert counter(t, "6.1") is None
    play(t, "1-6", "46-41", "6-1", "41-46")  # same pieces, black to move again
    assert counter(t, "6.1").count == 2
    t = tracker("fmjd", "W:WK46,35:BK1,16")
    play(t, *SHUTTLE_INT, *SHUTTLE_INT)
    c = counter(t, "6.1")
    assert (c.count, c.reached) == (3, True)
    assert rules(t) == ["fmjd 6.1"]


def test_fmjd_6_2_twenty_five_king_moves():
    t = tracker("fmjd", "W:WK46,35:BK1,16")
    for i in range(24):
        play(t, SHUTTLE_INT[i % 4])
    c = counter(t, "6.2")
    assert (c.count, c.limit, c.unit, c.reached) == (24, 25, "moves", False)
    play(t, SHUTTLE_INT[24 % 4])
    assert counter(t, "6.2").reached
    play(t, "1-6")
    play(t, "35-30")  # a man move
    assert counter(t, "6.2") is None
    play(t, "6-1")
    assert counter(t, "6.2").count == 1


def test_fmjd_6_3_three_kings_v_one_ten_moves():
    t = tracker("fmjd", "W:WK46,K47,K48:BK1")
    c = counter(t, "6.3")
    assert (c.count, c.limit) == (0, 10)
    for i in range(9):
        play(t, SHUTTLE_INT[i % 4])
    assert not counter(t, "6.3").reached
    play(t, SHUTTLE_INT[9 % 4])
    assert counter(t, "6.3").reached
    assert counter(t, "6.4") is None


def test_fmjd_6_3_king_and_two_men_promotion_is_a_new_ending():
    # white king 46, men 7 (e9? no: 7 = c9) about to promote; black king 35 (j4)
    t = tracker("fmjd", "W:WK46,7,16:BK35")
    play(t, "16-11")
    assert counter(t, "6.3").count == 1
    play(t, "35-30")
    play(t, "7-2")  # promotes: 2 kings + 1 man v 1 king, a new ending
    assert t.board.count(True) == (1, 2)
    assert counter(t, "6.3").count == 0


def test_fmjd_6_4_one_king_each_five_moves():
    t = tracker("fmjd", "W:WK46:BK1")
    assert counter(t, "6.4").count == 0
    for i in range(4):
        play(t, SHUTTLE_INT[i % 4])
    assert not counter(t, "6.4").reached
    play(t, SHUTTLE_INT[0])
    c = counter(t, "6.4")
    assert (c.count, c.limit, c.reached) == (5, 5, True)


def test_fmjd_6_3_to_6_4_after_a_capture():
    # black king 1 (b10) takes the white king on 23 (f6): 3 kings v 1 becomes 2 kings v 1
    t = tracker("fmjd", "B:WK46,K47,K23:BK1")
    assert counter(t, "6.3").count == 0
    t.push(next(m for m in t.board.legal_moves if m.captured == (23,)))
    assert counter(t, "6.3") is None
    assert counter(t, "6.4").count == 0


# -- codex-64 ---------------------------------------------------------------------------------------

# White king h2 <-> g1, black king b8 <-> a7: at the two ends of a diagonal, never a capture.
SHUTTLE_BR = ("h2-g1", "b8-a7", "g1-h2", "a7-b8")


def test_codex64_59_A_both_flags():
    t = GameTracker("codex-64")
    t.flag(True)
    assert t.flag_outcome() == "black" and not t.both_flags() and t.draws() == []
    t.flag(False)
    assert t.both_flags() and t.flag_outcome() == "draw"
    assert rules(t) == ["codex-64 59.A"]


def test_codex64_57_C_one_flag_loses():
    t = GameTracker("codex-64")
    t.flag(False)
    assert t.flag_outcome() == "white" and t.flags == frozenset({False})


def test_codex64_59_B_twenty_king_moves():
    t = tracker("codex-64", "W:WKh2,c1:BKb8,f8")
    shuttle = SHUTTLE_BR
    for i in range(19):
        play(t, shuttle[i % 4])
    assert counter(t, "59.B").count == 19 and not counter(t, "59.B").reached
    play(t, shuttle[19 % 4])
    assert counter(t, "59.B").reached


def test_codex64_59_C_threefold_same_side_to_move():
    t = tracker("codex-64", "W:WKh2,c1:BKb8,f8")
    shuttle = SHUTTLE_BR
    play(t, *shuttle, *shuttle)
    c = counter(t, "59.C")
    assert (c.count, c.reached) == (3, True)


def test_codex64_59_D_one_king_each_two_moves():
    t = tracker("codex-64", "W:WKh2:BKb8")
    c = counter(t, "59.D")
    assert (c.count, c.limit) == (0, 2)
    play(t, "h2-g1")
    assert not counter(t, "59.D").reached
    play(t, "b8-a7")
    assert counter(t, "59.D").reached and "codex-64 59.D" in rules(t)


def test_codex64_59_E_two_kings_v_one_five_moves():
    t = tracker("codex-64", "W:WKa3,Kc1:BKh8")
    for i, m in enumerate(("a3-b4", "h8-g7", "b4-a3", "g7-h8")):
        play(t, m)
        assert counter(t, "59.E").count == i + 1
    assert not counter(t, "59.E").reached
    play(t, "a3-b4")
    assert counter(t, "59.E").reached


def test_codex64_59_E_E_lone_king_on_the_long_diagonal():
    t = tracker("codex-64", "B:WKa3,Kc1,Ke1:BKh8")
    assert counter(t, "59.E").count == 0
    play(t, "h8-g7")  # still on the long diagonal
    assert counter(t, "59.E").count == 1
    play(t, "e1-f2", "g7-h6")  # leaves it: no longer the listed ending
    assert counter(t, "59.E") is None
    assert counter(tracker("codex-64", "B:WKa3,Kc1,Ke1:BKh6"), "59.E") is None


def test_codex64_59_F_lone_king_holds_the_mens_diagonal():
    t = tracker("codex-64", "W:WKd2:BKh8,a7,b6")  # lone white king on a5-e1, black king on the long diagonal
    c = counter(t, "59.F")
    assert (c.count, c.limit) == (0, 5)
    play(t, "d2-e1", "h8-g7")
    assert counter(t, "59.F").count == 2
    play(t, "e1-d2", "b6-a5")  # a man reaches the diagonal: no longer "before" it
    assert counter(t, "59.F") is None


def test_codex64_59_F_needs_the_listed_diagonal():
    assert counter(tracker("codex-64", "W:WKf2:BKh8,a7,b6"), "59.F") is None
    assert counter(tracker("codex-64", "W:WKd2:BKf8,a7,b6"), "59.F") is None  # black king off the long diagonal


# -- codex-100 --------------------------------------------------------------------------------------

def test_codex100_60_B_twenty_five_king_moves():
    t = tracker("codex-100", "W:WK46,35:BK1,16")
    for i in range(25):
        play(t, SHUTTLE_INT[i % 4])
    c = counter(t, "60.B")
    assert (c.count, c.limit, c.reached) == (25, 25, True)


def test_codex100_60_D_and_60_E():
    t = tracker("codex-100", "W:WK46:BK1")
    assert counter(t, "60.D").limit == 2
    assert counter(t, "60.E") is None
    t = tracker("codex-100", "W:WK46,K47:BK1")
    assert counter(t, "60.E").limit == 5 and counter(t, "60.D") is None


def test_codex100_60_F_depends_on_rate():
    classical = tracker("codex-100", "W:WK46,K47,K48:BK1")
    rapid = tracker("codex-100", "W:WK46,K47,K48:BK1", rate="rapid")
    assert counter(classical, "60.F").limit == 15
    assert counter(rapid, "60.F").limit == 5
    for i in range(5):
        play(classical, SHUTTLE_INT[i % 4])
        play(rapid, SHUTTLE_INT[i % 4])
    assert counter(rapid, "60.F").reached and not counter(classical, "60.F").reached
    for i in range(5, 15):
        play(classical, SHUTTLE_INT[i % 4])
    assert counter(classical, "60.F").reached


def test_codex100_60_F_E_man_move_does_not_reset():
    t = tracker("codex-100", "W:WK46,35,36:BK1")  # king + 2 men v king
    play(t, "36-31", "1-6", "35-30")
    assert counter(t, "60.F").count == 3


# -- set_position, pop, move numbers --------------------------------------------------------------

def test_move_number_follows_pdn():
    t = GameTracker("fpd-2026")
    assert t.move_number == 1
    play(t, "11-15")
    assert t.move_number == 1
    play(t, "22-18")
    assert t.move_number == 2
    t = tracker("fpd-2026", "B:WK4:BK29")
    assert t.move_number == 1
    play(t, "29-25")
    assert t.move_number == 2


def test_set_position_restarts_history_and_counters():
    t = tracker("fpd-2026", "W:WK4:BK29")
    play(t, *SHUTTLE_PT, "4-8")
    assert counter(t, "5.3").count == 2 and counter(t, "3.9b").count == 2
    t.set_position("W:WK4:BK29")  # black was due: the record goes on with white's move 4
    assert t.move_number == 4 and counter(t, "5.3") is None
    assert counter(t, "3.9b").count == 0 and counter(t, "3.9b").from_number == 4
    with pytest.raises(EmptyHistoryError):
        t.pop()
    play(t, *SHUTTLE_PT)
    assert counter(t, "5.3").count == 2


def test_tracker_replays_a_board_history():
    b = Board("portuguese", "W:WK4:BK29")
    for m in SHUTTLE_PT:
        b.push(b.parse_move(m))
    t = GameTracker("fpd-2026", b)
    assert counter(t, "5.3").count == 2 and t.move_number == 3
    assert t.board is not b and t.board.fen() == b.fen()


def test_pop_restores_counters():
    t = tracker("fpd-2026", "W:WK2,K3,K4:BK29")
    snapshots = [t.counters()]
    for m in ("2-5", "29-25", "3-7", "25-29", "7-3"):
        play(t, m)
        snapshots.append(t.counters())
    while len(snapshots) > 1:
        snapshots.pop()
        t.pop()
        assert t.counters() == snapshots[-1]


# -- property: pop() restores every counter exactly -----------------------------------------------

from hypothesis import given, strategies as st  # noqa: E402

STARTS = [
    ("fpd-2026", None), ("fpd-2026", "W:WK4,9:BK29,24"), ("fpd-2026", "W:WK2,K3,K4:BK29"),
    ("fpd-classic", "W:W9,10,K4:B24,23,K29"), ("fmjd", None), ("fmjd", "W:WK46,K47,7:BK35"),
    ("codex-64", None), ("codex-64", "W:WKd2:BKh8,a7,b6"), ("codex-100", "W:WK46,35,36:BK1"),
]


@given(start=st.sampled_from(STARTS), choices=st.lists(st.integers(0, 10_000), min_size=1, max_size=60))
def test_push_all_then_pop_all_restores_counters(start, choices):
    ruleset, fen = start
    t = tracker(ruleset, fen)
    seen = [(t.board.fen(), t.move_number, t.counters(), t.draws())]
    for c in choices:
        legal = t.board.legal_moves
        if not legal:
            break
        t.push(legal[c % len(legal)])
        seen.append((t.board.fen(), t.move_number, t.counters(), t.draws()))
    while len(seen) > 1:
        seen.pop()
        t.pop()
        assert (t.board.fen(), t.move_number, t.counters(), t.draws()) == seen[-1]
    with pytest.raises(EmptyHistoryError):
        t.pop()
