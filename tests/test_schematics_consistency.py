"""The pin assignment has one source of truth: the schematics' nets, the wiring table and the
scanner's default pin map must agree (and the committed files must be what generate.py makes)."""

import re
import sys
from pathlib import Path

import pytest

from sensors.pinmap import CLOCK_BUTTON_PINS, DEFAULT_PINMAP_8x8, DEFAULT_PINMAP_10x10, HEADER, SERIES_RESISTOR_OHMS
from sensors.cellmap import default_cellmap
from rig.variants import get_variant

ROOT = Path(__file__).resolve().parent.parent
SCH = ROOT / "hardware" / "schematics"


def parse_sexpr(text: str):
    tokens = re.findall(r'\(|\)|"(?:[^"\\]|\\.)*"|[^\s()]+', text)
    stack, cur = [], []
    for tok in tokens:
        if tok == "(":
            stack.append(cur)
            cur = []
        elif tok == ")":
            done, cur = cur, stack.pop()
            cur.append(done)
        else:
            cur.append(tok[1:-1] if tok.startswith('"') else tok)
    return cur[0]


def find(node, head):
    return [c for c in node if isinstance(c, list) and c and c[0] == head]


def nets_of(path: Path):
    """Every (reference, pin number) -> net name, through labels sitting on pin ends."""
    sch = parse_sexpr(path.read_text(encoding="utf-8"))
    pins = {}  # lib_id -> {number: (x, y, name)}
    for sym in find(find(sch, "lib_symbols")[0], "symbol"):
        for unit in find(sym, "symbol"):
            for p in find(unit, "pin"):
                at = find(p, "at")[0]
                pins.setdefault(sym[1], {})[find(p, "number")[0][1]] = (float(at[1]), float(at[2]), find(p, "name")[0][1])
    labels = {}
    for lab in find(sch, "label"):
        at = find(lab, "at")[0]
        labels[(round(float(at[1]), 2), round(float(at[2]), 2))] = lab[1]
    wires = [[(round(float(xy[1]), 2), round(float(xy[2]), 2)) for xy in find(find(w, "pts")[0], "xy")]
             for w in find(sch, "wire")]
    out, names, props = {}, {}, {}
    for inst in find(sch, "symbol"):
        lib = find(inst, "lib_id")[0][1]
        at = find(inst, "at")[0]
        assert at[3] == "0", "the parser assumes unrotated symbols"
        x, y = float(at[1]), float(at[2])
        ref = next(p[2] for p in find(inst, "property") if p[1] == "Reference")
        props[ref] = {p[1]: p[2] for p in find(inst, "property")}
        for num, (px, py, name) in pins[lib].items():
            end = (round(x + px, 2), round(y - py, 2))  # symbol y points up, sheet y down
            names[(ref, num)] = name
            if end in labels:
                out[(ref, num)] = labels[end]
            else:
                for w in wires:
                    if end in w:
                        out[(ref, num)] = f"wire{w}"
    return out, names, props


@pytest.mark.parametrize("board,pinmap,variant", [("8x8", DEFAULT_PINMAP_8x8, "portuguese"),
                                                    ("10x10", DEFAULT_PINMAP_10x10, "international")])
