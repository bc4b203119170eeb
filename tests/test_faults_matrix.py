"""Failing switches read through the simulated matrix (issue 9 part 3), per fault kind, variant and clock mode.

Real games of tests/data are played by the simulated hands on :class:`sensors.simmatrix.SimulatedMatrix`
(the switches, diodes and wires of a real board) and read by the project's scanner, either with its checks
and their ``health`` lines (what ``rig run`` writes) or without (the frames alone: a stuck switch and a
missing diode's ghosts reach the frames as they read). Every game must be read exactly, the fault named on
its square, and no player irregularity raised for it.
"""

from __future__ import annotations

import os
import random
import zlib

import pytest

from rig.reconstruct.ghosts import Wiring, ghost_squares
from rig.simulate import HumanModel, simulate_game
from rig.simulate.games import load_pdn_games
from rig.variants import get_variant
from sensors.cellmap import default_cellmap
from sensors.circuit import columns_low
from sensors.simulation import through_matrix
from simulate_helpers import read_with_health

DATA = os.path.join(os.path.dirname(__file__), "data")
DEMO = os.path.join(os.path.dirname(os.path.dirname(__file__)), "rig", "data", "demo")
CLOCKS = [pytest.param(True, id="clock"), pytest.param(False, id="no-clock")]
MODES = [pytest.param(True, id="health-lines"), pytest.param(False, id="frames-alone")]


def _game(variant: str, index: int = 0):
    """The real games of tests/data/<variant>, then the demo game (as bench/bench_faults.py counts them)."""
    folder = os.path.join(DATA, variant)
    paths = [os.path.join(folder, n) for n in sorted(os.listdir(folder)) if n.endswith(".pdn")]
    paths.append(os.path.join(DEMO, f"{variant}.pdn"))
    return [g for path in paths for g in load_pdn_games(path, variant)][index]


def _read(variant: str, index: int, fault: str, clock: bool, health: bool, plies: int | None = None):
    """The game simulated through the matrix with ``fault`` (seeded as bench/bench_faults.py seeds it),
    read by the engine: (session, reconstructor)."""
    game = _game(variant, index)
    square = fault.split(":")[1]
    seed = f"faults:{variant}:{index}:{square}:{clock}"
    moves = game.moves if plies is None else game.moves[:plies]
    s = simulate_game(variant, moves, fen=game.fen, seed=seed, clock=clock, model=HumanModel(bounce_p=0.0),
                      tags=game.tags)
    s = through_matrix(s, [fault], seed=zlib.crc32(seed.encode()), checks=health)
    r = read_with_health(s, health)
    return s, r


def _exact(s, r, square: int, kind: str) -> None:
    assert [m.move_text for m in r.moves if not m.withdrawn] == s.expected_moves
    assert r.irregularities == []
    assert [(f.square, f.kind) for f in r.sensor_faults] == [(square, kind)]


