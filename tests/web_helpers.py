"""Helpers for the page tests: a real live loop (journal, engine, the pages' sink) fed step by step from a
simulated session, the web server on a free loopback port, the expected state after every press, Chromium."""

from __future__ import annotations

import os
import socket
import threading
import time
from dataclasses import dataclass

from rig.live.journal import Journal, RunPaths
from rig.live.loop import LiveLoop
from rig.reconstruct import ClockUpdate, Reconstructor
from rig.session import read_session
from rig.simulate import simulate_game
from rig.simulate.games import load_pdn_game
from rig.web.config import WebConfig
from rig.web.feed import GameFeed
from rig.web.server import WebServer

DATA = os.path.join(os.path.dirname(__file__), "data")
GAMES = {"portuguese": "portuguese/damasedamas_2008_deodato_carvalho.pdn",
         "international": "international/wk2003.pdn", "brazilian": "brazilian/luizlailo_olinda.pdn"}
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
TOKEN = "arbiter-secret-42"


def session_of(variant: str = "portuguese", plies: int = 20, inject=(), seed: int = 3):
    """A simulated session (with a clock) of the first ``plies`` moves of a real game."""
    game = load_pdn_game(os.path.join(DATA, GAMES[variant]), 1, variant)
    return simulate_game(game.variant, game.moves[:plies], fen=game.fen, seed=seed, clock=True, inject=inject,
                         tags={"White": "Ana Lima", "Black": "Rui Costa", "Event": "Test Open", "Round": "2"})


class StepSource:
    """A live source holding a recorded session: the test releases its events up to a time (the sensors'
    horizon follows), so the loop journals and feeds them exactly as it would live."""

    name = "replay"

    def __init__(self, events):
        self.events = list(events)
        self.i = 0
        self._h = -1.0
        self.inbox = None
        self.ended = False
        self.error = None

    def start(self, inbox) -> None:
        self.inbox = inbox

    def release_until(self, t: float) -> None:
        while self.i < len(self.events) and self.events[self.i].t <= t:
            ev = self.events[self.i]
            self.inbox.put(ev.t, "event", ev, self.name)
            self.i += 1
        # then the horizon (the source's promise: nothing older will come), as a scanner after its scan
        self._h = max(self._h, t)

    def horizon(self) -> float:
        return self._h

    def close(self) -> None:
        pass


@dataclass
class Step:
    """The game once a move's clock times are in: standing moves, the position's pieces, both clocks."""

    t: float
    moves: list[str]
    pieces: dict[str, str]
    white_ms: int | None
    black_ms: int | None
    running: str | None


def expected_steps(session) -> list[Step]:
    """Offline (as ``rig transcribe`` reads the session): after each clock reading that follows a new move,
    what the page must show."""
    engine = Reconstructor(session.header)
    steps: list[Step] = []
    for ev in session.events:
        outs = engine.feed(ev) + engine.advance(ev.t)
        clock = [o for o in outs if isinstance(o, ClockUpdate)]
        moves = [m.move_text for m in engine.moves if not m.withdrawn]
        if clock and moves and (not steps or moves != steps[-1].moves):
            c = clock[-1]
            steps.append(Step(ev.t, moves, {str(k): v for k, v in engine.board.piece_codes().items()},
                              c.white_ms, c.black_ms, c.running))
    return steps


class BoardRig:
    """A board as ``rig run --listen`` makes it, in-process: journal, engine, live loop on its thread, pages."""

    def __init__(self, tmp_path, session, config: WebConfig | None = None):
        self.session = session
        tmp_path.mkdir(parents=True, exist_ok=True)
        self.paths = RunPaths(str(tmp_path / "game.jsonl"))
        self.engine = Reconstructor(session.header)
        self.journal = Journal.create(self.paths.session, session.header)
        self.source = StepSource(session.events)
        self.feed = GameFeed(session.header, config or WebConfig(arbiter_token=TOKEN),
                             session_path=self.paths.session)
        self.loop = LiveLoop(self.engine, self.journal, self.paths, [self.source], self.source.horizon,
                             sinks=[self.feed], grace_s=3600, tick_s=0.005)
        self.server = WebServer(self.feed, "127.0.0.1", 0)
        self._thread = threading.Thread(target=self.loop.run, name="test-loop", daemon=True)

    def __enter__(self) -> "BoardRig":
        self.server.start()
        self._thread.start()
        wait_for(lambda: self.source.inbox is not None)
        return self

    def __exit__(self, *exc) -> None:
        self.loop.stop.set()
        self._thread.join(10)
        self.server.stop()
        self.journal.close()

    @property
    def url(self) -> str:
        return self.server.url

    def release_until(self, t: float) -> None:
        self.source.release_until(t)

    def release_all(self) -> None:
        self.source.release_until(self.session.events[-1].t + 5.0)

    def settle(self, timeout: float = 10.0) -> None:
        """Wait until the loop has journaled everything released."""
        wait_for(lambda: self.loop.outcome.lines >= self.source.i and not self.loop.inbox._q.qsize()
                 and not self.loop._pending, timeout)

    def journal_lines(self):
        return read_session(self.paths.session)[1]


def wait_for(cond, timeout: float = 10.0, step: float = 0.01):
    deadline = time.monotonic() + timeout
    while True:
        value = cond()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {cond}")
        time.sleep(step)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class CuttableProxy:
    """A TCP proxy on loopback whose connections the test can cut (a network drop) and refuse for a while."""

    def __init__(self, upstream_port: int):
        self.upstream = upstream_port
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.down = False
        self.cuts = 0
        self._conns: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.down:
                client.close()
                continue
            upstream = socket.create_connection(("127.0.0.1", self.upstream))
            with self._lock:
                self._conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(a: socket.socket, b: socket.socket) -> None:
        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self, stay_down: bool = True) -> None:
        """Drop every open connection (and refuse new ones while ``down``)."""
        self.down = stay_down
        self.cuts += 1
        with self._lock:
            conns, self._conns = self._conns, []
        for s in conns:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def restore(self) -> None:
        self.down = False

    def close(self) -> None:
        self.cut()
        self.listener.close()
