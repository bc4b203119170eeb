"""Regressions found by the soak test (bench/soak_transcribe.py): each case is the failing session of the
soak, rebuilt with the same game, seed, model, clock mode and injections, and read by the engine."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rig.reconstruct import Reconstructor, Settings
from rig.session import Frame
from rig.simulate import HumanModel, InjectionError, random_game, simulate_game
from simulate_helpers import midgame_case, real_games
from tests.reconstruct_helpers import line_to_quiet
from tests.session_builder import SessionBuilder, play_line, run


def read(session, settings: Settings | None = None) -> Reconstructor:
    engine = Reconstructor(session.header, settings)
    for ev in session.events:
        engine.feed(ev)
    engine.finish()
    return engine


def assert_reads(session, settings: Settings | None = None) -> None:
    engine = read(session, settings)
    assert [m.move_text for m in engine.moves] == session.expected_report_moves
    assert [m.move_text for m in engine.moves if not m.withdrawn] == session.expected_moves
    got = [{"type": i.type, "number": i.number, "side": i.side, "status": i.status} for i in engine.irregularities]
    assert got == [{k: d[k] for k in ("type", "number", "side", "status")} for d in session.expected_irregularities]


def test_second_move_at_the_end_of_a_clock_session_is_read():
    """The last turn is two moves; the second, after the press, ends the session: finish() reads it."""
    moves = random_game("international", 32, "soak:99000672")
    s = simulate_game("international", moves, seed=99000672, clock=True, inject=["two-moves@31"],
                      model=HumanModel.noisy())
    assert s.expected_irregularities[-1]["type"] == "two-moves"
    assert_reads(s)


def test_second_move_that_captures_without_clock_is_not_position_lost():
    """A second move that captures takes a piece of the side to move: both colours gone on a still board,
    yet one move of the side not to move explains it."""
    settings = Settings(touch_s=0.17, stable_s=1.8)
    moves = random_game("portuguese", 117, "soak:1000199")
    s = simulate_game("portuguese", moves[:30], seed=1000199, clock=False, inject=["two-moves@25"],
                      model=HumanModel.for_settings(settings, bounce_p=0.8, slide_p=0.9, landing_p=0.6))
    assert s.expected_report_moves[26].count("x") == 1
    assert_reads(s, settings)


def test_second_move_that_captures_with_clock_is_read_at_the_reply():
    """Clock: the removal of the piece the second move captured is not the opponent's start; his first
    lift after it reads the second move."""
    game = real_games("portuguese")[0]
    s = simulate_game("portuguese", game.moves, fen=game.fen, seed=2000161, clock=True,
                      inject=["two-moves@19", "illegal-move@12"], model=HumanModel.noisy(), tags=game.tags)
    assert s.expected_report_moves[20] == "19x10"
    assert_reads(s, Settings(bounce_s=0.055, stable_s=2.2))


def test_move_after_a_pass_by_black_opens_the_next_number():
    """Black presses without moving (FPD 7.5b) and white plays on: white's move is the next number, as the
    PDN reader counts it after the setup, and later irregularities carry that number."""
    settings = Settings(bounce_s=0.06, touch_s=0.17, stable_s=2.2)
    moves = random_game("international", 65, "soak:1000465")
    s = simulate_game("international", moves[:53], seed=1000465, clock=True,
                      inject=["clock-without-move@47", "capture-not-taken@50"],
                      model=HumanModel.for_settings(settings))
    engine = read(s, settings)
    assert [(m.number, m.side) for m in engine.moves][46:49] == [(24, "white"), (25, "white"), (25, "black")]
    assert_reads(s, settings)


def test_two_moves_refused_when_the_first_ends_the_game():
    """The simulator does not ask for a second move once the first left the opponent without a move."""
    moves = random_game("portuguese", 76, "soak:2001024")
    with pytest.raises(InjectionError, match="ends the game"):
        simulate_game("portuguese", moves, seed=2001024, clock=False, inject=["two-moves@54"])


def test_king_slide_starts_after_the_bounce_of_its_lift():
    """Noisy hands, a king sliding 3-16 at once after the opponent's move: the bounce of the lift from 3 is
    over before the slide closes 7 (no square is closed between two of a slide), so the engine reads the lift
    first and the move stands (before: the place on 7 came first, and the board was taken as lost)."""
    moves = random_game("portuguese", 55, "soak:2002609")
    s = simulate_game("portuguese", moves, seed=2002609, clock=False, model=HumanModel.noisy())
    turn = s.turns[29]
    assert turn.texts == ("3-16",)
    changes = [(f.t, sq) for prev, f in zip(s.frames, s.frames[1:]) if turn.start_t <= f.t <= turn.end_t
               for sq in prev.occupied ^ f.occupied]
    assert max(t for t, sq in changes if sq == 3) < min(t for t, sq in changes if sq == 7)
    assert_reads(s)


def test_game_not_over_while_a_wrongly_removed_last_piece_can_be_put_back():
    """Black's king move, then he takes off white's last piece and presses, then puts it back: the game is not
    over at the press (the correction gives white his move back), and white's next moves are read."""
    moves = random_game("brazilian", 78, "soak:2002685")
    s = simulate_game("brazilian", moves, seed=2002685, clock=True, inject=["wrong-piece-removed@51:corrected"])
    assert s.expected_irregularities[-1]["status"] == "corrected" and len(s.expected_moves) == 54
    assert_reads(s)
    engine = read(s)
    assert engine.result == "0-1" and engine.moves[-1].move_text == "g3xe5"


