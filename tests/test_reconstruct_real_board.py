"""Real-board habits on the hard preset (issue 9 parts 1-2): each a minimal session of the habit as the
soak found it misread, per variant and clock mode; an alarm is raised only where the frames prove it."""

from __future__ import annotations

import pytest

from reconstruct_helpers import VARIANTS
from rig.board import Board
from session_builder import SessionBuilder, run


def _on_from_destination(board: Board):
    """A plain first move ``a-b`` after which, the opponent passing, the piece on ``b`` moves on."""
    for m1 in board.legal_moves:
        if m1.captured:
            continue
        after = board.copy()
        after.push(m1)
        after.turn = board.turn
        on = [m for m in after.legal_moves if m.origin == m1.destination and not m.captured]
        if on:
            return m1, on[0]
    raise AssertionError("no piece that can move twice")


def _pass_then_move_on_with_phantom(variant: str):
    """White plays a-b and presses; black presses without a move (clock-without-move); white moves the piece
    on b on, and as he lifts it the switch of a, next to it, reads closed 120 ms (a neighbour phantom): for
    25 ms the board reads as before a-b."""
    b = SessionBuilder(variant, clock_header=True)
    m1, m2 = _on_from_destination(b.board)
    b.play(m1).press("white").press("black", 1.0)
    b.board.turn = True                       # black passed
    b.lift(m2.origin, 1.0).put(m1.origin, "w", 0.3).place(m2.destination, 0.025, "w")
    b.lift(m1.origin, 0.12)                   # the phantom ends
    b.board.push(m2)
    b.press("white")
    return b, m1, m2


@pytest.mark.parametrize("variant", VARIANTS)
def test_neighbour_phantom_not_move_taken_back_after_a_pass_clock(variant):
    b, m1, m2 = _pass_then_move_on_with_phantom(variant)
    e = run(b)
    name = b.variant.square_name
    assert [m.move_text for m in e.moves] == [f"{name(m1.origin)}-{name(m1.destination)}",
                                              f"{name(m2.origin)}-{name(m2.destination)}"]
    assert not any(m.withdrawn for m in e.moves)
    assert [(i.type, i.side) for i in e.irregularities] == [("clock-without-move", "black")]


@pytest.mark.parametrize("variant", VARIANTS)
def test_move_taken_back_after_a_pass_still_read_clock(variant):
    """The same hands putting the piece back on a for good: the take-back is read (at its placement)."""
    b = SessionBuilder(variant, clock_header=True)
    m1, _ = _on_from_destination(b.board)
    b.play(m1).press("white").press("black", 1.0)
    b.lift(m1.destination, 1.0).put(m1.origin, "w", 0.3)
    placed = b.t
    b.wait(2.0).frame()
    e = run(b)
    assert [(i.type, i.side) for i in e.irregularities] == [("clock-without-move", "black"),
                                                          ("move-taken-back", "white")]
    assert e.irregularities[1].t == placed
    assert e.moves[0].withdrawn


CLOCKS = [pytest.param(True, id="clock"), pytest.param(False, id="no-clock")]


def _capture_read_late(variant: str, clock: bool, gap: float):
    """A single capture whose landing's switch closes late (a slow magnet): the captured piece's removal is
    read ``gap`` s before the landing."""
    from test_reconstruct_observations import _capture_with_removal_before_landing

    return _capture_with_removal_before_landing(variant, clock, gap)


