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

from rig.errors import InvalidSquareError, UnknownVariantError

__all__ = ["Variant", "PORTUGUESE", "BRAZILIAN", "INTERNATIONAL", "VARIANTS", "NUMBERINGS", "get_variant",
           "numbering_order", "renumbering", "UnknownVariantError"]

FILES = "abcdefghij"

#: PDN 3.0 numeric notations: the corner where square 1 stands, as white sees the board
#: (pdn.fmjd.org, "GameType tag"): 0 bottom left, 1 bottom right, 2 top left, 3 top right.
#: Squares are counted along each row away from that corner's side, row after row.
NUMBERINGS = ("N0", "N1", "N2", "N3")


def numbering_order(size: int, numbering: str, mirrored: bool) -> tuple[tuple[int, int], ...]:
    """``(file, rank)`` of squares 1, 2, ... on a ``size`` board numbered ``numbering`` (``N0``..``N3``).

    The dark squares are those of a board whose dark corner is at white's bottom left, or bottom
    right when ``mirrored`` (FPD 000 art. 1.2).

    >>> numbering_order(8, "N1", True)[:4]   # FPD 000 art. 2.2: h1 f1 d1 b1
    ((7, 0), (5, 0), (3, 0), (1, 0))
    >>> numbering_order(10, "N2", False)[:2]  # FMJD 002 art. 2.6: b10 d10
    ((1, 9), (3, 9))
    """
    if numbering not in NUMBERINGS:
        raise ValueError(f"numbering must be one of {', '.join(NUMBERINGS)}, not {numbering!r}")
    corner = int(numbering[1])
    ranks = range(size - 1, -1, -1) if corner >= 2 else range(size)
    files = range(size - 1, -1, -1) if corner in (1, 3) else range(size)
    parity = 1 if mirrored else 0
    return tuple((f, r) for r in ranks for f in files if (f + r) % 2 == parity)


@dataclass(frozen=True)
class Variant:
    """A draughts variant: the board and how its pieces move.

    ``men_capture_backward``: False for Portuguese men (FPD 3.4a).
    ``quality_rule``: among captures of equal quantity the most kings must be
    taken (FPD 3.7b); False where kings give no priority (FMJD 4.13, CBD).
    ``algebraic``: the record names squares a1..h8 (CBD art. 6A).
    ``mirrored``: the dark corner is at each player's bottom right.
    ``numbering``: the PDN numeric notation of the square numbers (``N1`` FPD 000 art. 2.2,
    ``N2`` FMJD 002 art. 2.6 and the Brazilian frames).

    >>> PORTUGUESE.numbering, PORTUGUESE.algebraic_name(1), INTERNATIONAL.square_at(1, 9)
    ('N1', 'h1', 1)
    >>> get_variant("Brazilian") is get_variant(BRAZILIAN) is BRAZILIAN
    True
    """

    name: str
    size: int
    men_capture_backward: bool
    quality_rule: bool
    algebraic: bool
    mirrored: bool
    numbering: str
    white_start: tuple[int, ...]
    black_start: tuple[int, ...]
    pdn_gametype: str
    rules: str = field(default="", compare=False)

    def __hash__(self) -> int:
        # the name alone (equal variants have equal names): the generated hash of every field, start squares
        # included, cost a thousand instructions on each look-up of a variant's tables (rig.geometry)
        return hash(self.name)

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
        return self._coords[square]

    @cached_property
    def _coords(self) -> tuple[tuple[int, int], ...]:
        """(file, rank) by square number (position 0 unused), from ``numbering``: FPD 000 art. 2.2
        (N1, from white's bottom right, right to left, bottom to top), FMJD 002 art. 2.6 (N2, from
        the top-left dark square, left to right, top to bottom)."""
        return ((-1, -1),) + numbering_order(self.size, self.numbering, self.mirrored)

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
            found = self.square_at(FILES.index(t[0]), int(t[1:]) - 1)
            if found is not None:
                return found
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
    numbering="N1",
    white_start=tuple(range(1, 13)),
    black_start=tuple(range(21, 33)),
    pdn_gametype="28,W,8,8,N1,1",
    rules="FPD 2026 (seed 000), Damas Clássicas (seed 001)",
)

BRAZILIAN = Variant(
    name="brazilian",
    size=8,
    men_capture_backward=True,
    quality_rule=False,
    algebraic=True,
    mirrored=False,
    numbering="N2",
    white_start=tuple(range(21, 33)),
    black_start=tuple(range(1, 13)),
    pdn_gametype="26,W,8,8,A0,0",
    rules="CBD CODEX 2020 (seed 004)",
)

INTERNATIONAL = Variant(
    name="international",
    size=10,
    men_capture_backward=True,
    quality_rule=False,
    algebraic=False,
    mirrored=False,
    numbering="N2",
    white_start=tuple(range(31, 51)),
    black_start=tuple(range(1, 21)),
    pdn_gametype="20,W,10,10,N2,0",
    rules="FMJD (seed 002)",
)

VARIANTS: dict[str, Variant] = {v.name: v for v in (PORTUGUESE, BRAZILIAN, INTERNATIONAL)}


def get_variant(name: str | Variant) -> Variant:
    """The variant of that name (``portuguese``, ``brazilian``, ``international``, any case), or the
    :class:`Variant` itself (idempotent). Raises :class:`UnknownVariantError` for anything else.

    >>> get_variant("checkers")
    Traceback (most recent call last):
    ...
    rig.errors.UnknownVariantError: unknown variant 'checkers'; known: portuguese, brazilian, international
    """
    if isinstance(name, Variant):
        return name
    try:
        return VARIANTS[name.strip().lower()]
    except (KeyError, AttributeError):
        raise UnknownVariantError(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}") from None


def renumbering(variant: Variant, numbering: str) -> dict[int, int]:
    """``{number in numbering: the variant's own number}`` for the same squares: how a record whose
    GameType names another numeric notation (PDN 3.0 ``N0``..``N3``) is read on the variant's board.

    >>> renumbering(INTERNATIONAL, "N1")[1], renumbering(INTERNATIONAL, "N2")[1]   # i1; b10
    (50, 1)
    """
    out: dict[int, int] = {}
    for number, (file, rank) in enumerate(numbering_order(variant.size, numbering, variant.mirrored), 1):
        own = variant.square_at(file, rank)
        assert own is not None  # both orders list the variant's dark squares
        out[number] = own
    return out
