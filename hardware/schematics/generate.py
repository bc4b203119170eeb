#!/usr/bin/env python3
"""Generate the matrix schematics (KiCad 6+), the wiring table and the BOM from sensors.pinmap.

    python hardware/schematics/generate.py      # rewrites the files next to this script

The pin assignment lives only in ``sensors/pinmap.py``; every file here is derived from it
(``tests/test_schematics_consistency.py`` checks that they still agree).
"""

from __future__ import annotations

import sys
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from rig.variants import get_variant  # noqa: E402
from sensors.cellmap import default_cellmap  # noqa: E402
from sensors.pinmap import (DEFAULT_PINMAP_8x8, DEFAULT_PINMAP_10x10, HEADER, HEADER_POWER,  # noqa: E402
                            RESERVED, PinMap)

BOARDS = {"8x8": ("portuguese", DEFAULT_PINMAP_8x8), "10x10": ("international", DEFAULT_PINMAP_10x10)}
FONT = "(effects (font (size 1.27 1.27)))"
HIDDEN = "(effects (font (size 1.27 1.27)) hide)"
STROKE = "(stroke (width 0) (type default) (color 0 0 0 0))"


def _uuid(*parts: object) -> str:
    """Stable UUIDs, so regenerating gives the same file."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "damas-rig/" + "/".join(map(str, parts))))


def _pin(number: str, name: str, x: float, y: float, angle: int) -> str:
    return (f'(pin passive line (at {x:g} {y:g} {angle}) (length 2.54) (name "{name}" {FONT}) '
            f'(number "{number}" {FONT}))')


def _props(ref: str, value: str, y: float = 2.54) -> str:
    return (f'(property "Reference" "{ref}" (id 0) (at 0 {y:g} 0) {FONT}) '
            f'(property "Value" "{value}" (id 1) (at 0 {-y:g} 0) {FONT}) '
            f'(property "Footprint" "" (id 2) (at 0 0 0) {HIDDEN}) '
            f'(property "Datasheet" "" (id 3) (at 0 0 0) {HIDDEN})')


def lib_symbols() -> str:
    """Three symbols: a reed switch (1 column side, 2 diode side), a diode drawn anode-left
    (pin 2 = A, pin 1 = K, as KiCad's Device:D numbers them) and the Pi's 40-pin header."""
    sw = (f'(symbol "damas:SW_Reed" (pin_names (offset 0) hide) (in_bom yes) (on_board yes) {_props("SW", "SW_Reed")} '
          f'(symbol "SW_Reed_0_1" (polyline (pts (xy -1.27 0) (xy 1.27 1.016)) {STROKE} (fill (type none))) '
          f'(rectangle (start -2.032 -1.524) (end 2.032 1.524) {STROKE} (fill (type none)))) '
          f'(symbol "SW_Reed_1_1" {_pin("1", "1", -3.81, 0, 0)} {_pin("2", "2", 3.81, 0, 180)}))')
    d = (f'(symbol "damas:D" (pin_names (offset 0) hide) (in_bom yes) (on_board yes) {_props("D", "1N4148")} '
         f'(symbol "D_0_1" (polyline (pts (xy -1.27 1.27) (xy -1.27 -1.27) (xy 1.27 0) (xy -1.27 1.27)) {STROKE} '
         f'(fill (type none))) (polyline (pts (xy 1.27 1.27) (xy 1.27 -1.27)) {STROKE} (fill (type none)))) '
         f'(symbol "D_1_1" {_pin("1", "K", 3.81, 0, 180)} {_pin("2", "A", -3.81, 0, 0)}))')
    by_pin = {p: f"GPIO{g}" for g, p in HEADER.items()} | HEADER_POWER
    pins = []
    for n in range(1, 41):
        k = (n - 1) // 2
        y = 24.13 - k * 2.54
        pins.append(_pin(str(n), by_pin[n], -7.62 if n % 2 else 7.62, y, 0 if n % 2 else 180))
    hdr = (f'(symbol "damas:RPi_GPIO_40" (in_bom yes) (on_board yes) {_props("J", "RPi_GPIO_40", 27.94)} '
           f'(symbol "RPi_GPIO_40_0_1" (rectangle (start -5.08 25.4) (end 5.08 -25.4) {STROKE} '
           f'(fill (type background)))) (symbol "RPi_GPIO_40_1_1" {" ".join(pins)}))')
    return f"(lib_symbols {sw} {d} {hdr})"


def _instance(sheet: str, lib: str, ref: str, value: str, x: float, y: float, pins: list[str],
              extra: dict[str, str] | None = None) -> str:
    u = _uuid(sheet, ref)
    props = [f'(property "Reference" "{ref}" (id 0) (at {x:g} {y - 3.81:g} 0) {FONT})',
             f'(property "Value" "{value}" (id 1) (at {x:g} {y + 3.81:g} 0) {FONT})',
             f'(property "Footprint" "" (id 2) (at {x:g} {y:g} 0) {HIDDEN})',
             f'(property "Datasheet" "" (id 3) (at {x:g} {y:g} 0) {HIDDEN})']
    for i, (k, v) in enumerate((extra or {}).items(), start=4):
        props.append(f'(property "{k}" "{v}" (id {i}) (at {x:g} {y:g} 0) {HIDDEN})')
    pin_s = " ".join(f'(pin "{p}" (uuid {_uuid(sheet, ref, p)}))' for p in pins)
    return (f'(symbol (lib_id "{lib}") (at {x:g} {y:g} 0) (unit 1) (in_bom yes) (on_board yes) (uuid {u}) '
            f'{" ".join(props)} {pin_s})')


def _label(sheet: str, net: str, x: float, y: float, n: int) -> str:
    return (f'(label "{net}" (at {x:g} {y:g} 0) (fields_autoplaced) (effects (font (size 1.27 1.27)) '
            f'(justify left bottom)) (uuid {_uuid(sheet, "label", net, n)}))')


def schematic(board: str) -> str:
    variant, pinmap = BOARDS[board]
    v = get_variant(variant)
    cellmap = default_cellmap(v)
    sheet = f"matrix_{board}"
    items, refs, n_label = [], [], 0
    # the header, its GPIO pins labelled with the matrix nets
    hx, hy = 50.8, 76.2
    items.append(_instance(sheet, "damas:RPi_GPIO_40", "J1", "RPi_GPIO_40", hx, hy, [str(i) for i in range(1, 41)]))
    refs.append(("J1", "RPi_GPIO_40"))
    for net, gpio in pinmap.signals():
        p = HEADER[gpio]
        k = (p - 1) // 2
        px = hx + (-7.62 if p % 2 else 7.62)
        py = hy - (24.13 - k * 2.54)
        items.append(_label(sheet, net, px, py, n_label))
        n_label += 1
    # one switch + diode per cell: COLj -> switch -> diode (anode) -> (cathode) ROWi
    for r in range(v.size):
        for c in range(v.half):
            sq = cellmap.square((r, c))
            x, y = 101.6 + c * 38.1, 25.4 + r * 12.7
            sw, d = f"SW{sq}", f"D{sq}"
            items.append(_instance(sheet, "damas:SW_Reed", sw, "SW_Reed", x, y, ["1", "2"],
                                   {"Square": str(sq), "Cell": f"{r},{c}"}))
            items.append(_instance(sheet, "damas:D", d, "1N4148", x + 10.16, y, ["1", "2"],
                                   {"Square": str(sq), "Cell": f"{r},{c}"}))
            refs += [(sw, "SW_Reed"), (d, "1N4148")]
            items.append(f"(wire (pts (xy {x + 3.81:g} {y:g}) (xy {x + 6.35:g} {y:g})) {STROKE} "
                         f"(uuid {_uuid(sheet, 'wire', sq)}))")
            items.append(_label(sheet, f"COL{c}", x - 3.81, y, n_label))
            items.append(_label(sheet, f"ROW{r}", x + 13.97, y, n_label + 1))
            n_label += 2
    inst = " ".join(f'(path "/{_uuid(sheet, ref)}" (reference "{ref}") (unit 1) (value "{val}") (footprint ""))'
                    for ref, val in refs)
    body = "\n  ".join(items)
    title = f"damas rig: {board} reed-switch matrix ({v.size} rows x {v.half} columns, {v.squares} squares)"
    return (f'(kicad_sch (version 20211123) (generator damas_rig_generate)\n'
            f'  (uuid {_uuid(sheet)})\n  (paper "A2")\n'
            f'  (title_block (title "{title}") (comment 1 "Generated by hardware/schematics/generate.py from '
            f'sensors/pinmap.py: do not edit") (comment 2 "Switch SWn / diode Dn sit under square n ({v.name} '
            f'numbering, standard wiring: row = rank, column = n-th dark square from file a)"))\n'
            f'  {lib_symbols()}\n  {body}\n'
            f'  (sheet_instances (path "/" (page "1")))\n  (symbol_instances {inst})\n)\n')


def wiring_table() -> str:
    big, small = DEFAULT_PINMAP_10x10, DEFAULT_PINMAP_8x8
    lines = ["# Wiring table", "",
             "Generated by `hardware/schematics/generate.py` from `sensors/pinmap.py` (the one source of truth;",
             "`tests/test_schematics_consistency.py` checks that this table, the schematics and the scanner agree).",
             "", "Rows are driven low one at a time (idle rows high-impedance); columns are inputs with the Pi's",
             "internal pull-ups. Matrix row i is rank i (rank 0 = white's first row), column j the j-th dark",
             "square of the rank counted from file a, when the board is wired the standard way.", "",
             "| Signal | GPIO (BCM) | Header pin | 8x8 | 10x10 |", "|---|---|---|---|---|"]
    small_sig = dict(small.signals())
    for net, gpio in big.signals():
        lines.append(f"| {net} | GPIO{gpio} | {HEADER[gpio]} | {'yes' if net in small_sig else '-'} | yes |")
    lines += ["", "Left free on purpose:", ""]
    lines += [f"- GPIO{g} (pin {HEADER[g]}): {why}" for g, why in sorted(RESERVED.items())]
    used = set(big.rows + big.cols)
    spare = sorted(g for g in HEADER if g not in used and g not in RESERVED)
    lines += ["", "Spare: " + ", ".join(f"GPIO{g} (pin {HEADER[g]})" for g in spare) + ".",
              "No power pin is wired to the matrix: the pull-ups are inside the Pi.", ""]
    return "\n".join(lines)


def bom() -> str:
    rows = [("SW", "Reed switch, normally open, glass, 14 mm body, 10-15 AT (e.g. MKA-14103 / Littelfuse 59140)",
             32, 50, "one under each playable square"),
            ("D", "1N4148 small-signal diode (DO-35)", 32, 50, "in series with each switch, cathode to the row"),
            ("J1", "2x20 female header, 2.54 mm, + 40-way IDC ribbon", 1, 1, "to the Pi's GPIO header"),
            ("-", "Neodymium disc magnet, 8 x 2 mm, N42, axially magnetised", 24, 40, "one in the base of each piece"),
            ("-", "Neodymium disc magnet, 8 x 2 mm (spare for kings / re-crowning)", 8, 10, "optional"),
            ("-", "Stripboard or the matrix PCB, 0.5 mm2 wire for rows and columns", 1, 1, ""),
            ("-", "Raspberry Pi (any 40-pin model; Pi 5 uses the lgpio backend)", 1, 1, "")]
    out = ["# Bill of materials", "", "Generated by `hardware/schematics/generate.py`.", "",
           "| Ref | Part | 8x8 | 10x10 | Note |", "|---|---|---|---|---|"]
    out += [f"| {r} | {p} | {a} | {b} | {n} |" for r, p, a, b, n in rows]
    return "\n".join(out) + "\n"


def main() -> int:
    for board in BOARDS:
        (HERE / f"matrix_{board}.kicad_sch").write_text(schematic(board), encoding="utf-8")
    (HERE / "WIRING.md").write_text(wiring_table(), encoding="utf-8")
    (HERE / "BOM.md").write_text(bom(), encoding="utf-8")
    print(f"wrote {', '.join(f'matrix_{b}.kicad_sch' for b in BOARDS)}, WIRING.md, BOM.md in {HERE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
