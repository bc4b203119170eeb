"""Pages: move-to-page latency for one board and its own page, and a board process's RSS and CPU.

1. Latency: a real live loop (journal fsynced line by line, engine, the pages' sink) and its web server,
   fed a recorded international game event by event; an SSE client (httpx) and a Chromium page (Playwright)
   follow /events. For every move, from the moment the event that completes it (the clock press) reaches
   the loop's inbox (what the sensor thread does) to (a) the SSE client receiving the move message and
   (b) the page's event handler applying it. Target: under 50 ms at the 99th percentile.
2. Footprint: `rig run --simulate ... --speed 1` (tournament pace, the real scanner on mock pins and the
   line-clock driver on a pty) with `--listen` and a page plus an SSE client connected, for --pace-seconds;
   then the same board without `--listen`, for comparison. RSS (peak) and CPU (% of one core) of the board
   process from /proc. Targets: under 60 MB, under 5% of one core.

    python bench/bench_pages.py [--pace-seconds 30] [--plies 80] [--no-browser]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from web_helpers import (CHROMIUM, CHROMIUM_ARGS, DATA, GAMES, BoardRig, session_of,  # noqa: E402
                         wait_for)
from rig.reconstruct import Reconstructor  # noqa: E402


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(p / 100 * len(s) + 0.5)) - 1))]


def summary(name: str, ms: list[float]) -> str:
    return (f"{name:<26} n={len(ms):3d}  p50 {statistics.median(ms):6.1f} ms  p95 {pct(ms, 95):6.1f} ms  "
            f"p99 {pct(ms, 99):6.1f} ms  max {max(ms):6.1f} ms")


def completing_events(session) -> list[int]:
    """Indexes of the events after which one more move stands (as rig transcribe reads the session)."""
    engine = Reconstructor(session.header)
    out, count = [], 0
    for i, ev in enumerate(session.events):
        engine.feed(ev)
        engine.advance(ev.t)
        n = len(engine.moves)
        if n > count:
            out.append(i)
            count = n
    return out


class SseClient(threading.Thread):
    """Follows /events; notes the wall time each move message arrives."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.url, self.moves = url, {}

    def run(self) -> None:
        import httpx

        with httpx.Client(timeout=None) as client, client.stream("GET", self.url + "/events") as r:
            event = None
            for line in r.iter_lines():
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:") and event == "move":
                    self.moves.setdefault(json.loads(line[5:])["index"], time.time())


def latency(plies: int, browser: bool) -> None:
    session = session_of("international", plies, seed=11)
    marks = completing_events(session)
    with tempfile.TemporaryDirectory() as tmp, BoardRig(Path(tmp), session) as rig:
        sse = SseClient(rig.url)
        sse.start()
        page = pw = None
        if browser:
            from playwright.sync_api import sync_playwright

            pw = sync_playwright().start()
            chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            page = chromium.new_page()
            page.goto(rig.url + "/")
            page.wait_for_function("() => window.rigLive && window.rigLive.status === 'live'")
        wait_for(lambda: rig.server.app.state.streams.open >= (2 if browser else 1))
        sink_ms: list[float] = []
        on_outputs = rig.feed.on_outputs

        def timed(loop, outs):               # the sink's time on the loop's thread (it must return fast)
            t = time.perf_counter()
            on_outputs(loop, outs)
            sink_ms.append(1000 * (time.perf_counter() - t))

        rig.feed.on_outputs = timed
        sent: dict[int, float] = {}
        for k, i in enumerate(marks):
            if i > 0:                        # what came before the move's last event, released beforehand
                rig.release_until(session.events[i - 1].t)
                rig.settle()
            time.sleep(0.05)
            sent[k] = time.time()
            rig.release_until(session.events[i].t)
            wait_for(lambda k=k: k in sse.moves, timeout=10, step=0.001)
        sse_ms = [1000 * (sse.moves[k] - sent[k]) for k in sent]
        print(f"move-to-page latency, one board, {len(sent)} moves of an international game "
              f"(journal fsync per line included):")
        print("  " + summary("SSE client (httpx)", sse_ms))
        print("  " + summary("the pages' sink per batch", sink_ms) + "  (on the loop's thread)")
        if page is not None:
            wait_for(lambda: page.evaluate("() => window.rigLive.applied.length") >= len(sent), timeout=10)
            applied = page.evaluate("() => window.rigLive.applied")
            at = {a[1]: a[3] / 1000 for a in applied}
            page_ms = [1000 * (at[k] - sent[k]) for k in sent if k in at]
            print("  " + summary("Chromium page (handler)", page_ms))
            pw.stop()


