"""A simulated round: a broker, a hub and several simulated boards playing real games (``rig round``).

The boards are real ``rig run --simulate GAME.pdn --mqtt ...`` processes (the matrix on mock pins, the clock
an emulator on a pty, the journal on disk), the broker is Debian's Mosquitto on a free loopback port, the
hub serves its pages on ``--listen``. The terminal shows the hall as it goes; Ctrl-C stops everything
cleanly (the boards close their journals, the broker and the hub stop).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Any, TextIO

from rig.demo import demo_game_path
from rig.hub.feed import clk_command

__all__ = ["RoundPlan", "SimulatedRound", "demo_games"]

TOURNAMENT = "demo"


def _free(host: str, port: int) -> bool:
    import socket

    with socket.socket() as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def demo_games() -> list[str]:
    """The real games shipped for the demo (rig/data/demo, sources in its SOURCES.md)."""
    return [demo_game_path(v) for v in ("international", "brazilian", "portuguese")]


@dataclass
class RoundPlan:
    boards: int = 3
    speed: float = 10.0
    games: list[str] = field(default_factory=demo_games)
    out: str | None = None
    listen: tuple[str, int] = ("127.0.0.1", 8400)
    mqtt: tuple[str, int] | None = None       # an existing broker; None starts Mosquitto
    exit_when_done: bool = False


class SimulatedRound:
    """Runs a :class:`RoundPlan`; :meth:`run` returns an exit code."""

    def __init__(self, plan: RoundPlan, out: TextIO = sys.stdout):
        self.plan = plan
        self.out = out
        self.stop = threading.Event()
        self.broker = None
        self.hub = None
        self.http = None
        self.procs: dict[str, subprocess.Popen] = {}
        self.dir = plan.out or tempfile.mkdtemp(prefix="rig-round-")
        self.changed = threading.Event()

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    # -- setting up ------------------------------------------------------------------------------

    def _start(self) -> None:
        from rig.hub.broker import Broker, free_port
        from rig.hub.pairings import Pairing
        from rig.hub.server import HttpServer
        from rig.hub.service import Hub
        from rig.hub.store import Store
        from rig.hub.web import create_app
        from rig.simulate.games import load_pdn_game

        os.makedirs(self.dir, exist_ok=True)
        if self.plan.mqtt is None:
            self.broker = Broker().start()
            host, port = "127.0.0.1", self.broker.port
        else:
            host, port = self.plan.mqtt
        games = []
        pairings = []
        for i in range(self.plan.boards):
            path = self.plan.games[i % len(self.plan.games)]
            src = load_pdn_game(path, 1)
            board = f"b{i + 1}"
            games.append((board, path, i // len(self.plan.games)))
            pairings.append(Pairing(1, board, src.tags.get("White", "White"), src.tags.get("Black", "Black"),
                                    i + 1, src.variant))
        db = os.path.join(self.dir, "hub.sqlite")
        if os.path.exists(db):
            os.remove(db)
        self.hub = Hub(TOURNAMENT, Store(db), pairings=pairings, event="damas rig demo").start(host, port)
        self.hub.listeners.append(lambda _: self.changed.set())
        lhost, lport = self.plan.listen
        if lport and not _free(lhost, lport):
            self.say(f"(port {lport} is taken on {lhost}: the hub takes a free one)")
            lport = 0
        self.http = HttpServer(create_app(self.hub), lhost, lport if lport else free_port()).start()
        for board, path, seed in games:
            session = os.path.join(self.dir, f"{board}.jsonl")
            for suffix in (".jsonl", ".mqtt.jsonl", ".mqtt.ack"):
                p = session[:-len(".jsonl")] + suffix
                if os.path.exists(p):
                    os.remove(p)
            log = open(os.path.join(self.dir, f"{board}.out"), "w", encoding="utf-8")
            self.procs[board] = subprocess.Popen(
                [sys.executable, "-m", "rig.cli", "run", "--simulate", path, "--seed", str(seed), "--speed",
                 str(self.plan.speed), "--plain", "--grace", "1", "--out", session, "--mqtt", f"{host}:{port}",
                 "--board", board, "--tournament", TOURNAMENT, "--round", "1"],
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            log.close()
        url = self.http.url
        self.say(f"damas rig: a simulated round of {len(games)} boards (real games) at {self.plan.speed:g}x")
        self.say(f"  the hall:          {url}/")
        for board, _, _ in games:
            self.say(f"  board {board}:          {url}/game/{board}")
        self.say(f"  round PDN (relay): {url}/round/1.pdn")
        self.say(f"  API:               {url}/api/boards")
        self.say(f"  broker:            mqtt://{host}:{port}  (topics rig/{TOURNAMENT}/BOARD/...)")
        self.say(f"  files:             {self.dir}")
        self.say("Ctrl-C stops the round.")
        self.say()

    # -- the terminal view -------------------------------------------------------------------------

    def _line(self, s: dict[str, Any]) -> str:
        clock = s.get("clock") or {}
        times = " ".join((clk_command(clock[k])[6:-1] if clock.get(k) is not None else "-")
                         for k in ("white_ms", "black_ms"))
        last = f"{s['number']}. {s['last']}" if s.get("last") else "-"
        state = s["result"] if s["result"] != "*" else \
            "playing" if s["online"] else "run ended" if s.get("closed") else "offline"
        alert = f"  ! {s['alerts'][0]}" if s.get("alerts") else ""
        return (f"{s['board']:<4} {s['white'][:18]:<18} - {s['black'][:18]:<18} {s['variant'][:5]:<5} "
                f"{s['moves']:>3} moves  last {last:<14} clocks {times:<17} {state}{alert}")

    def _show(self, final: bool = False) -> None:
        rows = sorted(self.hub.summaries(), key=lambda s: int(s["board"][1:]) if s["board"][1:].isdigit() else 0)
        if self.out.isatty() and not final:
            self.out.write("\x1b[s\x1b[J")
            self.out.write("\n".join(self._line(s) for s in rows) + "\n")
            self.out.write("\x1b[u")
            self.out.flush()
        else:
            for s in rows:
                self.say(self._line(s))
            self.say()

    # -- running ---------------------------------------------------------------------------------

    def run(self) -> int:
        old = {sig: signal.signal(sig, lambda *_: self.stop.set()) for sig in (signal.SIGINT, signal.SIGTERM)}
        code = 0
        try:
            self._start()
            shown = 0.0
            done_at = None
            while not self.stop.is_set():
                self.stop.wait(0.2)
                plain = not self.out.isatty()
                if self.changed.is_set() and time.monotonic() - shown >= (5.0 if plain else 0.5):
                    self.changed.clear()
                    shown = time.monotonic()
                    self._show()
                if done_at is None and all(p.poll() is not None for p in self.procs.values()):
                    done_at = time.monotonic()
                    failed = {b: p.returncode for b, p in self.procs.items() if p.returncode}
                    self.say()
                    self._show(final=True)
                    if failed:
                        self.say(f"boards that failed: {failed} (their output: {self.dir}/BOARD.out)")
                        code = 1
                    self.say("every board has finished; the hall stays open" +
                             ("" if self.plan.exit_when_done else " until Ctrl-C"))
                if done_at is not None and self.plan.exit_when_done and time.monotonic() - done_at > 1.0:
                    break
        except Exception as exc:  # noqa: BLE001 - say what failed, then stop everything below
            self.say(f"rig round: {type(exc).__name__}: {exc}")
            code = 2
        finally:
            self._close()
            for sig, h in old.items():
                signal.signal(sig, h)
        return code

    def _close(self) -> None:
        for p in self.procs.values():
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)        # a clean close: the journal and the PDN are complete
        for _board, p in self.procs.items():
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        if self.http is not None:
            self.http.stop()
        if self.hub is not None:
            self.hub.stop()
            self.hub.store.close()
        if self.broker is not None:
            self.broker.close()
        if self.procs:
            self.say(f"stopped; the journals, PDNs and the hub's database are in {self.dir}")
