"""PDN 3.0: results, GameType, clocks, the writer, the reader (wild forms, errors), replay, `rig pdn check`."""

from __future__ import annotations

import pytest

from rig.board import Board
from rig.cli import main
from rig.errors import IllegalMoveError, RigError
from rig.pdn import (ClockStamp, GameRecord, GameTypeError, MoveNode, PdnSyntaxError, parse_gametype, parse_result,
                     read_file, read_game, read_games, result_text, write_game)
from rig.pdn.clock import extract_clock, format_clock_time, parse_clock_time
from rig.pdn.record import ROSTER
from rig.variants import BRAZILIAN, INTERNATIONAL, PORTUGUESE, get_variant

# -- results and GameType ------------------------------------------------------------------------


@pytest.mark.parametrize("variant,outcome,text", [
    ("international", "white", "2-0"), ("international", "draw", "1-1"), ("international", "black", "0-2"),
    ("portuguese", "white", "1-0"), ("portuguese", "draw", "1/2-1/2"), ("brazilian", "black", "0-1"),
    ("brazilian", None, "*"), ("international", None, "*"),
])
def test_result_text_follows_rules_md(variant, outcome, text):
    assert result_text(get_variant(variant), outcome) == text
    assert parse_result(text, get_variant(variant)) == outcome


@pytest.mark.parametrize("text,outcome", [("1-0", "white"), ("0-1", "black"), ("1/2-1/2", "draw"), ("½-½", "draw"),
                                          ("2-0", "white"), ("1-1", "draw"), ("0-0", None)])
def test_parse_result_accepts_both_styles_and_old_forms(text, outcome):
    assert parse_result(text, INTERNATIONAL) == outcome
    assert parse_result(text, PORTUGUESE) == outcome


def test_parse_result_rejects_unknown_text():
    with pytest.raises(PdnSyntaxError, match="3-0"):
        parse_result("3-0", PORTUGUESE)
    with pytest.raises(ValueError):
        result_text(PORTUGUESE, "nobody")


@pytest.mark.parametrize("text,variant", [
    ("20", INTERNATIONAL), ("20,W,10,10,N2,0", INTERNATIONAL), ("26", BRAZILIAN), ("26,W,8,8,A0,0", BRAZILIAN),
    ("26,W,8,8,N2,0", BRAZILIAN), ("28", PORTUGUESE), ("28,W,8,8,N1,1", PORTUGUESE), (" 28 , W,8,8,N1 ", PORTUGUESE),
])
def test_gametype_maps_to_variant(text, variant):
    assert parse_gametype(text).variant is variant


def test_full_gametype_round_trips():
    for v in (INTERNATIONAL, BRAZILIAN, PORTUGUESE):
        assert str(parse_gametype(v.pdn_gametype)) == v.pdn_gametype


@pytest.mark.parametrize("text,what", [
    ("21", "English draughts"), ("25,W,8,8,A0,0", "Russian"), ("20,W,8,8,N2,0", "10x10"),
    ("20,W,10,10,S2,0", "short notation"), ("20,W,10,10,X2,0", "not 'number"), ("twenty", "not 'number"),
])
def test_gametype_errors_say_what(text, what):
    with pytest.raises(GameTypeError, match=what):
        _ = parse_gametype(text).variant


# -- clocks ---------------------------------------------------------------------------------------


def test_clock_command_marks_the_running_clock_upper_case():
    assert ClockStamp(3_550_000, 3_723_000, False).command() == "[%clock w0:59:10 B1:02:03]"
    assert ClockStamp(3_550_000, 3_723_000, True).command() == "[%clock W0:59:10 b1:02:03]"
    assert ClockStamp(59_999, None, None).command() == "[%clock w0:00:59]"


def test_clock_times_parse_and_format():
    assert parse_clock_time("1:02:03") == 3_723_000
    assert parse_clock_time("02:03") == 123_000
    assert parse_clock_time("0:00:01.5") == 1_500
    assert format_clock_time(3_723_999) == "1:02:03"
    with pytest.raises(PdnSyntaxError):
        parse_clock_time("1:99:00")