def test_schematic_header_nets_match_the_pin_map(board, pinmap, variant):
    nets, names, props = nets_of(SCH / f"matrix_{board}.kicad_sch")
    header_nets = {names[k]: v for k, v in nets.items() if k[0] == "J1"}
    lines = pinmap.signals() + [(f"BTN_{k.upper()}", g) for k, g in CLOCK_BUTTON_PINS.items()]
    expected = {f"GPIO{g}": f"P_{net}" for net, g in lines} | {"GND": "GND"}
    assert header_nets == expected
    # on the right physical pins, nothing on the power pins, and a series resistor on every line
    for net, g in lines:
        assert nets[("J1", str(HEADER[g]))] == f"P_{net}"
    assert not {("J1", str(p)) for p in (1, 2, 4, 17)} & set(nets)
    resistors = {props[r]["Line"]: r for r in props if r.startswith("R")}
    assert set(resistors) == {net for net, _ in lines}
    for net, r in resistors.items():
        assert nets[(r, "1")] == f"P_{net}" and nets[(r, "2")] == net
        assert props[r]["Value"] == str(SERIES_RESISTOR_OHMS)
    # the clock buttons close their line to GND
    buttons = [r for r in props if props[r].get("Value", "").startswith("clock button")]
    assert sorted(nets[(b, "1")] for b in buttons) == sorted(f"BTN_{k.upper()}" for k in CLOCK_BUTTON_PINS)
    assert all(nets[(b, "2")] == "GND" for b in buttons)
    # every symbol has a footprint
    assert all(p["Footprint"] for p in props.values())
    # every cell: COLj -> switch -> wire -> diode anode, cathode -> ROWi, under the square the map says
    cm = default_cellmap(get_variant(variant))
    for r in range(pinmap.shape[0]):
        for c in range(pinmap.shape[1]):
            sq = cm.square((r, c))
            assert nets[(f"SW{sq}", "1")] == f"COL{c}"
            assert nets[(f"D{sq}", "1")] == f"ROW{r}" and names[(f"D{sq}", "1")] == "K"
            assert nets[(f"SW{sq}", "2")] == nets[(f"D{sq}", "2")] and names[(f"D{sq}", "2")] == "A"
            assert props[f"SW{sq}"]["Cell"] == f"{r},{c}"
    assert sum(1 for k in props if k.startswith("SW") and "Square" in props[k]) == cm.shape[0] * cm.shape[1]


def test_wiring_table_matches_the_pin_map():
    text = (SCH / "WIRING.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \| GPIO(\d+) \| [^|]+ \| (ROW\d+|COL\d+) \| (yes|-) \| (yes|-) \|", text, re.M)
    table = {net: (int(g), int(pin), small == "yes", big == "yes") for pin, g, net, small, big in rows}
    small, big = dict(DEFAULT_PINMAP_8x8.signals()), dict(DEFAULT_PINMAP_10x10.signals())
    assert set(table) == set(big)
    for net, (gpio, pin, in_small, in_big) in table.items():
        assert gpio == big[net] and pin == HEADER[gpio] and in_big
        assert in_small == (net in small) and (not in_small or small[net] == gpio)


def test_committed_files_are_what_the_generator_makes():
    sys.path.insert(0, str(SCH))
    try:
        import generate
    finally:
        sys.path.remove(str(SCH))
    for board in generate.BOARDS:
        assert (SCH / f"matrix_{board}.kicad_sch").read_text(encoding="utf-8") == generate.schematic(board)
    assert (SCH / "WIRING.md").read_text(encoding="utf-8") == generate.wiring_table()
    assert (SCH / "BOM.md").read_text(encoding="utf-8") == generate.bom()
    assert (SCH / "PLACEMENT.md").read_text(encoding="utf-8") == generate.placement()


def test_clock_buttons_do_not_collide_with_the_matrix():
    from sensors.clock.gpio import DEFAULT_PINS
    from sensors.pinmap import CLOCK_BUTTON_PINS, DEFAULT_PINMAP_10x10, RESERVED

    matrix = set(DEFAULT_PINMAP_10x10.rows) | set(DEFAULT_PINMAP_10x10.cols)
    assert DEFAULT_PINS == CLOCK_BUTTON_PINS
    assert not matrix & set(CLOCK_BUTTON_PINS.values())
    assert len(set(CLOCK_BUTTON_PINS.values())) == 3
    # only the optional pause button may sit on a reserved (SPI) pin
    assert not {CLOCK_BUTTON_PINS["left"], CLOCK_BUTTON_PINS["right"]} & set(RESERVED)
