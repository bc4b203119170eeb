"""Legal move generation on bitboards (pure Python, no I/O).

Implements docs/rules.md "Variants":
- men move one square diagonally forward (FPD 3.1a-c, FMJD 3.4);
- men capture forward only in Portuguese (FPD 3.4a), forward and backward
  elsewhere (FMJD 4.2);
- kings fly over free squares (FPD 3.2, FMJD 3.9) and capture at distance,
  landing on any free square behind the piece, may change diagonal, never
  jump two pieces in a row (FPD 3.5, 3.6b; FMJD 4.3, 4.6);
- captured pieces stay on the board until the move ends: a piece is jumped
  once, free squares (and the start square) may be crossed again (FPD 3.6c,
  3.8; FMJD 4.7, 4.8, 4.11);
- capture is compulsory (FPD 3.3a, FMJD 4.1); the most pieces must be taken
  (FPD 3.7a, FMJD 4.13); Portuguese: then the most kings (FPD 3.7b); then
  free choice, whatever piece captures (FPD 3.7c-e, FMJD 4.14);
- a man is crowned only when its move ends on the far row (FPD 3.1d-e,
  FMJD 3.5, 4.15).

Moves are internal tuples ``(from_bit, to_bit, captured_mask, promotes, path_bits, captured_bits)``
(the last two ``None`` for a quiet move); :mod:`rig.board` turns them into :class:`rig.move.Move`.

How (pure Python on a Raspberry Pi, so the hot path avoids per-call closures,
tuple concatenation and per-square loops): whole-board shifts find the men
that can capture and count or list quiet steps; for kings, a ray mask and the
nearest piece on it (highest set bit going up, lowest going down) give both
the first capture test and the landing squares; capture chains are searched
only from the pieces that can start one, by module-level recursive functions
sharing one path list. :func:`count_moves` is perft's bulk count.
"""

from __future__ import annotations

from rig.geometry import Geometry

__all__ = ["generate", "generate_all_paths", "count_moves", "has_capture"]


def _man_chains(start: int, b: int, capmask: int, opp: int, emp: int, jumps: list,
                path: list[int], caps: list[int], out: list[tuple]) -> None:
    """Extend a man's capture chain standing on bit ``b`` (at least one jump is open); every
    maximal chain goes to ``out``. Captured pieces stay on the board (not in ``emp``) and
    are not jumped again (FPD 3.6c, 3.8). Whether a landing square leads on is checked
    before recursing: most chains end after the next jump."""
    avail = opp & ~capmask
    for vb, lb, v, land in jumps[b]:
        if avail & vb and emp & lb:
            rest = avail ^ vb
            for vb2, lb2, _, _ in jumps[land]:
                if rest & vb2 and emp & lb2:
                    path.append(land)
                    caps.append(v)
                    _man_chains(start, land, capmask | vb, opp, emp, jumps, path, caps, out)
                    path.pop()
                    caps.pop()
                    break
            else:
                out.append((start, land, capmask | vb, (*path, land), (*caps, v)))


def _king_chains(start: int, b: int, capmask: int, opp: int, occ: int, ray_masks: list,
                 path: list[int], caps: list[int], out: list[tuple]) -> None:
    """Extend a flying king's capture chain standing on bit ``b`` (FPD 3.5-3.6, FMJD 4.3-4.8).

    ``occ`` holds every piece but the moving king (so it may cross or reach its start
    square) and keeps the captured ones: they block, and the nearest piece on a ray must
    be an opponent not yet taken, with free squares right behind it to land on."""
    found = False
    avail = opp & ~capmask
    # directions 0, 1 run to lower bits: the nearest piece is the highest set bit
    for rm in (ray_masks[0], ray_masks[1]):
        blockers = rm[b] & occ
        if not blockers:
            continue
        v = blockers.bit_length() - 1
        vb = 1 << v
        if not avail & vb:
            continue
        beyond = rm[v]
        land = beyond & -(1 << (beyond & occ).bit_length())
        while land:
            to = land.bit_length() - 1
            land ^= 1 << to
            found = True
            path.append(to)
            caps.append(v)
            _king_chains(start, to, capmask | vb, opp, occ, ray_masks, path, caps, out)
            path.pop()
            caps.pop()
    # directions 2, 3 run to higher bits: the nearest piece is the lowest set bit
    for rm in (ray_masks[2], ray_masks[3]):
        blockers = rm[b] & occ
        if not blockers:
            continue
        vb = blockers & -blockers
        if not avail & vb:
            continue
        v = vb.bit_length() - 1
        beyond = rm[v]
        nb = beyond & occ
        land = beyond & ((nb & -nb) - 1)
        while land:
            lb = land & -land
            land ^= lb
            to = lb.bit_length() - 1
            found = True
            path.append(to)
            caps.append(v)
            _king_chains(start, to, capmask | vb, opp, occ, ray_masks, path, caps, out)
            path.pop()
            caps.pop()
    if not found and caps:
        out.append((start, b, capmask, tuple(path), tuple(caps)))


