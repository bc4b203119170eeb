"""Failing switches, issue 9 (branch faults15b): misses of bench/bench_faults.py --midgame --games 24 on plies 16
22 28 34 (held_misses16). Each midgame test builds the bench's session (tests/simulate_helpers.py ``midgame_case``)
and reads it in both modes: the moves exact, no player irregularity standing. The others play the same exchanges
with the players' own irregularities, which must stay irregularities."""

from __future__ import annotations

import pytest

from rig.reconstruct import Settings
from rig.simulate import HumanModel, simulate_game
from simulate_helpers import _bench_faults, contact_changes, midgame_case, moves_read, run_engine, standing
from tests.test_faults_matrix import MODES

TOUCH_S = Settings().touch_s


@pytest.mark.parametrize("health", MODES)
def test_stuck_closed_recovering_standing_piece_freed_as_the_reply_begins_international_clock_game_3(health):
    """Game 3, with a clock (stuck-closed-recovering-2 at ply 16): 31's switch sticks under black's piece after
    22x31; white's 36x27 takes it, its removal unseen (`capture-not-removed`). The switch frees itself 2 s after
    white's press and 25 ms before black lifts 9 for 9-13. Read as the board put right before black moved, the
    irregularity stood (corrected). An opening less than ``touch_s`` before the opponent's first lift is no
    correction made before he moved: read with his turn, the switch stuck from the capture and freed (recovery.py),
    an observation names 31."""
    s, r, square = midgame_case("international", 3, 16, "stuck-closed-recovering-2", True, health)
    assert square == 31
    assert moves_read(r) == s.expected_moves
    assert moves_read(r)[16:18] == ["36x27", "9-13"]
    assert standing(r) == []
    assert [(f.square, f.kind) for f in r.sensor_faults if not f.withdrawn] == [(31, "stuck-closed")]
    assert [o.squares for o in r.observations if o.type == "capture-not-removed"] == [(31,)]


def test_capture_not_removed_corrected_before_the_reply_international_clock_game_3():
    """The same capture (36x27 taking 31) played by a player who leaves 31 standing and takes it off after his
    press, before black moves (the simulator's correction, kept clear of black's lift): corrected, it stands."""
    game = _bench_faults().real_games("international", 4)[3]
    s = simulate_game("international", game.moves[:20], fen=game.fen, seed="cnr:international:3", clock=True,
                      inject=["capture-not-removed@16:corrected"], model=HumanModel(bounce_p=0.0), tags=game.tags)
    changes = contact_changes(s)
    off = min(t for t, on in changes[31] if not on and t > s.turns[16].start_t)
    lift = min(t for sq, ch in changes.items() for t, on in ch if not on and sq != 31 and t > off)
    assert lift - off >= TOUCH_S
    r = run_engine(s)
    assert moves_read(r) == s.expected_moves
    assert standing(r) == [("capture-not-removed", (31,))]


@pytest.mark.parametrize("health", MODES)
def test_dead_recovering_landing_on_a_removal_read_with_the_last_landing_international_no_clock_game_23(health):
    """Game 23, without a clock (dead-recovering-2 at ply 16): 27's switch dies under white's piece 35 ms before
    black's 22x31 lands (an observation: under ``removal_margin_s``). White's 36x27 lands there unseen; 31 comes
    off, and 27 closes 0.6 s later, the switch working again. Read by that closing, 31's removal was early:
    `capture-removed-early` stood. A removal read that close to the last landing, before it or after, is no
    deliberate act: the landing has no time (replyfirst.py), the early removal is an observation naming 31."""
    s, r, square = midgame_case("international", 23, 16, "dead-recovering-2", False, health)
    assert square == 27
    assert moves_read(r) == s.expected_moves
    assert moves_read(r)[15:17] == ["22x31", "36x27"]
    assert standing(r) == []
    early = [o for o in r.observations if o.type == "capture-removed-early"]
    assert [o.squares for o in early] == [(27,), (31,)]
    assert "27 read its piece off 35 ms before the last capture landed" in early[1].why


def test_capture_removed_early_onto_the_last_captured_square_international_no_clock_game_23():
    """The same exchange (22x31 taking 27, 36x27 taking 31) played by a player who takes 31 off while his piece is
    still in the hand, no switch failing: 27's piece came off ``touch_s`` or more after 22x31 landed (a deliberate
    removal, neither before that landing nor with it), so the early removal of 31 stands, as the simulator
    expects."""
    game = _bench_faults().real_games("international", 24)[23]
    s = simulate_game("international", game.moves[:24], fen=game.fen, seed="early:international:23", clock=False,
                      inject=["capture-removed-early@16"], model=HumanModel(bounce_p=0.0), tags=game.tags)
    changes = contact_changes(s)
    landed = min(t for t, on in changes[31] if on and t > s.turns[15].start_t)
    off = min(t for t, on in changes[27] if not on and t > s.turns[15].start_t)
    assert off - landed >= TOUCH_S
    r = run_engine(s)
    assert moves_read(r) == s.expected_moves
    assert standing(r) == [("capture-removed-early", (31,))]
