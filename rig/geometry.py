"""Bitboard geometry: the internal layout move generation works on.

Square index ``i`` (see :mod:`rig.variants`) sits on bit ``i + i // size``:
one padding ("ghost") bit after every two rows makes each of the four
diagonal steps a constant shift (``±half``, ``±(half + 1)``), and every step
off the board lands on a ghost bit or outside the mask. Tables computed here
once per variant: neighbour bit per direction, rays per direction, masks.
"""

from __future__ import annotations

from functools import lru_cache

from rig.variants import Variant, get_variant

__all__ = ["Geometry", "geometry"]

# Direction numbers: 0, 1 go up the board (towards black, white's forward);
# 2, 3 go down (towards white, black's forward).
UP = (0, 1)
DOWN = (2, 3)
ALL = (0, 1, 2, 3)


class Geometry:
    """Precomputed tables for one variant. Bits are internal; ``sq``/``bit`` convert."""

    __slots__ = ("variant", "size", "half", "n", "deltas", "bit", "sq", "mask", "next", "rays",
                 "promo_white", "promo_black", "bit_of_index", "square_bits", "ray_masks",
                 "step_masks", "jumps",
                 "backward", "quality", "man_jumps")

    def __init__(self, variant: Variant):
        self.variant = variant
        self.size = size = variant.size
        self.half = half = size // 2
        self.n = n = variant.squares
        self.deltas = (-(half + 1), -half, half, half + 1)
        self.bit_of_index = [i + i // size for i in range(n)]
        top = self.bit_of_index[-1] + 1
        # bit number -> square number (0 on ghosts); square number -> bit number
        self.sq = [0] * (top + 1)
        self.bit = [0] * (n + 1)
        for s in range(1, n + 1):
            b = self.bit_of_index[variant.index(s)]
            self.bit[s] = b
            self.sq[b] = s
        self.mask = sum(1 << b for b in self.bit[1:])
        self.next: list[list[int]] = []
        self.rays: list[list[tuple[int, ...]]] = []
        for d in self.deltas:
            nxt = [-1] * (top + 1)
            for b in self.bit[1:]:
                t = b + d
                if 0 <= t <= top and (self.mask >> t) & 1:
                    nxt[b] = t
            self.next.append(nxt)
        for k in range(4):
            rays: list[tuple[int, ...]] = [()] * (top + 1)
            for b in self.bit[1:]:
                ray = []
                t = self.next[k][b]
                while t >= 0:
                    ray.append(t)
                    t = self.next[k][t]
                rays[b] = tuple(ray)
            self.rays.append(rays)
        # ray_masks[d][b]: the squares of rays[d][b] as one mask (directions 0, 1 run to lower
        # bits, so their nearest piece is the highest set bit; 2, 3 to higher bits, the lowest)
        self.ray_masks: list[list[int]] = [[sum(1 << t for t in ray) for ray in rays] for rays in self.rays]
        # step_masks[d][b]: the neighbour of b in direction d as a mask (0 off the board)
        self.step_masks: list[list[int]] = [[(1 << t) if t >= 0 else 0 for t in nxt] for nxt in self.next]
        # jumps[dirs][b]: the short (man) captures from b in those directions, as
        # (victim mask, landing mask, victim bit, landing bit)
        self.jumps: dict[tuple[int, ...], list[tuple[tuple[int, int, int, int], ...]]] = {}
        for dirs in (UP, DOWN, ALL):
            table: list[tuple[tuple[int, int, int, int], ...]] = [()] * (top + 1)
            for b in self.bit[1:]:
                out = []
                for d in dirs:
                    v = self.next[d][b]
                    land = self.next[d][v] if v >= 0 else -1
                    if land >= 0:
                        out.append((1 << v, 1 << land, v, land))
                table[b] = tuple(out)
            self.jumps[dirs] = table
        self.backward = variant.men_capture_backward
        self.quality = variant.quality_rule
        # man_jumps[white]: the men's capture table of that colour (FPD 3.4a: forward only)
        self.man_jumps = ((self.jumps[ALL if self.backward else DOWN]),
                          (self.jumps[ALL if self.backward else UP]))
        self.promo_white = self.squares_mask(variant.promotion_squares(True))
        self.promo_black = self.squares_mask(variant.promotion_squares(False))
        self.square_bits = tuple(self.bit[1:])

    def squares_mask(self, squares) -> int:
        m = 0
        for s in squares:
            m |= 1 << self.bit[s]
        return m

    def squares_of(self, mask: int) -> list[int]:
        """Square numbers of the set bits, ascending."""
        out = []
        sq = self.sq
        while mask:
            low = mask & -mask
            out.append(sq[low.bit_length() - 1])
            mask ^= low
        out.sort()
        return out


@lru_cache(maxsize=None)
def _geometry(variant: Variant) -> Geometry:
    return Geometry(variant)


def geometry(variant: Variant | str) -> Geometry:
    """The tables of a variant (or its name), built once per variant."""
    return _geometry(get_variant(variant))
