"""Failing switches, issue 9 (branch faults15c): misses of bench/bench_faults.py --midgame --games 24 on plies 16 22
28 34 (held_misses16), and the known limit of earlylift.py ``_late_landing`` on edited frames.

- The last move of a session onto a dead square: only its lift shows, and the session ends (endlift.py).
- A real early removal whose capture's landing closes only after the opponent lifted: the dead landing named at
  that lift is withdrawn at the closing, and the early removal, proven by that closing, stands (earlylift.py
  ``_removed_before_landing``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rig.board import Board
from rig.session import Frame
from rig.simulate import HumanModel, SimulatedSession, simulate_game
from simulate_helpers import midgame_case, moves_read, real_games, run_engine, standing
from tests.test_faults_matrix import MODES
from tests.test_faults_midgame_held11 import _early_removal, _slow_landing


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_last_move_onto_the_dead_square_international_no_clock(health):
    """Game 16, without a clock (dead-under-piece at ply 16): 36's switch died under a piece at ply 16 and never
    closed again. White's last move 41-36 lands on it: 41's lift is the session's last change. No fault is read at
    the end (the piece may be in the hand), and 41-36 was lost with no word. The touched piece's one legal move is
    the move the player must play (touch-move): read, with an observation that its landing never showed."""
    s, r, square = midgame_case("international", 16, 16, "dead-under-piece", False, health)
    assert square == 36
    assert moves_read(r) == s.expected_moves
    assert moves_read(r)[-1] == "41-36"
    assert standing(r) == []
    assert [(o.type, o.squares) for o in r.observations] == [("touched-piece-not-moved", (41, 36))]


def _last_landing_unseen(plies: int) -> tuple[SimulatedSession, int]:
    """International game 16 cut after ``plies`` plies, no clock, no switch failing, with the last move's landing
    square reading empty from that move's turn on (the session ends with the piece read lifted); and the number
    of legal moves of that piece."""
    game = real_games("international")[16]
    s = simulate_game("international", game.moves[:plies], fen=game.fen, seed="end:international:16", clock=False,
                      model=HumanModel(bounce_p=0.0), tags=game.tags)
    board = Board("international", game.fen)
    for m in game.moves[:plies - 1]:
        board.push(m)
    last = game.moves[plies - 1]
    assert not last.captured
    start = s.turns[-1].start_t
    events = [replace(e, occupied=e.occupied - {last.destination}) if isinstance(e, Frame) and e.t >= start else e
              for e in s.events]
    return replace(s, events=events), len([m for m in board.legal_moves if m.origin == last.origin])


def test_last_lift_one_destination_no_landing_read_international_no_clock():
    """A session ending with 43 lifted (its one legal move 43-39) and no landing: 43-39 is read, with the
    observation."""
    s, count = _last_landing_unseen(27)
    assert count == 1
    r = run_engine(s)
    assert moves_read(r) == s.expected_moves
    assert [(o.type, o.squares) for o in r.observations] == [("touched-piece-not-moved", (43, 39))]


def test_last_lift_two_destinations_no_landing_not_read_international_no_clock():
    """A session ending with 1 lifted (1-6 or 1-7) and no landing: nothing tells which, or whether it was played:
    no move is read, an observation names the piece and both squares."""
    s, count = _last_landing_unseen(28)
    assert count == 2
    r = run_engine(s)
    assert moves_read(r) == s.expected_moves[:-1]
    assert standing(r) == []
    assert [(o.type, o.squares) for o in r.observations] == [("touched-piece-not-moved", (1, 6, 7))]


@pytest.mark.parametrize("variant, index, ply, plies, landing, captured",
                         [("international", 9, 15, 24, 29, 24), ("international", 19, 21, 30, 20, 14)])
@pytest.mark.parametrize("late", [0.05, 0.3])
def test_capture_removed_early_landing_closing_after_the_reply_lift_observed_international_no_clock(
        variant, index, ply, plies, landing, captured, late):
    """The known limit of ``_late_landing`` (faults14b): a capture with its captured piece taken off early (the
    simulator's injection), the opponent lifting 0.35 s after the removal (past ``magnet_s``: the landing, still
    open, is named dead) and the landing closing ``late`` s after that lift. The fault is withdrawn at the closing
    (the piece came down late), and with it the early removal went, silently. The closing may be the landing or
    the dead switch working again (dead-recovering reads the same): the early removal is an observation."""
    s = _slow_landing(_early_removal(variant, index, ply, plies), ply, landing, captured, 0.35, late)
    r = run_engine(s)
    assert moves_read(r) == s.expected_moves
    assert [(f.square, f.kind, f.current) for f in r.sensor_faults] == [(landing, "dead", False)]
    assert standing(r) == []
    assert [(o.type, o.squares) for o in r.observations if o.type == "capture-removed-early"] == [
        ("capture-removed-early", (captured,))]