def test_capture_removed_early_is_over_before_the_piece_lands():
    """Noisy hands, no clock: 21x5 with 10 taken off while the capturing piece is under way; the bounce of that
    removal ends before the piece lands on 5, so the engine sees the removal first (capture-removed-early)."""
    moves = random_game("portuguese", 34, "soak:2000762")
    s = simulate_game("portuguese", moves, seed=2000762, clock=False, inject=["capture-removed-early@11"],
                      model=HumanModel.noisy())
    turn = s.turns[11]
    assert turn.texts == ("21x5",)
    changes = [(f.t, sq) for prev, f in zip(s.frames, s.frames[1:]) if turn.start_t <= f.t <= turn.end_t
               for sq in prev.occupied ^ f.occupied]
    assert max(t for t, sq in changes if sq == 10) < min(t for t, sq in changes if sq == 5)
    assert_reads(s)


def test_reply_to_a_pass_never_puts_the_board_back():
    """White passes (clock-without-move) after black's king went 8-4; black's planned 4-8 would put the board
    back as before his move, the same contacts and presses as 8-4 taken back and a press of black without a
    move: the simulator plays another move, and the engine reads the pass."""
    moves = random_game("portuguese", 77, "soak:1003863")
    s = simulate_game("portuguese", moves, seed=1003863, clock=True, inject=["clock-without-move@60"],
                      model=HumanModel.noisy())
    assert any("put the board back" in n for n in s.notes)
    assert s.expected_moves[59] == "8-4" and s.expected_moves[60] != "4-8"
    assert_reads(s)


@pytest.mark.parametrize("clock, settings", [(False, Settings(bounce_s=0.048, touch_s=0.13, stable_s=1.7)),
                                             (True, Settings(bounce_s=0.06, touch_s=0.17, stable_s=2.2))])
def test_second_move_that_captures_at_the_end_is_not_an_irregular_move_of_the_opponent(clock, settings):
    """The real game's last turn is two moves of black, the second a3xc5 taking white's b4, and the session
    ends: a legal capture of black explains the board exactly, not white's b4-c5 with a capture not taken and
    a3 wrongly removed."""
    game = real_games("brazilian")[0]
    s = simulate_game("brazilian", game.moves[:34], fen=game.fen, seed=1003366, clock=clock,
                      inject=["two-moves@33"], model=HumanModel.for_settings(settings))
    assert s.expected_moves[-2:] == ["c5-d4", "a3xc5"]
    assert_reads(s, settings)


def test_capture_back_to_its_origin_touches_down_its_landings():
    """Noisy hands skip landings, but a capture ending on its origin (d4xd4, four pieces) is shown square by
    square: straight to the last square it would be the piece lifted and put back (a touch)."""
    moves = random_game("brazilian", 50, "soak:2004355")
    s = simulate_game("brazilian", moves[:14], seed=2004355, clock=False, model=HumanModel.noisy())
    turn = s.turns[10]
    assert turn.texts == ("d4xd4",)
    squares = {sq for prev, f in zip(s.frames, s.frames[1:]) if turn.start_t <= f.t <= turn.end_t
               for sq in prev.occupied ^ f.occupied}
    assert len(squares) > 5           # d4, the four captured pieces, and landing squares between
    assert_reads(s)