def sample(pid: int) -> tuple[float, int, int]:
    """(cpu seconds, rss kB, peak rss kB) of a process."""
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    status = Path(f"/proc/{pid}/status").read_text()
    rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1))
    hwm = int(re.search(r"VmHWM:\s+(\d+)", status).group(1))
    return cpu, rss, hwm


#: threads of the simulated world (the hands and the clock emulator); the matrix thread is split below
SIM_THREADS = ("rig-run-hands", "line-emulator")
#: a real board's scan rate (sensors.matrix.MatrixScanner's default, the config's ``scan_hz``)
SCAN_HZ = 200.0


def probe_board(out: str, argv: list[str]) -> int:
    """``rig run ARGV`` in this process, as the board runs, with two probes for the figures only: every thread
    names itself for the OS (``/proc/PID/task/TID/comm``, so its CPU can be read per thread), and the matrix
    thread's time is split into the real scanner's own Python and the pins it calls (behind gpiozero's mock
    pins: the simulated RC matrix; on a Pi: lgpio calls). The split is written to ``out`` twice a second."""
    import threading

    from sensors import lines, matrix
    from rig.cli import main as rig_main

    run = threading.Thread.run

    def named_run(self: threading.Thread) -> None:
        try:
            with open(f"/proc/self/task/{threading.get_native_id()}/comm", "w") as fh:
                fh.write(self.name[:15])
        except OSError:
            pass
        run(self)

    threading.Thread.run = named_run  # type: ignore[method-assign]
    acc = {"scan_s": 0.0, "pins_s": 0.0, "scans": 0}

    def timed(fn, key: str):
        def call(*a, **k):
            t = time.thread_time()
            try:
                return fn(*a, **k)
            finally:
                acc[key] += time.thread_time() - t
                if key == "scan_s":
                    acc["scans"] += 1
        return call

    matrix.MatrixScanner.scan = timed(matrix.MatrixScanner.scan, "scan_s")
    for cls in (lines.GpiozeroLines, lines.LgpioLines):
        for name in ("drive_row", "read_cols", "begin_check", "drive_col", "read_rows", "end_check"):
            setattr(cls, name, timed(getattr(cls, name), "pins_s"))

    def dump() -> None:
        while True:
            Path(out + ".tmp").write_text(json.dumps(acc))
            os.replace(out + ".tmp", out)
            time.sleep(0.5)

    threading.Thread(target=dump, name="bench-probe", daemon=True).start()
    return rig_main(argv)


def thread_cpu(pid: int, by_id: bool = False) -> dict[str, float]:
    """CPU seconds of each thread of a process by its name (the main thread: ``loop``), or by its id."""
    out: dict[str, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            name = task.name if by_id else "loop" if int(task.name) == pid else (task / "comm").read_text().strip()
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / tick
    return out


def footprint(seconds: float, listen: bool, browser: bool) -> tuple[float, int]:
    game = str(Path(DATA) / GAMES["international"])
    with tempfile.TemporaryDirectory() as tmp:
        probe = tmp + "/probe.json"
        args = [sys.executable, __file__, "--probe", probe, "--", "run", "--simulate", game, "--speed", "1",
                "--plain", "--out", tmp + "/"]
        if listen:
            args += ["--listen", "127.0.0.1:0"]
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        pw = None
        try:
            if listen:
                url = re.search(r"(http://[\d.:]+)/", proc.stderr.readline()).group(1)
                SseClient(url).start()
                if browser:
                    from playwright.sync_api import sync_playwright

                    pw = sync_playwright().start()
                    page = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                              headless=True).new_page()
                    page.goto(url + "/")
            time.sleep(3.0)                  # start-up (imports, the clock driver) is not the game
            cpu0, _, _ = sample(proc.pid)
            threads0, probe0 = thread_cpu(proc.pid), json.loads(Path(probe).read_text())
            t0 = time.monotonic()
            time.sleep(seconds)
            cpu1, rss, hwm = sample(proc.pid)
            threads1, probe1 = thread_cpu(proc.pid), json.loads(Path(probe).read_text())
            wall = time.monotonic() - t0
        finally:
            proc.terminate()
            proc.wait(30)
            if pw is not None:
                pw.stop()
    share = 100 * (cpu1 - cpu0) / wall
    th = {k: 100 * (threads1[k] - threads0.get(k, 0.0)) / wall for k in threads1}
    # the probe's own dumps are not the board's; the probed window is a little later than /proc's: a
    # fraction of a percent either way
    scan = 100 * (probe1["scan_s"] - probe0["scan_s"]) / wall
    pins = 100 * (probe1["pins_s"] - probe0["pins_s"]) / wall
    scans = probe1["scans"] - probe0["scans"]
    matrix = th.get("rig-run-matrix", 0.0)
    sim = sum(th.get(k, 0.0) for k in SIM_THREADS) + pins + max(0.0, matrix - scan)
    own = share - th.get("bench-probe", 0.0) - sim
    what = "with --listen, a page and an SSE client" if listen else "without --listen"
    print(f"  board process {what:<42} CPU {share:4.1f}% of one core   RSS {rss / 1024:5.1f} MB "
          f"(peak {hwm / 1024:5.1f} MB)")
    others = ", ".join(f"{k} {v:.1f}%" for k, v in sorted(th.items(), key=lambda kv: -kv[1])
                       if k not in ("loop", "rig-run-matrix", "bench-probe", *SIM_THREADS))
    per_scan = (scan - pins) / 100 * wall / max(1, scans)
    print(f"    the board's own work {own:4.1f}%: live loop + journal + engine {th.get('loop', 0.0):.1f}%, "
          f"the scanner's own Python {scan - pins:.1f}% ({scans} scans, {1e6 * per_scan:.0f} us each), "
          f"{others or 'nothing else'}")
    print(f"    (a real board scans all the time, {SCAN_HZ:g} a second: at {1e6 * per_scan:.0f} us a scan that is "
          f"{100 * per_scan * SCAN_HZ:.1f}% of this core for the scanner's Python, plus the lgpio calls: "
          f"bench_matrix_scan.py)")
    print(f"    the simulated world {sim:4.1f}%: the RC matrix behind the pins {pins:.1f}%, its scan driver "
          f"{max(0.0, matrix - scan):.1f}%, " + ", ".join(f"{k} {th.get(k, 0.0):.1f}%" for k in SIM_THREADS))
    return share, hwm