def test_extract_clock_reads_clock_and_clk_and_keeps_the_text():
    clock, rest, problem = extract_clock("Optional leading comments [%clock w0:49:11 B0:50:00] trailing", True)
    assert clock == ClockStamp(2_951_000, 3_000_000, False)
    assert rest == "Optional leading comments trailing" and problem is None
    # [%clk H:MM:SS]: the clock of the side that just moved
    assert extract_clock("[%clk 1:55:21]", False)[0] == ClockStamp(None, 6_921_000, None)
    assert extract_clock("[%clk 1:55:21]", True)[0] == ClockStamp(6_921_000, None, None)
    # the DGT example with colour letters
    assert extract_clock("[%clk w0:00:10 B0:00:03]", True)[0] == ClockStamp(10_000, 3_000, False)
    assert extract_clock("[%clock 1:xx]", True)[2] is not None


def test_clock_stamp_validates():
    with pytest.raises(ValueError):
        ClockStamp(None, None)
    with pytest.raises(ValueError):
        ClockStamp(-1, 0)


# -- writing ---------------------------------------------------------------------------------------


def _play(record: GameRecord, board: Board, *texts: str, **kw) -> None:
    for t in texts:
        move = board.parse_move(t)
        record.add_move(board, move, **kw)
        board.push(move)


def test_writer_tags_roster_first_then_full_gametype_and_fen():
    rec = GameRecord("international", {"TimeControl": "5400+30", "White": "Sijbrands, Ton", "Event": "WK"},
                     initial_fen="B:W31-50:B1-20")
    assert list(rec.tags)[:7] == list(ROSTER)
    text = rec.to_pdn()
    lines = text.splitlines()
    assert lines[:10] == ['[Event "WK"]', '[Site "?"]', '[Date "????.??.??"]', '[Round "?"]',
                          '[White "Sijbrands, Ton"]', '[Black "?"]', '[Result "*"]',
                          '[GameType "20,W,10,10,N2,0"]', '[FEN "B:W31-50:B1-20"]', '[TimeControl "5400+30"]']
    assert text.endswith("*\n\n")


def test_writer_moves_numbers_clocks_comments_result():
    rec = GameRecord("portuguese")
    b = Board("portuguese")
    _play(rec, b, "11-15", clock=ClockStamp(599_000, 600_000, False))
    _play(rec, b, "22-18", comment="the usual")
    rec.set_result("1-0")
    movetext = write_game(rec).split("\n\n")[1]
    assert movetext == "1. 11-15 {[%clock w0:09:59 B0:10:00]} 22-18 {the usual} 1-0"
    assert '[Result "1-0"]' in rec.to_pdn()


def test_writer_brazilian_is_algebraic_and_international_results():
    rec = GameRecord("brazilian")
    b = Board("brazilian")
    _play(rec, b, "c3-d4", "f6-g5")
    assert "1. c3-d4 f6-g5 *" in rec.to_pdn()
    rec.set_result("2-0")  # the other style is normalized to the variant's
    assert rec.result == "1-0"
    intl = GameRecord("international", result="1/2-1/2")
    assert intl.result == "1-1" and intl.tags["Result"] == "1-1"


def test_writer_black_to_move_and_setups_keep_the_numbering():
    rec = GameRecord("international", initial_fen="B:W31-50:B1-20")
    b = Board("international", "B:W31-50:B1-20")
    _play(rec, b, "19-23", "32-28")
    rec.add_setup("B:W28,31,33-50:B1-18,20", comment="irregular position accepted")
    b = Board("international", "B:W28,31,33-50:B1-18,20")
    _play(rec, b, "14-19")
    movetext = " ".join(rec.to_pdn().split("\n\n")[1].split())
    assert movetext == ('1... 19-23 2. 32-28 /FEN "B:W28,31,33-50:B1-18,20"/ {irregular position accepted} '
                        '2... 14-19 *')


