"""Many boards through a real Mosquitto broker (Debian's, started here on a free loopback port) into one hub.

Simulated boards are real ``rig run --simulate ... --mqtt`` processes; the round PDN is read over HTTP all
along by a poller that applies the relay's rules (tests/relay_checker.py). The broker is killed and
restarted mid-round, a board is killed with SIGKILL and resumed: the hub's records must equal the boards'
own records (their reports, written from their journals), nothing lost or doubled.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time

import httpx
import pytest

from hub_helpers import GAMES, ROOT, game_lag_errors
from relay_checker import RelayChecker, read_snapshot
from rig.hub.broker import Broker
from rig.hub.pairings import parse_pairings
from rig.hub.publish import outbox_path
from rig.hub.server import HttpServer
from rig.hub.service import Hub
from rig.hub.store import Store
from rig.hub.web import create_app

T = "open26"


@pytest.fixture()
def broker():
    with Broker() as b:
        yield b


@pytest.fixture()
def hall(broker, tmp_path):
    pairs = parse_pairings("round,board,white,black\n1,b1,Ana,Rui\n1,b2,Eva,Zé\n1,b3,Rita,Luís\n", "csv")
    hub = Hub(T, Store(str(tmp_path / "hub.sqlite")), pairings=pairs)
    poller = Poller("", hub)
    watch_feed(hub, poller.lag)
    hub.start("127.0.0.1", broker.port)
    with HttpServer(create_app(hub)) as server:
        poller.url = server.url + "/round/1.pdn"
        poller.start()
        yield hub, server, poller
        poller.stop()
    hub.stop()
    hub.store.close()


def watch_feed(hub: Hub, lag: list[str]) -> None:
    """After every update of a game's feed (so at every poll: the round PDN served is made of the feeds as
    last updated), the feed against the hall's game as the hub then holds it: never more than the
    non-final entries behind. (The hub tells its pages of a batch before it updates the feeds, so a check
    of the games at an arbitrary instant could land between the two.)"""
    update = hub._feed_update

    def checked(game) -> None:
        update(game)
        feed = hub.feeds.get(game.round, {}).get(game.board)
        if feed is not None and feed.variant == game.variant:
            lag.extend(game_lag_errors(game, read_snapshot(feed.to_pdn()).games[0]))

    hub._feed_update = checked


class Poller(threading.Thread):
    """Reads the round PDN every 0.2 s, as a relay would (but faster), through the relay checker."""

    def __init__(self, url: str, hub: Hub | None = None):
        super().__init__(daemon=True)
        self.url = url
        self.hub = hub
        self.checker = RelayChecker()
        self.halt = threading.Event()
        self.lag: list[str] = []          # the feed more than the non-final entries behind the hall

    def run(self) -> None:
        with httpx.Client(timeout=4) as c:
            while not self.halt.is_set():
                t = time.perf_counter()
                r = c.get(self.url)
                self.checker.poll(r.content, r.status_code, time.perf_counter() - t, r.headers.get("content-type", ""))
                self.halt.wait(0.2)

    def stop(self) -> None:
        self.halt.set()
        self.join(10)


def board(broker: Broker, name: str, variant: str, out, speed: float, *extra: str) -> subprocess.Popen:
    args = [sys.executable, "-m", "rig.cli", "run", "--simulate", GAMES[variant], "--speed", str(speed), "--plain",
            "--mqtt", broker.address, "--board", name, "--tournament", T, "--round", "1", *extra]
    if "--resume" not in extra:
        args += ["--out", str(out)]
    return subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def outbox_lines(session) -> int:
    with open(outbox_path(str(session)), "rb") as f:
        return sum(1 for line in f if line.strip())


def wait_synced(hub: Hub, sessions: dict[str, object], timeout: float = 30.0) -> None:
    """Until the hub has applied every message each board wrote to its outbox, and each run has closed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with hub.lock:
            done = all(
                (1, b) in hub.games and hub.games[(1, b)].closed
                and hub.streams[(b, hub.games[(1, b)].session)].next == outbox_lines(s) + 1
                for b, s in sessions.items())
        if done:
            return
        time.sleep(0.1)
    raise AssertionError(f"the hub did not catch up: {hub!r}")


