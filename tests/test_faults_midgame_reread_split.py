"""Failing switches, issue 9: an opponent's lift that makes the engine re-read the turn before it, while that lift is
looked at as the possible start of his move (segmenter.py, the pending split).

International game 3, without a clock, a switch dead for two plies (bench/bench_faults.py --midgame ``dead-recovering-2``
at ply 24): 29-23 lands on the dead switch, so the engine reads 29-24 with 24 named dead (24 or 23, an
observation). The switch works again under the piece, black captures it (19x28), and white's first lift for his
reply shows 29-24 wrong: the ply is re-read 29-23 and the fault on 24 withdrawn (earlylift.py). That same lift was
kept as the possible start of white's move with the occupancy the old reading gave (24 occupied); committed later,
white's 33x31 read 24 as a piece removed that the board never had, and the engine stopped on a ``KeyError``. The
lift now takes the re-read segment and occupancy (segmenter.py). Since faults11c (a closing read as the late landing
only within ``stable_s`` of the fault) this game reads 29-23 without that re-read; the test keeps the case exact."""

from __future__ import annotations

import pytest

from tests.test_faults_matrix import MODES
from simulate_helpers import midgame_case


@pytest.mark.parametrize("health", MODES)
def test_reread_under_a_pending_lift_international_no_clock(health):
    s, r, _square = midgame_case("international", 3, 24, "dead-recovering-2", False, health)
    assert [m.move_text for m in r.moves if not m.withdrawn] == list(s.expected_moves)
    assert [(i.type, i.squares) for i in r.irregularities if i.status != "dismissed"] == []
    assert not any(f.square == 24 and not f.withdrawn for f in r.sensor_faults)   # 24 was never the dead switch