def test_full_path_only_when_two_captures_read_the_same():
    # 47x36 can take two different sets of pieces (as in PDN 3.0 "Restrictions"); found by a search.
    fen = "W:WK47:B2,7,14,25,31,32,42"
    board = Board("international", fen)
    caps = [m for m in board.legal_moves if m.origin == 47 and m.destination == 36]
    assert len(caps) == 2
    rec = GameRecord("international", initial_fen=fen)
    rec.add_move(board, caps[0])
    assert rec.nodes[0].move_text == caps[0].text(full_path=True) and rec.nodes[0].move_text.count("x") == 3
    plain = Board("international")
    rec2 = GameRecord("international")
    rec2.add_move(plain, plain.parse_move("32-28"))
    assert rec2.nodes[0].move_text == "32-28"


def test_add_move_checks_position_and_legality():
    rec = GameRecord("portuguese")
    b = Board("portuguese")
    with pytest.raises(IllegalMoveError):
        rec.add_move(b, Board("portuguese").parse_move("11-15").__class__(11, 16, (11, 16)))
    other = Board("portuguese")
    other.push(other.parse_move("11-15"))
    with pytest.raises(ValueError, match="add_setup"):
        rec.add_move(other, other.parse_move("22-18"))
    with pytest.raises(ValueError):
        rec.add_move(Board("brazilian"), Board("brazilian").parse_move("c3-d4"))


def test_comments_lose_closing_braces_and_tag_values_are_escaped():
    rec = GameRecord("portuguese", {"Event": 'The "Cup" \\ 2026'})
    b = Board("portuguese")
    _play(rec, b, "11-15", comment="a } b")
    text = rec.to_pdn()
    assert '[Event "The \\"Cup\\" \\\\ 2026"]' in text
    assert "{a  b}" in text
    game = read_game(text, "portuguese")
    assert game.tags["Event"] == 'The "Cup" \\ 2026'
    assert game.nodes[0].comment == "a  b"


def test_initial_position_fen_is_not_written():
    rec = GameRecord("portuguese", initial_fen=Board("portuguese").fen())
    assert rec.initial_fen is None and "[FEN" not in rec.to_pdn()
    with pytest.raises(ValueError):
        GameRecord("portuguese", {"GameType": "20"})


def test_long_movetext_is_wrapped_without_splitting_units():
    rec = GameRecord("international")
    b = Board("international")
    for _ in range(40):
        m = b.legal_moves[0]
        rec.add_move(b, m, comment="a rather long comment that does not fit twice on one line")
        b.push(m)
    text = rec.to_pdn()
    body = text.split("\n\n")[1]
    assert all(len(line) <= 79 or line.startswith("{") for line in body.splitlines())
    assert [n.move_text for n in read_game(text).to_record().nodes] == [n.move_text for n in rec.nodes]


# -- reading ---------------------------------------------------------------------------------------

WILD = """% a line comment
[Event "Wild"]
[GameType "20"]
[FEN "W:W31-50:B1-20."]
{before the first move}
1. 32-28 {[%clk 1:59:00]} 19-23! 2. 28:19 $1 14x23 (2... 13x24 3. 33-29 (3. 37-32?) 24x33) 3. 37-32(?)
3. ... 10-14 ; rest of line comment
4. 41-37 1/2-1/2
"""


def test_reader_accepts_wild_forms():
    result = read_games(WILD)
    assert result.ok and result.game_count == 1
    game = result.games[0]
    assert game.variant is INTERNATIONAL and game.initial_fen is None
    assert game.comment == "before the first move"
    assert [n.text for n in game.nodes] == ["32-28", "19-23", "28:19", "14x23", "37-32", "10-14", "41-37"]
    assert game.nodes[0].clock == ClockStamp(7_140_000, None, None)
    assert game.result == "1/2-1/2"
    replay = game.replay()
    assert replay.ok and len(replay.boards) == 8
    assert replay.moves[2].captured == (23,)
    assert game.to_record().result == "1-1"