def _chains(g: Geometry, men: int, kings: int, opp: int, occ: int, white: bool) -> list[tuple]:
    """Every maximal capture chain of the given men and kings: (from, to, capmask, path, caps)
    tuples. ``men`` and ``kings`` may be narrowed to the pieces :func:`_capturers` names."""
    out: list[tuple] = []
    if men:
        jumps = g.man_jumps[white]
        empty = g.mask & ~occ
        while men:
            low = men & -men
            men ^= low
            start = low.bit_length() - 1
            _man_chains(start, start, 0, opp, empty | low, jumps, [start], [], out)
    if kings:
        ray_masks = g.ray_masks
        while kings:
            low = kings & -kings
            kings ^= low
            start = low.bit_length() - 1
            _king_chains(start, start, 0, opp, occ ^ low, ray_masks, [start], [], out)
    return out


def _best(chains: list[tuple], opp_kings: int, quality: bool) -> list[tuple]:
    """The chains the quantity law (FPD 3.7a, FMJD 4.13) and, where it holds, the quality
    law (FPD 3.7b) leave; then free choice (FPD 3.7c-e, FMJD 4.14)."""
    if len(chains) == 1:
        return chains
    best = 0
    for c in chains:
        if len(c[4]) > best:
            best = len(c[4])
    chains = [c for c in chains if len(c[4]) == best]
    if quality and len(chains) > 1:
        q = [(c[2] & opp_kings).bit_count() for c in chains]
        top = max(q)
        chains = [c for c, k in zip(chains, q) if k == top]
    return chains


def _select(chains: list[tuple], men: int, opp_kings: int, quality: bool,
            promo: int, all_paths: bool) -> list[tuple]:
    """Apply the capture laws and merge chains with the same (from, to, captured set)."""
    chains = _best(chains, opp_kings, quality)
    out = []
    seen = set()
    for frm, to, capmask, path, caps in chains:
        if not all_paths:
            key = (frm, to, capmask)
            if key in seen:
                continue
            seen.add(key)
        promotes = ((men >> frm) & 1) != 0 and ((promo >> to) & 1) != 0
        out.append((frm, to, capmask, promotes, path, caps))
    return out


def generate(g: Geometry, wm: int, wk: int, bm: int, bk: int, white: bool,
             all_paths: bool = False) -> list[tuple]:
    """Legal moves of the side to move, as internal tuples (see module doc)."""
    if white:
        men, kings, opp, opp_kings, promo = wm, wk, bm | bk, bk, g.promo_white
    else:
        men, kings, opp, opp_kings, promo = bm, bk, wm | wk, wk, g.promo_black
    occ = wm | wk | bm | bk
    cand, kcand = _capturers(g, men, kings, opp, occ, white, g.backward)
    if cand or kcand:
        chains = _chains(g, cand, kcand, opp, occ, white)
        return _select(chains, men, opp_kings, g.quality, promo, all_paths)

    out: list[tuple] = []
    empty = g.mask & ~occ
    s1 = g.half
    for s in (s1, s1 + 1):
        # a man steps forward (FPD 3.1a-c): up the board (to b - s) for white, down for black
        if white:
            targets = (men >> s) & empty
        else:
            targets = (men << s) & empty
            s = -s
        while targets:
            low = targets & -targets
            targets ^= low
            to = low.bit_length() - 1
            out.append((to + s, to, 0, (promo & low) != 0, None, None))
    if kings:
        ray_masks = g.ray_masks
        while kings:
            low = kings & -kings
            kings ^= low
            frm = low.bit_length() - 1
            for d in (0, 1, 2, 3):
                ray = ray_masks[d][frm]
                blockers = ray & occ
                if blockers:
                    if d < 2:
                        ray &= -(1 << blockers.bit_length())
                    else:
                        ray &= (blockers & -blockers) - 1
                while ray:
                    lb = ray & -ray
                    ray ^= lb
                    out.append((frm, lb.bit_length() - 1, 0, False, None, None))
    return out


