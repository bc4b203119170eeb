"""Property tests (hypothesis): FEN and PDN round trips, and a reader that never crashes."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rig.board import Board
from rig.fen import FenPosition, make_fen, parse_fen
from rig.pdn import ClockStamp, GameRecord, read_game, read_games
from rig.pdn.gametype import result_text
from rig.variants import VARIANTS, get_variant

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
variants = st.sampled_from(sorted(VARIANTS))


@st.composite
def positions(draw, variant_name: str | None = None):
    v = get_variant(variant_name or draw(variants))
    codes = draw(st.lists(st.sampled_from(".wWbB"), min_size=v.squares, max_size=v.squares))
    sq = {c: frozenset(i + 1 for i, x in enumerate(codes) if x == c) for c in "wWbB"}
    return v, FenPosition(draw(st.booleans()), sq["w"], sq["W"], sq["b"], sq["B"])


@SETTINGS
@given(positions())
def test_fen_round_trip(vp):
    v, pos = vp
    fen = make_fen(pos, v)
    assert parse_fen(fen, v) == pos
    assert Board(v, fen).fen() == fen
    # readers accept what the wild writes: lower case, a trailing dot, quotes
    assert parse_fen(f'"{fen.lower()}."', v) == pos


# -- random legal games --------------------------------------------------------------------------

comments = st.one_of(st.none(), st.text(st.characters(blacklist_characters="{}%\x00", blacklist_categories=("Cs",)),
                                        max_size=30))
clocks = st.one_of(
    st.none(),
    st.builds(lambda w, b, r: ClockStamp(w * 1000, b * 1000, r),
              st.integers(0, 3 * 3600), st.integers(0, 3 * 3600), st.sampled_from([True, False, None])),
    st.builds(lambda b: ClockStamp(None, b * 1000, None), st.integers(0, 7200)),
)
tag_values = st.text(st.characters(blacklist_characters="\n\r\x00", blacklist_categories=("Cs", "Zl", "Zp")),
                     max_size=20)


def _expected_comment(text: str | None) -> str | None:
    if text is None:
        return None
    t = text.strip()
    return t or None


@st.composite
def games(draw):
    v = get_variant(draw(variants))
    board = Board(v)
    for _ in range(draw(st.integers(0, 7))):  # start from a position of a random game (either side to move)
        moves = board.legal_moves
        if not moves:
            break
        board.push(moves[draw(st.integers(0, len(moves) - 1))])
    tags = {"Event": draw(tag_values), "White": draw(tag_values), "Annotator": draw(tag_values)}
    record = GameRecord(v, tags, board.fen())
    board = Board(v, board.fen())
    for _ in range(draw(st.integers(0, 30))):
        if draw(st.integers(0, 9)) == 0:  # an accepted irregular position: a piece removed, maybe the turn kept
            pieces = board.pieces()
            if len(pieces) > 2:
                gone = draw(st.sampled_from(sorted(pieces)))
                del pieces[gone]
            board.set_pieces(pieces, draw(st.booleans()))
            record.add_setup(board.fen(), draw(comments), draw(clocks))
            continue
        moves = board.legal_moves_all_paths()
        if not moves:
            break
        move = moves[draw(st.integers(0, len(moves) - 1))]
        record.add_move(board, move, draw(comments), draw(clocks))
        board.push(move)
    record.set_result(result_text(v, draw(st.sampled_from(["white", "black", "draw", None]))))
    return record


@SETTINGS
@given(games())
def test_pdn_round_trip(record):
    text = record.to_pdn()
    game = read_game(text, "portuguese" if record.variant.name != "portuguese" else "international")
    assert game.variant is record.variant
    replay = game.replay()
    assert replay.ok, replay.error
    back = game.to_record()
    assert back.tags == record.tags
    assert back.initial_fen == record.initial_fen and back.result == record.result
    assert len(back.nodes) == len(record.nodes)
    for got, want in zip(back.nodes, record.nodes):
        assert got.move_text == want.move_text
        assert got.setup_fen == want.setup_fen
        assert (got.move is None) == (want.move is None)
        if want.move is not None:
            assert got.move.key == want.move.key
        assert got.comment == _expected_comment(want.comment)
        assert got.clock == want.clock
    assert back.to_pdn() == text
    assert replay.board.key() == record.position().key()


@settings(max_examples=150, deadline=None)
@given(st.text(st.sampled_from('[]{}()"/\\%;$!?*.-x: \n\tW:B,K0123456789abcdehEvntFN'), max_size=120), variants)
def test_reader_never_crashes_and_errors_point_inside_the_text(text, variant):
    result = read_games(text, variant)
    lines = text.split("\n")
    assert result.game_count >= len(result.games)
    for err in result.errors:
        assert 1 <= err.line <= len(lines)
        assert 1 <= err.column <= len(lines[err.line - 1]) + 1
        assert err.message
    for game in result.games:
        game.replay()
