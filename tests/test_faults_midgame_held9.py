"""Failing switches, issue 9 (branch faults13d): `capture-removed-early` left by a switch dead under a capture's
landing and working again just as the opponent reaches for his reply (bench/bench_faults.py --midgame --games 24,
dead-recovering-2, without a clock). Each midgame test builds the bench's session (tests/simulate_helpers.py
``midgame_case``) and reads it in both modes; the others play the same capture with a real early removal
(the simulator's injection), which must stay an irregularity where the frames prove it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rig.reconstruct import Settings
from rig.simulate import HumanModel, SimulatedSession, simulate_game
from simulate_helpers import contact_changes, midgame_case, moves_read, real_games, run_engine, standing
from tests.test_faults_matrix import MODES

TOUCH_S = Settings().touch_s


def _reply_gap(s: SimulatedSession, landing: int, after: float) -> tuple[float, float]:
    """When ``landing`` closed (its first closing after ``after``) and how long after it the next lift came."""
    closed = min(t for t, on in contact_changes(s)[landing] if on and t > after)
    lift = min(t for changes in contact_changes(s).values() for t, on in changes if not on and t > closed)
    return closed, lift - closed


@pytest.mark.parametrize("health", MODES)
def test_dead_recovering_international_no_clock_game_22_reply_lifted_as_the_landing_closes(health):
    """Game 22, without a clock: 28's switch dies on the empty square; white's 39x28 lands there unseen, 33 comes
    off, and 28 closes 0.8 s later (the switch working again) 5 ms before black lifts 9 for 9-13. Read by that
    closing, 33's removal was early: `capture-removed-early` stood. Black's hand was on 9 before 28 closed: the
    closing does not date the landing (replyfirst.py), the early removal is an observation naming 33."""
    s, r, square = midgame_case("international", 22, 26, "dead-recovering-2", False, health, plies=32)
    assert square == 28
    assert moves_read(r) == s.expected_moves
    assert moves_read(r)[26:28] == ["39x28", "9-13"]
    assert standing(r) == []
    assert [(o.type, o.squares) for o in r.observations if o.type == "capture-removed-early"] \
        == [("capture-removed-early", (33,))]
    assert "lifted 9 5 ms after 28 closed" in r.observations[-1].why


@pytest.mark.parametrize("health", MODES)
def test_dead_recovering_brazilian_no_clock_game_1_reply_lifted_as_the_landing_closes(health):
    """Brazilian game 1, without a clock: f4's switch dies under the piece g5xe3 takes (read as its removal);
    white's d2xf4 lands there unseen, e3 comes off, f4 closes 0.64 s later (working again), 135 ms before black
    lifts h8: the early removal of e3 is an observation, no irregularity (was `capture-removed-early`)."""
    s, r, square = midgame_case("brazilian", 1, 30, "dead-recovering-2", False, health, plies=36)
    assert square == 19
    assert moves_read(r) == s.expected_moves
    assert moves_read(r)[30:32] == ["d2xf4", "h8-g7"]
    assert standing(r) == []
    assert [(o.type, o.squares) for o in r.observations if o.type == "capture-removed-early"] \
        == [("capture-removed-early", (23,))]


def _early_removal(variant: str, index: int, ply: int, plies: int) -> SimulatedSession:
    """The game of a midgame case played with the capture of ``ply`` taken off early (the simulator's injected
    `capture-removed-early`: the captured piece lifted while the capturing piece is still in the hand), no
    clock."""
    game = real_games(variant)[index]
    return simulate_game(variant, game.moves[:plies], fen=game.fen, seed=f"early:{variant}:{index}", clock=False,
                         inject=[f"capture-removed-early@{ply}"], model=HumanModel(bounce_p=0.0), tags=game.tags)


CASES = [("international", 22, 26, 32, 28), ("brazilian", 1, 30, 36, 19), ("brazilian", 0, 24, 30, 22)]


@pytest.mark.parametrize("variant, index, ply, plies, landing", CASES)
def test_capture_removed_early_no_clock_same_capture_stays_an_irregularity(variant, index, ply, plies, landing):
    """The captures above played by a player who takes the captured piece off while his own is still in the hand,
    no switch failing: the removal, then the landing, then the opponent's reply begun after it (the frames a
    switch dying and coming back give too, but the reply here came after the landing was there to see): the
    early removal stands, as the simulator expects."""
    s = _early_removal(variant, index, ply, plies)
    _closed, gap = _reply_gap(s, landing, s.turns[ply].start_t)
    assert gap >= TOUCH_S
    r = run_engine(s)
    assert moves_read(r) == s.expected_moves
    got = [{"type": i.type, "number": i.number, "side": i.side, "status": i.status} for i in r.irregularities]
    assert got == [{k: d[k] for k in ("type", "number", "side", "status")} for d in s.expected_irregularities]
    assert [i.type for i in r.irregularities] == ["capture-removed-early"]
    assert not [o for o in r.observations if o.type == "capture-removed-early"]


def _reply_at(s: SimulatedSession, closed: float, gap: float, to: float) -> SimulatedSession:
    """``s`` with every event after ``closed`` moved earlier so that the next lift comes ``to`` s after it."""
    shift = gap - to
    events = [e if e.t <= closed else replace(e, t=round(e.t - shift, 4)) for e in s.events]
    return replace(s, events=events)


@pytest.mark.parametrize("variant, index, ply, plies, landing", CASES[:1])
def test_capture_removed_early_no_clock_reply_lifted_as_the_landing_closes_is_an_observation(variant, index, ply,
                                                                                              plies, landing):
    """The same real early removal with the opponent's lift brought to 0.1 s after the landing closed: these are
    the frames of the switch dead under the landing and working again as he reaches for his piece, and the sensors
    cannot tell them apart: an observation (never a silent dismissal); 0.2 s after it, the early removal stands."""
    s = _early_removal(variant, index, ply, plies)
    closed, gap = _reply_gap(s, landing, s.turns[ply].start_t)
    quick = run_engine(_reply_at(s, closed, gap, 0.1))
    assert moves_read(quick) == s.expected_moves
    assert standing(quick) == []
    assert [o.type for o in quick.observations] == ["capture-removed-early"]
    later = run_engine(_reply_at(s, closed, gap, 0.2))
    assert moves_read(later) == s.expected_moves
    assert [(i.type, i.status) for i in later.irregularities] == [("capture-removed-early", "accepted")]
