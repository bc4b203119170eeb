"""The hall at scale: one hub, 100 boards at tournament pace, 500 page viewers; move-to-page latency.

    python bench/bench_hall.py [--boards 100] [--viewers 500] [--interval 10] [--duration 60] [--viewer-procs 4]

- a Mosquitto broker (Debian's) on a free loopback port;
- ``rig hub`` in its own process (SQLite on disk, uvicorn), as in a hall;
- the boards: lightweight publishers in another process, one MQTT client each (will, retained status,
  QoS 1, sequence numbers), sending real games' messages (tests/data: international and Brazilian games;
  each move with its position and the clock) with a move every ``--interval`` s on average per board;
- the viewers: ``--viewers`` Server-Sent-Event connections over TCP in ``--viewer-procs`` processes of their
  own on this machine (half on the hall's ``/events``, half on one game's ``/events?board=B``); every event
  of a ``--duration`` window that opens once all of them are connected is timed against the time the
  board stamped in its message.

Prints p50/p95/p99/max, the hub's own part, the viewers the hub had connected mid-window, and the CPU of
the hub, the viewers, the boards and Mosquitto over the window (they all share this machine's cores).

Then one board and one viewer on its own page (the same path, an idle hall), and a real ``rig run
--simulate --mqtt`` board at real speed: its RSS and CPU while the game is played.
Prints the figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import select
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from rig.board import Board  # noqa: E402
from rig.hub.broker import Broker, free_port  # noqa: E402
from rig.hub.protocol import OFFLINE, ONLINE, Topics, encode  # noqa: E402
from rig.simulate.games import load_pdn_games  # noqa: E402

T = "bench"
#: the viewers run in this many processes (one Python thread cannot read 500 busy streams on time; in a hall
#: they are 500 browsers on as many devices): with 2, a loaded machine's scheduler delayed the viewers' reads
#: more than the hub's writes (compare the hub's own "board stamp -> socket write" figure the bench prints)
VIEWER_PROCS = 4
GAMES = [os.path.join(ROOT, "tests", "data", "international", "wk2003.pdn"),
         os.path.join(ROOT, "tests", "data", "brazilian", "luizlailo_olinda.pdn"),
         os.path.join(ROOT, "rig", "data", "demo", "international.pdn")]


# --------------------------------------------------------------------------- the boards (own process)


def board_script(game, board: str, session: str) -> list[dict]:
    """A board's messages for a real game: a snapshot, then per move the move and the clock."""
    b = Board(game.variant, game.fen)
    base = {"v": 1, "board": board, "tournament": T, "round": 1, "session": session}
    out = [dict(base, kind="snapshot", t=0.0, header={"variant": game.variant.name, "ruleset": "", "fen": game.fen,
                                                       "tags": game.tags, "clock": True},
                moves=[], irregularities=[], result="*", reason="", clock=None, lost=False, fen=b.fen())]
    white_ms, black_ms = 5_400_000, 5_400_000
    for i, move in enumerate(game.moves):
        white = b.turn
        text = b.move_text(move)
        number = b.ply() // 2 + 1 if game.fen is None else i // 2 + 1
        b.push(move)
        spent = random.randint(5_000, 120_000)
        if white:
            white_ms -= spent
        else:
            black_ms -= spent
        out.append(dict(base, kind="move", idx=i, number=number, side="white" if white else "black", move=text,
                        legal=True, fen_after=b.fen(), clock_ms=white_ms if white else black_ms, t=float(i)))
        out.append(dict(base, kind="clock", white_ms=white_ms, black_ms=black_ms,
                        running="black" if white else "white", t=float(i)))
    return out


