"""The live loop: time order across sources that deliver late, commits by ``advance`` between frames, a failing
engine that does not stop the journal, the end of the game with its grace period."""

from __future__ import annotations

import threading
import time

from rig.live.journal import Journal, RunPaths, recover
from rig.live.loop import LiveLoop
from rig.live.screen import RunView
from rig.live.sources import Inbox, SessionClock
from rig.reconstruct import MoveEntry, Reconstructor
from rig.rulesets import FPD_2026
from rig.session import ClockEvent, Frame, Header
from rig.variants import PORTUGUESE, get_variant

V = get_variant("portuguese")
START = frozenset(V.white_start) | frozenset(V.black_start)


class ScriptedSource:
    """Delivers (t, event) items ``delay`` session seconds after their time, from its own thread; its horizon
    trails the session clock by that delay."""

    def __init__(self, name: str, items, clock, delay: float):
        self.name, self.items, self.clock, self.delay = name, items, clock, delay
        self._stop = threading.Event()
        self.error = None

    def start(self, inbox: Inbox) -> None:
        def run():
            for t, ev in self.items:
                if not self.clock.sleep_until(t + self.delay, self._stop):
                    return
                inbox.put(ev.t, "event", ev, self.name)

        threading.Thread(target=run, daemon=True).start()

    def horizon(self) -> float:
        return self.clock() - self.delay - 0.01

    @property
    def ended(self) -> bool:
        return False

    def close(self) -> None:
        self._stop.set()


class Recorder:
    """A screen that keeps what it was shown."""

    def __init__(self, on_move=None):
        self.shown, self.on_move = [], on_move

    def start(self, view, info):
        pass

    def show(self, view, outputs, now):
        self.shown += outputs
        if self.on_move and any(isinstance(o, MoveEntry) for o in outputs):
            self.on_move()

    def tick(self, view, now):
        pass

    def finish(self, view, recorded):
        pass


def make_loop(tmp_path, header, sources, clock, **kw):
    paths = RunPaths(str(tmp_path / "g.jsonl"))
    engine = Reconstructor(header)
    journal = Journal.create(paths.session, header)
    return LiveLoop(engine, journal, paths, sources, clock, view=RunView("t", engine.board), **kw), paths


def moved(occ, frm, to):
    return frozenset(occ - {frm} | {to})


def test_events_reach_the_journal_in_time_order_across_late_sources(tmp_path):
    clock = SessionClock(speed=20.0)
    after = moved(START, 10, 14)
    frames = [(0.1, Frame(0.1, START)), (1.0, Frame(1.0, START - {10})), (1.5, Frame(1.5, after))]
    frames += [(2.6, Frame(2.6, after - {22}))]
    presses = [(2.0, ClockEvent(2.0, "press", side="white")), (2.0, ClockEvent(2.0, "time", white_ms=5, black_ms=6))]
    matrix = ScriptedSource("matrix", frames, clock, 0.0)
    clk = ScriptedSource("clock", presses, clock, 0.8)  # arrives after the 2.6 frame was seen
    releases = []
    loop, paths = make_loop(tmp_path, Header(PORTUGUESE, FPD_2026, extra={"clock": True}), [matrix, clk], clock,
                            end_at=4.0, on_event=lambda ev: releases.append((ev.t, loop.horizon())))
    out = loop.run()
    rec = recover(paths.session)
    ts = [e.t for e in rec.events]
    assert ts == [0.1, 1.0, 1.5, 2.0, 2.0, 2.6]
    assert all(t <= h for t, h in releases)  # nothing released ahead of a source's horizon
    assert out.reason == "simulation-end" and out.lines == 6 and out.clamped == 0
    assert [m.move_text for m in loop.engine.moves] == ["10-14"]
    assert loop.engine.moves[0].t == 2.0  # committed at the press, which the 2.6 frame did not overtake


def test_advance_commits_a_move_between_frames(tmp_path):
    clock = SessionClock(speed=20.0)
    after = moved(START, 10, 14)
    frames = [(0.1, Frame(0.1, START)), (1.0, Frame(1.0, START - {10})), (1.5, Frame(1.5, after))]
    stop = threading.Event()
    screen = Recorder(on_move=stop.set)
    loop, paths = make_loop(tmp_path, Header(PORTUGUESE, FPD_2026), [ScriptedSource("m", frames, clock, 0.0)],
                            clock, screen=screen, stop=stop, end_at=60.0)
    began = time.monotonic()
    out = loop.run()
    assert out.reason == "stopped" and time.monotonic() - began < 2.0
    moves = [o for o in screen.shown if isinstance(o, MoveEntry)]
    assert [m.move_text for m in moves] == ["10-14"] and moves[0].t == 1.5 + 2.0  # stable_s after the last change
    assert "10-14" in open(paths.pdn).read()
    assert recover(paths.session).last_t == 1.5  # no frame after the move was needed


def test_game_end_then_grace(tmp_path):
    clock = SessionClock(speed=20.0)
    fen = "W:W1:B5"  # white captures 1x10 and black has nothing left
    frames = [(0.1, Frame(0.1, frozenset({1, 5}))), (1.0, Frame(1.0, frozenset({5}))),
              (1.4, Frame(1.4, frozenset({5, 10}))), (1.8, Frame(1.8, frozenset({10})))]
    loop, paths = make_loop(tmp_path, Header(PORTUGUESE, FPD_2026, fen=fen),
                            [ScriptedSource("m", frames, clock, 0.0)], clock, grace_s=1.0, end_at=60.0)
    out = loop.run()
    assert out.reason == "game-end" and out.result == "1-0"
    assert loop.ended_at is not None and clock() >= loop.ended_at + 1.0
    assert '[Result "1-0"]' in open(paths.pdn).read()


def test_a_failing_engine_does_not_stop_the_journal(tmp_path):
    clock = SessionClock(speed=20.0)
    frames = [(0.1 * i, Frame(0.1 * i, START - ({10} if i % 2 else set()))) for i in range(1, 6)]
    loop, paths = make_loop(tmp_path, Header(PORTUGUESE, FPD_2026), [ScriptedSource("m", frames, clock, 0.0)],
                            clock, end_at=1.0)

    def broken(ev):
        raise RuntimeError("bug")

    loop.engine.feed = broken
    out = loop.run()
    assert out.engine_error == "RuntimeError: bug" and out.lines == 5
    assert len(recover(paths.session).events) == 5
    assert any("engine failed" in n for n in loop.view.notes)


def test_a_source_that_cannot_start_ends_the_run(tmp_path):
    clock = SessionClock(speed=20.0)

    class NoPins(ScriptedSource):
        def start(self, inbox):
            raise OSError("no GPIO here")

    loop, paths = make_loop(tmp_path, Header(PORTUGUESE, FPD_2026), [NoPins("clock", [], clock, 0.0)], clock,
                            end_at=60.0)
    out = loop.run()
    assert out.reason == "source-failed" and out.source_errors == ["clock: cannot start: OSError: no GPIO here"]
    assert recover(paths.session).events == []