@pytest.mark.parametrize("settings", [Settings(bounce_s=0.04, touch_s=0.18, stable_s=2.5), Settings(touch_s=0.25),
                                      Settings(stable_s=3.0), Settings(bounce_s=0.02, touch_s=0.1, stable_s=1.5)])
def test_model_for_other_settings(settings):
    """HumanModel.for_settings moves its ranges with the thresholds (the soak could only use settings within
    a few ms of the defaults): the model builds, and the engine with those settings reads its sessions."""
    assert HumanModel.for_settings(Settings()) == HumanModel()
    model = HumanModel.for_settings(settings, bounce_p=0.8, slide_p=0.9, landing_p=0.6)
    assert model.hold_s[0] > settings.touch_s and model.slow_reply_s[0] > settings.stable_s
    for clock in (True, False):
        s = simulate_game("international", random_game("international", 30, 5), seed=5, clock=clock, model=model)
        assert_reads(s, settings)


def test_capture_not_taken_is_never_a_plain_move_onto_a_capture_square():
    """Black's king on 7 must take three pieces 7x18; the plain move 7-18, lifted and set down with nothing
    removed, is the same board as that capture with its pieces left standing: the simulator picks another
    plain move, and the engine reads capture-not-taken."""
    settings = Settings(bounce_s=0.02, touch_s=0.1, stable_s=1.5)
    moves = random_game("portuguese", 53, "soak:3000071")
    s = simulate_game("portuguese", moves[:40], seed=3000071, clock=True, inject=["capture-not-taken@37"],
                      model=HumanModel.for_settings(settings))
    assert s.expected_irregularities[0]["type"] == "capture-not-taken" and s.expected_moves[37] != "7-18"
    assert_reads(s, settings)


def test_capture_with_several_paths_is_expected_as_the_hands_play_it():
    """A king's capture of five pieces with two landing paths (real game, international): the hands follow the
    game's path and touch down on its landings, and the expected text names that path, as the engine reads it
    (before: the hands took a random path and the answer named the game's)."""
    game = real_games("international")[16]
    settings = Settings(touch_s=0.17, stable_s=1.8)
    s = simulate_game("international", game.moves[:72], fen=game.fen, seed=1007880, clock=False,
                      inject=["illegal-move@55"], model=HumanModel.for_settings(settings), tags=game.tags)
    assert s.expected_moves[70] == "5x19x8x17x33x15"
    assert_reads(s, settings)


def test_capture_stopped_short_is_not_put_right_by_the_opponents_landing():
    """Black's king stops 17x3 short (capture-incomplete); white plays 7-12, then black lifts 3 for 3x16. The
    board then shows 17x12 over 6 and 7 exactly, but 12 closed before 3 was lifted: no hand puts a piece down
    before lifting it, so the landing is white's move and the capture stopped short stands (not read as put
    right, then 12-16 as a second move)."""
    settings = Settings(bounce_s=0.06, touch_s=0.2)
    moves = random_game("portuguese", 30, "soak:5000456")
    s = simulate_game("portuguese", moves, seed=5000456, clock=False, inject=["capture-incomplete@21"],
                      model=HumanModel.for_settings(settings))
    assert s.expected_moves[21:24] == ["17x3", "7-12", "3x16"]
    assert_reads(s, settings)


def test_piece_left_standing_long_ago_lifted_after_a_captured_piece_begins_the_reply():
    """Real game 13 (international), hard hands, no clock: black's capture at move 5 leaves 29 standing (accepted,
    play goes on with it). At move 9 black's 13x24 takes 19; 19 opens (his last removal, or white lifting it),
    then white lifts 29 for 29x20. The old standing reading of 29 made that lift a stuck switch freeing itself
    (the 19 lift kept pending): the engine read a second 13x24 and dismissed a capture-not-removed at move 9.
    A pending lift of a piece the capture just took is the mover's removal; 29's lift begins the reply."""
    game = real_games("international")[13]
    s = simulate_game("international", game.moves[:24], fen=game.fen, seed=5000379, clock=False,
                      inject=["capture-not-removed@9"], model=HumanModel.hard(), tags=game.tags)
    assert s.expected_moves[17:19] == ["13x24", "29x20"]
    assert [d["number"] for d in s.expected_irregularities] == [5]
    assert_reads(s)


