"""Failing switches, issue 9 part 3 (last pass): a switch that sticks closed under a piece the opponent then
captures (rig/reconstruct/stuckcapture.py), a switch sticking under a move's origin that a missing diode's
ghost would explain as well (rig/reconstruct/ghostread.py), and a switch that sticks closed on an empty square
(rig/reconstruct/unseen.py), per variant and clock mode, through the simulated matrix as
``bench/bench_faults.py --midgame`` plays them."""

from __future__ import annotations

import zlib

import pytest

from rig.reconstruct import Reconstructor
from rig.reconstruct.outputs import DISMISSED
from rig.session import HealthLine
from rig.simulate import HumanModel, simulate_game
from sensors.simulation import through_matrix
from tests.test_faults_matrix import MODES, _game
from tests.test_faults_rereads import _midgame
from simulate_helpers import read_with_health


def _struck(variant: str, ply: int, kind: str, clock: bool, health: bool, plies: int):
    """bench_faults.py --midgame, ``stuck-on-empty`` (``kind`` stuck-closed: the switch under the square the ply's
    move lands on sticks closed) or ``dead-under-piece`` (``kind`` dead: the one under the piece it moves dies),
    half a second before that turn (while the opponent's move before it is under way)."""
    game = _game(variant, 0)
    seed = f"mid:{variant}:{ply}:{clock}"
    s = simulate_game(variant, game.moves[:plies], fen=game.fen, seed=seed, clock=clock,
                      model=HumanModel(bounce_p=0.0), tags=game.tags)
    move = game.moves[ply]
    square = move.destination if kind == "stuck-closed" else move.origin
    s = through_matrix(s, [f"{kind}:{square}@{s.turns[ply].start_t - 0.5:.4f}"], seed=zlib.crc32(seed.encode()))
    r = read_with_health(s, health)
    return s, r, square


def _standing_reread(s, r, square: int) -> None:
    """The game read exactly, the switch named ``stuck-closed`` on ``square``, the capture-not-removed read
    at the capture dismissed (the only irregularity), an observation naming the square."""
    assert [m.move_text for m in r.moves if not m.withdrawn] == s.expected_moves
    assert [(f.square, f.kind) for f in r.sensor_faults] == [(square, "stuck-closed")]
    assert [(i.type, i.status) for i in r.irregularities] == [("capture-not-removed", DISMISSED)]
    assert any(o.type == "capture-not-removed" and o.squares == (square,) and "re-read as removed" in o.detail
               for o in r.observations)
    assert "capture-not-removed" not in r.pdn()


@pytest.mark.parametrize("health", MODES)
def test_stuck_under_a_captured_piece_international_clock(health):
    """34 sticks under black's piece that 40x29 then takes: read as left standing at the press, then black's
    6-11 is a capture not taken only with the piece on 34 (34x23): the capture is read again with 34 removed
    and its switch stuck; 6-11 and the moves after it are legal."""
    s, r, square = _midgame("international", 28, "stuck-closed", True, health, plies=34)
    _standing_reread(s, r, square)


def test_stuck_under_a_captured_piece_international_no_clock():
    s, r, square = _midgame("international", 28, "stuck-closed", False, True, plies=34)
    _standing_reread(s, r, square)


def test_stuck_under_a_captured_piece_then_played_onto_international_clock():
    """The whole game: white's 40-34 later lands on the stuck square unseen, a legal move on the board read
    (no piece from nowhere, no position lost)."""
    s, r, square = _midgame("international", 28, "stuck-closed", True, False, plies=46)
    _standing_reread(s, r, square)


@pytest.mark.parametrize("health", MODES)
def test_stuck_under_a_captured_piece_brazilian_clock(health):
    """d4 (18) sticks under the piece e3xc5 takes; black's d6xb4 fits both readings, white's a5xc3 stops short
    of d4 only with the piece standing (capture-incomplete): the capture is read again, no irregularity."""
    s, r, square = _midgame("brazilian", 22, "stuck-closed", True, health, plies=27)
    _standing_reread(s, r, square)


def test_stuck_under_a_captured_piece_brazilian_no_clock():
    s, r, square = _midgame("brazilian", 22, "stuck-closed", False, True)
    _standing_reread(s, r, square)


@pytest.mark.parametrize("clock", [pytest.param(True, id="clock"), pytest.param(False, id="no-clock")])
def test_stuck_origin_is_no_ghost_of_a_diode_never_suspected_international(clock):
    """34 sticks before 34-29: 33-29 with 33 a ghost of a missing diode under 21 reads the same, but no diode
    was suspected before and a stuck switch under 34 explains it as well: the switch is read, 23x34 onto the
    stuck square follows, no ghost is named, no position-lost."""
    s, r, square = _midgame("international", 10, "stuck-closed", clock, False, plies=20)
    assert [m.move_text for m in r.moves if not m.withdrawn] == s.expected_moves
    assert [(f.square, f.kind) for f in r.sensor_faults] == [(square, "stuck-closed")]
    assert [i for i in r.irregularities if i.status != DISMISSED] == []


