"""Driver for py-draughts (GPL), run as a subprocess in its own virtualenv.

Never imported by the rig or by the test process: the tests and the benchmark
start ``.venv-py-draughts/bin/python tests/peer_py_draughts.py COMMAND``.

``moves``: reads lines ``VARIANT FEN`` on stdin (VARIANT ``international`` or
``brazilian``; FEN with numeric squares, py-draughts numbering, which is the
rig's: 1..50 FMJD, 1..32 with 1 = b8), writes one JSON line per position: a
list of ``[path, captured, promotes]`` with 1-based squares, ``promotes`` as
py-draughts decides it when the move is pushed.

``perft VARIANT DEPTH [REPEAT]``: perft from the initial position through the
public Board API (bulk count at depth 1, push/pop), then the turbo engine's own
perft for international, each REPEAT times (default 1); prints one JSON object
per run ``{"peer", "nodes", "seconds"}``.
"""

from __future__ import annotations

import json
import sys
import time

from loguru import logger

logger.remove()  # py-draughts logs every Board() at INFO on stderr

from draughts.boards.brazilian import Board as BrazilianBoard  # noqa: E402
from draughts.boards.standard import Board as StandardBoard  # noqa: E402

BOARDS = {"international": StandardBoard, "brazilian": BrazilianBoard}


def moves_of(board) -> list:
    out = []
    for move in board.legal_moves:
        man = abs(board._get(move.square_list[0])) == 1
        board.push(move)
        promotes = man and abs(board._get(move.square_list[-1])) == 2
        board.pop()
        out.append([[s + 1 for s in move.square_list], [s + 1 for s in move.captured_list], promotes])
    return out


def cmd_moves() -> None:
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        variant, fen = line.split(None, 1)
        board = BOARDS[variant].from_fen(fen)
        sys.stdout.write(json.dumps(moves_of(board)) + "\n")


def api_perft(board, depth: int) -> int:
    moves = board.legal_moves
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += api_perft(board, depth - 1)
        board.pop()
    return total


def cmd_perft(variant: str, depth: int, repeat: int) -> None:
    for _ in range(repeat):
        board = BOARDS[variant]()
        t = time.perf_counter()
        nodes = api_perft(board, depth)
        print(json.dumps({"peer": "py-draughts Board API", "nodes": nodes,
                          "seconds": time.perf_counter() - t}), flush=True)
    if variant == "international":
        from draughts.engines.turbo import perft_from_board
        for _ in range(repeat):
            t = time.perf_counter()
            nodes = perft_from_board(StandardBoard(), depth)
            print(json.dumps({"peer": "py-draughts turbo perft (international only)", "nodes": nodes,
                              "seconds": time.perf_counter() - t}), flush=True)


def main(argv: list[str]) -> int:
    if argv[:1] == ["moves"]:
        cmd_moves()
        return 0
    if argv[:1] == ["perft"] and len(argv) in (3, 4):
        cmd_perft(argv[1], int(argv[2]), int(argv[3]) if len(argv) == 4 else 1)
        return 0
    print("usage: peer_py_draughts.py moves | perft VARIANT DEPTH [REPEAT]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