def test_early_removal_before_a_slow_landing_on_its_square_stands_portuguese_no_clock():
    """Portuguese, hard hands, no clock: white's 19x28 takes 23 off 0.14 s before landing (capture-removed-early),
    then black's 32x23 lands on 23 under a slow magnet, its switch closing 28 ms after 28's removal. The dead-switch
    reading (23 dying under the piece, working again at that closing) explained both early removals; with the
    second closer than ``removal_margin_s`` to its landing there is no second one to explain (a slow magnet), so
    white's stands, open (before: dismissed, the switch named dead)."""
    moves = random_game("portuguese", 53, "soak:11005361")
    s = simulate_game("portuguese", moves[:20], seed=11005361, clock=False, inject=["capture-removed-early@18"],
                      model=HumanModel.hard())
    assert s.expected_moves[18:20] == ["19x28", "32x23"]
    assert_reads(s)
    assert read(s).sensor_faults == []


@pytest.mark.parametrize("variant, plies, seed, inject, cut, played", [
    ("portuguese", 45, 11003111, ["capture-removed-early@15", "clock-without-move@18"], 20, "22-18"),
    ("brazilian", 61, 11003890, ["clock-without-move@43"], 45, "h2-g3")])
def test_move_after_a_pass_waits_for_its_slow_landing_beside_a_phantom_with_clock(variant, plies, seed, inject, cut,
                                                                                  played):
    """Hard hands, clock: after the opponent's pass, the reply's piece is lifted, a neighbour phantom closes
    beside its path and the press comes before the landing's slow magnet closes. The press of the side not to
    move with a closing less than ``touch_s`` before it waits ``magnet_s`` (as the mover's press does), and the
    landing reads the move (before: the phantom read as an illegal move of the side that passed)."""
    moves = random_game(variant, plies, f"soak:{seed}")
    s = simulate_game(variant, moves[:cut], seed=seed, clock=True, inject=inject, model=HumanModel.hard())
    assert s.expected_moves[cut - 2] == played
    assert any(q.kind == "neighbour-phantom" and q.ply == cut - 1 for q in s.behaviours)
    assert_reads(s)


def test_standing_reread_undone_when_the_piece_is_captured_later_portuguese_no_clock():
    """Real game 0 (portuguese), hard hands, no clock: black's 26x19 leaves white's 22 standing
    (capture-not-removed), then black plays 21-17 where 27x18 over 22 is due (capture-not-taken). At that turn a
    switch stuck closed under a removed 22 reads the same, and the capture was re-read so. Two plies later black's
    27x18 takes 22, its square opening as the removal: read with 22 standing, one legal capture; read stuck, an
    illegal 27-18. The capture refutes the switch: the re-read is undone, both irregularities stand open, the
    report's moves are the game's and the fault is kept withdrawn (before: 27-18 illegal, capture-not-removed
    dismissed)."""
    game = real_games("portuguese")[0]
    s = simulate_game("portuguese", game.moves[:14], fen=game.fen, seed=11004312, clock=False,
                      inject=["capture-not-removed@7", "capture-not-taken@9"], model=HumanModel.hard(), tags=game.tags)
    assert s.expected_moves[11] == "27x18"
    assert [d["type"] for d in s.expected_irregularities] == ["capture-not-removed", "capture-not-taken"]
    assert_reads(s)
    engine = read(s)
    assert [(f.kind, bool(f.withdrawn)) for f in engine.sensor_faults] == [("stuck-closed", True)]
    assert not any("re-read as removed" in o.detail for o in engine.observations)


@pytest.mark.parametrize("plies, seed, clock, inject, cut, index, played", [
    (110, 13001118, True, ["capture-not-removed@12", "capture-incomplete@14"], 18, 15, "c3xe5"),
    (93, 13004153, False, ["capture-not-removed@20", "capture-not-taken@23"], 27, 24, "f4xb4")],
    ids=["clock", "no_clock"])
