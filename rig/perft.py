"""Perft: the leaf nodes below a position, counted on plain bitboards (pure Python).

Counts what :func:`rig.movegen.generate` would give, ply after ply: one move per
(origin, destination, captured set), the capture laws applied (FPD 3.3a, 3.7;
FMJD 4.1, 4.13). Nothing is cached or looked up: every count comes from the
position it counts, the last two plies counted in bulk on masks.

How (it must be fast on a Raspberry Pi): one set of functions per variant, built
once by :func:`_functions` as closures over the variant's shifts and tables, and
per side to move (no ``if white`` per node). Whole-board shifts find which men
can jump in which direction; when no landing square can jump on (a man never
jumps back over the piece it took, and only that direction could reach its start
square again) every capture is a single jump, read off the masks. Longer men's
chains go through a search that keeps only (start, end, captured) masks; whenever
a king can capture, or the quality law may choose, the full capture search of
:mod:`rig.movegen` decides. One ply above the bulk count, the replies to the men's
quiet steps are counted on whole masks: when the opponent has no king and no
capture, a step from f to t gives it a capture only over t or onto f, and
otherwise changes its quiet moves by the steps into f less the steps into t.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

from rig.geometry import Geometry, geometry
from rig.movegen import count_moves, generate

__all__ = ["perft"]

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

    def man_chains(start: int, cur: int, avail: int, empty: int, caps: int, n: int, up: bool, down: bool,
                   found: list) -> None:
        """Extend a man's capture chain standing on ``cur`` (FPD 3.4, 3.6c, 3.8; FMJD 4.2, 4.7):
        the jumped pieces leave ``avail`` but stay off ``empty``; a chain that cannot go on
        is kept in ``found`` = [most pieces taken, {(start, end, captured)}] if it takes the
        most so far (FPD 3.7a, FMJD 4.13); equal outcomes by other paths merge in the set."""
        ext = False
        if up:
            v = cur >> A
            if v & avail and (cur >> A2) & empty:
                ext = True
                man_chains(start, cur >> A2, avail ^ v, empty, caps | v, n + 1, up, down, found)
            v = cur >> B
            if v & avail and (cur >> B2) & empty:
                ext = True
                man_chains(start, cur >> B2, avail ^ v, empty, caps | v, n + 1, up, down, found)
        if down:
            v = cur << A
            if v & avail and (cur << A2) & empty:
                ext = True
                man_chains(start, cur << A2, avail ^ v, empty, caps | v, n + 1, up, down, found)
            v = cur << B
            if v & avail and (cur << B2) & empty:
                ext = True
                man_chains(start, cur << B2, avail ^ v, empty, caps | v, n + 1, up, down, found)
        if not ext:
            if n > found[0]:
                found[0] = n
                found[1] = {(start, cur, caps)}
            elif n == found[0]:
                found[1].add((start, cur, caps))

    def men_captures(jumpers: int, opp: int, empty: int, up: bool, down: bool) -> set[tuple[int, int, int]]:
        """The men's legal captures (no king can capture, no quality law) as a set of
        (from mask, to mask, captured mask): the longest chains of the given jumpers."""
        found: list = [0, set()]
        while jumpers:
            s = jumpers & -jumpers
            jumpers ^= s
            man_chains(s, s, opp, empty | s, 0, 0, up, down, found)
        return found[1]

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
            if quality and bk:
                return full_captures(wm, wk, bm, bk, True)
            if ((ja >> A2) & (uA | uB | dB) or (jb >> B2) & (uA | uB | dA)
                    or (jc << A2) & (dA | dB | uB) or (jd << B2) & (dA | dB | uA)):
                return list(men_captures(ja | jb | jc | jd, opp, empty, True, True))
        else:
            jc = jd = 0
            if wk and king_can_capture(wk, opp, occ, empty):
                return full_captures(wm, wk, bm, bk, True)
            if not (ja or jb):
                return []
            if quality and bk:
                return full_captures(wm, wk, bm, bk, True)
            if ((ja >> A2) | (jb >> B2)) & (uA | uB):
                return list(men_captures(ja | jb, opp, empty, True, False))
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
                if (quality and bk) or (wk and king_can_capture(wk, opp, occ, empty)):
                    return count_moves(g, wm, wk, bm, bk, True)
                if ((ja >> A2) & (uA | uB | dB) or (jb >> B2) & (uA | uB | dA)
                        or (jc << A2) & (dA | dB | uB) or (jd << B2) & (dA | dB | uA)):
                    return len(men_captures(ja | jb | jc | jd, opp, empty, True, True))
                return ja.bit_count() + jb.bit_count() + jc.bit_count() + jd.bit_count()
        elif ja or jb:
            if (quality and bk) or (wk and king_can_capture(wk, opp, occ, empty)):
                return count_moves(g, wm, wk, bm, bk, True)
            if ((ja >> A2) | (jb >> B2)) & (uA | uB):
                return len(men_captures(ja | jb, opp, empty, True, False))
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
        # A white man's step from f to t changes two squares; black's reply sees the same
        # position but for those. sA, sB: black men's step targets (a piece there can be
        # jumped down); pA, pB: where a black man jumps up over a piece.
        opp = wm | wk
        sA = bm << A
        sB = bm << B
        if back:
            pA = bm >> A
            pB = bm >> B
            # v: a piece on v could be jumped (the square behind it is free)
            v = sA & (empty >> A) | sB & (empty >> B) | pA & (empty << A) | pB & (empty << B)
            # land: a black man could jump a white piece and land there, were it free
            land = ((sA & opp) << A) | ((sB & opp) << B) | ((pA & opp) >> A) | ((pB & opp) >> B)
        else:
            pA = pB = 0
            v = sA & (empty >> A) | sB & (empty >> B)
            land = ((sA & opp) << A) | ((sB & opp) << B)
        if not (bk or v & opp):
            # Black has no king and no capture now: after the step it can capture only over
            # t (v; or from behind t, landing on f) or landing on f (land), and otherwise its
            # quiet moves are those now, plus the steps into f, less the steps into t.
            q0 = (sA & empty).bit_count() + (sB & empty).bit_count()
            for s, ss in ((A, sA), (B, sB)):
                t = (wm >> s) & empty
                x = t & (v | ss | (land >> s))
                r = t ^ x
                if r:
                    total += (r.bit_count() * q0 + (r & (sA >> s)).bit_count() + (r & (sB >> s)).bit_count()
                              - (r & sA).bit_count() - (r & sB).bit_count())
                while x:
                    tb = x & -x
                    x ^= tb
                    if tb & promo_w:
                        total += count_b(wm ^ (tb << s), wk | tb, bm, bk)
                    else:
                        total += count_b(wm ^ tb ^ (tb << s), wk, bm, bk)
            if wk:
                for fb, tb in king_step_moves(wk, occ):
                    total += count_b(wm, wk ^ fb ^ tb, bm, bk)
            return total
        for s, t in ((A, (wm >> A) & empty), (B, (wm >> B) & empty)):
            while t:
                tb = t & -t
                t ^= tb
                m = tb | (tb << s)
                e = empty ^ m
                if bk or (sA & (e >> A) | sB & (e >> B) | pA & (e << A) | pB & (e << B)) & (opp ^ m):
                    if tb & promo_w:
                        total += count_b(wm ^ (tb << s), wk | tb, bm, bk)
                    else:
                        total += count_b(wm ^ m, wk, bm, bk)
                else:
                    total += (sA & e).bit_count() + (sB & e).bit_count()
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
            if quality and wk:
                return full_captures(wm, wk, bm, bk, False)
            if ((ja >> A2) & (uA | uB | dB) or (jb >> B2) & (uA | uB | dA)
                    or (jc << A2) & (dA | dB | uB) or (jd << B2) & (dA | dB | uA)):
                return list(men_captures(ja | jb | jc | jd, opp, empty, True, True))
        else:
            ja = jb = 0
            if bk and king_can_capture(bk, opp, occ, empty):
                return full_captures(wm, wk, bm, bk, False)
            if not (jc or jd):
                return []
            if quality and wk:
                return full_captures(wm, wk, bm, bk, False)
            if ((jc << A2) | (jd << B2)) & (dA | dB):
                return list(men_captures(jc | jd, opp, empty, False, True))
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
                if (quality and wk) or (bk and king_can_capture(bk, opp, occ, empty)):
                    return count_moves(g, wm, wk, bm, bk, False)
                if ((ja >> A2) & (uA | uB | dB) or (jb >> B2) & (uA | uB | dA)
                        or (jc << A2) & (dA | dB | uB) or (jd << B2) & (dA | dB | uA)):
                    return len(men_captures(ja | jb | jc | jd, opp, empty, True, True))
                return ja.bit_count() + jb.bit_count() + jc.bit_count() + jd.bit_count()
        elif jc or jd:
            if (quality and wk) or (bk and king_can_capture(bk, opp, occ, empty)):
                return count_moves(g, wm, wk, bm, bk, False)
            if ((jc << A2) | (jd << B2)) & (dA | dB):
                return len(men_captures(jc | jd, opp, empty, False, True))
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
        # The mirror of sum_w: pA, pB: white men's step targets (a piece there can be jumped
        # up); sA, sB: where a white man jumps down over a piece.
        opp = bm | bk
        pA = wm >> A
        pB = wm >> B
        if back:
            sA = wm << A
            sB = wm << B
            v = pA & (empty << A) | pB & (empty << B) | sA & (empty >> A) | sB & (empty >> B)
            land = ((pA & opp) >> A) | ((pB & opp) >> B) | ((sA & opp) << A) | ((sB & opp) << B)
        else:
            sA = sB = 0
            v = pA & (empty << A) | pB & (empty << B)
            land = ((pA & opp) >> A) | ((pB & opp) >> B)
        if not (wk or v & opp):
            q0 = (pA & empty).bit_count() + (pB & empty).bit_count()
            for s, ps in ((A, pA), (B, pB)):
                t = (bm << s) & empty
                x = t & (v | ps | (land << s))
                r = t ^ x
                if r:
                    total += (r.bit_count() * q0 + (r & (pA << s)).bit_count() + (r & (pB << s)).bit_count()
                              - (r & pA).bit_count() - (r & pB).bit_count())
                while x:
                    tb = x & -x
                    x ^= tb
                    if tb & promo_b:
                        total += count_w(wm, wk, bm ^ (tb >> s), bk | tb)
                    else:
                        total += count_w(wm, wk, bm ^ tb ^ (tb >> s), bk)
            if bk:
                for fb, tb in king_step_moves(bk, occ):
                    total += count_w(wm, wk, bm, bk ^ fb ^ tb)
            return total
        for s, t in ((A, (bm << A) & empty), (B, (bm << B) & empty)):
            while t:
                tb = t & -t
                t ^= tb
                m = tb | (tb >> s)
                e = empty ^ m
                if wk or (pA & (e << A) | pB & (e << B) | sA & (e >> A) | sB & (e >> B)) & (opp ^ m):
                    if tb & promo_b:
                        total += count_w(wm, wk, bm ^ (tb >> s), bk | tb)
                    else:
                        total += count_w(wm, wk, bm ^ m, bk)
                else:
                    total += (pA & e).bit_count() + (pB & e).bit_count()
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