@pytest.mark.parametrize("variant", ["portuguese", "brazilian", "international"])
def test_ghost_squares_are_what_the_matrix_circuit_reads(variant):
    """ghosts.py's rectangle rule against the electrical model the simulated matrix scans (sensors/circuit.py):
    with one diode-less cell, a row driven low reads exactly the occupied squares and their ghosts."""
    v = get_variant(variant)
    cmap = default_cellmap(v)
    wiring = Wiring.standard(v)
    rng = random.Random(variant)
    for _ in range(40):
        occ = frozenset(rng.sample(range(1, v.squares + 1), rng.randrange(3, v.squares // 2)))
        x = rng.choice(sorted(occ))
        closed = cmap.cells_of(occ)
        reads = frozenset(cmap.square((r, c)) for r in range(cmap.shape[0])
                          for c in columns_low(closed, {cmap.cell(x)}, r))
        assert reads == occ | ghost_squares(wiring, (x,), occ)


def test_wiring_from_a_health_line_must_name_every_square():
    for variant in ("portuguese", "brazilian", "international"):    # the engine's standard wiring is the scanner's
        assert Wiring.standard(get_variant(variant)).cells == default_cellmap(get_variant(variant)).cells
    cells = default_cellmap(get_variant("portuguese")).to_lists()
    assert Wiring.parse(cells, 32) == Wiring.standard(get_variant("portuguese"))
    assert Wiring.parse(cells[:-1], 32) is None
    assert Wiring.parse([[1, 1, 2, 3]] + cells[1:], 32) is None
    assert Wiring.parse("nonsense", 32) is None


@pytest.mark.parametrize("health", MODES)
@pytest.mark.parametrize("clock", CLOCKS)
def test_missing_diode_portuguese(clock, health):
    s, r = _read("portuguese", 0, "missing-diode:18", clock, health)
    _exact(s, r, 18, "ghost")


@pytest.mark.parametrize("health", MODES)
@pytest.mark.parametrize("clock", CLOCKS)
def test_missing_diode_hides_a_whole_move_brazilian(clock, health):
    """a1-b2 under c5's rectangles: neither the lift nor the landing reads; the press (clock) or the mover's
    next lift after the reply (no clock) reads it from the rules."""
    s, r = _read("brazilian", 0, "missing-diode:14", clock, health)
    _exact(s, r, 14, "ghost")


def test_missing_diode_capture_landing_masked_is_no_early_removal_brazilian_clock():
    s, r = _read("brazilian", 1, "missing-diode:19", True, True)
    _exact(s, r, 19, "ghost")
    assert any(o.type == "capture-removed-early" for o in r.observations)


@pytest.mark.parametrize("clock", CLOCKS)
def test_missing_diode_found_from_the_frames_alone_international(clock):
    s, r = _read("international", 0, "missing-diode:29", clock, False, plies=60)
    _exact(s, r, 29, "ghost")


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_reply_to_the_masked_square_brazilian_no_clock(health):
    """d6-e5 onto the stuck e5: its landing never reads; white then lifts the piece he played again."""
    s, r = _read("brazilian", 1, "stuck-closed:15", False, health)
    _exact(s, r, 15, "stuck-closed")


@pytest.mark.parametrize("health", MODES)
def test_dead_origin_captures_onto_the_square_just_cleared_brazilian_no_clock(health):
    """h2xf4 from the dead h2 lands where black's capture just took f4 off: the reply, not f4 put back."""
    s, r = _read("brazilian", 1, "dead:28", False, health)
    _exact(s, r, 28, "dead")


@pytest.mark.parametrize("clock", CLOCKS)
@pytest.mark.parametrize("variant", ["portuguese", "international"])
def test_stuck_closed_from_the_frames_alone(variant, clock):
    square = {"portuguese": 19, "international": 28}[variant]
    s, r = _read(variant, 0, f"stuck-closed:{square}", clock, False, plies=40)
    _exact(s, r, square, "stuck-closed")


def test_missing_diode_two_readings_re_read_when_the_rectangle_breaks_international_clock():
    """35-30 with both squares masked fits the board as well as 33-28: an observation, and once black's lift
    breaks the rectangle the freed squares show 35-30, which replaces the first reading (no take-back)."""
    s, r = _read("international", 5, "missing-diode:22", True, True, plies=70)
    _exact(s, r, 22, "ghost")
    assert any("re-read as" in o.detail for o in r.observations)
    assert "taken back" not in r.pdn()


@pytest.mark.parametrize("clock", CLOCKS)
def test_lift_hidden_by_a_ghost_is_no_stuck_switch_international_frames_alone(clock):
    """40-34 while 40 is a ghost of 22's rectangle: its lift never reads; the frames alone name 22's diode."""
    s, r = _read("international", 3, "missing-diode:22", clock, False, plies=12)
    _exact(s, r, 22, "ghost")


def test_a_switch_fails_in_the_middle_of_the_game_in_the_simulated_matrix():
    from sensors.errors import MatrixConfigError
    from sensors.simmatrix import Fault, SimulatedMatrix

    assert Fault.parse("dead:5@12.5") == Fault("dead", 5, 12.5) and str(Fault.parse("dead:5@12.5")) == "dead:5@12.5"
    with pytest.raises(MatrixConfigError):
        Fault.parse("missing-diode:5@3")
    with pytest.raises(MatrixConfigError):
        Fault.parse("dead:5@soon")
    m = SimulatedMatrix(get_variant("portuguese"), faults=["dead:5@10", "stuck-closed:20@10"])
    m.set_occupied({5}, 0.0, bounce=False)
    dead, stuck = m.wiring.cell(5), m.wiring.cell(20)
    assert (m.contact(dead, 9.9), m.contact(dead, 10.1)) == (True, False)
    assert (m.contact(stuck, 9.9), m.contact(stuck, 10.1)) == (False, True)
    assert m.next_change(0.0) == 10.0          # the scan does not skip the moment it fails


@pytest.mark.parametrize("health", MODES)
@pytest.mark.parametrize("ply", [16, 22])
def test_dead_mid_game_under_a_square_used_before_portuguese_clock(ply, health):
    """The switch under the square the ply's move lands on dies half a second before that turn: found, and
    every move before and after it exact."""
    game = _game("portuguese", 0)
    seed = f"mid:portuguese:{ply}:True"
    s = simulate_game("portuguese", game.moves, fen=game.fen, seed=seed, clock=True,
                      model=HumanModel(bounce_p=0.0), tags=game.tags)
    turn, before = s.turns[ply], s.turns[ply - 1]
    square = min(turn.occupied - before.occupied)
    assert any(square in t.occupied for t in s.turns[:ply - 1])         # a square used earlier
    s = through_matrix(s, [f"dead:{square}@{turn.start_t - 0.5}"], seed=zlib.crc32(seed.encode()))
    r = read_with_health(s, health)
    _exact(s, r, square, "dead")
    assert r.sensor_faults[0].since >= turn.start_t - 0.5


@pytest.mark.parametrize("health", MODES)
def test_missing_diode_reading_re_read_after_the_opponents_move_international_clock(health):
    """41-37 with 36 and 37 both ghosts fits as well as 41-36; the rectangle breaks only after black's reply
    (which touches neither): both are read again, 41-37 then the reply."""
    s, r = _read("international", 8, "missing-diode:29", True, health, plies=40)
    _exact(s, r, 29, "ghost")
    assert any("re-read as 41-37" in o.detail for o in r.observations)
