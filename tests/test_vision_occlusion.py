"""Hands and stability: a hand moving a piece gives exactly one new position, the right one; hand pictures
are never positions; what the rules cannot explain is held back, logged, and let through if it stays."""

from __future__ import annotations

from rig.board import Board
from vision.classify import Reading
from vision.render import render
from vision.session import CameraBoard
from vision.stability import BoardWatcher
from vision.testset import calibration_pictures, game_pictures
from calibration.camera import calibrate_camera
from rig.variants import INTERNATIONAL, PORTUGUESE


def test_hand_moving_a_piece_gives_one_new_position():
    empty, start = calibration_pictures(PORTUGUESE, 401, markers=True, side="bottom")
    config = calibrate_camera(PORTUGUESE, render(empty), render(start)).config
    board = Board("portuguese")
    move = board.parse_move("10-14")
    pictures = list(game_pictures(empty, [move], seed=401, still=3))
    assert sum(p.occluded for p in pictures) >= 4  # reach, lift, carry, place, leave
    camera = CameraBoard(config)
    emitted = []
    for i, pic in enumerate(pictures):
        frames = camera.feed(i * 0.5, render(pic.scene))
        if pic.occluded:
            assert camera.last.occluded, f"picture {i}: the hand over the board was not seen"
        if camera.last.occluded:  # only the last position again, marked: the board is hidden, not still
            assert all(f.hand and f.pieces == emitted[-1].pieces for f in frames) and len(frames) <= 1
        emitted += [f for f in frames if not f.hand]
    board.push(move)
    assert [f.pieces for f in emitted] == [Board("portuguese").piece_codes(), board.piece_codes()]
    assert emitted[1].occupied == board.occupied()
    assert emitted[1].t == 0.5 * next(i for i, p in enumerate(pictures) if p.ply == 1 and not p.occluded)


def _reading(pieces, t, occluded=False):
    return Reading(dict(pieces), {}, occluded, t=t)


def test_watcher_agreement_hands_and_holding_back():
    b = Board("international")
    w = BoardWatcher(INTERNATIONAL, agree=2, hold=4)
    start = b.piece_codes()
    assert w.feed(_reading(start, 0.0)) == []
    (f,) = w.feed(_reading(start, 0.2))
    assert f.t == 0.0 and f.pieces == start
    # a hand: never a position, however many pictures
    lifted = dict(start)
    del lifted[31]
    for k in range(5):
        assert w.feed(_reading(lifted, 1 + k * 0.2, occluded=True)) == []
    # a legal move: out at its first agreeing picture
    move = b.parse_move("31-27")
    b.push(move)
    assert w.feed(_reading(b.piece_codes(), 3.0)) == []
    (f,) = w.feed(_reading(b.piece_codes(), 3.2))
    assert f.t == 3.0 and f.pieces == b.piece_codes()
    # a misreading the rules cannot explain (a piece appears from nowhere) that goes away: held, then superseded
    ghost = b.piece_codes() | {25: "w"}
    assert w.feed(_reading(ghost, 4.0)) == [] and w.feed(_reading(ghost, 4.2)) == []
    assert w.log[-1].fate == "held" and w.pending_since == 4.0
    assert w.feed(_reading(b.piece_codes(), 4.4)) == [] and w.feed(_reading(b.piece_codes(), 4.6)) == []
    assert w.log[-1].fate == "superseded" and w.log[-1].at == 4.6 and w.pending_since is None
    # black moves twice? no: white moves again (two moves, CODEX 42.A): not explained, let through once it stays
    again = Board("international", b.fen())
    again.turn = True
    second = again.parse_move("32-28")
    again.push(second)
    out = [w.feed(_reading(again.piece_codes(), 6.0 + k * 0.2)) for k in range(4)]
    assert out[:3] == [[], [], []] and out[3][0].pieces == again.piece_codes() and out[3][0].t == 6.0
    assert w.log[-1].fate == "released"


def test_watcher_captures_with_pieces_still_standing_and_arbiter():
    b = Board("portuguese", "W:W14:B18,27")
    w = BoardWatcher(PORTUGUESE, "W:W14:B18,27", agree=1, hold=3)
    assert w.feed(_reading(b.piece_codes(), 0.0))
    before = b.piece_codes()
    move = b.parse_move("14x21")  # the captured man stays until the capturing piece has landed (FPD 000 3.8)
    b.push(move)
    standing = b.piece_codes() | {18: before[18]}
    assert w.feed(_reading(standing, 1.0))[0].pieces == standing
    assert w.feed(_reading(b.piece_codes(), 2.0))[0].pieces == b.piece_codes()
    # the arbiter sets a position: what is held back gives way to it
    odd = {5: "w", 30: "b"}
    assert w.feed(_reading(odd, 3.0)) == []
    w.set_position("B:W5:B30", 3.5)
    assert w.log[-1].fate == "arbiter"
    assert w.feed(_reading(odd, 4.0))[0].pieces == odd


def test_camera_source_takes_the_arbiters_position():
    from rig.live.sources import CameraSource, Inbox
    from rig.session import ArbiterEvent

    start = {14: "w", 18: "b", 27: "b"}
    odd = {5: "w", 30: "b"}

    class Readings:  # what CameraSource needs of a CameraBoard: a watcher, feed, pending_since
        def __init__(self):
            self.watcher = BoardWatcher(PORTUGUESE, "W:W14:B18,27", agree=1, hold=50)
            self.watcher.feed(_reading(start, 0.0))
            self.pending_since = None

        def feed(self, t, pieces):
            return self.watcher.feed(_reading(pieces, t))

    class Sequence:  # a recorded sequence of (t, what the camera read)
        live = False

        def __init__(self, items):
            self.items = list(items)

        def read(self):
            return self.items.pop(0) if self.items else None

        def close(self):
            pass

    board = Readings()
    source = CameraSource(board, Sequence([(0.0, odd), (0.01, odd)]), clock=lambda: 100.0)
    source.on_event(None, ArbiterEvent(1.0, "set-position", fen="B:W5:B30"))
    inbox = Inbox()
    source.start(inbox)
    source._thread.join(5)
    assert [item.payload.pieces for item in inbox.get(0.1)] == [odd]
    assert board.watcher.log == []  # nothing held back: the arbiter's position explains it