def assert_records_equal(hub: Hub, sessions: dict[str, object]) -> None:
    for b, session in sessions.items():
        with open(str(session)[:-len(".jsonl")] + ".report.json", encoding="utf-8") as f:
            report = json.load(f)
        g = hub.games[(1, b)]
        assert [(m["move"], bool(m.get("withdrawn"))) for _, m in sorted(g.moves.items())] == \
            [(m["move"], bool(m.get("withdrawn"))) for m in report["moves"]], b
        assert [(x["type"], x["status"]) for _, x in sorted(g.irregularities.items())] == \
            [(x["type"], x["status"]) for x in report["irregularities"]], b
        assert g.result == report["result"]
        stored = hub.store.moves_of(1, b)
        assert [r["move"] for r in stored] == [m["move"] for m in report["moves"]]
        feed = hub.feeds[1][b]
        standing = [m["move"] for m in report["moves"] if not m.get("withdrawn")]
        if all(m["legal"] for m in g.standing()) and not report["irregularities"]:
            # (a board read irregularly, e.g. a captured piece taken off after the press on a loaded machine,
            # has /FEN/ setups where its record went on from an irregular position)
            assert [n.text for n in feed.nodes if n.kind == "move"] == standing, b
        else:                       # the feed's moves are moves made on the board (withdrawn ones too), in order
            rest = iter(m["move"] for m in report["moves"])
            assert all(any(t == x for x in rest) for t in (n.text for n in feed.nodes if n.kind == "move")), b


