"""The FPD ballot openings (rig/data/ballots_fpd.json, FPD rules Appendix A.2/A.3)."""
import json
import re
from pathlib import Path

import pytest

import rig

DATA = Path(rig.__file__).parent / "data" / "ballots_fpd.json"
MOVE = re.compile(r"^([1-9]|[12][0-9]|3[0-2])([-x])([1-9]|[12][0-9]|3[0-2])$")
TABLES = {"two_move": 43, "three_move": 301}


@pytest.fixture(scope="module")
def ballots():
    with DATA.open(encoding="utf-8") as f:
        return json.load(f)


def test_source(ballots):
    assert "FPD" in ballots["source"] and "A.2" in ballots["source"] and "A.3" in ballots["source"]


@pytest.mark.parametrize("table,count", TABLES.items())
def test_count_and_contiguous_numbering(ballots, table, count):
    entries = ballots[table]
    assert len(entries) == count
    assert sorted(int(k) for k in entries) == list(range(1, count + 1))
    assert all(k == str(int(k)) for k in entries)  # no "01", no " 1"


@pytest.mark.parametrize("table", TABLES)
def test_notation(ballots, table):
    for number, moves in ballots[table].items():
        assert isinstance(moves, list) and moves, number
        for move in moves:
            m = MOVE.match(move)
            assert m, f"{table} {number}: bad move {move!r}"
            assert m.group(1) != m.group(3), f"{table} {number}: {move!r}"


@pytest.mark.parametrize("table", TABLES)
def test_no_duplicates(ballots, table):
    seen = {}
    for number, moves in ballots[table].items():
        key = tuple(moves)
        assert key not in seen, f"{table}: {number} repeats {seen[key]}"
        seen[key] = number


def test_lengths(ballots):
    # two moves each; three moves, plus an exchange (capture + recapture) where one occurs
    assert all(len(m) == 2 for m in ballots["two_move"].values())
    for number, moves in ballots["three_move"].items():
        captures = sum("x" in m for m in moves)
        assert len(moves) == 3 + captures, number
        assert captures in (0, 2), number


def test_three_move_extends_a_two_move_opening(ballots):
    starts = {tuple(m) for m in ballots["two_move"].values()}
    for number, moves in ballots["three_move"].items():
        assert tuple(moves[:2]) in starts, number


def test_corrections_are_applied(ballots):
    for c in ballots["corrections"]:
        assert ", ".join(ballots[c["table"]][str(c["number"])]) == c["corrected"]
        assert c["printed"] != c["corrected"]


@pytest.mark.parametrize("table", TABLES)
def test_every_line_replays_legally_on_a_portuguese_board(ballots, table):
    from rig.board import Board

    for number, moves in ballots[table].items():
        board = Board(variant="portuguese")
        for ply, text in enumerate(moves, 1):
            legal = board.legal_moves
            move = board.parse_move(text)  # raises IllegalMoveError if not legal
            assert any(m.key == move.key for m in legal), f"{table} {number} ply {ply}: {text}"
            assert move.origin == int(text.replace("x", "-").split("-")[0]), f"{table} {number}: {text}"
            assert move.destination == int(text.replace("x", "-").split("-")[1]), f"{table} {number}: {text}"
            # "x" exactly for captures, "-" exactly for plain moves
            assert bool(move.captured) == ("x" in text), f"{table} {number} ply {ply}: {text}"
            board.push(move)
