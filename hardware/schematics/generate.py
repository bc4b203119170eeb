#!/usr/bin/env python3
"""Generate the matrix schematics (KiCad 6+), the wiring table and the BOM from sensors.pinmap.

    python hardware/schematics/generate.py      # rewrites the files next to this script

The pin assignment and every pin's role live only in ``sensors/pinmap.py``; every file here is
derived from it (``tests/test_schematics_consistency.py`` and ``tests/test_pin_roles.py`` check
that they still agree). Texts: ``wiring.py`` (WIRING.md), ``bom.py`` (BOM.md).
"""

from __future__ import annotations

import sys
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
sys.path.insert(0, str(HERE))

from bom import FOOTPRINTS, bom  # noqa: E402
from rig.variants import get_variant  # noqa: E402
from sensors.cellmap import default_cellmap  # noqa: E402
from sensors.pinmap import (CLOCK_BUTTON_PINS, DEFAULT_PINMAP_8x8, DEFAULT_PINMAP_10x10, HEADER,  # noqa: E402
                            HEADER_POWER, SERIES_RESISTOR_OHMS)
from placement import placement_md  # noqa: E402
from wiring import wiring_table  # noqa: E402

__all__ = ["BOARDS", "schematic", "wiring_table", "bom", "placement", "line_signals", "main"]

BOARDS = {"8x8": ("portuguese", DEFAULT_PINMAP_8x8), "10x10": ("international", DEFAULT_PINMAP_10x10)}
FONT = "(effects (font (size 1.27 1.27)))"
HIDDEN = "(effects (font (size 1.27 1.27)) hide)"
STROKE = "(stroke (width 0) (type default) (color 0 0 0 0))"
GND_PIN = 9  # the header GND pin the clock buttons return to