def finish(procs: dict[str, subprocess.Popen], timeout: float = 90.0) -> None:
    for name, p in procs.items():
        try:
            p.wait(timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            raise AssertionError(f"board {name} did not finish") from None
        err = p.stderr.read().decode(errors="replace")
        assert p.returncode == 0, f"board {name}: {err}"


def test_three_boards_through_one_hub(broker, hall, tmp_path):
    hub, server, poller = hall
    sessions = {b: tmp_path / f"{b}.jsonl" for b in ("b1", "b2", "b3")}
    procs = {b: board(broker, b, v, sessions[b], 60) for b, v in
             (("b1", "international"), ("b2", "brazilian"), ("b3", "portuguese"))}
    finish(procs)
    wait_synced(hub, sessions)
    time.sleep(0.5)
    poller.stop()
    assert_records_equal(hub, sessions)
    assert poller.checker.polls > 10 and poller.checker.errors == [] and poller.lag == []
    assert any("GameType 28" in n for n in poller.checker.notes)
    with httpx.Client(base_url=server.url) as c:
        relay = {g["board"]: g for g in c.get("/api/round/1").json()["games"]}
        assert relay["b1"]["relayable"] and relay["b2"]["relayable"]
        assert not relay["b3"]["relayable"] and "GameType 28" in relay["b3"]["reasons"][0]
        deadline = time.monotonic() + 10                # each board said offline when its run closed
        while time.monotonic() < deadline:
            cards = {s["board"]: s for s in c.get("/api/boards").json()}
            if not any(s["online"] for s in cards.values()):
                break
            time.sleep(0.1)
        assert cards["b1"]["white"] == "Weitsman,V." and not any(s["online"] for s in cards.values())
    assert hub.stats["bad"] == 0


def test_broker_killed_and_a_board_killed_and_resumed(broker, hall, tmp_path):
    hub, server, poller = hall
    sessions = {b: tmp_path / f"{b}.jsonl" for b in ("b1", "b2")}
    procs = {"b1": board(broker, "b1", "international", sessions["b1"], 30),
             "b2": board(broker, "b2", "brazilian", sessions["b2"], 12)}

    def hub_moves(b: str) -> int:
        with hub.lock:
            g = hub.games.get((1, b))
            return len(g.standing()) if g else 0

    deadline = time.monotonic() + 30
    while min(hub_moves("b1"), hub_moves("b2")) < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert hub_moves("b2") >= 4
    broker.kill()                                   # mid-round: the boards go on, buffering on disk
    time.sleep(2.0)
    procs["b2"].send_signal(signal.SIGKILL)         # and one board dies meanwhile
    procs["b2"].wait()
    buffered = outbox_lines(sessions["b2"])
    with open(outbox_path(str(sessions["b2"]))[:-len(".jsonl")] + ".ack") as f:
        acked = int(f.read())
    assert acked < buffered, "messages were written to the outbox while the broker was away"
    broker.start()
    procs["b2"] = board(broker, "b2", "brazilian", sessions["b2"], 12, "--resume", str(sessions["b2"]))
    finish(procs)
    wait_synced(hub, sessions)
    time.sleep(0.5)
    poller.stop()
    assert_records_equal(hub, sessions)
    assert poller.checker.errors == [] and poller.lag == []
    # one stream per board (the resumed journal kept its session and went on numbering)
    assert sorted(b for b, _ in hub.streams) == ["b1", "b2"]
    with open(sessions["b2"], encoding="utf-8") as f:
        assert any('"reconnected"' in line for line in f)   # it was really resumed
    # every message of each outbox reached the hub exactly once in sequence: the boards acked everything
    for _b, s in sessions.items():
        with open(outbox_path(str(s))[:-len(".jsonl")] + ".ack") as f:
            assert int(f.read()) == outbox_lines(s)


def test_a_hub_that_missed_messages_asks_the_board_and_gets_them_from_its_outbox(broker, tmp_path):
    """The hub comes after the board has published half its game (not retained: gone for it); the board's
    retained state is the one from the start. The hub sees the gap, asks a replay, the board answers from
    its outbox: the hub's record is the whole game before the board closes (no closing snapshot helps)."""
    from types import SimpleNamespace

    from rig.hub.publish import MqttPublisher
    from rig.reconstruct import Reconstructor
    from rig.simulate import simulate_game
    from rig.simulate.games import load_pdn_game

    src = load_pdn_game(GAMES["international"], 1)
    session = simulate_game(src.variant, src.moves[:30], seed=5, tags=src.tags)
    journal = tmp_path / "b1.jsonl"
    journal.write_text(json.dumps(session.header.to_json()) + "\n", encoding="utf-8")
    engine = Reconstructor(session.header)
    loop = SimpleNamespace(engine=engine, t=0.0)
    pub = MqttPublisher("127.0.0.1", broker.port, tournament=T, board="b1", round=1, session_path=str(journal),
                        state_every_s=1e9)
    assert pub.connected.wait(10)
    pub.on_start(loop)
    half = len(session.events) // 2
    for ev in session.events[:half]:
        loop.t = ev.t
        pub.on_outputs(loop, engine.feed(ev))
    deadline = time.monotonic() + 10
    while not (pub._q.empty() and pub.outbox.acked == pub.outbox.last_seq > 3) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert pub.outbox.acked == pub.outbox.last_seq > 3
    hub = Hub(T, Store(":memory:")).start("127.0.0.1", broker.port)
    try:
        deadline = time.monotonic() + 10
        while (1, "b1") not in hub.games and time.monotonic() < deadline:
            time.sleep(0.02)
        assert hub.games[(1, "b1")].seq == 1                 # only the retained state from the start
        for ev in session.events[half:]:
            loop.t = ev.t
            pub.on_outputs(loop, engine.feed(ev))
        pub.on_outputs(loop, engine.finish())
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            with hub.lock:
                if hub.streams[("b1", pub.session)].next == pub.outbox.last_seq + 1:
                    break
            time.sleep(0.05)
        g = hub.games[(1, "b1")]
        assert hub.stats["replays_asked"] >= 1 and hub.replay_requests[0][2] == 2
        assert [m["move"] for m in g.standing()] == [m.move_text for m in engine.moves if not m.withdrawn]
        assert hub.streams[("b1", pub.session)].next == pub.outbox.last_seq + 1
    finally:
        pub.on_close(loop)
        hub.stop()
