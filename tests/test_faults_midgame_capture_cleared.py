"""Failing switches, issue 9 (fifth pass): a switch that dies under a piece while the opponent's capture is under way
(bench/bench_faults.py --midgame ``dead-under-piece``). The piece reads lifted between the capture's landing and the
removal of the piece it took, or before the landing; read at that lift, the capture stood with its piece on the
board (``capture-not-removed``) and the reply took it off (``own-piece-removed``, ``capture-not-taken``). Now the
reply tells: its landing (rig/reconstruct/earlylift.py), a still board with the piece off (the same), the piece
played from the square read empty (rig/reconstruct/stuckcapture.py), or the reply read apart on a still board
(rig/reconstruct/unseen.py ``_interleaved``). No player irregularity stands."""

from __future__ import annotations

import pytest

from rig.live.screen import RunView
from rig.reconstruct import Reconstructor, SensorFault
from rig.session import HealthLine
from tests.test_faults_matrix import MODES
from tests.test_faults_midgame_early_lifts import _dead_under_piece


def _exact(s, r, ply: int) -> list[str]:
    """The moves that stand are the game's, no irregularity stands; the moves around ``ply``."""
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert got == s.expected_moves
    assert [i.type for i in r.irregularities if i.status != "dismissed"] == []
    return got[ply - 1:ply + 2]


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_international_clock_capture_cleared_while_the_piece_reads_lifted(health):
    """37 dies 0.3 s after black's 14x23 lands, before 19 is taken off; black presses with 37 read off, white's
    37-32 lands: black's capture read as cleared at his press (not capture-not-removed, then capture-not-taken and
    own-piece-removed on 37-32), both presses stamping their moves."""
    s, r = _dead_under_piece("international", 16, health, plies=20, clock=True)
    assert _exact(s, r, 16) == ["14x23", "37-32", "21-27"]
    assert r.irregularities == []
    assert all(m.clock_ms is not None for m in r.moves[15:18])


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_international_clock_ply_22(health):
    """The same with 41 under 16x27 (21 taken off after 41 reads lifted), then 41-37; the dead switch is named
    once a piece stands on 41 again."""
    s, r = _dead_under_piece("international", 22, health, plies=26, clock=True)
    assert _exact(s, r, 22) == ["16x27", "41-37", "10-14"]
    assert r.irregularities == []
    assert [(f.square, f.kind) for f in r.sensor_faults] == [(41, "dead")]


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_brazilian_clock_reply_lands_where_it_captures(health):
    """e3 dies between c5xa3's landing and the removal of b4; the reply e3xc5 lands, then takes d4 off."""
    s, r = _dead_under_piece("brazilian", 22, health, plies=26, clock=True)
    assert _exact(s, r, 22) == ["c5xa3", "e3xc5", "d6xb4"]
    assert r.irregularities == []


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_international_no_clock_capture_cleared_at_the_reply_landing(health):
    """Without a clock: 41 reads lifted right after 16x27 lands, 21 is taken off, 41-37 lands: the landing ends
    black's capture as cleared."""
    s, r = _dead_under_piece("international", 22, health, plies=26)
    assert _exact(s, r, 22) == ["16x27", "41-37", "10-14"]
    assert r.irregularities == []


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_international_no_clock_piece_off_on_a_still_board(health):
    """40 reads lifted 10 ms after 23x34 lands, 29 is taken off, and the board stays still 5 s before 40x29 (no
    lift seen): read as 23x34 cleared and 40 held by white (not capture-not-removed then a lost position); the
    held-off observation is dropped since his move was played with that piece."""
    s, r = _dead_under_piece("international", 28, health, plies=32)
    assert _exact(s, r, 28) == ["23x34", "40x29", "6-11"]
    assert r.irregularities == []
    assert [o.type for o in r.observations] == []


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_brazilian_no_clock_reread_when_played_from_the_dead_square(health):
    """e3 dies before c5xa3 lands; b4 is taken off after it, as the reply begins: read then as c5xa3 with e3
    taken off (wrong-piece-removed) and b4 standing, then b4-c5. When black begins, the reply e3xc5 (from e3, no
    lift) re-reads it: e3 dead, both irregularities dismissed, an observation names e3."""
    s, r = _dead_under_piece("brazilian", 22, health, plies=26)
    assert _exact(s, r, 22) == ["c5xa3", "e3xc5", "d6xb4"]
    assert sorted((i.type, i.status) for i in r.irregularities) == [("capture-not-removed", "dismissed"),
                                                                     ("wrong-piece-removed", "dismissed")]
    assert [(f.square, f.kind) for f in r.sensor_faults] == [(23, "dead")]
    assert [(o.type, o.squares) for o in r.observations] == [("wrong-piece-removed", (23,))]


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_portuguese_no_clock_reply_set_apart_on_a_still_board(health):
    """10 dies during 19-14 (after the lift of 19); white's 10x19 shows only its landing and the removal of 14,
    and the board stays still 6 s with black's 19 back on 19 (it is white's piece now). Read as 19-14, 10x19 (the
    lift of 10 set apart as the reply's), then 23x14, not as 19-14 with 10 and 23 taken off."""
    s, r = _dead_under_piece("portuguese", 16, health, plies=20)
    assert _exact(s, r, 16) == ["19-14", "10x19", "23x14"]
    assert r.irregularities == []
    assert [(f.square, f.kind) for f in r.sensor_faults] == [(10, "dead")]


@pytest.mark.parametrize("health", MODES)
def test_dead_under_piece_portuguese_clock_fault_read_on_the_landing_square_withdrawn(health):
    """13 dies 0.3 s after black lifts 21 for 21-17, the piece still in his hand: the lift of 13 is taken for white
    beginning, 21-17 as over and 17, still open, for a dead switch (named live). The landing comes 0.15 s later;
    17 reads closed under that piece once 21-17 is read: the fault is withdrawn (kept, with the reason, and
    emitted again), and the live screen of ``rig run`` no longer asks to check 17. (13 itself is never shown
    dead: no piece stands on it again.)"""
    s, _ = _dead_under_piece("portuguese", 10, health, plies=14, clock=True)
    engine = Reconstructor(s.header)
    view = RunView("t", engine.board)
    faults = []
    for ev in s.events:
        if health or not isinstance(ev, HealthLine):
            for out in engine.feed(ev):
                view.update(out)
                faults += [out] if isinstance(out, SensorFault) else []
    for out in engine.finish():
        view.update(out)
    assert [(f.square, f.kind, bool(f.withdrawn)) for f in faults] == [(17, "dead", False), (17, "dead", True)]
    assert "came down after the fault was read" in engine.sensor_faults[0].withdrawn
    assert engine.report()["sensor_faults"][0]["withdrawn"] == engine.sensor_faults[0].withdrawn
    assert not any(w.startswith("check square") for w in view.warnings())
    assert [m.move_text for m in engine.moves if not m.withdrawn] == s.expected_moves
    assert engine.irregularities == []