def replay_pace(seconds: float, browser: bool) -> None:
    """The board's own work without the simulated world: a recorded game released at its real times into the
    loop (journal, engine, the pages' sink, the server with a page connected); CPU of this process."""
    session = session_of("international", 200, seed=11)
    with tempfile.TemporaryDirectory() as tmp, BoardRig(Path(tmp), session) as rig:
        pw = None
        if browser:
            from playwright.sync_api import sync_playwright

            pw = sync_playwright().start()
            page = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True).new_page()
            page.goto(rig.url + "/")
            page.wait_for_function("() => window.rigLive && window.rigLive.status === 'live'")
        t_first = session.events[0].t
        start = time.monotonic()
        cpu0 = time.process_time()
        names = {t.native_id: t.name for t in threading.enumerate()}
        threads0 = thread_cpu(os.getpid(), by_id=True)
        while time.monotonic() - start < seconds:
            rig.release_until(t_first + time.monotonic() - start)
            time.sleep(0.005)                # a scanner's horizon moves every scan (200 Hz)
        wall = time.monotonic() - start
        share = 100 * (time.process_time() - cpu0) / wall
        threads1 = thread_cpu(os.getpid(), by_id=True)
        moves = len(rig.feed.moves)
        if pw is not None:
            pw.stop()
    by_name = {names.get(int(tid), tid): 100 * (threads1[tid] - threads0.get(tid, 0.0)) / wall for tid in threads1}
    loop, web = by_name.get("test-loop", 0.0), by_name.get("rig-web", 0.0)
    print(f"  loop + journal + engine + pages only (a recorded game at its own pace, {moves} moves, "
          f"page connected): CPU {share:4.1f}% of one core for this process, of which the loop's thread "
          f"{loop:.1f}% and the pages' server {web:.1f}% (the rest is this bench's 200 Hz release driver)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plies", type=int, default=80, help="moves of the game for the latency (default 80)")
    ap.add_argument("--pace-seconds", type=float, default=30.0, help="seconds of play measured (default 30)")
    ap.add_argument("--no-browser", action="store_true", help="SSE client only (no Chromium)")
    ap.add_argument("--probe", help=argparse.SUPPRESS)      # internal: run `rig ARGS...` with the probes
    ap.add_argument("rig", nargs="*", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.probe:
        sys.exit(probe_board(args.probe, args.rig))
    browser = not args.no_browser and os.path.exists(CHROMIUM)
    latency(args.plies, browser)
    print(f"a board at tournament pace (--simulate --speed 1), {args.pace_seconds:g} s of play:")
    footprint(args.pace_seconds, True, browser)
    footprint(args.pace_seconds, False, False)
    replay_pace(args.pace_seconds, browser)
    print("targets: p99 < 50 ms for one board and its page; RSS < 60 MB; CPU < 5% of one core")


if __name__ == "__main__":
    main()