def _uuid(*parts: object) -> str:
    """Stable UUIDs, so regenerating gives the same file."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "damas-rig/" + "/".join(map(str, parts))))


def _pin(number: str, name: str, x: float, y: float, angle: int) -> str:
    return (f'(pin passive line (at {x:g} {y:g} {angle}) (length 2.54) (name "{name}" {FONT}) '
            f'(number "{number}" {FONT}))')


def _props(ref: str, value: str, footprint: str, y: float = 2.54) -> str:
    return (f'(property "Reference" "{ref}" (id 0) (at 0 {y:g} 0) {FONT}) '
            f'(property "Value" "{value}" (id 1) (at 0 {-y:g} 0) {FONT}) '
            f'(property "Footprint" "{footprint}" (id 2) (at 0 0 0) {HIDDEN}) '
            f'(property "Datasheet" "" (id 3) (at 0 0 0) {HIDDEN})')


def _two_pin(name: str, ref: str, value: str, body: str, pins: tuple[str, str] = ("1", "2")) -> str:
    return (f'(symbol "damas:{name}" (pin_names (offset 0) hide) (in_bom yes) (on_board yes) '
            f'{_props(ref, value, FOOTPRINTS[name])} (symbol "{name}_0_1" {body}) '
            f'(symbol "{name}_1_1" {_pin("1", pins[0], -3.81, 0, 0)} {_pin("2", pins[1], 3.81, 0, 180)}))')


def lib_symbols() -> str:
    """A reed switch (1 column side, 2 diode side), a diode (pin 1 = K on the right, pin 2 = A on
    the left, as KiCad's Device:D numbers them), a resistor, a push button and the Pi's 40-pin header."""
    box = f'(rectangle (start -2.032 -1.524) (end 2.032 1.524) {STROKE} (fill (type none)))'
    sw = _two_pin("SW_Reed", "SW", "SW_Reed",
                  f'(polyline (pts (xy -1.27 0) (xy 1.27 1.016)) {STROKE} (fill (type none))) {box}')
    d = (f'(symbol "damas:D" (pin_names (offset 0) hide) (in_bom yes) (on_board yes) '
         f'{_props("D", "1N4148", FOOTPRINTS["D"])} '
         f'(symbol "D_0_1" (polyline (pts (xy -1.27 1.27) (xy -1.27 -1.27) (xy 1.27 0) (xy -1.27 1.27)) {STROKE} '
         f'(fill (type none))) (polyline (pts (xy 1.27 1.27) (xy 1.27 -1.27)) {STROKE} (fill (type none)))) '
         f'(symbol "D_1_1" {_pin("1", "K", 3.81, 0, 180)} {_pin("2", "A", -3.81, 0, 0)}))')
    r = _two_pin("R", "R", f"{SERIES_RESISTOR_OHMS}",
                 f'(rectangle (start -2.54 -0.762) (end 2.54 0.762) {STROKE} (fill (type none)))')
    btn = _two_pin("SW_Push", "SW", "SW_Push",
                   f'(polyline (pts (xy -1.524 1.27) (xy 1.524 1.27)) {STROKE} (fill (type none))) '
                   f'(polyline (pts (xy 0 1.27) (xy 0 2.54)) {STROKE} (fill (type none)))')
    by_pin = {p: f"GPIO{g}" for g, p in HEADER.items()} | HEADER_POWER
    pins = []
    for n in range(1, 41):
        k = (n - 1) // 2
        y = 24.13 - k * 2.54
        pins.append(_pin(str(n), by_pin[n], -7.62 if n % 2 else 7.62, y, 0 if n % 2 else 180))
    hdr = (f'(symbol "damas:RPi_GPIO_40" (in_bom yes) (on_board yes) '
           f'{_props("J", "RPi_GPIO_40", FOOTPRINTS["RPi_GPIO_40"], 27.94)} '
           f'(symbol "RPi_GPIO_40_0_1" (rectangle (start -5.08 25.4) (end 5.08 -25.4) {STROKE} '
           f'(fill (type background)))) (symbol "RPi_GPIO_40_1_1" {" ".join(pins)}))')
    return f"(lib_symbols {sw} {d} {r} {btn} {hdr})"


def _instance(sheet: str, lib: str, ref: str, value: str, x: float, y: float, pins: list[str],
              extra: dict[str, str] | None = None) -> str:
    u = _uuid(sheet, ref)
    fp = FOOTPRINTS[lib.split(":")[1]]
    props = [f'(property "Reference" "{ref}" (id 0) (at {x:g} {y - 3.81:g} 0) {FONT})',
             f'(property "Value" "{value}" (id 1) (at {x:g} {y + 3.81:g} 0) {FONT})',
             f'(property "Footprint" "{fp}" (id 2) (at {x:g} {y:g} 0) {HIDDEN})',
             f'(property "Datasheet" "" (id 3) (at {x:g} {y:g} 0) {HIDDEN})']
    for i, (k, v) in enumerate((extra or {}).items(), start=4):
        props.append(f'(property "{k}" "{v}" (id {i}) (at {x:g} {y:g} 0) {HIDDEN})')
    pin_s = " ".join(f'(pin "{p}" (uuid {_uuid(sheet, ref, p)}))' for p in pins)
    return (f'(symbol (lib_id "{lib}") (at {x:g} {y:g} 0) (unit 1) (in_bom yes) (on_board yes) (uuid {u}) '
            f'{" ".join(props)} {pin_s})')


def _label(sheet: str, net: str, x: float, y: float, n: int) -> str:
    return (f'(label "{net}" (at {x:g} {y:g} 0) (fields_autoplaced) (effects (font (size 1.27 1.27)) '
            f'(justify left bottom)) (uuid {_uuid(sheet, "label", net, n)}))')


def line_signals(pinmap) -> list[tuple[str, int]]:
    """Every line that leaves the Pi for this board: the matrix nets, then the clock buttons."""
    return pinmap.signals() + [(f"BTN_{k.upper()}", g) for k, g in CLOCK_BUTTON_PINS.items()]


def schematic(board: str) -> str:
    """The KiCad schematic of one board: header J1 (its pins on nets ``P_<line>``), a series resistor
    per line (``P_<line>`` -> ``<line>``), a reed switch + diode per square, the clock buttons."""
    variant, pinmap = BOARDS[board]
    v = get_variant(variant)
    cellmap = default_cellmap(v)
    sheet = f"matrix_{board}"
    items, refs, n_label = [], [], 0
    hx, hy = 50.8, 76.2
    items.append(_instance(sheet, "damas:RPi_GPIO_40", "J1", "RPi_GPIO_40", hx, hy, [str(i) for i in range(1, 41)]))
    refs.append(("J1", "RPi_GPIO_40"))

    def header_label(net: str, p: int) -> None:
        nonlocal n_label
        k = (p - 1) // 2
        items.append(_label(sheet, net, hx + (-7.62 if p % 2 else 7.62), hy - (24.13 - k * 2.54), n_label))
        n_label += 1

    for i, (net, gpio) in enumerate(line_signals(pinmap), start=1):
        header_label(f"P_{net}", HEADER[gpio])
        # the series resistor R<i>: P_<net> -> <net>
        x, y = 76.2, 12.7 + i * 7.62
        items.append(_instance(sheet, "damas:R", f"R{i}", f"{SERIES_RESISTOR_OHMS}", x, y, ["1", "2"],
                               {"Line": net}))
        refs.append((f"R{i}", f"{SERIES_RESISTOR_OHMS}"))
        items.append(_label(sheet, f"P_{net}", x - 3.81, y, n_label))
        items.append(_label(sheet, net, x + 3.81, y, n_label + 1))
        n_label += 2
    header_label("GND", GND_PIN)
    # the clock buttons: BTN_<name> -> button -> GND
    for k, name in enumerate(CLOCK_BUTTON_PINS, start=1):
        x, y = 25.4, 127.0 + k * 10.16
        net = f"BTN_{name.upper()}"
        items.append(_instance(sheet, "damas:SW_Push", f"SW{900 + k}", f"clock button {name}", x, y, ["1", "2"]))
        refs.append((f"SW{900 + k}", f"clock button {name}"))
        items.append(_label(sheet, net, x - 3.81, y, n_label))
        items.append(_label(sheet, "GND", x + 3.81, y, n_label + 1))
        n_label += 2
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
    lib_of = {"J": "RPi_GPIO_40", "R": "R", "D": "D"}
    inst = " ".join(
        f'(path "/{_uuid(sheet, ref)}" (reference "{ref}") (unit 1) (value "{val}") '
        f'(footprint "{FOOTPRINTS[lib_of.get(ref[0], "SW_Push" if ref.startswith("SW9") else "SW_Reed")]}"))'
        for ref, val in refs)
    body = "\n  ".join(items)
    title = f"damas rig: {board} reed-switch matrix ({v.size} rows x {v.half} columns, {v.squares} squares)"
    return (f'(kicad_sch (version 20211123) (generator damas_rig_generate)\n'
            f'  (uuid {_uuid(sheet)})\n  (paper "A2")\n'
            f'  (title_block (title "{title}") (comment 1 "Generated by hardware/schematics/generate.py from '
            f'sensors/pinmap.py: do not edit") (comment 2 "Switch SWn / diode Dn sit under square n ({v.name} '
            f'numbering, standard wiring: row = rank, column = n-th dark square from file a)") '
            f'(comment 3 "R1..: {SERIES_RESISTOR_OHMS} ohm in series with every line at the Pi end; header pins 1, 2, '
            f'4, 17 (3V3, 5V) not connected"))\n'
            f'  {lib_symbols()}\n  {body}\n'
            f'  (sheet_instances (path "/" (page "1")))\n  (symbol_instances {inst})\n)\n')


def placement() -> str:
    """PLACEMENT.md, with each board's test squares (cells ROW0/COL0 and ROW1/COL0)."""
    squares = {}
    for variant, _ in BOARDS.values():
        cm = default_cellmap(get_variant(variant))
        squares[variant] = (cm.square((0, 0)), cm.square((1, 0)))
    return placement_md(squares)


def main() -> int:
    for board in BOARDS:
        (HERE / f"matrix_{board}.kicad_sch").write_text(schematic(board), encoding="utf-8")
    (HERE / "WIRING.md").write_text(wiring_table(), encoding="utf-8")
    (HERE / "BOM.md").write_text(bom(), encoding="utf-8")
    (HERE / "PLACEMENT.md").write_text(placement(), encoding="utf-8")
    print(f"wrote {', '.join(f'matrix_{b}.kicad_sch' for b in BOARDS)}, WIRING.md, BOM.md, PLACEMENT.md in {HERE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
