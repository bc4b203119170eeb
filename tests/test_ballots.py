"""Ballot openings: lookup, checking a record against a drawn ballot, the FPD Appendix A data."""

import pytest

from rig.ballots import BallotError, TABLES, ballots, check_ballot, get_ballot
from rig.board import Board
from rig.errors import IllegalMoveError

# A small hand-written table in the file's format, independent of the packaged data.
SMALL = {
    "source": "test",
    "two_move": {"1": ["9-13", "21-17"], "2": ["11-15", "22-18"]},
    "three_move": {"1": ["10-14", "23-19", "14x23", "27x20", "9-13"], "2": ["11-15", "22-18", "15x22"]},
}


def test_lookup_by_number():
    b = get_ballot("two_move", 2, SMALL)
    assert (b.table, b.number, b.moves) == ("two_move", 2, ("11-15", "22-18"))
    assert str(b) == "FPD A.2 no. 2: 11-15, 22-18"
    assert [x.number for x in ballots("three_move", SMALL)] == [1, 2]


def test_unknown_table_or_number():
    with pytest.raises(BallotError, match="unknown ballot table 'four_move'"):
        get_ballot("four_move", 1, SMALL)
    with pytest.raises(BallotError, match="not 3"):
        get_ballot("two_move", 3, SMALL)
    with pytest.raises(KeyError):
        get_ballot("two_move", 0, SMALL)


def test_check_follows_text_moves():
    check = check_ballot(["10-14", "23-19", "14x23", "27x20", "9-13", "20-16"], "three_move", 1, SMALL)
    assert check.ok and check.complete and check.ply is None
    assert str(check).endswith(": followed")


def test_check_accepts_other_capture_notation_and_board_history():
    board = Board("portuguese")
    for text in ("10-14", "23-19", "14:23", "27x20", "9-13"):
        board.push(board.parse_move(text))
    assert check_ballot(board, "three_move", 1, SMALL).complete


def test_check_unfinished_record():
    check = check_ballot(["10-14", "23-19"], "three_move", 1, SMALL)
    assert check.ok and not check.complete


def test_check_first_deviating_ply():
    check = check_ballot(["10-14", "23-19", "14x23", "28x19"], "three_move", 1, SMALL)
    assert not check.ok
    assert (check.ply, check.expected, check.played) == (3, "27x20", "28x19")
    assert "leaves the ballot at 2... 28x19 (expected 27x20)" in str(check)


def test_check_rejects_an_illegal_record_move():
    with pytest.raises(IllegalMoveError):
        check_ballot(["10-14", "24-19"], "three_move", 1, SMALL)


def test_check_rejects_other_variants():
    with pytest.raises(BallotError, match="Portuguese"):
        check_ballot(Board("brazilian"), "two_move", 1, SMALL)


# -- the packaged FPD data (rig/data/ballots_fpd.json) ---------------------------------------------

@pytest.mark.parametrize("table", TABLES)
def test_fpd_appendix_a_counts(table):
    article, count = TABLES[table]
    entries = ballots(table)
    assert [b.number for b in entries] == list(range(1, count + 1))


@pytest.mark.parametrize("table", TABLES)
def test_fpd_appendix_a_every_line_replays_legally(table):
    for ballot in ballots(table):
        board = Board("portuguese")
        for text in ballot.moves:
            board.push(board.parse_move(text))  # raises IllegalMoveError on a bad line
        assert check_ballot(board, table, ballot.number).complete, ballot


def test_fpd_a3_247_exchange():
    b = get_ballot("three_move", 247)
    assert b.moves == ("12-15", "23-20", "11-14", "20x11", "6x15")
    check = check_ballot(["12-15", "23-20", "11-14", "20x11", "6x15"], "three_move", 247)
    assert check.ok and check.complete
    check = check_ballot(["12-15", "23-20", "7-12"], "three_move", 247)
    assert (check.ok, check.ply, check.expected, check.played) == (False, 2, "11-14", "7-12")