def generate_all_paths(g: Geometry, wm: int, wk: int, bm: int, bk: int, white: bool) -> list[tuple]:
    """Like :func:`generate`, but a capture with several landing paths appears once per path."""
    return generate(g, wm, wk, bm, bk, white, all_paths=True)


def _capturers(g: Geometry, men: int, kings: int, opp: int, occ: int, white: bool,
               backward: bool) -> tuple[int, int]:
    """(men, kings) that can make a first capture: whole-board shifts for the men (forward,
    and backward where ``backward``); for each king, the nearest piece on some ray is an
    opponent with a free square right behind it."""
    empty = g.mask & ~occ
    cand = 0
    if men:
        s1 = g.half
        s2 = s1 + 1
        if white or backward:  # up the board: victim at b - s, landing at b - 2s
            cand = men & (((opp << s1) & (empty << (s1 + s1))) | ((opp << s2) & (empty << (s2 + s2))))
        if backward or not white:  # down the board: victim at b + s, landing at b + 2s
            cand |= men & (((opp >> s1) & (empty >> (s1 + s1))) | ((opp >> s2) & (empty >> (s2 + s2))))
    kcand = 0
    if kings:
        ray_masks = g.ray_masks
        steps = g.step_masks
        up = ((ray_masks[0], steps[0]), (ray_masks[1], steps[1]))
        down = ((ray_masks[2], steps[2]), (ray_masks[3], steps[3]))
        while kings:
            low = kings & -kings
            kings ^= low
            b = low.bit_length() - 1
            for rm, st in up:
                blockers = rm[b] & occ
                if blockers:
                    v = blockers.bit_length() - 1
                    if (opp >> v) & 1 and st[v] & empty:
                        kcand |= low
                        break
            else:
                for rm, st in down:
                    blockers = rm[b] & occ
                    if blockers:
                        v = (blockers & -blockers).bit_length() - 1
                        if (opp >> v) & 1 and st[v] & empty:
                            kcand |= low
                            break
    return cand, kcand


def has_capture(g: Geometry, wm: int, wk: int, bm: int, bk: int, white: bool) -> bool:
    """True if the side to move must capture (FPD 3.3a, FMJD 4.1)."""
    men, kings, opp = (wm, wk, bm | bk) if white else (bm, bk, wm | wk)
    cand, kcand = _capturers(g, men, kings, opp, wm | wk | bm | bk, white, g.backward)
    return bool(cand or kcand)


def count_moves(g: Geometry, wm: int, wk: int, bm: int, bk: int, white: bool, depth: int = 1) -> int:
    """``len(generate(...))`` (one per origin, destination, captured set), for perft's bulk count:
    the same capture chains and laws, but no move tuples; quiet moves are counted on masks.
    ``depth`` is always 1: it lets perft call this in place of its own recursion."""
    if white:
        men, kings, opp, opp_kings = wm, wk, bm | bk, bk
    else:
        men, kings, opp, opp_kings = bm, bk, wm | wk, wk
    occ = wm | wk | bm | bk
    cand, kcand = _capturers(g, men, kings, opp, occ, white, g.backward)
    if cand or kcand:
        chains = _chains(g, cand, kcand, opp, occ, white)
        if len(chains) == 1:
            return 1
        chains = _best(chains, opp_kings, g.quality)
        if len(chains[0][4]) == 1:
            return len(chains)  # one capture: the victim and landing square tell chains apart
        return len({(c[0], c[1], c[2]) for c in chains})
    empty = g.mask & ~occ
    s1 = g.half
    if white:
        n = ((men >> s1) & empty).bit_count() + ((men >> (s1 + 1)) & empty).bit_count()
    else:
        n = ((men << s1) & empty).bit_count() + ((men << (s1 + 1)) & empty).bit_count()
    if kings:
        ray_masks = g.ray_masks
        while kings:
            low = kings & -kings
            kings ^= low
            b = low.bit_length() - 1
            for d in (0, 1):
                ray = ray_masks[d][b]
                blockers = ray & occ
                if blockers:
                    ray &= -(1 << blockers.bit_length())  # the squares before the nearest piece
                n += ray.bit_count()
            for d in (2, 3):
                ray = ray_masks[d][b]
                blockers = ray & occ
                if blockers:
                    ray &= (blockers & -blockers) - 1
                n += ray.bit_count()
    return n