@pytest.mark.parametrize("health", MODES)
def test_stuck_on_an_empty_square_mid_game_brazilian_clock(health):
    """The switch under a square no piece stands on sticks closed while the opponent moves: his move and that
    square show, no move explains both; the square closed on its own and stays closed: a stuck switch (no player
    puts a piece down from nowhere), masked empty, and the move onto it next is read from the lift."""
    s, r, square = _struck("brazilian", 10, "stuck-closed", True, health, plies=14)
    assert [m.move_text for m in r.moves if not m.withdrawn] == s.expected_moves
    assert [(f.square, f.kind) for f in r.sensor_faults] == [(square, "stuck-closed")]
    assert r.irregularities == []


def test_stuck_on_an_empty_square_mid_game_international_no_clock():
    s, r, square = _struck("international", 16, "stuck-closed", False, True, plies=20)
    assert [m.move_text for m in r.moves if not m.withdrawn] == s.expected_moves
    assert [(f.square, f.kind) for f in r.sensor_faults] == [(square, "stuck-closed")]
    assert r.irregularities == []


def test_stuck_on_an_empty_square_next_to_the_landing_is_an_observation_portuguese_clock():
    """21-17 with 18 sticking closed during it: 21-18 with 17 stuck reads the same; the piece lands last, so the
    square that closed first is taken for the switch, and an observation names both."""
    s, r, square = _struck("portuguese", 10, "stuck-closed", True, True, plies=14)
    assert [m.move_text for m in r.moves if not m.withdrawn] == s.expected_moves
    assert [(f.square, f.kind) for f in r.sensor_faults] == [(square, "stuck-closed")]
    assert r.irregularities == []
    assert any(o.type == "illegal-move" and set(o.squares) == {17, 18} for o in r.observations)


@pytest.mark.parametrize("health", MODES)
def test_dead_under_a_piece_that_then_moves_brazilian_clock(health):
    """a1's switch dies while white's piece stands there, during black's move: at black's press a1 reads empty,
    a piece taken off (wrong-piece-removed); white then plays a1-b2 and b2 closes with no lift: the piece stood on
    a1 all along, its switch died. The removal is dismissed, the fault named, the moves read exactly."""
    s, r, square = _struck("brazilian", 16, "dead", True, health, plies=20)
    assert [m.move_text for m in r.moves if not m.withdrawn] == s.expected_moves
    assert [(f.square, f.kind) for f in r.sensor_faults] == [(square, "dead")]
    assert [i for i in r.irregularities if i.status != DISMISSED] == []
    assert [i.type for i in r.irregularities] == ["wrong-piece-removed"]
    assert any(o.type == "wrong-piece-removed" and "re-read as standing" in o.detail for o in r.observations)


def test_dead_under_a_piece_that_then_moves_portuguese_no_clock():
    s, r, square = _struck("portuguese", 22, "dead", False, True, plies=25)
    assert [m.move_text for m in r.moves if not m.withdrawn] == s.expected_moves
    assert [(f.square, f.kind) for f in r.sensor_faults] == [(square, "dead")]
    assert [i for i in r.irregularities if i.status != DISMISSED] == []


def test_replay_without_reads_each_turn_with_the_masked_square_either_way_portuguese():
    """replay_without: the turns read again from a position, a square whose switch stuck closed (16, empty)
    masked: each turn one legal move exactly; a turn no move explains gives None."""
    from rig.board import Board
    from rig.reconstruct.matcher import PositionIndex
    from rig.reconstruct.stuckcapture import replay_without
    from rig.variants import get_variant

    start = Board(get_variant("portuguese"))
    occ0 = start.occupied()
    one = (occ0 - {10}) | {14}
    two = (one - {21}) | {17}
    steps = replay_without(start, occ0, [one | {16}, two | {16}], frozenset({16}), PositionIndex)
    assert steps is not None
    moves, board, cur = steps
    assert [m.text() for m, _ in moves] == ["10-14", "21-17"] and cur == two and board.turn
    assert replay_without(start, occ0, [one - {1} | {16}], frozenset({16}), PositionIndex) is None


def test_live_screen_shows_the_fault_a_re_read_moved_international_clock():
    """34-29 with 34 stuck read first as 33-29 with a ghost of a missing diode under 21 (named live), then re-read
    as the stuck switch: the live screen of ``rig run`` says to check 34 only, not 21."""
    import zlib as _zlib

    from rig.live.screen import RunView
    from tests.test_faults_matrix import _game as _g

    game = _g("international", 0)
    seed = "mid:international:10:True"
    s = simulate_game("international", game.moves[:20], fen=game.fen, seed=seed, clock=True,
                      model=HumanModel(bounce_p=0.0), tags=game.tags)
    turn, before = s.turns[10], s.turns[9]
    square = min(before.occupied - turn.occupied)
    s = through_matrix(s, [f"stuck-closed:{square}@{turn.start_t - 0.5:.4f}"], seed=_zlib.crc32(seed.encode()))
    engine = Reconstructor(s.header)
    view = RunView("t", engine.board)
    emitted = []
    for ev in s.events:
        if not isinstance(ev, HealthLine):
            for out in engine.feed(ev):
                view.update(out)
                emitted.append(out)
    for out in engine.finish():
        view.update(out)
    assert any(getattr(o, "kind", None) == "ghost" for o in emitted)      # said live, then moved
    assert [(f.square, f.kind) for f in view.faults] == [(square, "stuck-closed")]
    assert [w for w in view.warnings() if w.startswith("check square")] == [
        f"check square {square}: switch stuck-closed since {view.faults[0].since:.1f} s, masked (read from the rules)"]
