"""PDN 3.0 FEN: ``W:W21,22,K30:B1-12`` (side to move, then each colour's pieces).

Read (docs/rules.md "Record keeping"): ranges ``1-12``, kings ``K``, numeric or
algebraic squares, lower case, spaces, a trailing dot, the colour sections in
either order, a missing empty section. Written: the canonical compact form,
numbers ascending, ranges collapsed, in the variant's own square names.
Errors name the column and what is wrong.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rig.errors import InvalidFenError, InvalidSquareError
from rig.variants import Variant

__all__ = ["FenPosition", "parse_fen", "make_fen"]


@dataclass(frozen=True)
class FenPosition:
    white_to_move: bool
    white_men: frozenset[int]
    white_kings: frozenset[int]
    black_men: frozenset[int]
    black_kings: frozenset[int]


def parse_fen(text: str, variant: Variant) -> FenPosition:
    """Parse a FEN for ``variant``; raises :class:`InvalidFenError` saying where and what.

    >>> from rig.variants import PORTUGUESE
    >>> pos = parse_fen("W:W1-3,K30:B21", PORTUGUESE)
    >>> sorted(pos.white_men), sorted(pos.white_kings), make_fen(pos, PORTUGUESE)
    ([1, 2, 3], [30], 'W:W1-3,K30:B21')
    """
    if not isinstance(text, str):
        raise InvalidFenError(f"FEN must be a string, got {type(text).__name__}")
    raw = text
    s = text.strip().strip('"').rstrip(".").strip()
    if not s:
        raise InvalidFenError("empty FEN")
    offset = raw.find(s[:1]) if s else 0
    fields = s.split(":")
    turn = fields[0].strip().upper()
    if turn not in ("W", "B"):
        raise InvalidFenError(f"column {offset + 1}: side to move must be W or B, got {fields[0]!r} in {raw!r}")
    sets: dict[str, tuple[set[int], set[int]]] = {"W": (set(), set()), "B": (set(), set())}
    seen_colours: list[str] = []
    col = offset + len(fields[0]) + 1
    for fld in fields[1:]:
        f = fld.strip()
        if not f:
            col += len(fld) + 1
            continue
        colour = f[0].upper()
        if colour not in ("W", "B"):
            raise InvalidFenError(f"column {col + 1}: a piece section must start with W or B, got {f[0]!r} in {raw!r}")
        if colour in seen_colours:
            raise InvalidFenError(f"column {col + 1}: colour {colour} given twice in {raw!r}")
        seen_colours.append(colour)
        men, kings = sets[colour]
        body = f[1:]
        pos = col + (len(fld) - len(fld.lstrip())) + 2
        for item in body.split(","):
            it = item.strip()
            if not it:
                pos += len(item) + 1
                continue
            king = it[0].upper() == "K"
            if king:
                it = it[1:].strip()
            try:
                if "-" in it:
                    lo, hi = (variant.parse_square(x) for x in it.split("-", 1))
                    if lo > hi:
                        raise InvalidFenError(f"column {pos}: empty range {item.strip()!r} in {raw!r}")
                    squares: Iterable[int] = range(lo, hi + 1)
                else:
                    squares = (variant.parse_square(it),)
            except InvalidSquareError as exc:
                raise InvalidFenError(f"column {pos}: {exc} in {raw!r}") from None
            for sq in squares:
                if any(sq in x for c in sets.values() for x in c):
                    raise InvalidFenError(f"column {pos}: square {sq} given twice in {raw!r}")
                (kings if king else men).add(sq)
            pos += len(item) + 1
        col += len(fld) + 1
    return FenPosition(turn == "W", frozenset(sets["W"][0]), frozenset(sets["W"][1]),
                       frozenset(sets["B"][0]), frozenset(sets["B"][1]))


def _compact(squares: list[int], variant: Variant, king: bool) -> list[str]:
    """Numbers ascending with runs collapsed into ranges (numeric notation only)."""
    prefix = "K" if king else ""
    if variant.algebraic:
        return [prefix + variant.square_name(s) for s in squares]
    out: list[str] = []
    i = 0
    while i < len(squares):
        j = i
        while j + 1 < len(squares) and squares[j + 1] == squares[j] + 1:
            j += 1
        if j - i >= 2:
            out.append(f"{prefix}{squares[i]}-{squares[j]}")
        else:
            out.extend(f"{prefix}{squares[k]}" for k in range(i, j + 1))
        i = j + 1
    return out


def make_fen(pos: FenPosition, variant: Variant) -> str:
    """The canonical FEN of a position."""
    parts = ["W" if pos.white_to_move else "B"]
    for colour, men, kings in (("W", pos.white_men, pos.white_kings), ("B", pos.black_men, pos.black_kings)):
        items = _compact(sorted(men), variant, False) + _compact(sorted(kings), variant, True)
        parts.append(colour + ",".join(items))
    return ":".join(parts)