def test_standing_reread_undone_when_the_piece_is_played_or_captured_brazilian(plies, seed, clock, inject, cut,
                                                                               index, played):
    """Brazilian, noisy hands, with clock (the piece left standing later captures, played from its square) and
    without (it is captured): a real capture-not-removed, then an irregularity only the standing piece makes
    (capture-incomplete / capture-not-taken) re-read the capture as a switch stuck closed under a removed piece.
    The square opens in a turn that, read with the piece standing, is exactly one legal move of it or capture of
    it, and read stuck no legal move: the re-read is undone (before: an illegal plain move, and with the clock a
    cascade of accepted irregularities)."""
    moves = random_game("brazilian", plies, f"soak:{seed}")
    s = simulate_game("brazilian", moves[:cut], seed=seed, clock=clock, inject=inject, model=HumanModel.noisy())
    assert s.expected_moves[index] == played
    assert_reads(s)
    assert all(f.withdrawn for f in read(s).sensor_faults)


@pytest.mark.parametrize("health", [True, False], ids=["health", "frames_only"])
def test_stuck_switch_freeing_in_a_neighbours_capture_keeps_the_reread_international_clock(health):
    """bench_faults --midgame, international game 2, ply 27, stuck-closed-recovering-2, clock: 13's switch sticks
    closed, 18x9 takes 13 (its removal unseen: read left standing, then re-read as the switch, the moves after it
    played as if 13 were gone), and the switch frees itself two plies later, during 12x23 over the neighbouring 18.
    Read with 13 standing, no turn since captures or plays 13: nothing refutes the switch, the re-read stands (the
    undo of standingundo.py must not fire), the game is read exactly and the fault stands until it freed."""
    s, r, square = midgame_case("international", 2, 27, "stuck-closed-recovering-2", True, health, plies=34)
    assert s.expected_moves[27:30] == ["18x9", "27x18", "12x23"]
    assert [m.move_text for m in r.moves if not m.withdrawn] == s.expected_moves
    assert all(i.status == "dismissed" for i in r.irregularities)
    stuck = [f for f in r.sensor_faults if f.square == square and f.kind == "stuck-closed"]
    assert stuck and not any(f.withdrawn for f in stuck) and stuck[-1].until is not None

def test_king_slide_read_as_two_steps_waits_for_its_slow_landing_international_with_clock():
    """International, hard hands, clock: black's king slides 23-46 over 28, 32, 37 and 41; a neighbour phantom
    closes 33 beside the path 0.14 s before the press and the landing on 46 closes under a slow magnet after it.
    At the press the board (-23 +33, with 28 crossed) reads as two moves 23-28, 28-33; their second destination
    closed less than ``touch_s`` before the press, so the press waits ``magnet_s`` as for one move, and 23-46 is
    read (before: a two-moves irregularity and the next move illegal)."""
    game = real_games("international")[3]
    s = simulate_game("international", game.moves[:46], fen=game.fen, seed=12004438, clock=True,
                      inject=["illegal-move@13"], model=HumanModel.hard(), tags=game.tags)
    assert s.expected_moves[45] == "23-46"
    assert any(q.kind == "neighbour-phantom" and q.ply == 45 for q in s.behaviours)
    assert_reads(s)


def test_phantom_on_the_square_the_last_move_left_at_the_press_waits_for_the_landing_portuguese_with_clock():
    """Portuguese, hard hands, clock: white's 8-12, black's press without a move, then white plays 12-15 (a
    change of mind on 16 first). A neighbour phantom closes 8 42 ms before white's press and the landing on 15
    closes under a slow magnet 35 ms after it: at the press the board reads as before 8-12. A press less than
    ``touch_s`` after the closing that put the board back waits ``magnet_s`` (the time line that comes with it
    settles nothing meanwhile); 15 closing then 8 opening read 12-15 (before: 8-12 taken back, a clock-without-move
    of white and an illegal 8-15)."""
    moves = random_game("portuguese", 99, "soak:12002845")
    s = simulate_game("portuguese", moves[:33], seed=12002845, clock=True,
                      inject=["capture-not-removed@5", "clock-without-move@31"], model=HumanModel.hard())
    assert s.expected_report_moves[30:32] == ["8-12", "12-15"]
    assert any(q.kind == "neighbour-phantom" and q.ply == 32 and q.squares == (8,) for q in s.behaviours)
    assert_reads(s)


