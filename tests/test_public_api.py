"""The public API (``from rig import ...``), the doctests of the core modules, and legal moves
computed once per position."""

from __future__ import annotations

import doctest
import importlib
import subprocess
import sys

import pytest

import rig
from rig.board import BLACK_KING, WHITE_MAN, Board, Piece

#: modules of the rules core whose docstrings carry examples; run here so ``./dev test`` checks them
DOCTEST_MODULES = ("rig", "rig.board", "rig.move", "rig.variants", "rig.fen", "rig.geometry", "rig.errors",
                   "rig.pdn", "rig.pdn.reader", "rig.pdn.gametype", "rig.pdn.record", "rig.reconstruct", "rig.law",
                   "rig.rulesets", "rig.simulate")


@pytest.mark.parametrize("name", DOCTEST_MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


def test_top_level_names_are_the_real_classes() -> None:
    from rig import Board as B, GameTracker, Move, Piece as P, Reconstructor, Variant
    from rig.move import Move as M
    from rig.reconstruct.engine import Reconstructor as R
    from rig.rulesets import GameTracker as G
    from rig.variants import Variant as V
    assert (B, P, Move, Variant, Reconstructor, GameTracker) == (Board, Piece, M, V, R, G)
    assert {"Board", "Move", "Piece", "Variant", "Reconstructor", "GameTracker"} <= set(dir(rig))
    assert set(rig.__all__) == {"__version__", *rig._LAZY}
    from rig.pdn import read_games
    assert read_games("1. 32-28 *").games[0].moves[0].text == "32-28"


def test_unknown_top_level_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        rig.Nope  # noqa: B018


def test_import_rig_stays_cheap_and_pure() -> None:
    code = ("import sys, rig; heavy = [m for m in ('rig.board', 'rig.reconstruct', 'rig.rulesets', 'serial', "
            "'gpiozero', 'threading', 'socket') if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_piece_is_a_named_tuple_equal_to_the_plain_tuple() -> None:
    p = Board("portuguese").piece_at(1)
    assert p == WHITE_MAN == (True, False) and p.white and not p.king
    assert isinstance(p, tuple) and p._fields == ("white", "king")
    assert Piece.from_symbol("B") == BLACK_KING and BLACK_KING.symbol() == "B"
    with pytest.raises(ValueError, match="w W b B"):
        Piece.from_symbol("x")


def test_legal_moves_are_generated_once_per_position(monkeypatch: pytest.MonkeyPatch) -> None:
    board = Board("international")
    calls = []
    real = Board._internal

    def counting(self: Board) -> list:
        calls.append(self.key())
        return real(self)

    monkeypatch.setattr(Board, "_internal", counting)
    first = board.legal_moves
    assert board.legal_moves == first and board.has_legal_moves() and not board.is_capture_due()
    assert board.is_legal(first[0]) and not board.is_game_over()
    assert len(calls) == 1
    first.clear()  # the caller's copy: the kept moves are not touched
    assert len(board.legal_moves) == 9 and len(calls) == 1
    board.push(board.legal_moves[0])
    assert board.turn is False and len(board.legal_moves) == 9 and len(calls) == 2
    board.pop()
    assert len(board.legal_moves) == 9 and len(calls) == 3
    board.turn = not board.turn  # assigned directly (the engine does): caught by the position key
    assert {m.origin for m in board.legal_moves} <= set(range(16, 21)) and len(calls) == 4
    board.set_fen("W:W28:B23,24")
    assert [str(m) for m in board.legal_moves] == ["28x30"] and board.is_capture_due() and len(calls) == 5