def run_boards(address: str, n: int, interval: float, duration: float) -> None:
    import paho.mqtt.client as mqtt

    host, port = address.rsplit(":", 1)
    games = [g for path in GAMES for g in load_pdn_games(path) if len(g.moves) >= 20]
    clients, scripts, due, pos = [], [], [], []
    for i in range(n):
        board = f"b{i + 1}"
        topics = Topics(T, board)
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"bench-{board}")
        c.will_set(topics.status, OFFLINE, qos=1, retain=True)
        c.connect(host, int(port), keepalive=30)
        c.publish(topics.status, ONLINE, qos=1, retain=True)   # no network thread: written at once
        clients.append((c, topics))
        scripts.append(board_script(games[i % len(games)], board, f"s{i}"))
        pos.append(0)
        due.append(time.monotonic())            # the snapshot at once; moves then come at random
    seq = [0] * n
    end = time.monotonic() + duration
    sent = 0
    socks = {c.socket(): c for c, _ in clients}
    misc_at = 0.0
    while time.monotonic() < end:
        now = time.monotonic()
        i = min(range(n), key=due.__getitem__)
        if due[i] > now:
            # one thread for every board's connection (a real board has its own process): read the acks
            readable, _, _ = select.select(list(socks), [], [], min(due[i] - now, 0.05))
            for s in readable:
                socks[s].loop_read()
            for c, _ in clients:
                if c.want_write():
                    c.loop_write()
            if now - misc_at > 1.0:
                misc_at = now
                for c, _ in clients:
                    c.loop_misc()
            continue
        c, topics = clients[i]
        script = scripts[i]
        batch = [script[pos[i]]] if pos[i] == 0 else script[pos[i]:pos[i] + 2]   # snapshot | move + clock
        pos[i] += len(batch)
        for msg in batch:
            seq[i] += 1
            c.publish(topics.msg, encode(dict(msg, seq=seq[i], ts=time.time())), qos=1)
            sent += 1
        if pos[i] >= len(script):
            pos[i], seq[i] = 0, 0
            script[0]["session"] = script[0]["session"] + "x"
            for m in script:
                m["session"] = script[0]["session"]
        due[i] = now + random.expovariate(1.0 / interval)
    for c, topics in clients:
        c.publish(topics.status, OFFLINE, qos=1, retain=True)
        c.loop_write()
        c.disconnect()
    print(json.dumps({"sent": sent}), flush=True)


# --------------------------------------------------------------------------- the viewers (this process)


#: the board's stamp and the hub's in an event's JSON (each ``data:`` line has one of each), found without
#: parsing the event: the viewers' own work per event must stay small next to the hub's
TS = re.compile(rb'"ts":(\d[\d.eE+-]*)')
HUB_TS = re.compile(rb'"hub_ts":(\d[\d.eE+-]*)')


class Viewer(asyncio.Protocol):
    """One page viewer's event stream, read with the least work per event (a Protocol, no stream reader):
    each event is timed, when its read returns, against the board's stamp (``ts``) and the hub's
    (``hub_ts``)."""

    def __init__(self, path: str, lat: list[float], hub_lat: list[float], since: float, counts: list[int]):
        self.path, self.lat, self.hub_lat, self.since, self.counts = path, lat, hub_lat, since, counts
        self.buf = b""
        self.status_seen = False
        self.closed = asyncio.get_running_loop().create_future()

    def connection_made(self, transport) -> None:
        self.transport = transport
        transport.write(f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())

    def data_received(self, data: bytes) -> None:
        now = time.time()
        if not self.status_seen:
            self.status_seen = True
            self.counts[0 if data.startswith(b"HTTP/1.1 200") else 1] += 1
        buf = self.buf + data if self.buf else data
        k = buf.rfind(b"\n") + 1                  # whole lines only: the rest waits for the next read
        whole, self.buf = buf[:k], buf[k:]
        since = self.since
        for m in TS.finditer(whole):
            ts = float(m.group(1))
            if ts > since:
                self.lat.append(now - ts)
        for m in HUB_TS.finditer(whole):
            ts = float(m.group(1))
            if ts > since:
                self.hub_lat.append(now - ts)

    def connection_lost(self, exc) -> None:
        if not self.closed.done():
            self.closed.set_result(None)


async def watch(host: str, port: int, viewers: int, boards: int, seconds: float, since: float, first: int = 0):
    """Open the viewers, then time the events the boards stamped from ``since`` on (the parent sets it after
    every viewer of every process has connected: the steady state, not the connection storm)."""
    lat: list[float] = []
    hub_lat: list[float] = []
    counts = [0, 0]
    loop = asyncio.get_running_loop()
    conns = []
    for i in range(first, first + viewers):
        path = "/events" if i % 2 == 0 else f"/events?board=b{(i // 2) % boards + 1}"
        conns.append(await loop.create_connection(lambda path=path: Viewer(path, lat, hub_lat, since, counts),
                                                  host, port))
        if i % 50 == 49:
            await asyncio.sleep(0.05)
    connected = time.time()
    await asyncio.sleep(max(0.0, since - time.time()))
    cpu0 = time.process_time()
    await asyncio.sleep(max(0.0, since + seconds - time.time()))
    cpu = time.process_time() - cpu0
    for transport, _ in conns:
        transport.close()
    return lat, hub_lat, counts, connected, cpu


def run_viewers(port: int, first: int, count: int, boards: int, seconds: float, since: float) -> None:
    lat, hub_lat, counts, connected, cpu = asyncio.run(watch("127.0.0.1", port, count, boards, seconds, since,
                                                             first))
    print(json.dumps({"lat": [round(x, 5) for x in lat], "hub_lat": [round(x, 5) for x in hub_lat],
                      "counts": counts, "connected": connected, "cpu_s": cpu}), flush=True)


