"""Positions for the engine's tests, found by playing the rules (seeded), never written by hand."""

from __future__ import annotations

import random
from functools import lru_cache

from rig.board import Board
from rig.reconstruct.matcher import capture_sequences, plain_moves

VARIANTS = ("portuguese", "brazilian", "international")


def _search(variant: str, want, seeds: int = 400, plies: int = 60) -> tuple[str, ...]:
    """Move texts of a seeded random game up to the first position (white to move) where ``want``."""
    for seed in range(seeds):
        rng = random.Random(f"{variant}:{seed}")
        board = Board(variant)
        texts: list[str] = []
        for _ in range(plies):
            if board.turn and want(board):
                return tuple(texts)
            moves = board.legal_moves
            if not moves:
                break
            m = rng.choice(moves)
            texts.append(board.move_text(m))
            board.push(m)
    raise LookupError(f"no position found for {variant}")


@lru_cache(maxsize=None)
def line_to_capture(variant: str) -> tuple[str, ...]:
    """White must capture exactly one piece, and has a plain move too if captures were not due."""
    return _search(variant, lambda b: b.is_capture_due() and all(len(m.captured) == 1 for m in b.legal_moves)
                   and plain_moves(b))


@lru_cache(maxsize=None)
def line_to_quiet(variant: str) -> tuple[str, ...]:
    """No capture due for white, at least three men with moves."""
    return _search(variant, lambda b: not b.is_capture_due() and len({m.origin for m in b.legal_moves}) >= 3)


@lru_cache(maxsize=None)
def line_to_multi(variant: str) -> tuple[str, ...]:
    """White's legal capture takes two or more pieces (with a landing between)."""
    return _search(variant, lambda b: b.is_capture_due() and all(len(m.captured) >= 2 for m in b.legal_moves),
                   seeds=3000)


@lru_cache(maxsize=None)
def line_to_short_capture(variant: str) -> tuple[str, ...]:
    """White has a complete capture that takes fewer pieces than the law requires."""
    def want(b: Board) -> bool:
        legal = {m.key for m in b.legal_moves}
        return b.is_capture_due() and any(done and m.key not in legal for m, done in capture_sequences(b))
    return _search(variant, want, seeds=3000)


def board_after(variant: str, texts) -> Board:
    b = Board(variant)
    for t in texts:
        b.push(b.parse_move(t))
    return b
