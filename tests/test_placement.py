"""The reed placement model behind hardware/schematics/PLACEMENT.md."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "hardware" / "schematics"))
from placement import Geometry, best_flat_offset, evaluate, reading  # noqa: E402
from rig.variants import INTERNATIONAL, PORTUGUESE

sys.path.pop(0)


def test_a_flat_reed_under_the_centre_has_a_dead_spot_exactly_there():
    g = Geometry()
    assert reading(g, "flat", 0.0, 0.0) == pytest.approx(0.0, abs=1e-12)
    assert reading(g, "flat", 3.0, 0.0) > 0                       # and closes only once the piece moves
    assert evaluate(g, "flat")["weakest"] == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("top", [3.0, 5.0])
@pytest.mark.parametrize("square", [30.0, 40.0])
def test_upright_and_offset_flat_have_no_dead_spot_under_a_wobbling_piece(top, square):
    g = Geometry(top=top, square=square)
    off = best_flat_offset(g)
    assert g.reed / 2 <= off <= g.reed / 2 + 1.5                  # one end of the 14 mm glass under the centre
    for mount, o in (("upright", 0.0), ("flat", off)):
        e = evaluate(g, mount, o)
        assert e["weakest"] > 0.5 * e["centred"] * 0.5            # never near zero within 5 mm
        assert e["selectivity"] > 2                               # a neighbour's king stays far below


def test_the_upright_reading_is_strongest_under_the_centre():
    g = Geometry()
    rs = [reading(g, "upright", x, 0.0) for x in (0.0, 2.0, 4.0, 6.0, 8.0)]
    assert rs == sorted(rs, reverse=True)


def test_the_hand_written_notes_quote_the_model():
    from sensors.cellmap import default_cellmap

    text = (Path(__file__).resolve().parent.parent / "hardware" / "schematics" / "README.md").read_text()
    assert f"glass {best_flat_offset(Geometry(top=3.0)):g} mm (3 mm top) to {best_flat_offset(Geometry(top=5.0)):g} mm" in text
    p, i = default_cellmap(PORTUGUESE), default_cellmap(INTERNATIONAL)
    assert f"--squares {p.square((0, 0))},{p.square((1, 0))}" in text
    assert f"--squares {i.square((0, 0))},{i.square((1, 0))}" in text
    assert "flat right under the centre" in text and "dead spot" in text
