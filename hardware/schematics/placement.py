#!/usr/bin/env python3
"""Where to put the reed under a square: a magnetic model of the BOM's reed and magnet.

    python hardware/schematics/placement.py      # prints the table PLACEMENT.md is made of

A reed closes when the magnetic potential difference between its two ends
(ampere-turns across the contacts) is large enough. The piece's axially
magnetised disc is a dipole pointing up; its scalar potential at a point
``rho`` to the side and ``z`` below is proportional to ``z / (rho^2 + z^2)^1.5``.
A reed lying flat right under the centre has both ends at the same
potential: a dead spot, exactly where a centred piece sits. Mounted upright
under the centre, one end is near the magnet and one far: the strongest
reading is under the centre and it only falls as the piece wanders.

The model gives *ratios* (the reed's pull-in is a band, 10-15 AT, and
magnets vary), so every figure is relative to an upright reed under a
centred man; the test square (``rig doctor --squares N``) measures the rest.
Selectivity = the weakest own reading (the piece anywhere within ``wobble``
of the centre) over the strongest reading a stacked king on the nearest
dark square (diagonal, pushed ``wobble`` towards us) makes: above 2, a reed
whose pull-in sits between the two closes for every piece and never for a
neighbour.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Geometry", "reading", "evaluate", "best_flat_offset", "table", "placement_md"]


@dataclass(frozen=True)
class Geometry:
    """Millimetres. ``reed``: glass length (the BOM's MACD-14 / MKA-14103: 14 mm, 2.28 mm diameter);
    ``top``: board top thickness; ``base``: piece material under the magnet; ``magnet_h``: magnet
    thickness (8 x 2 mm N42); ``piece_h``: a piece's height (a king's second magnet sits that much
    higher); ``stub``: an upright reed's top lead, kept straight 3 mm above the glass (bent further
    out it would crack the seal), which keeps the glass that far below the top; ``square``: square
    size; ``wobble``: how far off-centre a piece may sit."""

    reed: float = 14.0
    reed_d: float = 2.28
    top: float = 3.0
    base: float = 1.0
    magnet_h: float = 2.0
    piece_h: float = 7.0
    glue: float = 0.5
    stub: float = 3.0
    square: float = 40.0
    wobble: float = 5.0

    @property
    def depth(self) -> float:
        """Magnet centre to the underside of the board top."""
        return self.base + self.magnet_h / 2 + self.top + self.glue


def _psi(rho: float, z: float) -> float:
    return z / (rho * rho + z * z) ** 1.5


def reading(g: Geometry, mount: str, dx: float, dy: float, offset: float = 0.0, king: bool = False) -> float:
    """Potential difference across the reed (arbitrary units) with the magnet at (dx, dy) from the
    square's centre. ``mount``: ``upright`` under the centre, or ``flat`` along x with its middle at
    ``offset``. A king adds a second magnet ``piece_h`` higher."""
    total = 0.0
    for lift in ((0.0, g.piece_h) if king else (0.0,)):
        z0 = g.depth + lift
        if mount == "upright":
            rho, z = math.hypot(dx, dy), z0 + g.stub
            total += _psi(rho, z) - _psi(rho, z + g.reed)
        else:
            z = z0 + g.reed_d / 2
            a = math.hypot(dx - (offset - g.reed / 2), dy)
            b = math.hypot(dx - (offset + g.reed / 2), dy)
            total += _psi(a, z) - _psi(b, z)
    return abs(total)


def _ring(r: float, n: int = 24) -> list[tuple[float, float]]:
    return [(0.0, 0.0)] + [(r * math.cos(2 * math.pi * k / n), r * math.sin(2 * math.pi * k / n))
                           for k in range(n)] + [(r / 2 * math.cos(2 * math.pi * k / n),
                                                  r / 2 * math.sin(2 * math.pi * k / n)) for k in range(n)]


def evaluate(g: Geometry, mount: str, offset: float = 0.0) -> dict[str, float]:
    """Relative figures of one mounting: centred, weakest own, strongest neighbour king, selectivity."""
    ref = reading(g, "upright", 0.0, 0.0)
    own = [reading(g, mount, x, y, offset) for x, y in _ring(g.wobble)]
    diag = g.square * math.sqrt(2) - g.wobble
    neighbour = max(reading(g, mount, diag * math.cos(a), diag * math.sin(a), offset, king=True)
                    for a in (math.pi / 4 + k * math.pi / 2 for k in range(4)))
    return {"centred": reading(g, mount, 0.0, 0.0, offset) / ref, "weakest": min(own) / ref,
            "neighbour_king": neighbour / ref, "selectivity": min(own) / neighbour}


def best_flat_offset(g: Geometry) -> float:
    """The offset (mm, along the glass) of a flat reed that maximises its weakest own reading."""
    return max((k / 2 for k in range(0, 31)), key=lambda o: evaluate(g, "flat", o)["weakest"])


def table() -> list[str]:
    rows = ["| Board top | Square | Mounting | Centred | Weakest (piece 5 mm off) | Neighbour king | Selectivity |",
            "|---|---|---|---|---|---|---|"]
    for top in (3.0, 5.0):
        for square in (30.0, 40.0):
            g = Geometry(top=top, square=square)
            off = best_flat_offset(g)
            for mount, o, label in (("upright", 0.0, "upright, under the centre"),
                                    ("flat", 0.0, "flat, centred"),
                                    ("flat", off, f"flat, offset {off:g} mm along the glass")):
                e = evaluate(g, mount, o)
                rows.append(f"| {top:g} mm | {square:g} mm | {label} | {e['centred']:.2f} | {e['weakest']:.2f} | "
                            f"{e['neighbour_king']:.3f} | {e['selectivity']:.1f} |")
    return rows


def placement_md(test_squares: dict[str, tuple[int, int]]) -> str:
    """PLACEMENT.md: the figures behind hardware/schematics/README.md's placement notes.
    ``test_squares``: board -> (square on ROW0/COL0, its diagonal neighbour on ROW1/COL0)."""
    g3, g5 = Geometry(top=3.0), Geometry(top=5.0)
    out = ["# Reed placement: the figures", "",
           "Generated by `hardware/schematics/generate.py` from `hardware/schematics/placement.py` (a dipole",
           "model of the BOM's 8 x 2 mm N42 magnet over its 14 mm glass reed). Readings are relative to an",
           "upright reed under a centred man; the pull-in itself is measured on the test square.", "",
           "## Distances", "",
           f"- Magnet centre to the underside of the board top: piece base {g3.base:g} mm + half the magnet "
           f"{g3.magnet_h / 2:g} mm + top + glue {g3.glue:g} mm = {g3.depth:g} mm on a 3 mm top, "
           f"{g5.depth:g} mm on a 5 mm top.",
           f"- Flat reed: put the middle of the glass {best_flat_offset(g3):g} mm (3 mm top) or "
           f"{best_flat_offset(g5):g} mm (5 mm top) from the square's centre along the glass, so one end "
           "of the glass sits under the centre. Centred flat, the reading is zero: the dead spot.",
           f"- Upright reed: under the centre, its top lead cut {g3.stub:g} mm above the glass and bent sideways "
           f"into the top's underside (a 1 mm groove), so the glass starts {g3.stub:g} mm below the top; it "
           f"needs about {g3.stub + g3.reed + 3:g} mm of depth (stub, glass, 3 mm of bottom lead).",
           "- The nearest playable neighbour is diagonal: 42 mm away on 30 mm squares, 57 mm on 40 mm squares.",
           "", "## Readings", "", *table(), "",
           "## Test squares", "",
           "Build the square on ROW0/COL0 and its diagonal neighbour on ROW1/COL0 first, wired to the",
           "interface board, then run the doctor on them (a centred piece, one pushed 5 mm off-centre and a",
           "stacked king on each; `crosstalk`, `dead-spot` or `king-not-seen` means change the placement):", ""]
    out += [f"    rig doctor --variant {variant} --squares {a},{b}" for variant, (a, b) in test_squares.items()]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print("\n".join(table()))
