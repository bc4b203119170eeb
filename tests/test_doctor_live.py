"""rig doctor, live: reversed diodes, crosstalk against ghosts, the dead spot and the stacked king."""

from rig.cli import main
from rig.variants import get_variant
from sensors.cellmap import default_cellmap
from sensors.circuit import explain_backward, rows_low
from sensors.doctor import check_live
from sensors.matrix import MatrixScanner
from sensors.prompts import CellWaiter, ScriptedHands
from sensors.simmatrix import SimClock, SimulatedMatrix

P = get_variant("portuguese")
CM = default_cellmap(P)


def walk(faults, squares, **kw):
    clock = SimClock()
    m = SimulatedMatrix(P, faults=faults, clock=clock)
    hands = ScriptedHands(m)
    with MatrixScanner(P, pin_factory=m.pin_factory(), clock=clock, sleep=clock.sleep) as s:
        found = check_live(s, CellWaiter(s, timeout=1.0), hands, squares, **kw)
    return {(f.kind, f.square): f for f in found}, hands


def test_a_reversed_diode_is_named_not_reported_dead():
    found, hands = walk(["reversed-diode:5"], [5, 9])
    assert set(found) == {("reversed-diode", 5)}
    assert found[("reversed-diode", 5)].severity == "error" and "wrong way round" in found[("reversed-diode", 5)].message
    assert [st.pose for st in hands.steps if st.kind == "place" and st.square == 9] == ["centre", "off-centre", "king"]


def test_the_diode_check_keeps_readings_of_cells_the_scan_does_not_see():
    clock = SimClock()
    m = SimulatedMatrix(P, faults=["reversed-diode:5"], clock=clock)
    m.set_occupied({5, 9}, 0.0, bounce=False)
    with MatrixScanner(P, pin_factory=m.pin_factory(), clock=clock, sleep=clock.sleep) as s:
        events = list(s.run(duration=0.1))
        assert s.cells == {CM.cell(9)}                        # the scan cannot see the piece on 5
        assert s.diode_check() == {CM.cell(5): "reversed-diode"}
    assert [e.square for e in events if getattr(e, "kind", "") == "reversed-diode"] == [5]


def test_the_periodic_diode_check_finds_a_reversed_diode_the_scan_never_sees():
    clock = SimClock()
    m = SimulatedMatrix(P, faults=["reversed-diode:5"], clock=clock)
    with MatrixScanner(P, pin_factory=m.pin_factory(), clock=clock, sleep=clock.sleep, t0=0.0) as s:
        assert [e for e in s.run(duration=0.5) if getattr(e, "kind", "") == "reversed-diode"] == []
        m.place(5, bounce=False)                            # nothing changes in the scan...
        events = [e for e in s.run(duration=1.5) if getattr(e, "kind", "") == "reversed-diode"]
    assert [(e.square, e.t >= 0.5) for e in events] == [(5, True)]  # ... the check a second later sees it


def test_one_piece_cannot_make_a_ghost_so_an_extra_square_is_crosstalk():
    found, _ = walk(["crosstalk:14"], [14])
    n = SimulatedMatrix(P, faults=["crosstalk:14"]).neighbour(14)
    assert set(found) == {("crosstalk", n)}                  # only the stacked king reaches the neighbour
    assert "stacked king on" in found[("crosstalk", n)].message
    found, _ = walk(["missing-diode:1"], [1])                # a missing diode alone: no ghost, no crosstalk
    assert set(found) == {("missing-diode", 1)}


def test_a_ghost_needs_three_closed_corners_and_points_at_the_missing_diode():
    d, side = (0, 3), (0, 2)                                  # square 1 (no diode) and its row neighbour
    third = (1, 3)
    ghost = (1, 2)
    faults = [f"stuck-closed:{CM.square(d)}", f"missing-diode:{CM.square(d)}", f"stuck-closed:{CM.square(side)}"]
    found, _ = walk(faults, [CM.square(third)], poses=("centre",))
    assert ("ghost", CM.square(ghost)) in found and found[("ghost", CM.square(ghost))].severity == "suspect"
    assert ("missing-diode", CM.square(d)) in found
    assert not any(k == "crosstalk" for k, _ in found)


def test_dead_spot_and_repelling_king_are_found_only_by_their_poses():
    found, _ = walk(["dead-spot:9", "repelling-king:18"], [9, 18])
    assert set(found) == {("dead-spot", 9), ("king-not-seen", 18)}
    quick, hands = walk(["dead-spot:9", "repelling-king:18"], [9, 18], poses=("centre",))
    assert quick == {} and {st.pose for st in hands.steps} == {"centre"}


def test_backward_chains_are_reduced_to_the_cells_that_explain_them():
    closed = {(1, 1), (2, 1)}                                 # (1, 0) and (2, 2) conduct backwards
    nd, rev = {(1, 1)}, {(0, 0)}
    readings = {j: rows_low(closed | rev, nd, j, rev) for j in range(3)}
    assert explain_backward(closed, readings) == {(1, 1): "missing-diode", (0, 0): "reversed-diode"}
    assert explain_backward(closed, {j: set() for j in range(3)}) == {}


def test_cli_doctor_names_a_reversed_diode(capsys):
    assert main(["doctor", "--simulate", "--squares", "5,9", "--fault", "reversed-diode:5", "--timeout", "1"]) == 1
    out = capsys.readouterr().out
    assert "reversed-diode on square 5" in out and "dead" not in out
    assert main(["doctor", "--simulate", "--squares", "9", "--quick", "--fault", "dead-spot:9", "--timeout", "1"]) == 0
