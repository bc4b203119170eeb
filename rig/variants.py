"""Variants: board geometry, square numbering, orientation and initial positions.

docs/rules.md "Variants". Every variant is played on the dark squares of an
``size x size`` board. Inside the rig a square is its *number* in the
variant's own numbering (1..32 or 1..50), as the records and the session
frames use it. Coordinates are ``(file, rank)``, 0-based, as WHITE sees the
board: file 0 is white's left ("a"), rank 0 is white's first row ("1").

Move generation works on an *internal index* (0..N-1) laid out the same way
for every variant: index 0 is the dark square nearest WHITE's top-left
corner, counting left to right, top to bottom, on a board whose top-left
corner square is light. The Portuguese board is the mirror image of that
(its dark corner is at each player's bottom RIGHT, FPD 1.2), so its internal
layout is taken through a left-right mirror; the geometry (which squares are
diagonal neighbours) is the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from rig.errors import InvalidSquareError

__all__ = ["Variant", "PORTUGUESE", "BRAZILIAN", "INTERNATIONAL", "VARIANTS", "get_variant"]

FILES = "abcdefghij"


@dataclass(frozen=True)
class Variant:
    """A draughts variant: the board and how its pieces move.

    ``men_capture_backward``: False for Portuguese men (FPD 3.4a).
    ``quality_rule``: among captures of equal quantity the most kings must be
    taken (FPD 3.7b); False where kings give no priority (FMJD 4.13, CBD).
    ``algebraic``: the record names squares a1..h8 (CBD art. 6A).
    ``mirrored``: the dark corner is at each player's bottom right.
    """

    name: str
    size: int
    men_capture_backward: bool
    quality_rule: bool
    algebraic: bool
    mirrored: bool
    white_start: tuple[int, ...]
    black_start: tuple[int, ...]
    pdn_gametype: str
    default_ruleset: str
    rules: str = field(default="", compare=False)

    # -- geometry -------------------------------------------------------------------------

    @property
    def squares(self) -> int:
        """Number of playable squares (32 or 50)."""
        return self.size * self.size // 2

    @property
    def half(self) -> int:
        return self.size // 2

    def _check(self, square: int) -> None:
        if not isinstance(square, int) or not 1 <= square <= self.squares:
            raise InvalidSquareError(f"{self.name} has squares 1..{self.squares}, not {square!r}")

    @cached_property
    def _index_of(self) -> tuple[int, ...]:
        """square number -> internal index (position 0 unused)."""
        out = [0] * (self.squares + 1)
        for sq in range(1, self.squares + 1):
            f, r = self._coords_by_rule(sq)
            row = self.size - 1 - r
            col = self.size - 1 - f if self.mirrored else f
            out[sq] = row * self.half + col // 2
        return tuple(out)

    @cached_property
    def _square_of(self) -> tuple[int, ...]:
        """internal index -> square number."""
        out = [0] * self.squares
        for sq in range(1, self.squares + 1):
            out[self._index_of[sq]] = sq
        return tuple(out)

    def index(self, square: int) -> int:
        """Internal index of a square number."""
        self._check(square)
        return self._index_of[square]

    def square(self, index: int) -> int:
        """Square number of an internal index."""
        return self._square_of[index]

    def _coords_by_rule(self, square: int) -> tuple[int, int]:
        half = self.half
        k, m = divmod(square - 1, half)
        if self.name == "portuguese":
            # FPD 2.2: 1..32 from white's bottom-right corner, right to left, bottom to top.
            rank = k
            file = self.size - 1 - 2 * m - (rank % 2)
            return file, rank
        # FMJD 2.6 / CBD: from the top-left dark square as white sees it, left to right, top to bottom.
        row = k
        rank = self.size - 1 - row
        file = 2 * m + (1 if row % 2 == 0 else 0)
        return file, rank

    @cached_property
    def _coords(self) -> tuple[tuple[int, int], ...]:
        return ((-1, -1),) + tuple(self._coords_by_rule(s) for s in range(1, self.squares + 1))

    def coords(self, square: int) -> tuple[int, int]:
        """(file, rank) of a square, 0-based, as white sees the board."""
        self._check(square)
        return self._coords[square]

    @cached_property
    def _by_coords(self) -> dict[tuple[int, int], int]:
        return {self._coords[s]: s for s in range(1, self.squares + 1)}

    def square_at(self, file: int, rank: int) -> int | None:
        """The playable square at (file, rank), or None for a light/off-board square."""
        return self._by_coords.get((file, rank))

    def is_dark(self, file: int, rank: int) -> bool:
        return (file, rank) in self._by_coords

    # -- names ------------------------------------------------------------------------------

    def algebraic_name(self, square: int) -> str:
        f, r = self.coords(square)
        return f"{FILES[f]}{r + 1}"

    def square_name(self, square: int) -> str:
        """The square as the variant's record writes it (CBD: algebraic; others: number)."""
        return self.algebraic_name(square) if self.algebraic else str(square)

    def parse_square(self, text: str) -> int:
        """A square from its number or its algebraic name, whatever the variant's own style."""
        t = text.strip().lower()
        if t.isdigit():
            sq = int(t)
            self._check(sq)
            return sq
        if len(t) >= 2 and t[0] in FILES[: self.size] and t[1:].isdigit():
            sq = self.square_at(FILES.index(t[0]), int(t[1:]) - 1)
            if sq is not None:
                return sq
        raise InvalidSquareError(f"{text!r} is not a playable square of {self.name}")

    # -- rows -------------------------------------------------------------------------------

    def promotion_squares(self, white: bool) -> frozenset[int]:
        """The far row where a man of that colour is crowned (FPD 3.1d, FMJD 3.5)."""
        rank = self.size - 1 if white else 0
        return frozenset(s for s in range(1, self.squares + 1) if self._coords[s][1] == rank)

    @cached_property
    def long_diagonal(self) -> frozenset[int]:
        """The long diagonal, the Portuguese "Rio" (FPD 2.3): corner to corner through the dark corners."""
        n = self.size
        cells = [(i, i) for i in range(n)] if self.is_dark(0, 0) else [(n - 1 - i, i) for i in range(n)]
        return frozenset(self._by_coords[c] for c in cells)

    def __repr__(self) -> str:
        return f"<Variant {self.name} {self.size}x{self.size}>"


