"""Legal move generation on bitboards (pure Python, no I/O).

Implements RULES.md "Variants":
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

Moves are internal tuples ``(from_bit, to_bit, captured_mask, promotes, path_bits, captured_bits)``;
:mod:`rig.board` turns them into :class:`rig.move.Move`.
"""

from __future__ import annotations

from rig.geometry import Geometry

__all__ = ["generate", "generate_all_paths"]


def _chains(g: Geometry, men: int, kings: int, opp: int, opp_kings: int, empty: int,
            man_dirs: tuple[int, ...]) -> list[tuple]:
    """Every maximal capture chain of every piece: (from, to, capmask, path, caps) tuples."""
    out: list[tuple] = []
    nxt = g.next
    rays = g.rays

    # Men: quick whole-board test per direction before any per-piece search.
    if men:
        deltas = g.deltas
        any_man = 0
        for d in man_dirs:
            dl = deltas[d]
            if dl > 0:
                any_man |= men & (opp >> dl) & (empty >> (dl + dl))
            else:
                any_man |= men & (opp << -dl) & (empty << -(dl + dl))
        while any_man:
            low = any_man & -any_man
            any_man ^= low
            start = low.bit_length() - 1
            emp = empty | low

            def man_dfs(b: int, capmask: int, path: tuple, caps: tuple) -> None:
                found = False
                for d in man_dirs:
                    n = nxt[d][b]
                    if n < 0:
                        continue
                    nb = 1 << n
                    if not (opp & nb) or (capmask & nb):
                        continue
                    land = nxt[d][n]
                    if land < 0 or not (emp >> land) & 1:
                        continue
                    found = True
                    man_dfs(land, capmask | nb, path + (land,), caps + (n,))
                if not found and caps:
                    out.append((start, b, capmask, path, caps))

            man_dfs(start, 0, (start,), ())

    while kings:
        low = kings & -kings
        kings ^= low
        start = low.bit_length() - 1
        emp = empty | low

        def king_dfs(b: int, capmask: int, path: tuple, caps: tuple) -> None:
            found = False
            for d in (0, 1, 2, 3):
                ray = rays[d][b]
                i = 0
                n = len(ray)
                while i < n and (emp >> ray[i]) & 1:
                    i += 1
                if i >= n - 1:
                    continue
                v = ray[i]
                vb = 1 << v
                if not (opp & vb) or (capmask & vb):
                    continue
                j = i + 1
                while j < n and (emp >> ray[j]) & 1:
                    found = True
                    land = ray[j]
                    king_dfs(land, capmask | vb, path + (land,), caps + (v,))
                    j += 1
            if not found and caps:
                out.append((start, b, capmask, path, caps))

        king_dfs(start, 0, (start,), ())
    return out


def _select(g: Geometry, chains: list[tuple], men: int, opp_kings: int, quality: bool,
            promo: int, all_paths: bool) -> list[tuple]:
    """Apply the quantity law, the quality law where it holds, and merge same (from, to, captured set)."""
    best = max(len(c[4]) for c in chains)
    chains = [c for c in chains if len(c[4]) == best]
    if quality and len(chains) > 1:
        q = [(c[2] & opp_kings).bit_count() for c in chains]
        top = max(q)
        chains = [c for c, k in zip(chains, q) if k == top]
    out = []
    seen = set()
    for frm, to, capmask, path, caps in chains:
        if not all_paths:
            key = (frm, to, capmask)
            if key in seen:
                continue
            seen.add(key)
        promotes = bool((men >> frm) & 1 and (promo >> to) & 1)
        out.append((frm, to, capmask, promotes, path, caps))
    return out


def generate(g: Geometry, wm: int, wk: int, bm: int, bk: int, white: bool,
             all_paths: bool = False) -> list[tuple]:
    """Legal moves of the side to move, as internal tuples (see module doc)."""
    if white:
        men, kings, opp, opp_kings = wm, wk, bm | bk, bk
        promo = g.promo_white
        fwd = (0, 1)
    else:
        men, kings, opp, opp_kings = bm, bk, wm | wk, wk
        promo = g.promo_black
        fwd = (2, 3)
    empty = g.mask & ~(wm | wk | bm | bk)
    man_dirs = (0, 1, 2, 3) if g.variant.men_capture_backward else fwd
    chains = _chains(g, men, kings, opp, opp_kings, empty, man_dirs)
    if chains:
        return _select(g, chains, men, opp_kings, g.variant.quality_rule, promo, all_paths)

    out: list[tuple] = []
    deltas = g.deltas
    for d in fwd:
        dl = deltas[d]
        targets = ((men >> -dl) if dl < 0 else (men << dl)) & empty
        while targets:
            low = targets & -targets
            targets ^= low
            to = low.bit_length() - 1
            out.append((to - dl, to, 0, bool(promo & low), None, None))
    rays = g.rays
    while kings:
        low = kings & -kings
        kings ^= low
        frm = low.bit_length() - 1
        for d in (0, 1, 2, 3):
            for to in rays[d][frm]:
                if not (empty >> to) & 1:
                    break
                out.append((frm, to, 0, False, None, None))
    return out


def generate_all_paths(g: Geometry, wm: int, wk: int, bm: int, bk: int, white: bool) -> list[tuple]:
    """Like :func:`generate`, but a capture with several landing paths appears once per path."""
    return generate(g, wm, wk, bm, bk, white, all_paths=True)
