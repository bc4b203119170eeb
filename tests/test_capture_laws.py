"""Capture laws: one hand-built position per law, named after its article, asserting the exact set of
legal moves as (origin, destination, captured set, promotes).

Portuguese: FPD 2026 (seed 000) art. 3. International: FMJD (seed 002) art. 3-4. Brazilian: the CODEX
(seed 004) has no movement articles of its own: art. 89 plays "according to the FMJD rules", and art.
42.F / 42.H / 42.I make a missed capture, a wrong number of pieces and a stopped chain irregular.
Square names: Portuguese 1 = h1 ... 32 = a8 (1-4 white's back row); international 1..50 from black's
back row; Brazilian in algebraic notation (CBD art. 6A).
"""

from rig.board import Board


def legal(variant, fen):
    b = Board(variant, fen)
    return {(m.origin, m.destination, frozenset(m.captured), m.promotes) for m in b.legal_moves}


def mv(origin, destination, captured=(), promotes=False, variant=None):
    if variant is not None:  # algebraic names
        sq = Board(variant).variant.parse_square
        return (sq(origin), sq(destination), frozenset(sq(c) for c in captured), promotes)
    return (origin, destination, frozenset(captured), promotes)


# -- Portuguese, FPD 2026 -----------------------------------------------------------------------------

def test_fpd_3_3a_capture_is_compulsory():
    # man 14 (e4) could step to 19, but must take 18 (f5) landing on 21 (g6)
    assert legal("portuguese", "W:W14:B18") == {mv(14, 21, [18])}


def test_fpd_3_4a_men_capture_forward_only():
    # black man 10 (f3) is behind the white man 14 (e4), square 5 behind it free: no capture
    assert legal("portuguese", "W:W14:B10,30") == {mv(14, 18), mv(14, 19)}


def test_fpd_3_5a_king_captures_at_distance_lands_on_any_free_square():
    assert legal("portuguese", "W:WK1:B14") == {mv(1, d, [14]) for d in (19, 23, 28, 32)}


def test_fpd_3_5b_no_jump_over_two_adjacent():
    # king 1 (h1) faces 5 and 10 in a row on the Rio: no capture; only the man on 4 moves
    assert legal("portuguese", "W:WK1,4:B5,10") == {mv(4, 7), mv(4, 8)}


def test_fpd_3_6c_king_may_cross_start_square():
    # king 7 (c2) goes round d3, d5, b5, b3 either way and may end on its start square
    caps = [11, 12, 19, 20]
    assert legal("portuguese", "W:WK7:B11,12,19,20") == {mv(7, 7, caps), mv(7, 3, caps), mv(7, 4, caps)}


def test_fpd_3_7a_quantity():
    # man 9 takes 13 and 22 (two); man 3 could take only 7: the two must be taken
    assert legal("portuguese", "W:W3,9:B7,13,22") == {mv(9, 27, [13, 22])}


def test_fpd_3_7b_quality_prefers_kings():
    # man 14 can take the man on 18 or the king on 19, one piece each: the king must be taken
    assert legal("portuguese", "W:W14:B18,K19") == {mv(14, 23, [19])}


def test_fpd_3_7e_free_choice_between_man_and_king():
    # man 14 takes 18, king 4 takes 7: equal quantity and quality, either piece may capture
    assert legal("portuguese", "W:W14,K4:B7,18") == {mv(14, 21, [18]), mv(4, 11, [7])}


def test_fpd_3_8_captured_pieces_block():
    # Turkish strike: king 8 (a2) takes 15, 18, 10 and lands on 6 or 3; from 6 the man on 11 cannot be
    # taken because the captured man on 15 is still on the board right behind it
    caps = [10, 15, 18]
    assert legal("portuguese", "W:WK8:B10,11,15,18") == {mv(8, 6, caps), mv(8, 3, caps)}


def test_fpd_3_1d_promotion_on_the_far_row():
    assert legal("portuguese", "W:W26:B1") == {mv(26, 29, promotes=True), mv(26, 30, promotes=True)}
    assert legal("portuguese", "B:W32:B7") == {mv(7, 3, promotes=True), mv(7, 4, promotes=True)}


# -- International, FMJD ------------------------------------------------------------------------------

def test_fmjd_4_2_men_capture_backward():
    assert legal("international", "W:W33:B38") == {mv(33, 42, [38])}


def test_fmjd_4_13_majority():
    # man 33 takes 28 and 17 (two); man 45 could take only 40
    assert legal("international", "W:W33,45:B17,28,40") == {mv(33, 11, [17, 28])}


def test_fmjd_4_14_kings_no_priority():
    # man 33 may take the man on 28 or the king on 29: kings give no priority
    assert legal("international", "W:W33:B28,K29") == {mv(33, 22, [28]), mv(33, 24, [29])}


def test_fmjd_4_15_no_promotion_passing_far_row():
    # man 13 takes 8 landing on 2 (far row), then 7 landing on 11: it stays a man
    assert legal("international", "W:W13:B7,8") == {mv(13, 11, [8, 7])}


def test_fmjd_3_5_promotion_when_the_move_ends_on_the_far_row():
    assert legal("international", "W:W6:B50") == {mv(6, 1, promotes=True)}


def test_fmjd_4_8_king_may_not_jump_a_piece_twice():
    # the circuit of 3.6c on 10x10 is covered by the Portuguese test; here a king facing two adjacent men
    assert legal("international", "W:WK46,50:B41,37") == {mv(50, 44), mv(50, 45)}


# -- Brazilian, CODEX art. 89 (FMJD rules) ---------------------------------------------------------------

def test_codex_89_fmjd_4_2_men_capture_backward():
    assert legal("brazilian", "W:Wd4:Bc3") == {mv("d4", "b2", ["c3"], variant="brazilian")}


def test_codex_42_H_majority():
    # man a3 takes b4 and d6 (two); man g1 could take only f2
    got = legal("brazilian", "W:Wa3,g1:Bb4,d6,f2")
    assert got == {mv("a3", "e7", ["b4", "d6"], variant="brazilian")}


def test_codex_89_fmjd_4_14_kings_no_priority():
    got = legal("brazilian", "W:Wd4:Bc5,Ke5")
    assert got == {mv("d4", "b6", ["c5"], variant="brazilian"), mv("d4", "f6", ["e5"], variant="brazilian")}


def test_codex_89_fmjd_4_15_no_promotion_passing_far_row():
    assert legal("brazilian", "W:Wb6:Bc7,e7") == {mv("b6", "f6", ["c7", "e7"], variant="brazilian")}


def test_codex_89_fmjd_3_5_promotion():
    assert legal("brazilian", "W:Wg7:Ba1") == {mv("g7", "h8", promotes=True, variant="brazilian"),
                                                 mv("g7", "f8", promotes=True, variant="brazilian")}
