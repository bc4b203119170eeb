"""A switch that fails and then works again (issue 9): ``Fault.until`` in the simulated matrix, and what the
scanner's health monitor makes of it (sensors/health.py: a switch it masked at the start is ``recovered`` when it
opens; one that fails or recovers mid-game is not its business: the frames show it as it reads)."""

from __future__ import annotations

import pytest

from rig.variants import PORTUGUESE, get_variant
from sensors.errors import MatrixConfigError
from sensors.simmatrix import Fault, SimulatedMatrix
from sensors.simulation import run_matrix_session

P = get_variant("portuguese")
PS = frozenset(P.white_start) | frozenset(P.black_start)


def test_a_fault_span_parses_and_prints_portuguese_no_clock():
    assert Fault.parse("stuck-closed:12@120-180") == Fault("stuck-closed", 12, 120.0, 180.0)
    assert str(Fault.parse("stuck-closed:12@120-180")) == "stuck-closed:12@120-180"
    assert Fault.parse("dead:5@0-2.5") == Fault("dead", 5, 0.0, 2.5)
    assert Fault.parse("dead:5@12.5").until == float("inf")      # no end: failed for good, as before
    assert Fault.parse(str(Fault("dead", 5, until=3.0))) == Fault("dead", 5, until=3.0)   # failed from the start
    with pytest.raises(MatrixConfigError, match="recovers after it fails"):
        Fault.parse("dead:5@30-20")
    with pytest.raises(MatrixConfigError, match="only stuck-closed and dead"):
        Fault.parse("missing-diode:5@1-2")
    with pytest.raises(MatrixConfigError, match="seconds"):
        Fault.parse("dead:5@1-soon")


def test_a_switch_works_again_at_until_portuguese_no_clock():
    m = SimulatedMatrix(P, faults=["dead:5@10-20", "stuck-closed:20@10-20"])
    m.set_occupied({5}, 0.0, bounce=False)
    dead, stuck = m.wiring.cell(5), m.wiring.cell(20)
    assert [m.contact(dead, t) for t in (9.9, 10.1, 19.9, 20.0)] == [True, False, False, True]
    assert [m.contact(stuck, t) for t in (9.9, 10.1, 19.9, 20.0)] == [False, True, True, False]
    m.place(20, 15.0, bounce=False)             # a piece came while it was stuck: it stays closed under it
    assert m.contact(stuck, 25.0)
    assert m.next_change(10.0) == 15.0 and m.next_change(15.0) == 20.0   # the scan sees the moment it recovers


def test_a_switch_stuck_from_the_start_is_recovered_when_it_frees_itself_portuguese_no_clock():
    """Masked at the start (closed where no piece can be), then freed with nothing on it: ``recovered``, and
    the square never reaches a frame."""
    first = min(P.white_start)
    tl = [(0.0, PS), (1.0, PS - {first}), (3.0, PS)]
    run = run_matrix_session(PORTUGUESE, tl, ["stuck-closed:16@0-2"], seed=0)
    assert [(h.kind, h.square) for h in run.health] == [("stuck-closed", 16), ("recovered", 16)]
    assert run.health[0].masked and 2.0 <= run.health[1].t < 2.1
    assert all(16 not in f.occupied for f in run.frames)


def test_a_switch_failing_mid_game_and_recovering_shows_in_the_frames_alone_portuguese_no_clock():
    """The monitor masks only what it finds at the start: a switch stuck mid-game reads occupied, then empty
    again once it recovers, and a starting square's switch dead then recovered reads its piece again; no health
    event (the engine finds both from the frames)."""
    front = max(P.white_start)
    tl = [(0.0, PS), (5.0, PS)]
    run = run_matrix_session(PORTUGUESE, tl, ["stuck-closed:16@1-2", f"dead:{front}@3-4"], seed=0)
    assert run.health == []
    seen = [(f.occupied ^ PS) for f in run.frames]
    assert seen == [frozenset(), {16}, frozenset(), {front}, frozenset()]
