"""Ballot (drawn) openings: the FPD two-move (43) and three-move (301) tables.

FPD rules (seed 000) Appendix A.2 and A.3, as data in ``rig/data/ballots_fpd.json``
(its extraction and the printing errors it corrects: ``rig/data/BALLOTS.md``).
A ballot is looked up by table and number; :func:`check_ballot` tells whether a
game's first moves follow the ballot that was drawn, and where they leave it.
Moves are compared as moves, not as text: ``11x18`` and ``11:18`` name the same
capture, and a capture written with its full path still matches.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Iterable, Literal

from rig.board import Board
from rig.errors import IllegalMoveError, RigError
from rig.move import Move

__all__ = ["Ballot", "BallotCheck", "BallotError", "TABLES", "get_ballot", "ballots", "check_ballot",
           "load_table"]

Table = Literal["two_move", "three_move"]

#: Table name -> (article, expected number of openings).
TABLES: dict[str, tuple[str, int]] = {"two_move": ("A.2", 43), "three_move": ("A.3", 301)}

DATA_FILE = "ballots_fpd.json"


class BallotError(RigError, KeyError):
    """An unknown ballot table or number, or a data file that is not what it should be."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


@dataclass(frozen=True)
class Ballot:
    """One opening of a table: its number and its moves in FPD notation (half-moves, white first)."""

    table: str
    number: int
    moves: tuple[str, ...]

    @property
    def article(self) -> str:
        return f"FPD {TABLES[self.table][0]}"

    def __str__(self) -> str:
        return f"{self.article} no. {self.number}: {', '.join(self.moves)}"


@dataclass(frozen=True)
class BallotCheck:
    """Result of :func:`check_ballot`.

    ``ok``: the record follows the ballot as far as both go; ``complete``: the
    record has played the whole ballot. On a deviation, ``ply`` is the 0-based
    half-move where it happens, ``expected`` the ballot's move there and
    ``played`` the record's.
    """

    ballot: Ballot
    ok: bool
    complete: bool
    ply: int | None = None
    expected: str | None = None
    played: str | None = None

    def __str__(self) -> str:
        if self.ok:
            state = "followed" if self.complete else "followed so far"
            return f"{self.ballot}: {state}"
        assert self.ply is not None   # set where the game leaves the ballot
        number, black = divmod(self.ply, 2)
        where = f"{number + 1}{'...' if black else '.'}"
        return f"{self.ballot}: leaves the ballot at {where} {self.played} (expected {self.expected})"


def _parse_table(data: dict, table: str, source: str) -> dict[int, Ballot]:
    if table not in TABLES:
        raise BallotError(f"unknown ballot table {table!r}; known: {', '.join(TABLES)}")
    try:
        entries = data[table]
    except KeyError:
        raise BallotError(f"{source}: no {table!r} table") from None
    out: dict[int, Ballot] = {}
    for key, moves in entries.items():
        if not str(key).isdigit() or not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise BallotError(f"{source}: {table} entry {key!r} must be a number with a list of moves")
        out[int(key)] = Ballot(table, int(key), tuple(moves))
    return out


def load_table(table: str, data: dict | None = None) -> dict[int, Ballot]:
    """The openings of one table, by number; from ``data`` (same format as the file) or the package data."""
    if data is not None:
        return _parse_table(data, table, "ballot data")
    return _packaged(table)


@lru_cache(maxsize=None)
def _packaged(table: str) -> dict[int, Ballot]:
    text = resources.files("rig").joinpath("data", DATA_FILE).read_text(encoding="utf-8")
    return _parse_table(json.loads(text), table, f"rig/data/{DATA_FILE}")


def ballots(table: str, data: dict | None = None) -> list[Ballot]:
    """Every opening of ``table`` (``two_move`` or ``three_move``), in number order."""
    t = load_table(table, data)
    return [t[n] for n in sorted(t)]


def get_ballot(table: str, number: int, data: dict | None = None) -> Ballot:
    """Opening ``number`` of ``table``; raises :class:`BallotError` if there is none."""
    t = load_table(table, data)
    try:
        return t[int(number)]
    except (KeyError, ValueError):
        raise BallotError(f"FPD {TABLES[table][0]} has openings 1..{max(t)}, not {number!r}") from None


def _played_moves(record: Board | Iterable[str] | Iterable[Move]) -> tuple[Board, list[Move | str]]:
    if isinstance(record, Board):
        return Board(record.variant, record.initial_fen), list(record.move_stack)
    return Board("portuguese"), list(record)


def check_ballot(record: Board | Iterable[str] | Iterable[Move], table: str, number: int,
                 data: dict | None = None) -> BallotCheck:
    """Whether a game's first moves follow ballot ``number`` of ``table``.

    ``record`` is a Portuguese :class:`Board` (its move history from its
    initial position) or the moves as text or :class:`Move` from the initial
    position. Raises :class:`BallotError` for an unknown ballot and
    :class:`IllegalMoveError` if a record move is not legal where it is played.
    """
    ballot = get_ballot(table, number, data)
    board, played = _played_moves(record)
    if board.variant.name != "portuguese":
        raise BallotError(f"FPD ballots are Portuguese openings, not {board.variant.name}")
    for ply, expected_text in enumerate(ballot.moves):
        if ply >= len(played):
            return BallotCheck(ballot, True, False)
        try:
            expected = board.parse_move(expected_text)
        except IllegalMoveError as exc:
            raise BallotError(f"{ballot}: move {ply + 1} {expected_text!r} is not legal: {exc}") from None
        item = played[ply]
        move = board.parse_move(item) if isinstance(item, str) else item
        if not board.is_legal(move):
            raise IllegalMoveError(f"record move {ply + 1} {move} is not legal in {board.fen()}")
        if move.key != expected.key:
            return BallotCheck(ballot, False, False, ply, expected_text, board.move_text(move))
        board.push(move)
    return BallotCheck(ballot, True, True)