PORTUGUESE = Variant(
    name="portuguese",
    size=8,
    men_capture_backward=False,
    quality_rule=True,
    algebraic=False,
    mirrored=True,
    white_start=tuple(range(1, 13)),
    black_start=tuple(range(21, 33)),
    pdn_gametype="28,W,8,8,N1,1",
    default_ruleset="fpd-2026",
    rules="FPD 2026 (seed 000), Damas Clássicas (seed 001)",
)

BRAZILIAN = Variant(
    name="brazilian",
    size=8,
    men_capture_backward=True,
    quality_rule=False,
    algebraic=True,
    mirrored=False,
    white_start=tuple(range(21, 33)),
    black_start=tuple(range(1, 13)),
    pdn_gametype="26,W,8,8,A0,0",
    default_ruleset="codex-64",
    rules="CBD CODEX 2020 (seed 004)",
)

INTERNATIONAL = Variant(
    name="international",
    size=10,
    men_capture_backward=True,
    quality_rule=False,
    algebraic=False,
    mirrored=False,
    white_start=tuple(range(31, 51)),
    black_start=tuple(range(1, 21)),
    pdn_gametype="20,W,10,10,N2,0",
    default_ruleset="fmjd",
    rules="FMJD (seed 002)",
)

VARIANTS: dict[str, Variant] = {v.name: v for v in (PORTUGUESE, BRAZILIAN, INTERNATIONAL)}


def get_variant(name: str | Variant) -> Variant:
    """The variant of that name (``portuguese``, ``brazilian``, ``international``)."""
    if isinstance(name, Variant):
        return name
    try:
        return VARIANTS[name.lower()]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}") from None
