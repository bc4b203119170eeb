"""Failing switches, issue 9 (branch faults11a): stuck-closed and dead-under-piece misses of bench/bench_faults.py
--midgame --games 24 on plies never traced before (11 17 23 29, 13 19 25 31). Each test builds the bench's session
(its seed and fault, tests/simulate_helpers.py ``midgame_case``), cut a few plies after the fault, and reads it in
both modes: the moves exact, the switch named, no player irregularity standing."""

from __future__ import annotations

import pytest

from simulate_helpers import midgame_case
from tests.test_faults_matrix import MODES


def _moves(r) -> list[str]:
    return [m.move_text for m in r.moves if not m.withdrawn]


def _standing(r) -> list:
    return [(i.type, i.squares) for i in r.irregularities if i.status != "dismissed"]


def _faults(r) -> list[tuple[int, str]]:
    return [(f.square, f.kind) for f in r.sensor_faults if f.current]


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_international_clock_game_19_landing_read_before_its_commit_withdraws_the_fault(health):
    """Game 19, with a clock: white lifts 38 for 38-32 and black's 21 reads lifted 0.36 s later (its switch dies
    under it): 38-32 is read with 32 `dead` (its landing not yet seen). 32 closes 0.06 s after that, while the
    move waits for what follows the press, so the closing came before the game had the piece there; once 38-32 is
    committed that closing is the piece coming down late (earlylift.py ``_landed_before_commit``): the fault on 32
    is withdrawn and unmasked, so white's 32x21 shows its lift and the dead 21 is named (was ``?(-27)``, 16-27 and
    two `illegal-move`)."""
    s, r, square = midgame_case("international", 19, 29, "dead-under-piece", True, health, plies=36)
    got = _moves(r)
    assert got == s.expected_moves
    assert got[28:32] == ["38-32", "21-27", "32x21", "16x27"]
    assert _standing(r) == []
    assert _faults(r) == [(square, "dead")] == [(21, "dead")]
    assert [(f.square, bool(f.withdrawn)) for f in r.sensor_faults if f.square == 32] == [(32, True)]