@pytest.mark.parametrize("clock", CLOCKS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_slow_magnet_not_capture_removed_early(variant, clock):
    """The soak's false alarm: the landing read 40 ms after the removal. A slow magnet closes up to 0.25 s
    late and a hand needs 0.2 s to go from the released piece to the captured one: an observation."""
    b, cap = _capture_read_late(variant, clock, 0.04)
    e = run(b)
    assert e.irregularities == []
    assert [(o.type, o.squares) for o in e.observations] == [("capture-removed-early", cap.captured)]
    assert "40 ms" in e.observations[0].why


@pytest.mark.parametrize("clock", CLOCKS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_removal_beyond_the_magnet_margin_is_capture_removed_early(variant, clock):
    b, cap = _capture_read_late(variant, clock, 0.06)
    e = run(b)
    assert [(i.type, i.squares) for i in e.irregularities] == [("capture-removed-early", cap.captured)]
    assert e.observations == []


THREE = {"brazilian": ("W:Wa1,h2:Bb2,d4,f6,h8", "a1xg7"), "international": ("W:W46:B41,32,22,12", "46x8")}


@pytest.mark.parametrize("clock", CLOCKS)
@pytest.mark.parametrize("variant", sorted(THREE))
def test_two_at_once_not_capture_removed_out_of_order(variant, clock):
    """Two captured pieces taken off together: their switches' bounce dates the second a few ms before the
    first; the order jumped cannot be told from that (FMJD 4.11, CODEX art. 89), so no observation."""
    fen, text = THREE[variant]
    b = SessionBuilder(variant, fen, clock_header=clock)
    cap = b.board.parse_move(text)
    b.play(cap, remove=False)
    first, second, third, *rest = cap.captured
    b.remove(first, 0.3).remove(third, 0.3).remove(second, 0.006)   # 2nd and 3rd together, 3rd dated first
    for s in rest:
        b.remove(s, 0.3)
    if clock:
        b.press("white")
    b.wait(3.0).frame()
    e = run(b)
    assert [m.move_text for m in e.moves] == [text]
    assert e.irregularities == [] and e.observations == []


@pytest.mark.parametrize("clock", CLOCKS)
@pytest.mark.parametrize("variant", sorted(THREE))
def test_removal_out_of_order_still_observed(variant, clock):
    fen, text = THREE[variant]
    b = SessionBuilder(variant, fen, clock_header=clock)
    cap = b.board.parse_move(text)
    first, second, third, *rest = cap.captured
    b.play(cap, order=(first, third, second, *rest))
    if clock:
        b.press("white")
    b.wait(3.0).frame()
    e = run(b)
    assert e.irregularities == []
    assert [o.type for o in e.observations] == ["capture-removed-out-of-order"]


def _reply_held_off(variant: str, then_play: bool):
    """No clock: a move, then the opponent lifts a piece at once and thinks with it in hand 3 s (the board
    still for longer than stable_s); then he plays it (``then_play``), or the session ends with it off."""
    b = SessionBuilder(variant)
    b.play(b.board.legal_moves[0])
    reply = next(m for m in b.board.legal_moves if not m.captured)
    b.lift(reply.origin, 0.4)
    if then_play:
        b.place(reply.destination, 3.0)
        b.board.push(reply)
    b.wait(3.0).frame()
    return b, reply


@pytest.mark.parametrize("variant", VARIANTS)
def test_fast_reply_held_in_hand_then_played_no_observation_no_clock(variant):
    """The piece off on a still board came down as its owner's move from its square: his hand had it."""
    b, reply = _reply_held_off(variant, True)
    e = run(b)
    assert len(e.moves) == 2 and e.irregularities == []
    assert e.observations == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_fast_reply_held_off_to_the_end_is_an_observation_no_clock(variant):
    """Never played: whose hand took it off, the sensors never told (the observation stays)."""
    b, reply = _reply_held_off(variant, False)
    e = run(b)
    assert len(e.moves) == 1 and e.irregularities == []
    assert [(o.type, o.squares) for o in e.observations] == [("wrong-piece-removed", (reply.origin,))]


@pytest.mark.parametrize("clock", CLOCKS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_neighbour_phantom_on_the_square_left_at_the_reply(variant, clock):
    """White plays a-b; as black lifts his piece a phantom closes a (next to black's path) for 65 ms, dated
    4 ms before black's lift by the lift's bounce: white's move is read without it, no irregularity."""
    b = SessionBuilder(variant, clock_header=clock)
    m1 = b.board.legal_moves[0]
    b.play(m1)
    if clock:
        b.press("white")
    reply = next(m for m in b.board.legal_moves if not m.captured)
    b.put(m1.origin, "w", 0.4).lift(reply.origin, 0.004).lift(m1.origin, 0.061)
    b.place(reply.destination, 0.4, "b")
    b.board.push(reply)
    if clock:
        b.press("black")
    b.wait(3.0).frame()
    e = run(b)
    name = b.variant.square_name
    assert [m.move_text for m in e.moves] == [f"{name(m1.origin)}-{name(m1.destination)}",
                                              f"{name(reply.origin)}-{name(reply.destination)}"]
    assert e.irregularities == []


def _soak_case(variant: str, seed: int, plies: int, clock: bool, inject=()):
    """A soak session (bench/soak_transcribe.py ``--case``): a random game, the hard preset."""
    from rig.simulate import HumanModel, random_game, simulate_game

    return simulate_game(variant, random_game(variant, plies, f"soak:{seed}"), seed=seed, clock=clock,
                         inject=list(inject), model=HumanModel.hard())


def _assert_reads(session) -> None:
    from rig.reconstruct import Reconstructor

    e = Reconstructor(session.header)
    for ev in session.events:
        e.feed(ev)
    e.finish()
    assert [m.move_text for m in e.moves] == session.expected_report_moves
    got = [(i.type, i.number, i.side, i.status) for i in e.irregularities]
    assert got == [(d["type"], d["number"], d["side"], d["status"]) for d in session.expected_irregularities]


def test_neighbour_phantom_on_a_captured_square_at_the_reply_brazilian_no_clock():
    """Soak seed 11, case 11001137: white's a5xe5 taken off; as black lifts b8 a phantom closes d6 (a
    captured square, next to b8-c7) 0.7 ms before: was capture-not-removed, opponent-piece-touched, and
    black's b8-c7 a capture-not-taken."""
    s = _soak_case("brazilian", 11001137, 25, False)
    assert any(q.kind == "neighbour-phantom" and q.squares == (10,) for q in s.behaviours)
    _assert_reads(s)


def test_neighbour_phantom_not_move_taken_back_after_a_pass_brazilian_clock():
    """Soak seed 7, case 7002605: f6-e7, black presses without a move, white e7-f8 with a 150 ms phantom on
    f6 (dated to the end of its bounce): was move-taken-back and illegal-move."""
    s = _soak_case("brazilian", 7002605, 63, True, ["position-lost@50", "clock-without-move@41"])
    _assert_reads(s)


def test_two_at_once_flown_king_capture_path_told_by_removals_portuguese_no_clock():
    """Soak seed 23, case 23002187: a king's 31x22x15x24 flown (slides only), 27 and 19 taken off together;
    the path 31x9x2x24 (27, 5, 20) fitted the board as well until 19 left: 19's lift is a removal of the other
    path, not black starting (was capture-not-removed 5, 20 and own-piece-removed)."""
    s = _soak_case("portuguese", 23002187, 105, False)
    _assert_reads(s)


def test_neighbour_phantom_on_a_piece_taken_off_brazilian_no_clock():
    """Soak seed 11, case 11001962 (real game 0): black's c5xa3, b4 taken off; as white lifts e3 (his
    e3xc5) a phantom closes b4 for 149 ms: b4 is still off, black's capture stands exact (was
    capture-not-removed, opponent-piece-touched, wrong/own-piece-removed and an illegal move)."""
    from rig.simulate import HumanModel, simulate_game
    from simulate_helpers import real_games

    game = real_games("brazilian")[0]
    s = simulate_game("brazilian", game.moves, fen=game.fen, seed=11001962, clock=False, model=HumanModel.hard(),
                      tags=game.tags)
    _assert_reads(s)


def test_neighbour_phantom_beside_a_slow_magnet_king_slide_brazilian_clock():
    """Soak seed 1, case 1001013: a king slides b8-h2, h2's switch closes late (slow magnet), a phantom closes
    e3 beside the slide 98 ms before the early press: the press waits for the landing (was b8-e3, an
    illegal move, then corrected)."""
    s = _soak_case("brazilian", 1001013, 98, True, ["own-piece-removed@11:corrected"])
    _assert_reads(s)


def test_neighbour_phantom_beside_a_slow_magnet_king_slide_portuguese_clock():
    """Soak seed 7, case 7000683: a king slides 29-15, a phantom closes 25 beside it and 15's switch closes
    late, after the early press: the board showed 29-25 (legal) at the press, which waits for the landing
    (was 29-25, then black's reply an illegal move)."""
    s = _soak_case("portuguese", 7000683, 106, True, ["touched-piece-not-moved@41"])
    _assert_reads(s)


def test_neighbour_phantom_where_a_standing_captured_piece_could_go_international_no_clock():
    """Soak seed 7, case 7001480 (real game 6): white's 38x27, 32 taken off (its lift read as black maybe
    starting with the piece left standing); a phantom closes 21 (where 32 could capture to) for 82 ms: not
    black's move with 32 (was capture-not-removed and own-piece-removed)."""
    from rig.simulate import HumanModel, simulate_game
    from simulate_helpers import real_games

    game = real_games("international")[6]
    s = simulate_game("international", game.moves, fen=game.fen, seed=7001480, clock=False,
                      inject=["capture-not-taken@106"], model=HumanModel.hard(), tags=game.tags)
    _assert_reads(s)


def test_neighbour_phantom_where_a_standing_captured_piece_could_go_portuguese_no_clock():
    """Soak seed 11, case 11000461: black's flown 27x4, 7 taken off last; a phantom on 11 (where 7 can move)
    for 89 ms: was capture-not-removed, then position-lost."""
    s = _soak_case("portuguese", 11000461, 57, False)
    _assert_reads(s)


def test_neighbour_phantom_beside_a_slow_magnet_at_the_reply_brazilian_no_clock():
    """Soak seed 11, case 11000203 (real game 1): white's b2-c3 read 79 ms late (slow magnet), a phantom
    closes d2 12 ms before black lifts d4 for d4xb2: the move is read without d2 alone (was
    wrong-piece-removed, touched-piece-not-moved, piece-moved-after-release and an illegal move)."""
    from rig.simulate import HumanModel, simulate_game
    from simulate_helpers import real_games

    game = real_games("brazilian")[1]
    s = simulate_game("brazilian", game.moves, fen=game.fen, seed=11000203, clock=False,
                      inject=["position-lost@44"], model=HumanModel.hard(), tags=game.tags)
    _assert_reads(s)


def test_flown_capture_stopped_early_path_told_by_removals_brazilian_clock():
    """Soak seed 7, case 7001042: white's e3xe3 circuit stopped at g5 by way of c5 and e7 (d4, d6, f6),
    flown; g5 also ends e3xg5 over f4 alone: the removals of f6 and d6 belong to the longer way, not to
    black starting (was capture-not-removed, wrong-piece-removed and own-piece-removed)."""
    s = _soak_case("brazilian", 7001042, 95, True, ["capture-incomplete@8"])
    _assert_reads(s)


def test_own_piece_removed_just_after_a_capture_not_the_opponents_capture_brazilian_no_clock():
    """Soak (normal preset) seed 1, case 1001435: white's c5xe7 takes d6 off, then 0.16 s later his own e5 (the
    injected own-piece-removed); d6 could have captured e5: only a landing would make it black's capture
    (was capture-not-removed, and black's move read as a capture-not-taken)."""
    from rig.simulate import HumanModel, random_game, simulate_game

    s = simulate_game("brazilian", random_game("brazilian", 103, "soak:1001435"), seed=1001435, clock=False,
                      inject=["own-piece-removed@40"], model=HumanModel())
    _assert_reads(s)


def test_king_circuit_path_told_by_the_removal_order_international_no_clock():
    """Soak seed 7, case 7002351: a king's 4x13x27x16x2x13x24 touches down on 27, 16, 2 and 13, the same
    landings as 4x13x2x16x27x13x24 taking the same pieces; the removals (19, 8, 7, 21, 18, 9: the jumped
    order reversed) tell which (was read as the other path)."""
    s = _soak_case("international", 7002351, 92, False)
    _assert_reads(s)