@pytest.mark.parametrize("variant", ["portuguese", "brazilian", "international"])
@pytest.mark.parametrize("gap", [0.03, 0.08])
def test_take_back_pressed_at_once_after_a_pass_stands_with_clock(variant, gap):
    """The same switches played by a player: after the opponent's pass he takes his move back and presses
    ``gap`` s later, the board staying so. The press waits ``magnet_s`` and reads the take-back and the press
    without a move, as a press read at once did."""
    b = play_line(SessionBuilder(variant), line_to_quiet(variant), True)
    first = b.board.legal_moves[0]
    b.play(first).press("white")
    b.press("black", 1.0)
    b.lift(first.destination, 1.0).place(first.origin).press("white", gap)
    b.wait(2.0).frame()
    e = run(b)
    number = e.moves[-1].number
    assert [(i.type, i.number, i.side) for i in e.irregularities][-3:] == [
        ("clock-without-move", number, "black"), ("move-taken-back", number, "white"),
        ("clock-without-move", number, "white")]
    assert e.moves[-1].withdrawn


def test_phantom_after_a_press_held_while_a_wrongly_removed_piece_is_off_international_with_clock():
    """International, hard hands, clock: black's 21x23 takes 27 and 28, and black takes off white's 46 first
    (wrong-piece-removed), then 27 and 28, and presses: with 46 off, what follows tells (his opponent's turn begun
    with that lift, or the mover's wrong removal). White then plays 34-29; a neighbour phantom closes 24 14 ms
    before 34's lift is confirmed and opens 145 ms later. 24 is no square 46 can reach: its closing is 46's
    landing only once it stays closed ``touch_s``; 34 lifted while 46 stays off shows black's wrong removal
    (before: 46's lift read as white's start, capture-not-removed for black, capture-not-taken and
    own-piece-removed for white)."""
    moves = random_game("international", 59, "soak:12004074")
    s = simulate_game("international", moves[:51], seed=12004074, clock=True, inject=["wrong-piece-removed@49"],
                      model=HumanModel.hard())
    assert s.expected_moves[49:51] == ["21x23", "34-29"]
    assert any(q.kind == "neighbour-phantom" and q.ply == 50 and q.squares == (24,) for q in s.behaviours)
    assert_reads(s)


def test_slow_landing_after_a_capture_left_standing_is_not_a_stuck_switch_portuguese_with_clock():
    """Portuguese, hard hands, clock: black's king 17x1 leaves 5 and 22 standing (capture-not-removed), white's
    king 32-19 presses 55 ms before 19 closes under a slow magnet. At the press the board shows no legal move,
    and 32-5 (a landing on the standing piece's square, read stuck closed) explains it: the stuck-landing reading
    came before the magnet wait. The press now waits ``magnet_s`` first, 19 closes, 32-19 is read and the
    capture-not-removed stands open (before: dismissed, 5 and 22 named stuck-closed, 32-5 read)."""
    moves = random_game("portuguese", 88, "soak:13003730")
    s = simulate_game("portuguese", moves[:57], seed=13003730, clock=True, inject=["capture-not-removed@55"],
                      model=HumanModel.hard())
    assert s.expected_moves[55:57] == ["17x1", "32-19"]
    assert any(q.kind == "slow-magnet" and q.ply == 56 and q.squares == (19,) for q in s.behaviours)
    assert_reads(s)
    assert read(s).sensor_faults == []


def _early_removal_on_a_quick_removal_case(**changes):
    """Real game 0 (portuguese), hard hands, no clock (soak 5000627, cut): black's 14x5 takes 10, then white's 1x10
    lands on 10 with 5 taken off before its landing (the injected capture-removed-early)."""
    game = real_games("portuguese")[0]
    return simulate_game("portuguese", game.moves[:21], fen=game.fen, seed=5000627, clock=False,
                         inject=["capture-removed-early@20"], model=HumanModel.hard(**changes), tags=game.tags)


def test_early_removal_on_the_square_the_last_capture_cleared_at_once_is_an_observation_portuguese_no_clock():
    """5 closes under a slow magnet 0.16 s after black's piece is down, and 10 reads off 125 ms later (under
    ``touch_s``): by the engine's measure no deliberate removal, and a switch dying under 10 then, working again
    under white's landing, gives the same frames, so white's early removal of 5 is unproven (replyfirst.py). The
    simulator's oracle now expects the observation the engine keeps, not a certain irregularity (before: a miss)."""
    s = _early_removal_on_a_quick_removal_case()
    assert s.expected_moves[19:] == ["14x5", "1x10"]
    assert any(q.kind == "slow-magnet" and q.ply == 19 and q.squares == (5,) for q in s.behaviours)
    assert s.expected_observations == [{"type": "capture-removed-early", "number": 11, "side": "white"}]
    assert_reads(s)
    assert ("capture-removed-early", 11, "white") in [(o.type, o.number, o.side) for o in read(s).observations]


