"""Differential test against py-draughts, international and brazilian.

py-draughts is GPL: it lives in its own virtualenv and is only driven as a
subprocess (tests/peer_py_draughts.py), one call for the whole batch. Its
square numbers are the rig's (international 1..50 FMJD; brazilian 1..32 with
1 = b8, 29 = a1, white on 21-32), checked below on the initial position.

On at least 1000 random positions per variant (positions of random games
from the start, and random placements with kings, either side to move) both
must give the same legal moves as (origin, destination, captured set), and
agree on which moves crown a man.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from naive_movegen import random_pieces
from rig.board import Board
from rig.variants import get_variant

ROOT = Path(__file__).resolve().parent.parent
PEER_PYTHON = ROOT / ".venv-py-draughts" / "bin" / "python"
DRIVER = Path(__file__).resolve().parent / "peer_py_draughts.py"
POSITIONS = 1200


def numeric_fen(board: Board) -> str:
    """The position as a FEN with plain square numbers (py-draughts reads those)."""
    white, black = [], []
    for sq, (is_white, king) in sorted(board.pieces().items()):
        (white if is_white else black).append(f"K{sq}" if king else str(sq))
    return f"{'W' if board.turn else 'B'}:W{','.join(white)}:B{','.join(black)}"


def peer_moves(lines: list[str]) -> list[list]:
    if not PEER_PYTHON.exists():
        pytest.fail(f"py-draughts peer environment missing: {PEER_PYTHON} does not exist. "
                    "Create it with `./dev setup` (it makes .venv-py-draughts with `pip install py-draughts`).",
                    pytrace=False)
    proc = subprocess.run([str(PEER_PYTHON), str(DRIVER), "moves"], input="".join(l + "\n" for l in lines),
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"py-draughts driver failed:\n{proc.stderr[-3000:]}"
    out = [json.loads(l) for l in proc.stdout.splitlines()]
    assert len(out) == len(lines), proc.stderr[-3000:]
    return out


def random_positions(variant: str, count: int) -> list[Board]:
    """Half from random games (random length, from the start), half random placements with kings."""
    v = get_variant(variant)
    rng = random.Random(f"py-draughts-{variant}")
    boards: list[Board] = []
    while len(boards) < count // 2:
        board = Board(v)
        for _ in range(rng.randint(0, 120)):
            moves = board.legal_moves
            if not moves:
                break
            board.push(rng.choice(moves))
        boards.append(board.copy(stack=False))
    while len(boards) < count:
        board = Board(v)
        board.set_pieces(random_pieces(v, rng), rng.random() < 0.5)
        boards.append(board)
    return boards


@pytest.mark.parametrize("variant", ["international", "brazilian"])
def test_same_legal_moves_as_py_draughts(variant):
    boards = [Board(variant)] + random_positions(variant, POSITIONS)
    answers = peer_moves([f"{variant} {numeric_fen(b)}" for b in boards])
    captures = kings = 0
    for board, peer in zip(boards, answers):
        where = f"{variant} {board.fen()}"
        ours = {m.key: m.promotes for m in board.legal_moves}
        theirs: dict = {}
        for path, captured, promotes in peer:
            key = (path[0], path[-1], frozenset(captured))
            theirs[key] = theirs.get(key, False) or promotes
        assert set(ours) == set(theirs), (
            f"{where}: only the rig {sorted(map(_show, set(ours) - set(theirs)))}, "
            f"only py-draughts {sorted(map(_show, set(theirs) - set(ours)))}")
        assert ours == theirs, f"{where}: promotion differs"
        captures += any(k[2] for k in ours)
        kings += bool(board.wk or board.bk)
    # the sample covers what matters: captures and kings (boards[0], the initial position,
    # pins the numbering and orientation down)
    assert captures > POSITIONS // 5 and kings > POSITIONS // 3


def _show(key) -> str:
    origin, dest, captured = key
    return f"{origin}{'x' if captured else '-'}{dest}{sorted(captured) if captured else ''}"


def test_driver_is_not_imported_by_the_package():
    """The GPL peer is reached only through a subprocess: no module of the rig imports it."""
    import rig
    for path in Path(rig.__file__).parent.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "import draughts" not in text and "from draughts" not in text, path
    assert "draughts" not in sys.modules