def test_reader_full_paths_and_algebraic_and_default_variant():
    text = "1. c3-d4 f6-g5 2. g3-h4 b6-a5 3. h4xf6 g7xe5xc3 4. b2xd4 *"
    game = read_game(text, "brazilian")
    assert game.variant is BRAZILIAN and game.replay().ok
    fen = "W:WK47:B2,7,14,25,31,32,42"
    board = Board("international", fen)
    for cap in (m for m in board.legal_moves if m.destination == 36):
        path = "x".join(map(str, cap.path))
        replay = read_game(f'[FEN "{fen}"]\n1. {path} *').replay()
        assert replay.ok and replay.moves[0].key == cap.key
    ambiguous = read_game(f'[FEN "{fen}"]\n1. 47x36 *').replay()
    assert not ambiguous.ok and "ambiguous" in ambiguous.error.reason


def test_reader_setups_in_the_movetext():
    text = ('[GameType "20"]\n/FEN "W:W31-50:B1-20"/\n/FEN "B:W28,31,33-50:B1-18,20"/\n'
            '01... 14-19 2. 28-23 {[%clock W0:01:00 b0:02:00]} 19x28 2-0\n')
    game = read_game(text)
    assert [n.is_setup for n in game.nodes] == [True, True, False, False, False]
    replay = game.replay()
    assert replay.ok and replay.labels[2:] == ["1... 14-19", "2. 28-23", "2... 19x28"]
    assert game.nodes[3].clock == ClockStamp(60_000, 120_000, True)
    assert replay.board.fen() == "W:W31,33-50:B1-13,15-18,20,28"


def test_reader_games_without_result_are_split_at_the_next_tags():
    text = '[Event "a"]\n1. 32-28 19-23\n\n[Event "b"]\n1. 33-29 *\n*\n'
    result = read_games(text)
    assert result.game_count == 2 and [g.tags["Event"] for g in result.games] == ["a", "b"]
    assert result.games[0].result == "*" and result.games[1].line == 4


def test_reader_result_tag_used_when_terminator_is_star():
    game = read_game('[Result "2-0"]\n1. 32-28 *')
    assert game.result == "2-0"


def test_reader_accepts_crlf_and_bom():
    text = '\ufeff[Event "x"]\r\n[GameType "28"]\r\n\r\n1. 11-15 22-18 *\r\n'
    game = read_game(text)
    assert game.variant is PORTUGUESE and game.replay().ok


# -- malformed input --------------------------------------------------------------------------------


def _only_error(text: str, variant: str = "international"):
    result = read_games(text, variant)
    assert len(result.errors) == 1, result.errors
    return result, result.errors[0]


def test_unterminated_tag_says_where_and_what():
    result, err = _only_error('[Event "x"]\n[White "Sijbrands\n1. 32-28 *\n[Event "y"]\n1. 33-29 *\n')
    assert (err.line, err.column, err.game) == (2, 1, 0)
    assert "unterminated tag White" in err.message
    assert [g.tags["Event"] for g in result.games] == ["y"] and result.game_count == 2


def test_tag_without_closing_bracket():
    _, err = _only_error('[Event "x"\n1. 32-28 *\n')
    assert (err.line, err.column) == (1, 1) and "no closing ']'" in err.message


def test_unterminated_comment_says_where_and_reading_goes_on():
    text = '[Event "a"]\n1. 32-28 {oops 19-23\n2. 33-29 *\n\n[Event "b"]\n1. 32-28 *\n'
    result, err = _only_error(text)
    assert (err.line, err.column, err.game) == (2, 10, 0)
    assert "unterminated comment" in err.message
    assert [g.tags["Event"] for g in result.games] == ["b"]


@pytest.mark.parametrize("token", ["32-2a8", "3228x", "x32"])
def test_bad_move_token_says_where_and_what(token):
    text = f'[Event "a"]\n1. 32-28 19-23 2. {token} 2-0\n[Event "b"]\n1. 32-28 *\n'
    result, err = _only_error(text)
    assert err.line == 2 and err.column == 19
    assert token in err.message
    assert len(result.games) == 1