def proc_stat(pid: int) -> tuple[float, int]:
    """(CPU seconds, RSS bytes) of a process."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    with open(f"/proc/{pid}/statm") as f:
        rss = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    return (int(fields[11]) + int(fields[12])) / tick, rss


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def hall(boards: int, viewers: int, interval: float, duration: float) -> dict:
    """One run: the latency of every event the viewers got in the steady window (``duration`` s from once every
    viewer is connected), and the CPU of each process of the hall over that window."""
    with Broker(max_connections=-1) as broker, tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        hub = subprocess.Popen([sys.executable, "-m", "rig.cli", "hub", "--mqtt", broker.address, "--tournament", T,
                                "--db", os.path.join(tmp, "hub.sqlite"), "--listen", f"127.0.0.1:{port}",
                                "--max-viewers", str(viewers + 100)], cwd=ROOT, stderr=subprocess.DEVNULL)
        time.sleep(1.5)
        settle = 3.0 + viewers / 200                    # the viewers connect before the window opens
        pub = subprocess.Popen([sys.executable, __file__, "--role", "boards", "--mqtt", broker.address,
                                "--boards", str(boards), "--interval", str(interval), "--duration",
                                str(duration + settle + 30)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
        import httpx

        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:              # every board known before its viewers come
            try:
                if len(httpx.get(f"http://127.0.0.1:{port}/api/boards").json()) >= boards:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        since = time.time() + settle
        groups = [(k * viewers // VIEWER_PROCS, (k + 1) * viewers // VIEWER_PROCS) for k in range(VIEWER_PROCS)]
        groups = [(a, b) for a, b in groups if b > a]
        procs = [subprocess.Popen([sys.executable, __file__, "--role", "viewers", "--port", str(port), "--first",
                                   str(a), "--viewers", str(b - a), "--boards", str(boards), "--duration",
                                   str(duration), "--since", str(since)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
                 for a, b in groups if b > a]
        time.sleep(max(0.0, since - time.time()))
        pids = {"hub": hub.pid, "boards": pub.pid, "broker": broker.proc.pid}
        cpu0 = {k: proc_stat(pid)[0] for k, pid in pids.items()}
        t0 = time.monotonic()
        time.sleep(duration / 2)
        connected = httpx.get(f"http://127.0.0.1:{port}/api/hub").json()["viewers"]
        time.sleep(max(0.0, since + duration - time.time()))
        cpu1 = {k: proc_stat(pid)[0] for k, pid in pids.items()}
        rss = proc_stat(hub.pid)[1]
        wall = time.monotonic() - t0
        load = os.getloadavg()[0]
        lat, hub_lat, counts, late, viewer_cpu = [], [], [0, 0], 0, 0.0
        for p in procs:
            d = json.loads(p.communicate(timeout=duration + 60)[0].strip().splitlines()[-1])
            lat += d["lat"]
            hub_lat += d["hub_lat"]
            counts = [counts[0] + d["counts"][0], counts[1] + d["counts"][1]]
            late += d["connected"] > since
            viewer_cpu += d["cpu_s"]
        info = httpx.get(f"http://127.0.0.1:{port}/api/hub", params={"since": since}).json()   # the window's
        lag, stamp_lag = info["write_lag_ms"], info.get("stamp_to_write_ms", {})
        pub.terminate()
        pub.wait(10)
        hub.terminate()
        hub.wait(10)
    cpu = {k: 100 * (cpu1[k] - cpu0[k]) / wall for k in pids}
    return {"boards": boards, "viewers_ok": counts[0], "viewers_refused": counts[1], "viewers_connected": connected,
            "viewer_procs_late": late, "events": len(lat), "events_per_s": len(lat) / wall,
            "p50_ms": 1000 * pct(lat, 0.5), "p95_ms": 1000 * pct(lat, 0.95), "p99_ms": 1000 * pct(lat, 0.99),
            "max_ms": 1000 * max(lat or [0]), "hub_p50_ms": 1000 * pct(hub_lat, 0.5),
            "hub_p99_ms": 1000 * pct(hub_lat, 0.99), "hub_cpu_pct": cpu["hub"], "hub_rss_mb": rss / 2**20,
            "boards_cpu_pct": cpu["boards"], "broker_cpu_pct": cpu["broker"],
            "viewers_cpu_pct": 100 * viewer_cpu / wall, "write_lag": lag, "stamp_to_write": stamp_lag, "load": load}


def one_board_run(seconds: float, mqtt: bool = True) -> dict:
    """A real ``rig run --simulate [--mqtt]`` board at real speed: its RSS and CPU while the game is played."""
    with Broker() as broker, tempfile.TemporaryDirectory() as tmp:
        extra = ["--mqtt", broker.address, "--board", "b1", "--tournament", T] if mqtt else []
        p = subprocess.Popen([sys.executable, "-m", "rig.cli", "run", "--simulate", GAMES[2], "--speed", "1",
                              "--plain", "--out", os.path.join(tmp, "b.jsonl"), *extra], cwd=ROOT,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(3.0)
        cpu0, _ = proc_stat(p.pid)
        rss_max = 0
        t0 = time.monotonic()
        while time.monotonic() - t0 < seconds:
            time.sleep(0.5)
            rss_max = max(rss_max, proc_stat(p.pid)[1])
        cpu1, _ = proc_stat(p.pid)
        wall = time.monotonic() - t0
        p.terminate()
        p.wait(10)
    return {"board_cpu_pct": 100 * (cpu1 - cpu0) / wall, "board_rss_mb": rss_max / 2**20}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=100)
    ap.add_argument("--viewers", type=int, default=500)
    ap.add_argument("--interval", type=float, default=10.0, help="mean seconds between a board's moves")
    ap.add_argument("--duration", type=float, default=60.0)
    ap.add_argument("--viewer-procs", type=int, default=VIEWER_PROCS, help="processes the viewers run in")
    ap.add_argument("--role", default="bench", choices=("bench", "boards", "viewers"))
    ap.add_argument("--mqtt")
    ap.add_argument("--port", type=int)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--since", type=float, default=0.0)
    args = ap.parse_args()
    if args.role == "boards":
        run_boards(args.mqtt, args.boards, args.interval, args.duration)
        return
    globals()["VIEWER_PROCS"] = max(1, args.viewer_procs)
    if args.role == "viewers":
        run_viewers(args.port, args.first, args.viewers, args.boards, args.duration, args.since)
        return
    big = hall(args.boards, args.viewers, args.interval, args.duration)
    print(f"bench_hall: {big['boards']} boards (a move every {args.interval:g} s each), {big['viewers_ok']} SSE "
          f"viewers opened ({big['viewers_refused']} refused), {big['viewers_connected']} connected mid-window; "
          f"{args.duration:g} s measured once all were connected ({big['viewer_procs_late']} viewer processes late)")
    print(f"  move-to-page latency (the board's stamp -> the event read by a viewer): p50 {big['p50_ms']:.1f} ms, "
          f"p95 {big['p95_ms']:.1f} ms, p99 {big['p99_ms']:.1f} ms, max {big['max_ms']:.1f} ms; "
          f"{big['events']} events ({big['events_per_s']:.0f}/s); of which hub change -> viewer "
          f"p50 {big['hub_p50_ms']:.1f} ms, p99 {big['hub_p99_ms']:.1f} ms")
    lag, stamp = big["write_lag"], big["stamp_to_write"]
    print(f"  inside the hub, from a change to its last write to a viewer's socket: p50 {lag.get('p50', 0):.1f} ms, "
          f"p99 {lag.get('p99', 0):.1f} ms, max {lag.get('max', 0):.1f} ms; from the board's stamp to it: "
          f"p50 {stamp.get('p50', 0):.1f} ms, p99 {stamp.get('p99', 0):.1f} ms, max {stamp.get('max', 0):.1f} ms "
          f"(per batch of changes; the rest is the kernel and the viewers' own processes)")
    print(f"  CPU (% of one core) over the window: hub {big['hub_cpu_pct']:.0f}% (RSS {big['hub_rss_mb']:.0f} MB), "
          f"viewers {big['viewers_cpu_pct']:.0f}% ({VIEWER_PROCS} processes), boards {big['boards_cpu_pct']:.0f}%, "
          f"mosquitto {big['broker_cpu_pct']:.0f}%; all on this machine: load average {big['load']:.1f} on "
          f"{os.cpu_count()} cores (shared)")
    one = hall(1, 1, 1.0, min(20.0, args.duration))
    print(f"bench_hall: 1 board, its own page: p50 {one['p50_ms']:.1f} ms, p99 {one['p99_ms']:.1f} ms "
          f"({one['events']} events)")
    b = one_board_run(min(30.0, args.duration))
    peer = one_board_run(min(30.0, args.duration), mqtt=False)
    print(f"bench_hall: a rig run --simulate --mqtt board at real speed: {b['board_cpu_pct']:.1f}% of one core, "
          f"RSS {b['board_rss_mb']:.0f} MB (the same board without --mqtt: {peer['board_cpu_pct']:.1f}%, "
          f"RSS {peer['board_rss_mb']:.0f} MB)")


if __name__ == "__main__":
    main()
