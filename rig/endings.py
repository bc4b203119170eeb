"""What a position says about the endings the draw rules name: its material, which side is the strong one,
and the square conditions of CODEX 004 art. 59.F and FPD 000 3.9b (docs/rulesets.md). Used by
:class:`rig.rulesets.GameTracker`."""

from __future__ import annotations

from rig.board import Board
from rig.ruleset_defs import FORCADA, Ending
from rig.variants import Variant

__all__ = ["Material4", "material_of", "ending_side", "lone_king", "CODEX_59F_DIAGONALS", "diagonal_of",
           "codex_59f", "fpd_20_condition"]

#: (white men, white kings, black men, black kings): the material of a position.
Material4 = tuple[int, int, int, int]


def material_of(board: Board) -> Material4:
    """The position's material from the bitboards' popcounts."""
    return board.wm.bit_count(), board.wk.bit_count(), board.bm.bit_count(), board.bk.bit_count()


def ending_side(ending: Ending, material: Material4) -> bool | None:
    """The colour (WHITE=True) whose material is ``ending``'s strong side against the other's weak
    side (white first when both are), or None: the material part of an ending."""
    white, black = material[:2], material[2:]
    if white == ending.strong and black == ending.weak:
        return True
    if black == ending.strong and white == ending.weak:
        return False
    return None


def lone_king(board: Board, white: bool) -> int:
    """The square of ``white``'s king (the lone king of an ending)."""
    return next(s for s, (w, k) in board.pieces().items() if w == white and k)


#: CODEX 59.F.A: the diagonals the lone king holds when it plays white (59.F.B: black by symmetry).
CODEX_59F_DIAGONALS = (("a5", "e1"), ("e1", "h4"), ("c1", "h6"))


def diagonal_of(variant: Variant, a: str, b: str) -> dict[int, int]:
    """{file: rank} of the squares from ``a`` to ``b`` (algebraic, as white sees the board)."""
    fa, ra = variant.coords(variant.parse_square(a))
    fb, rb = variant.coords(variant.parse_square(b))
    n = abs(fb - fa)
    df, dr = (fb - fa) // n, (rb - ra) // n
    return {fa + i * df: ra + i * dr for i in range(n + 1)}


def codex_59f(board: Board, strong_white: bool) -> bool:
    """CODEX 59.F: strong king on the long diagonal, the lone king on one of the listed diagonals
    (rotated by the board's symmetry when it plays black), both men before that diagonal on their
    way to promotion (on its files, on the men's side). Whether they can pass is the arbiter's call."""
    v = board.variant
    pieces = board.pieces()
    strong_king = next(s for s, (w, k) in pieces.items() if w == strong_white and k)
    if strong_king not in v.long_diagonal:
        return False
    lone = lone_king(board, not strong_white)
    men = [v.coords(s) for s, (w, k) in pieces.items() if w == strong_white and not k]
    lf, lr = v.coords(lone)
    n = v.size - 1
    for a, b in CODEX_59F_DIAGONALS:
        diag = diagonal_of(v, a, b)
        if strong_white:  # the lone king plays black: rotate the diagonal by 180 degrees
            diag = {n - f: n - r for f, r in diag.items()}
        if diag.get(lf) != lr:
            continue
        # white men (strong white) move up: "before" = below the diagonal; black men: above it
        if all(f in diag and ((r < diag[f]) if strong_white else (r > diag[f])) for f, r in men):
            return True
    return False


def fpd_20_condition(material: Material4) -> bool:
    """FPD 2026 3.9b(1): at most four pieces each, at least one king on each side; not the Forçada (3.9b(4))."""
    wm, wk, bm, bk = material
    if not (wm + wk <= 4 and bm + bk <= 4 and wk >= 1 and bk >= 1):
        return False
    return ending_side(FORCADA.endings[0], material) is None
