"""Failing switches, issue 9 (branch faults14c): misses of bench/bench_faults.py --midgame --games 24 on plies 15 21
27 33 (held_misses15). Each midgame test builds the bench's session (tests/simulate_helpers.py ``midgame_case``) and
reads it in both modes: the moves exact, no player irregularity standing. The last plays the same capture with a
real early removal (the simulator's injection), which must stay an irregularity."""

from __future__ import annotations

import pytest

from rig.reconstruct import Settings
from rig.simulate import HumanModel, simulate_game
from simulate_helpers import contact_changes, midgame_case, moves_read, real_games, run_engine, standing
from tests.test_faults_matrix import MODES

TOUCH_S = Settings().touch_s


@pytest.mark.parametrize("health", MODES)
def test_dead_recovering_landing_on_a_quick_removal_international_no_clock_game_17(health):
    """Game 17, without a clock (dead-recovering-2 at ply 21): white's 32x21 lands on 21 and 27 reads off 75 ms
    later, the switch under 27's piece dying (its removal unseen). Black's 16x27 lands there unseen; 21 comes off,
    and 27 closes 0.66 s later, the switch working again. Read by that closing, 21's removal was early:
    `capture-removed-early` stood. 27 read off under ``touch_s`` after the last landing, empty since: the landing
    has no time (replyfirst.py), the early removal is an observation naming 21."""
    s, r, square = midgame_case("international", 17, 21, "dead-recovering-2", False, health, plies=30)
    assert square == 27
    assert moves_read(r) == s.expected_moves
    assert moves_read(r)[20:22] == ["32x21", "16x27"]
    assert standing(r) == []
    early = [o for o in r.observations if o.type == "capture-removed-early"]
    assert [o.squares for o in early] == [(21,)]
    assert "27 read its piece off 75 ms after the last capture landed" in early[0].why


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_lifted_as_the_opponent_lands_brazilian_clock_game_1(health):
    """Brazilian game 1, with a clock (dead-under-piece at ply 33): white lifts b2 for b2-a3; c7's switch dies
    under black's piece (read lifted) 5 ms before a3 closes. Both changes are confirmed in one batch and c7's is
    read first: with a3 still reading empty, b2-a3 was read with a3 dead (its closing then a recovery), and when
    black's b8-c7 landed on the dead c7 (move 49) the fault went to a7, never seen closing: b8-a7, a7-b6. A
    switch whose closing is confirmed is no dead one (faults.py ``_fault_plan``): the turn is read with the
    closing, c7's reading off is the switch dying (deadmoved.py), and b8-c7 reads onto the masked c7."""
    s, r, square = midgame_case("brazilian", 1, 33, "dead-under-piece", True, health)
    assert square == 6
    assert moves_read(r) == s.expected_moves
    assert moves_read(r)[32] == "b2-a3" and moves_read(r)[49] == "b8-c7"
    assert standing(r) == []
    assert [(f.square, f.kind) for f in r.sensor_faults if not f.withdrawn] == [(6, "dead")]


def test_capture_removed_early_onto_the_last_captured_square_international_no_clock_game_17():
    """The same exchange (32x21 taking 27, 16x27 taking 21) played by a player who takes 21 off while his piece
    is still in the hand, no switch failing: 27's piece came off ``touch_s`` or more after 32x21 landed (a
    deliberate removal), so the early removal of 21 stands, as the simulator expects."""
    game = real_games("international")[17]
    s = simulate_game("international", game.moves[:30], fen=game.fen, seed="early:international:17", clock=False,
                      inject=["capture-removed-early@21"], model=HumanModel(bounce_p=0.0), tags=game.tags)
    changes = contact_changes(s)
    landed = min(t for t, on in changes[21] if on and t > s.turns[20].start_t)
    off = min(t for t, on in changes[27] if not on and t > landed)
    assert off - landed >= TOUCH_S
    r = run_engine(s)
    assert moves_read(r) == s.expected_moves
    assert standing(r) == [("capture-removed-early", (21,))]