def test_early_removal_on_the_square_the_last_capture_cleared_deliberately_stands_portuguese_no_clock():
    """The same turns with black's removal of 10 read ``touch_s`` or more after 5 closed: frames as the simulator
    makes them without slow magnets (the oracle then expects the irregularity), and the soak's own frames with that
    removal put 60 ms later (185 ms after the closing). capture-removed-early is raised, open, in both."""
    s = _early_removal_on_a_quick_removal_case(slow_magnet_p=0.0)
    assert s.expected_moves[19:] == ["14x5", "1x10"] and s.expected_observations == []
    assert [(i["type"], i["number"]) for i in s.expected_irregularities] == [("capture-removed-early", 11)]
    assert_reads(s)
    s = _early_removal_on_a_quick_removal_case()
    frames = [ev for ev in s.events if isinstance(ev, Frame)]
    removal = [f.t for a, f in zip(frames, frames[1:]) if 48.7 < f.t < 48.9 and 10 in a.occupied ^ f.occupied]
    assert removal and all(48.77 < t < 48.80 for t in removal)
    events = [replace(ev, t=round(ev.t + 0.06, 4)) if isinstance(ev, Frame) and ev.t in removal else ev
              for ev in s.events]
    engine = Reconstructor(s.header, None)
    for ev in events:
        engine.feed(ev)
    engine.finish()
    assert [m.move_text for m in engine.moves] == s.expected_moves
    assert [(i.type, i.number, i.side, i.status) for i in engine.irregularities] == [
        ("capture-removed-early", 11, "white", "open")]


def _standing_piece_lifted_at_a_held_press_case():
    """Portuguese, hard hands, clock (soak 14004670, cut): black's 17x10 leaves white's 13 standing
    (capture-not-removed); 18 plies later black's 11x2 (taking 6) takes off 13 as well (wrong-piece-removed), presses
    with it off, and puts it back 0.7 s later (corrected); then white's 8-12."""
    moves = random_game("portuguese", 70, "soak:14004670")
    return simulate_game("portuguese", moves[:29], seed=14004670, clock=True,
                         inject=["capture-not-removed@9", "wrong-piece-removed@27:corrected"], model=HumanModel.hard())


def test_standing_piece_put_back_after_a_held_press_is_no_switch_freeing_portuguese_with_clock():
    """At the held press's commit (13 closing again: the piece put back), the board at the press (13 off) showed no
    legal move, and recovery.py read 13 as a switch stuck since the capture and freeing now: the capture-not-removed
    dismissed, the 18 moves since read again, then 13's closing read into white's 8-12 (an illegal move). A square
    that closed again by the commit did not stay open: no re-read, and the press stands with the wrong removal
    corrected."""
    s = _standing_piece_lifted_at_a_held_press_case()
    assert s.expected_moves[27:] == ["11x2", "8-12"]
    assert_reads(s)
    assert read(s).sensor_faults == []


def test_standing_square_that_stays_open_after_a_held_press_is_a_switch_freeing_portuguese_with_clock():
    """The same frames with 13 never closing again (a switch stuck under a removed piece, freeing during black's
    11x2): read as before, the switch named stuck-closed and recovered, the capture-not-removed dismissed with an
    observation (a piece left standing and a stuck switch freed read the same)."""
    s = _standing_piece_lifted_at_a_held_press_case()
    back = next(ev.t for ev in s.events if isinstance(ev, Frame) and 140.5 < ev.t < 141 and 13 in ev.occupied)
    events = [replace(ev, occupied=ev.occupied - {13}) if isinstance(ev, Frame) and ev.t >= back else ev
              for ev in s.events]
    engine = Reconstructor(s.header, None)
    for ev in events:
        engine.feed(ev)
    engine.finish()
    assert [m.move_text for m in engine.moves if not m.withdrawn] == s.expected_moves
    assert [(i.type, i.number, i.status) for i in engine.irregularities] == [("capture-not-removed", 5, "dismissed")]
    assert ("capture-not-removed", 5) in [(o.type, o.number) for o in engine.observations]
    assert [(f.square, f.kind) for f in engine.sensor_faults] == [(13, "stuck-closed")]
