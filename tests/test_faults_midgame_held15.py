"""Failing switches, issue 9 (branch faults16a): a miss of bench/bench_faults.py --midgame --games 24 on plies 16 22
28 34 (held_misses16), traced by faults15c.

- With a clock, the mover's landing on the other square of an open ``dead`` reading, closing after the opponent's
  "lift" (a switch dying under his piece) and before the mover's own press, re-reads the ply onto that square and
  withdraws the fault (earlylift.py ``_landed_before_press``)."""

from __future__ import annotations

import pytest

from simulate_helpers import midgame_case, moves_read, standing
from tests.test_faults_matrix import MODES


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_landing_before_the_movers_press_international_clock(health):
    """Game 5, with a clock (dead-under-piece at ply 34): black lifts 20 for 20-25; 0.335 s later 30's switch dies
    under white's piece (read as white's lift). 20-24 or 20-25 with a dead destination: 24 was named dead and 20-24
    committed at 25's closing. Black's press comes after 25 closed: his piece came down there. 20-25 is read, the
    fault on 24 withdrawn, and 30 is the switch named dead."""
    s, r, square = midgame_case("international", 5, 34, "dead-under-piece", True, health)
    assert square == 30
    assert moves_read(r) == s.expected_moves
    assert standing(r) == []
    current = [(f.square, f.kind) for f in r.sensor_faults if f.current]
    assert current == [(30, "dead")]
    assert any(f.square == 24 and f.withdrawn for f in r.sensor_faults)
    assert (24, 25) in [o.squares for o in r.observations]
