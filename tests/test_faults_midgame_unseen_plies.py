"""Failing switches, issue 9: the engine never stops on a fault. bench/bench_faults.py --midgame --games 24 on plies
15 21 27 33 (never run before) ended four cases in a traceback: a stuck switch working again left the turn's start
reading a square occupied where the position has none (``KeyError`` in the removed pieces' colours), and an open
reading of a ply withdrawn since was still consulted (``IndexError``). Each test builds the bench's session
(tests/simulate_helpers.py ``midgame_case``), cut a few plies after the recovery, and reads it in both modes."""

from __future__ import annotations

import pytest

from simulate_helpers import midgame_case, moves_read, standing
from tests.test_faults_matrix import MODES


@pytest.mark.parametrize(("index", "case"), [(3, "stuck-closed-recovering-2"), (3, "stuck-closed-recovering-8"),
                                             (23, "stuck-closed-recovering-8")])
@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_recovering_international_no_clock_reads_to_the_end(health, index, case):
    """17's switch sticks closed before black's 17-21 and works again 2 or 8 plies later: the square it read
    occupied at a turn's start, empty in the position, is no piece removed; the game is read exact."""
    s, r, square = midgame_case("international", index, 21, case, False, health, plies=30)
    assert square == 17
    assert moves_read(r) == s.expected_moves
    assert standing(r) == []


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_recovering_international_clock_reads_to_the_end(health):
    """The same switch with a clock: an open reading of a ply since withdrawn is not consulted; the game is read
    exact (17-21 from the stuck 17, the pair settled by the moves after it)."""
    s, r, square = midgame_case("international", 3, 21, "stuck-closed-recovering-8", True, health, plies=30)
    assert moves_read(r) == s.expected_moves
    assert standing(r) == []
