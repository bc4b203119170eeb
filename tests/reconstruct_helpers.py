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


@lru_cache(maxsize=None)
def promotion_ahead(variant: str) -> str:
    """FEN: white's only moves promote a lone man, and after black's reply the new king has a move (for
    the uncrowned-king tests: the camera still sees a man where the rules see a king)."""
    v = Board(variant).variant
    b0 = Board(variant)
    for s in range(1, v.squares + 1):
        for black in sorted(v.promotion_squares(True), reverse=True):
            if black == s:
                continue
            b0.set_pieces({s: (True, False), black: (False, False)}, True)
            promo = [m for m in b0.legal_moves if m.promotes and not m.captured]
            after = b0.copy()
            if promo and len(b0.legal_moves) == len(promo):
                after.push(promo[0])
                if after.legal_moves and not after.is_capture_due():
                    return b0.fen()
    raise LookupError(f"no promotion position for {variant}")


def man_two_squares(board: Board) -> tuple[int, int]:
    """A white man and the empty square two ranks straight ahead of it: an illegal move on every board."""
    v = board.variant
    occupied = board.occupied()
    return next((s, d) for s, (w, k) in sorted(board.pieces().items()) if w and not k
                for d in [v.square_at(v.coords(s)[0], v.coords(s)[1] + 2)] if d and d not in occupied)
