"""Perft: the leaf nodes below a position, counted on plain bitboards (pure Python).

Counts what :func:`rig.movegen.generate` would give, ply after ply: one move per
(origin, destination, captured set), the capture laws applied (FPD 3.3a, 3.7;
FMJD 4.1, 4.13). Nothing is looked up: every node is generated and every leaf
counted, with a bulk count one ply above the leaves.

How (it must be fast on a Raspberry Pi): one set of functions per variant, built
once by :func:`_functions` as closures over the variant's shifts and tables, and
per side to move (no ``if white`` per node). Whole-board shifts find which men
can jump in which direction; when no landing square can jump on (a man never
jumps back over the piece it took, and only that direction could reach its start
square again) and no king can capture, every capture is a single jump and the
moves are read off the masks. Otherwise, and whenever a king can capture, the
full capture search of :mod:`rig.movegen` decides (chains, quantity and quality
laws). Quiet men's moves are iterated on the shifted masks, the child position a
two-bit change; quiet moves are counted with popcounts.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

from rig.geometry import Geometry, geometry
from rig.movegen import count_moves, generate

__all__ = ["perft"]

Counter = Callable[[int, int, int, int], int]


def perft(g: Geometry, wm: int, wk: int, bm: int, bk: int, white: bool, depth: int) -> int:
    """Leaf nodes ``depth`` plies below the position (1 at depth 0)."""
    if depth <= 0:
        return 1
    per_side = _functions(g.variant.name)
    return per_side[0 if white else 1](wm, wk, bm, bk, depth)


@lru_cache(maxsize=None)
def _functions(name: str) -> tuple[Callable[[int, int, int, int, int], int], Callable[[int, int, int, int, int], int]]:
    """(white to move, black to move) perft functions for one variant."""
    g = geometry(name)
    A = g.half  # the two diagonal steps are shifts by A and B bits
    B = A + 1
    A2 = A + A
    B2 = B + B
    MASK = g.mask
    back = g.backward  # men capture backward (not Portuguese men, FPD 3.4a)
    quality = g.quality  # the quality law (FPD 3.7b)
    promo_w = g.promo_white
    promo_b = g.promo_black
    ray0, ray1, ray2, ray3 = g.ray_masks  # 0, 1 run to lower bits; 2, 3 to higher bits
    step0, step1, step2, step3 = g.step_masks

    def king_can_capture(kings: int, opp: int, occ: int, empty: int) -> bool:
        """Some king's nearest piece on a ray is an opponent with a free square behind it."""
        while kings:
            low = kings & -kings
            kings ^= low
            b = low.bit_length() - 1
            x = ray0[b] & occ
            if x:
                v = x.bit_length() - 1
                if (opp >> v) & 1 and step0[v] & empty:
                    return True
            x = ray1[b] & occ
            if x:
                v = x.bit_length() - 1
                if (opp >> v) & 1 and step1[v] & empty:
                    return True
            x = ray2[b] & occ
            if x:
                x &= -x
                if opp & x and step2[x.bit_length() - 1] & empty:
                    return True
            x = ray3[b] & occ
            if x:
                x &= -x
                if opp & x and step3[x.bit_length() - 1] & empty:
                    return True
        return False

    def king_steps(kings: int, occ: int) -> int:
        """Quiet moves of the kings: the free squares before the nearest piece on each ray."""
        n = 0
        while kings:
            low = kings & -kings
            kings ^= low
            b = low.bit_length() - 1
            r = ray0[b]
            x = r & occ
            if x:
                r &= -(1 << x.bit_length())
            n += r.bit_count()
            r = ray1[b]
            x = r & occ
            if x:
                r &= -(1 << x.bit_length())
            n += r.bit_count()
            r = ray2[b]
            x = r & occ
            if x:
                r &= (x & -x) - 1
            n += r.bit_count()
            r = ray3[b]
            x = r & occ
            if x:
                r &= (x & -x) - 1
            n += r.bit_count()
        return n

    def king_step_moves(kings: int, occ: int) -> list[tuple[int, int]]:
        """Quiet moves of the kings as (from bit, to bit) masks."""
        out = []
        while kings:
            fb = kings & -kings
            kings ^= fb
            b = fb.bit_length() - 1
            for r in (ray0[b], ray1[b]):
                x = r & occ
                if x:
                    r &= -(1 << x.bit_length())
                while r:
                    tb = r & -r
                    r ^= tb
                    out.append((fb, tb))
            for r in (ray2[b], ray3[b]):
                x = r & occ
                if x:
                    r &= (x & -x) - 1
                while r:
                    tb = r & -r
                    r ^= tb
                    out.append((fb, tb))
        return out

    def full_captures(wm: int, wk: int, bm: int, bk: int, white: bool) -> list[tuple[int, int, int]]:
        """The capture moves of :func:`generate` as (from mask, to mask, captured mask)."""
        return [(1 << f, 1 << t, c) for f, t, c, _, _, _ in generate(g, wm, wk, bm, bk, white)]

    # -- white to move: men go up the board (to lower bits) ----------------------------------

    def captures_w(wm: int, wk: int, bm: int, bk: int) -> list[tuple[int, int, int]]:
        """White's captures as (from mask, to mask, captured mask); [] if there is none."""
        occ = wm | wk | bm | bk
        empty = MASK ^ occ
        opp = bm | bk
        uA = (opp << A) & (empty << A2)  # a man here can jump up by A
        uB = (opp << B) & (empty << B2)
        ja = wm & uA
        jb = wm & uB
        if back:
            dA = (opp >> A) & (empty >> A2)
            dB = (opp >> B) & (empty >> B2)
            jc = wm & dA
            jd = wm & dB
            if wk and king_can_capture(wk, opp, occ, empty):
                return full_captures(wm, wk, bm, bk, True)
            if not (ja or jb or jc or jd):
                return []
            if ((ja >> A2) & (uA | uB | dB) or (jb >> B2) & (uA | uB | dA)
                    or (jc << A2) & (dA | dB | uB) or (jd << B2) & (dA | dB | uA) or (quality and bk)):
                return full_captures(wm, wk, bm, bk, True)
        else:
            jc = jd = 0
            if wk and king_can_capture(wk, opp, occ, empty):
                return full_captures(wm, wk, bm, bk, True)
            if not (ja or jb):
                return []
            if ((ja >> A2) | (jb >> B2)) & (uA | uB) or (quality and bk):
                return full_captures(wm, wk, bm, bk, True)
        out = []
        while ja:
            j = ja & -ja
            ja ^= j
            out.append((j, j >> A2, j >> A))
        while jb:
            j = jb & -jb
            jb ^= j
            out.append((j, j >> B2, j >> B))
        while jc:
            j = jc & -jc
            jc ^= j
            out.append((j, j << A2, j << A))
        while jd:
            j = jd & -jd
            jd ^= j
            out.append((j, j << B2, j << B))
        return out

    def count_w(wm: int, wk: int, bm: int, bk: int) -> int:
        """White's legal moves, counted (:func:`rig.movegen.count_moves`)."""
        occ = wm | wk | bm | bk
        empty = MASK ^ occ
        opp = bm | bk
        uA = (opp << A) & (empty << A2)
        uB = (opp << B) & (empty << B2)
        ja = wm & uA
        jb = wm & uB
        if back:
            dA = (opp >> A) & (empty >> A2)
            dB = (opp >> B) & (empty >> B2)
            jc = wm & dA
            jd = wm & dB
            if ja or jb or jc or jd:
                if ((ja >> A2) & (uA | uB | dB) or (jb >> B2) & (uA | uB | dA)
                        or (jc << A2) & (dA | dB | uB) or (jd << B2) & (dA | dB | uA) or (quality and bk)
                        or (wk and king_can_capture(wk, opp, occ, empty))):
                    return count_moves(g, wm, wk, bm, bk, True)
                return ja.bit_count() + jb.bit_count() + jc.bit_count() + jd.bit_count()
        elif ja or jb:
            if (((ja >> A2) | (jb >> B2)) & (uA | uB) or (quality and bk)
                    or (wk and king_can_capture(wk, opp, occ, empty))):
                return count_moves(g, wm, wk, bm, bk, True)
            return ja.bit_count() + jb.bit_count()
        if wk:
            if king_can_capture(wk, opp, occ, empty):
                return count_moves(g, wm, wk, bm, bk, True)
            return ((wm >> A) & empty).bit_count() + ((wm >> B) & empty).bit_count() + king_steps(wk, occ)
        return ((wm >> A) & empty).bit_count() + ((wm >> B) & empty).bit_count()

    def sum_w(wm: int, wk: int, bm: int, bk: int) -> int:
        """perft(2) with white to move: black's moves counted after each white move."""
        total = 0
        caps = captures_w(wm, wk, bm, bk)
        if caps:
            for fb, tb, cap in caps:
                nbm = bm & ~cap
                nbk = bk & ~cap
                if wm & fb:
                    if tb & promo_w:
                        total += count_b(wm ^ fb, wk | tb, nbm, nbk)
                    else:
                        total += count_b(wm ^ fb ^ tb, wk, nbm, nbk)
                else:
                    total += count_b(wm, wk ^ fb ^ tb, nbm, nbk)
            return total
        occ = wm | wk | bm | bk
        empty = MASK ^ occ
        t = (wm >> A) & empty
        p = t & promo_w
        t ^= p
        while t:
            tb = t & -t
            t ^= tb
            total += count_b(wm ^ (tb << A) ^ tb, wk, bm, bk)
        while p:
            tb = p & -p
            p ^= tb
            total += count_b(wm ^ (tb << A), wk | tb, bm, bk)
        t = (wm >> B) & empty
        p = t & promo_w
        t ^= p
        while t:
            tb = t & -t
            t ^= tb
            total += count_b(wm ^ (tb << B) ^ tb, wk, bm, bk)
        while p:
            tb = p & -p
            p ^= tb
            total += count_b(wm ^ (tb << B), wk | tb, bm, bk)
        if wk:
            for fb, tb in king_step_moves(wk, occ):
                total += count_b(wm, wk ^ fb ^ tb, bm, bk)
        return total

    def perft_w(wm: int, wk: int, bm: int, bk: int, depth: int) -> int:
        """Leaf nodes ``depth`` (>= 1) plies below, white to move."""
        if depth <= 2:
            return sum_w(wm, wk, bm, bk) if depth == 2 else count_w(wm, wk, bm, bk)
        depth -= 1
        moves = captures_w(wm, wk, bm, bk)
        if not moves:
            empty = MASK ^ (wm | wk | bm | bk)
            t = (wm >> A) & empty
            while t:
                tb = t & -t
                t ^= tb
                moves.append((tb << A, tb, 0))
            t = (wm >> B) & empty
            while t:
                tb = t & -t
                t ^= tb
                moves.append((tb << B, tb, 0))
            moves += [(fb, tb, 0) for fb, tb in king_step_moves(wk, wm | wk | bm | bk)]
        total = 0
        for fb, tb, cap in moves:
            nbm = bm & ~cap
            nbk = bk & ~cap
            if wm & fb:
                if tb & promo_w:
                    total += perft_b(wm ^ fb, wk | tb, nbm, nbk, depth)
                else:
                    total += perft_b(wm ^ fb ^ tb, wk, nbm, nbk, depth)
            else:
                total += perft_b(wm, wk ^ fb ^ tb, nbm, nbk, depth)
        return total

    # -- black to move: men go down the board (to higher bits); the mirror of the above -------

    def captures_b(wm: int, wk: int, bm: int, bk: int) -> list[tuple[int, int, int]]:
        """Black's captures as (from mask, to mask, captured mask); [] if there is none."""
        occ = wm | wk | bm | bk
        empty = MASK ^ occ
        opp = wm | wk
        dA = (opp >> A) & (empty >> A2)  # a man here can jump down by A
        dB = (opp >> B) & (empty >> B2)
        jc = bm & dA
        jd = bm & dB
        if back:
            uA = (opp << A) & (empty << A2)
            uB = (opp << B) & (empty << B2)
            ja = bm & uA
            jb = bm & uB
            if bk and king_can_capture(bk, opp, occ, empty):
                return full_captures(wm, wk, bm, bk, False)
            if not (ja or jb or jc or jd):
                return []
            if ((ja >> A2) & (uA | uB | dB) or (jb >> B2) & (uA | uB | dA)
                    or (jc << A2) & (dA | dB | uB) or (jd << B2) & (dA | dB | uA) or (quality and wk)):
                return full_captures(wm, wk, bm, bk, False)
        else:
            ja = jb = 0
            if bk and king_can_capture(bk, opp, occ, empty):
                return full_captures(wm, wk, bm, bk, False)
            if not (jc or jd):
                return []
            if ((jc << A2) | (jd << B2)) & (dA | dB) or (quality and wk):
                return full_captures(wm, wk, bm, bk, False)
        out = []
        while ja:
            j = ja & -ja
            ja ^= j
            out.append((j, j >> A2, j >> A))
        while jb:
            j = jb & -jb
            jb ^= j
            out.append((j, j >> B2, j >> B))
        while jc:
            j = jc & -jc
            jc ^= j
            out.append((j, j << A2, j << A))
        while jd:
            j = jd & -jd
            jd ^= j
            out.append((j, j << B2, j << B))
        return out

    def count_b(wm: int, wk: int, bm: int, bk: int) -> int:
        """Black's legal moves, counted (:func:`rig.movegen.count_moves`)."""
        occ = wm | wk | bm | bk
        empty = MASK ^ occ
        opp = wm | wk
        dA = (opp >> A) & (empty >> A2)
        dB = (opp >> B) & (empty >> B2)
        jc = bm & dA
        jd = bm & dB
        if back:
            uA = (opp << A) & (empty << A2)
            uB = (opp << B) & (empty << B2)
            ja = bm & uA
            jb = bm & uB
            if ja or jb or jc or jd:
                if ((ja >> A2) & (uA | uB | dB) or (jb >> B2) & (uA | uB | dA)
                        or (jc << A2) & (dA | dB | uB) or (jd << B2) & (dA | dB | uA) or (quality and wk)
                        or (bk and king_can_capture(bk, opp, occ, empty))):
                    return count_moves(g, wm, wk, bm, bk, False)
                return ja.bit_count() + jb.bit_count() + jc.bit_count() + jd.bit_count()
        elif jc or jd:
            if (((jc << A2) | (jd << B2)) & (dA | dB) or (quality and wk)
                    or (bk and king_can_capture(bk, opp, occ, empty))):
                return count_moves(g, wm, wk, bm, bk, False)
            return jc.bit_count() + jd.bit_count()
        if bk:
            if king_can_capture(bk, opp, occ, empty):
                return count_moves(g, wm, wk, bm, bk, False)
            return ((bm << A) & empty).bit_count() + ((bm << B) & empty).bit_count() + king_steps(bk, occ)
        return ((bm << A) & empty).bit_count() + ((bm << B) & empty).bit_count()

    def sum_b(wm: int, wk: int, bm: int, bk: int) -> int:
        """perft(2) with black to move: white's moves counted after each black move."""
        total = 0
        caps = captures_b(wm, wk, bm, bk)
        if caps:
            for fb, tb, cap in caps:
                nwm = wm & ~cap
                nwk = wk & ~cap
                if bm & fb:
                    if tb & promo_b:
                        total += count_w(nwm, nwk, bm ^ fb, bk | tb)
                    else:
                        total += count_w(nwm, nwk, bm ^ fb ^ tb, bk)
                else:
                    total += count_w(nwm, nwk, bm, bk ^ fb ^ tb)
            return total
        occ = wm | wk | bm | bk
        empty = MASK ^ occ
        t = (bm << A) & empty
        p = t & promo_b
        t ^= p
        while t:
            tb = t & -t
            t ^= tb
            total += count_w(wm, wk, bm ^ (tb >> A) ^ tb, bk)
        while p:
            tb = p & -p
            p ^= tb
            total += count_w(wm, wk, bm ^ (tb >> A), bk | tb)
        t = (bm << B) & empty
        p = t & promo_b
        t ^= p
        while t:
            tb = t & -t
            t ^= tb
            total += count_w(wm, wk, bm ^ (tb >> B) ^ tb, bk)
        while p:
            tb = p & -p
            p ^= tb
            total += count_w(wm, wk, bm ^ (tb >> B), bk | tb)
        if bk:
            for fb, tb in king_step_moves(bk, occ):
                total += count_w(wm, wk, bm, bk ^ fb ^ tb)
        return total

    def perft_b(wm: int, wk: int, bm: int, bk: int, depth: int) -> int:
        """Leaf nodes ``depth`` (>= 1) plies below, black to move."""
        if depth <= 2:
            return sum_b(wm, wk, bm, bk) if depth == 2 else count_b(wm, wk, bm, bk)
        depth -= 1
        moves = captures_b(wm, wk, bm, bk)
        if not moves:
            empty = MASK ^ (wm | wk | bm | bk)
            t = (bm << A) & empty
            while t:
                tb = t & -t
                t ^= tb
                moves.append((tb >> A, tb, 0))
            t = (bm << B) & empty
            while t:
                tb = t & -t
                t ^= tb
                moves.append((tb >> B, tb, 0))
            moves += [(fb, tb, 0) for fb, tb in king_step_moves(bk, wm | wk | bm | bk)]
        total = 0
        for fb, tb, cap in moves:
            nwm = wm & ~cap
            nwk = wk & ~cap
            if bm & fb:
                if tb & promo_b:
                    total += perft_w(nwm, nwk, bm ^ fb, bk | tb, depth)
                else:
                    total += perft_w(nwm, nwk, bm ^ fb ^ tb, bk, depth)
            else:
                total += perft_w(nwm, nwk, bm, bk ^ fb ^ tb, depth)
        return total

    return perft_w, perft_b
