"""PDN files from the wild (issue 9 part 4), one test per case: a comment before the first game's tags,
a GameType naming another numbering, a FEN whose side to move is ``?``, a capture written short where
two paths take different pieces, a game of another variant without a GameType."""

from __future__ import annotations

from pathlib import Path

from rig.cli import main
from rig.pdn import read_games
from rig.variants import INTERNATIONAL

DATA = Path(__file__).parent / "data"


def test_international_comment_before_the_first_games_tags_is_not_a_game(tmp_path: Path, capsys) -> None:
    text = ('{Exported by ExampleSite 2.1 - 2 games}\n'
            '[Event "a"]\n[GameType "20"]\n\n{opening: Roozenburg} 1. 32-28 19-23 *\n\n'
            '{next: round 2}\n'
            '[Event "b"]\n[GameType "20"]\n\n1. 33-28 18-23 *\n\n'
            '{end of file}\n')
    result = read_games(text)
    assert result.ok and result.game_count == 2 and [g.tags["Event"] for g in result.games] == ["a", "b"]
    assert result.comments == [(1, "Exported by ExampleSite 2.1 - 2 games"), (7, "next: round 2"),
                               (13, "end of file")]
    assert result.games[0].comment == "opening: Roozenburg"  # a comment inside a game stays with it
    path = tmp_path / "site.pdn"
    path.write_text(text)
    assert main(["pdn", "check", str(path)]) == 0
    assert capsys.readouterr().out.strip() == "2 games, 2 replayed legally"


def test_international_gametype_with_another_numbering_is_read_with_it() -> None:
    # N1: square 1 in white's bottom-right corner (i1), counting right to left, bottom to top: the
    # FMJD square n (N2) is 51 - n. The standard opening 32-28 19-23 28x19 14x23 written in N1:
    text = ('[GameType "20,W,10,10,N1,0"]\n[FEN "W:W1-20:B31-50"]\n\n'
            '1. 19-23 32-28 2. 23x32 37x28 3. 14-19 *\n')
    game = read_games(text).games[0]
    assert game.variant is INTERNATIONAL and game.numbering == "N1"
    assert game.initial_fen is None  # the FEN tag is the initial position, renumbered
    replay = game.replay()
    assert replay.ok, replay.error
    assert [str(m) for m in replay.moves] == ["32-28", "19-23", "28x19", "14x23", "37-32"]
    pdn = game.to_record().to_pdn()
    assert '[GameType "20,W,10,10,N2,0"]' in pdn and "1. 32-28 19-23 2. 28x19 14x23 3. 37-32 *" in pdn


def test_international_fen_with_unknown_side_to_move_takes_the_side_from_the_moves() -> None:
    black = read_games('[GameType "20"]\n[FEN "?:W32:B19"]\n\n19-23 32-28 *\n').games[0]
    replay = black.replay()
    assert black.side_unknown and replay.ok and replay.boards[0].turn is False
    assert replay.labels == ["1... 19-23", "2. 32-28"]
    assert black.to_record().initial_fen == "B:W32:B19"
    white = read_games('[GameType "20"]\n[FEN "?:W32:B19"]\n\n1. 32-28 19-23 *\n').games[0]
    assert white.replay().ok and white.replay().boards[0].turn is True
    neither = read_games('[GameType "20"]\n[FEN "?:W32:B19"]\n\n1. 32-23 *\n').games[0].replay()
    assert not neither.ok and "illegal move '32-23'" in neither.error.reason


def test_international_short_capture_with_two_paths_is_resolved_by_the_rest_of_the_game() -> None:
    # K16 takes 21 and 12 either over 28 or over 44, landing on 1 both ways (4.13: three pieces each)
    head = '[GameType "20"]\n[FEN "W:WK16:B12,21,28,44"]\n\n'
    over_28 = read_games(head + "1. 16x1 44-50 *\n").games[0].replay()   # 44 still stands: 28 was taken
    over_44 = read_games(head + "1. 16x1 28-33 *\n").games[0].replay()   # 28 still stands: 44 was taken
    assert over_28.ok and over_28.moves[0].captured == (21, 28, 12)
    assert over_44.ok and over_44.moves[0].captured == (21, 44, 12)
    assert over_28.board.fen() == "W:WK1:BK50" and len(over_28.boards) == 3
    game = read_games(head + "1. 16x1 28-33 *\n").games[0]
    assert "1. 16x49x40x1 28-33" in game.to_record().to_pdn().replace("\n", " ")  # written in full from now on
    either = read_games(head + "1. 16x1 *\n").games[0].replay()
    assert not either.ok and "ambiguous" in either.error.reason and "replays either way" in either.error.reason
    neither = read_games(head + "1. 16x1 12-17 *\n").games[0].replay()
    assert not neither.ok and neither.error.index == 0 and "does not tell which" in neither.error.reason


def test_portuguese_game_without_gametype_says_what_it_probably_is(tmp_path: Path, capsys) -> None:
    source = (DATA / "portuguese" / "damasedamas_2008_deodato_carvalho.pdn").read_text()
    text = "\n".join(line for line in source.splitlines() if not line.startswith("[GameType"))
    replay = read_games(text).games[0].replay()  # read as the default, international
    assert not replay.ok and replay.error.index == 0
    assert "replays as portuguese" in replay.error.reason and '[GameType "28,W,8,8,N1,1"]' in replay.error.reason
    assert "--variant portuguese" in replay.error.reason
    path = tmp_path / "club.pdn"
    path.write_text(text)
    assert main(["pdn", "check", str(path)]) == 1
    assert "replays as portuguese" in capsys.readouterr().out
    assert read_games(text, "portuguese").games[0].replay().ok  # named: read as it is


def test_8x8_game_of_a_variant_the_rig_does_not_play_is_named_as_such() -> None:
    # plays in none of the rig's variants, names only squares 1-32: an 8x8 game of another variant
    replay = read_games("1. 1-5 *\n").games[0].replay()
    assert not replay.ok
    assert "probably an 8x8 game of a variant the rig does not play" in replay.error.reason
    assert 'English draughts [GameType "21"]' in replay.error.reason
    # a game with a GameType gets no guess: it named its variant
    named = read_games('[GameType "20"]\n1. 1-5 *\n').games[0].replay()
    assert not named.ok and "GameType" not in named.error.reason
