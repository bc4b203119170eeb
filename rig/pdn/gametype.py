"""PDN 3.0 ``GameType`` tag and game results (pdn.fmjd.org, "GameType tag", "Result tag").

``GameType "Type[,Start colour,Width,Height,Notation,Invert]"``: the rig plays
type 20 (international, ``20,W,10,10,N2,0``), 26 (brazilian, ``26,W,8,8,A0,0``)
and 28 (portuguese, ``28,W,8,8,N1,1``). PDN 3.0's type 28 agrees with docs/rules.md:
``N1`` numbers from the starting player's bottom right (FPD 2.2) and invert flag
1 says white's bottom-left corner is not a playing square (FPD 1.2). A full
GameType that names another numeric notation (``20,W,10,10,N1,0``) is read
with that numbering: :attr:`GameType.numbering`, ``rig.variants.renumbering``.

Results (docs/rules.md "Record keeping"): international ``2-0 1-1 0-2``; portuguese
and brazilian ``1-0 1/2-1/2 0-1``; ``0-0`` double forfeit; ``*`` unfinished.
Readers also accept the other style and old forms (``½-½``, ``1/2``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rig.pdn.errors import PdnSyntaxError
from rig.variants import BRAZILIAN, INTERNATIONAL, PORTUGUESE, Variant

__all__ = ["GameType", "GameTypeError", "parse_gametype", "result_text", "parse_result", "OUTCOMES",
           "DOUBLE_FORFEIT", "UNFINISHED", "normal_result"]

OUTCOMES = ("white", "black", "draw", None)
DOUBLE_FORFEIT = "0-0"
UNFINISHED = "*"

_GAMETYPE = re.compile(r"^\s*(\d+)\s*(?:,\s*([WB])\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*([ANS])([0-3])"
                       r"\s*(?:,\s*([01]))?\s*)?$", re.IGNORECASE)

_BY_TYPE: dict[int, Variant] = {20: INTERNATIONAL, 26: BRAZILIAN, 28: PORTUGUESE}

# Game types of PDN 3.0 the rig does not play, named in errors.
_OTHER_TYPES = {0: "chess", 1: "Chinese chess", 21: "English draughts", 22: "Italian draughts",
                23: "pool checkers", 24: "Spanish draughts", 25: "Russian draughts", 27: "Canadian draughts",
                29: "Czech draughts", 30: "Turkish draughts", 31: "Thai draughts", 40: "Frisian draughts",
                41: "Spantsiretti draughts", 50: "Othello"}


class GameTypeError(PdnSyntaxError):
    """A GameType tag the rig cannot read or does not play."""


@dataclass(frozen=True)
class GameType:
    """A parsed GameType: the type number and, in the full form, board and notation."""

    number: int
    start_colour: str | None = None
    width: int | None = None
    height: int | None = None
    notation: str | None = None  # e.g. "N2", "A0"
    invert: int | None = None

    @property
    def variant(self) -> Variant:
        """The rig's variant for this game type; raises :class:`GameTypeError` for other games."""
        v = _BY_TYPE.get(self.number)
        if v is None:
            name = _OTHER_TYPES.get(self.number, "an unknown game")
            raise GameTypeError(f"GameType {self.number} is {name}; the rig plays "
                                "20 (international), 26 (brazilian) and 28 (portuguese)")
        if self.width is not None and (self.width, self.height) != (v.size, v.size):
            raise GameTypeError(f"GameType {self.number} ({v.name}) is played on {v.size}x{v.size}, "
                                f"not {self.width}x{self.height}")
        if self.notation is not None and self.notation[0] == "S":
            raise GameTypeError(f"GameType {self.number} ({v.name}): the short notation {self.notation} is not "
                                f"read; the rig reads numbers (N0-N3) and algebraic names (A0)")
        return v

    @property
    def numbering(self) -> str | None:
        """The numeric notation the record's square numbers follow (``N0``..``N3``: the corner of square
        1), or None when the GameType does not say (the variant's own numbering applies). Algebraic
        names (``A``) are the same on every board."""
        if self.notation is None or self.notation[0] != "N":
            return None
        return self.notation

    def __str__(self) -> str:
        if self.width is None:
            return str(self.number)
        inv = "" if self.invert is None else f",{self.invert}"
        return f"{self.number},{self.start_colour},{self.width},{self.height},{self.notation}{inv}"


def parse_gametype(text: str) -> GameType:
    """Parse a GameType value (``"20"`` or ``"20,W,10,10,N2,0"``)."""
    m = _GAMETYPE.match(text)
    if m is None:
        raise GameTypeError(f"GameType {text!r} is not 'number' or 'number,W|B,width,height,notation[,invert]'")
    number, colour, width, height, kind, corner, invert = m.groups()
    if colour is None:
        return GameType(int(number))
    return GameType(int(number), colour.upper(), int(width), int(height), kind.upper() + corner,
                    None if invert is None else int(invert))


def _international(variant: Variant) -> bool:
    return variant.size == 10


def result_text(variant: Variant, outcome: str | None) -> str:
    """The PDN result of an outcome (``"white"``, ``"black"``, ``"draw"`` or None) in the variant's style."""
    if outcome not in OUTCOMES:
        raise ValueError(f"outcome must be one of {OUTCOMES}, not {outcome!r}")
    if outcome is None:
        return UNFINISHED
    if _international(variant):
        return {"white": "2-0", "black": "0-2", "draw": "1-1"}[outcome]
    return {"white": "1-0", "black": "0-1", "draw": "1/2-1/2"}[outcome]


_RESULT_FORMS = {
    "2-0": "white", "1-0": "white",
    "0-2": "black", "0-1": "black",
    "1-1": "draw", "1/2-1/2": "draw", "½-½": "draw", "1/2": "draw", "=": "draw",
    "0-0": None, "*": None,
}


def parse_result(text: str, variant: Variant) -> str | None:
    """The outcome of a PDN result: ``"white"``, ``"black"``, ``"draw"``, or None (``*``, double forfeit ``0-0``).

    Both result styles are read for every variant (wild files mix them)."""
    t = text.strip().replace(" ", "")
    if t not in _RESULT_FORMS:
        raise PdnSyntaxError(f"result {text!r} is none of 2-0 1-1 0-2 1-0 1/2-1/2 0-1 0-0 *")
    return _RESULT_FORMS[t]


def normal_result(text: str, variant: Variant) -> str:
    """A result rewritten in the variant's own style (``0-0`` stays a double forfeit)."""
    t = text.strip().replace(" ", "")
    if t == DOUBLE_FORFEIT:
        return DOUBLE_FORFEIT
    return result_text(variant, parse_result(t, variant))