def test_illegal_move_is_a_replay_error_with_line_and_column():
    game = read_game('[GameType "20"]\n1. 32-28 19-23\n2. 28-22 *\n')
    replay = game.replay()
    assert not replay.ok
    e = replay.error
    assert (e.line, e.column, e.index, e.label) == (3, 4, 2, "2. 28-22")
    assert "illegal move" in e.reason and len(replay.moves) == 2
    with pytest.raises(PdnSyntaxError, match="line 3, column 4"):
        game.to_record()


def test_bad_fen_in_a_tag_says_where_and_what():
    _, err = _only_error('[Event "a"]\n[FEN "W:W31-50:X1-20"]\n1. 32-28 *\n')
    assert (err.line, err.column) == (2, 16)
    assert "bad FEN" in err.message and "W or B" in err.message
    _, err = _only_error('[FEN "W:W31-55:B1-20"]\n1. 32-28 *\n')
    assert err.line == 1 and "55" in err.message


def test_bad_setup_and_bad_gametype_and_stray_brackets():
    _, err = _only_error('1. 32-28 /FEN "W:W31-50:B1-20:B5"/ *\n')
    assert err.column == 31 and "given twice" in err.message
    _, err = _only_error('[GameType "21"]\n1. 22-18 *\n')
    assert (err.line, err.column) == (1, 12) and "English draughts" in err.message
    _, err = _only_error('1. 32-28 ) 19-23 *\n')
    assert err.column == 10 and "')'" in err.message
    _, err = _only_error('1. 32-28 ( 19-23 *\n')
    assert "not closed" in err.message
    _, err = _only_error('1. 32-28 / 19-23 *\n')
    assert "malformed setup" in err.message


def test_read_game_raises_the_first_error():
    with pytest.raises(PdnSyntaxError) as info:
        read_game('1. 32-28 {x\n')
    assert isinstance(info.value, RigError) and isinstance(info.value, ValueError)
    assert (info.value.line, info.value.column) == (1, 10)
    with pytest.raises(PdnSyntaxError, match="no game"):
        read_game("   \n")


def test_record_nodes_from_a_parsed_game():
    rec = read_game(WILD).to_record()
    assert isinstance(rec.nodes[0], MoveNode) and rec.nodes[2].move_text == "28x19"
    assert rec.comment == "before the first move"


# -- rig pdn check ---------------------------------------------------------------------------------


def test_check_command_reports_failures_and_counts(tmp_path, capsys):
    good = tmp_path / "good.pdn"
    good.write_text('[White "A"]\n[Black "B"]\n1. 32-28 19-23 2-0\n\n1. 33-29 *\n')
    bad = tmp_path / "bad.pdn"
    bad.write_text('[White "A"]\n[Black "B"]\n1. 32-28 19-23 2. 28-22 *\n\n1. 33-29 {x\n')
    assert main(["pdn", "check", str(good)]) == 0
    assert capsys.readouterr().out.splitlines() == ["2 games, 2 replayed legally"]
    assert main(["pdn", "check", str(good), str(bad)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{bad}: game 1 (A - B): move 2. 28-22 (line 3, column 19): illegal move")
    assert out[1].startswith(f"{bad}: game 2: line 5, column 10: unterminated comment")
    assert out[-1] == "4 games, 2 replayed legally"


def test_check_command_variant_option_and_unreadable_file(tmp_path, capsys):
    f = tmp_path / "pt.pdn"
    f.write_text("1. 11-15 22-18 *\n")
    assert main(["pdn", "check", "--variant", "portuguese", str(f)]) == 0
    assert main(["pdn", "check", str(f), str(tmp_path / "missing.pdn")]) == 2
    captured = capsys.readouterr()
    assert "missing.pdn: cannot read" in captured.err
    assert captured.out.splitlines()[-1] == "1 games, 0 replayed legally"


def test_read_file_decodes_latin1(tmp_path):
    f = tmp_path / "old.pdn"
    f.write_bytes('[White "Ant\u00f3nio"]\n[GameType "28"]\n1. 11-15 *\n'.encode("latin-1"))
    result = read_file(f)
    assert result.games[0].tags["White"] == "Ant\u00f3nio"
