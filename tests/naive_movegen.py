"""A deliberately naive move generator, the tests' second opinion on :mod:`rig.movegen`.

Written from the rules (docs/rules.md "Variants"), not from the rig's code: a plain
2-D grid indexed ``grid[file][rank]`` built only with ``Variant.coords`` and
``Variant.square_at``, recursive search, no bitboards, no precomputed tables.
It is slow and obviously correct on purpose:

- men step one square diagonally forward; kings fly over free squares
  (FPD 3.1-3.2, FMJD 3.4, 3.9);
- men capture an adjacent piece and land just behind it, forward only in
  Portuguese (FPD 3.4), in all four directions elsewhere (FMJD 4.2);
- kings capture at distance and land on any free square behind the piece
  (FPD 3.5, FMJD 4.3); two pieces in a row cannot be jumped (FPD 3.5b);
- captured pieces stay on the board until the move ends, so they block, and
  none is jumped twice; free squares and the start square may be crossed again
  (FPD 3.6c, 3.8; FMJD 4.7, 4.8, 4.11);
- capture is compulsory and the chain goes on while it can; the most pieces
  must be taken (FPD 3.7a, FMJD 4.13); Portuguese: then the most kings
  (FPD 3.7b); then free choice (FPD 3.7c-e, FMJD 4.14);
- a man is crowned only if the move ends on the far row (FPD 3.1d, FMJD 4.15).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rig.variants import Variant

DIRECTIONS = ((1, 1), (-1, 1), (1, -1), (-1, -1))


@dataclass(frozen=True)
class NaiveMove:
    """A move as the naive generator sees it: landing path and captured squares in jump order."""

    path: tuple[int, ...]
    captured: tuple[int, ...]
    promotes: bool

    @property
    def key(self) -> tuple[int, int, frozenset[int]]:
        return (self.path[0], self.path[-1], frozenset(self.captured))


def _grid(variant: Variant, pieces: dict[int, tuple[bool, bool]]) -> list[list[tuple[bool, bool] | None]]:
    grid: list[list[tuple[bool, bool] | None]] = [[None] * variant.size for _ in range(variant.size)]
    for sq, piece in pieces.items():
        f, r = variant.coords(sq)
        grid[f][r] = piece
    return grid


def _on_board(variant: Variant, f: int, r: int) -> bool:
    return 0 <= f < variant.size and 0 <= r < variant.size


def _capture_chains(variant: Variant, grid, f: int, r: int, white: bool, king: bool,
                    path: list[tuple[int, int]], captured: list[tuple[int, int]],
                    out: list[tuple[list[tuple[int, int]], list[tuple[int, int]]]]) -> None:
    """Extend the chain standing on (f, r); append every maximal chain to ``out``."""
    forward = 1 if white else -1
    extended = False
    for df, dr in DIRECTIONS:
        if not king and not variant.men_capture_backward and dr != forward:
            continue
        # walk to the first piece in this direction (a man looks only at the adjacent square)
        cf, cr = f + df, r + dr
        if king:
            while _on_board(variant, cf, cr) and grid[cf][cr] is None:
                cf, cr = cf + df, cr + dr
        if not _on_board(variant, cf, cr):
            continue
        victim = grid[cf][cr]
        if victim is None or victim[0] == white or (cf, cr) in captured:
            continue
        # landing squares: free squares right behind the victim (one for a man)
        lf, lr = cf + df, cr + dr
        while _on_board(variant, lf, lr) and grid[lf][lr] is None:
            extended = True
            _capture_chains(variant, grid, lf, lr, white, king,
                            path + [(lf, lr)], captured + [(cf, cr)], out)
            if not king:
                break
            lf, lr = lf + df, lr + dr
    if not extended and captured:
        out.append((path, captured))


def naive_moves_all_paths(variant: Variant, pieces: dict[int, tuple[bool, bool]],
                          white_to_move: bool) -> list[NaiveMove]:
    """Every legal move of the side to move; a capture once per distinct landing path."""
    grid = _grid(variant, pieces)
    sq = variant.square_at
    far_rank = variant.size - 1 if white_to_move else 0
    chains: list[tuple[int, bool, list[tuple[int, int]], list[tuple[int, int]]]] = []
    for origin, (white, king) in sorted(pieces.items()):
        if white != white_to_move:
            continue
        f, r = variant.coords(origin)
        grid[f][r] = None  # the moving piece leaves its square: it may cross or reach it again
        out: list = []
        _capture_chains(variant, grid, f, r, white, king, [(f, r)], [], out)
        grid[f][r] = (white, king)
        chains.extend((origin, king, p, c) for p, c in out)
    if chains:
        most = max(len(c) for _, _, _, c in chains)
        chains = [ch for ch in chains if len(ch[3]) == most]
        if variant.quality_rule:
            def kings_taken(ch) -> int:
                return sum(1 for cf, cr in ch[3] if grid[cf][cr][1])
            best = max(kings_taken(ch) for ch in chains)
            chains = [ch for ch in chains if kings_taken(ch) == best]
        return [NaiveMove(tuple(sq(pf, pr) for pf, pr in p), tuple(sq(cf, cr) for cf, cr in c),
                          not king and p[-1][1] == far_rank)
                for _, king, p, c in chains]

    moves: list[NaiveMove] = []
    forward = 1 if white_to_move else -1
    for origin, (white, king) in sorted(pieces.items()):
        if white != white_to_move:
            continue
        f, r = variant.coords(origin)
        for df, dr in DIRECTIONS:
            if not king and dr != forward:
                continue
            tf, tr = f + df, r + dr
            while _on_board(variant, tf, tr) and grid[tf][tr] is None:
                moves.append(NaiveMove((origin, sq(tf, tr)), (), not king and tr == far_rank))
                if not king:
                    break
                tf, tr = tf + df, tr + dr
    return moves


def naive_moves(variant: Variant, pieces: dict[int, tuple[bool, bool]],
                white_to_move: bool) -> dict[tuple[int, int, frozenset[int]], bool]:
    """Legal moves as ``{(origin, destination, captured set): promotes}``, one per key."""
    return {m.key: m.promotes for m in naive_moves_all_paths(variant, pieces, white_to_move)}


def naive_perft(variant: Variant, pieces: dict[int, tuple[bool, bool]], white_to_move: bool,
                depth: int) -> int:
    """Leaf count with the naive generator (moves counted once per key)."""
    if depth == 0:
        return 1
    moves = naive_moves(variant, pieces, white_to_move)
    if depth == 1:
        return len(moves)
    total = 0
    for (origin, dest, captured), promotes in moves.items():
        nxt = {s: p for s, p in pieces.items() if s not in captured and s != origin}
        white, king = pieces[origin]
        nxt[dest] = (white, king or promotes)
        total += naive_perft(variant, nxt, not white_to_move, depth - 1)
    return total


def random_pieces(variant: Variant, rng: random.Random) -> dict[int, tuple[bool, bool]]:
    """A random placement: any number of men and kings, men never on their own crowning row."""
    n = rng.randint(2, min(26, variant.squares))
    king_share = rng.choice((0.0, 0.2, 0.5, 1.0))
    white_far = variant.promotion_squares(True)
    black_far = variant.promotion_squares(False)
    pieces: dict[int, tuple[bool, bool]] = {}
    for sq in rng.sample(range(1, variant.squares + 1), n):
        white = rng.random() < 0.5
        king = rng.random() < king_share or sq in (white_far if white else black_far)
        pieces[sq] = (white, king)
    return pieces
