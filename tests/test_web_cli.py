"""`rig run --listen` end to end (a simulated board serving its pages, an arbiter decision through HTTP that
lands in the journal), its bad options (exit 2 with a clear message), the [web] config, and the arbiter
lines the pages add to the session format."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

import httpx
import pytest

from rig.errors import SessionFormatError
from rig.session import ArbiterEvent, ClockEvent, read_session
from rig.web.config import WebConfigError, load_web_config, parse_listen
from web_helpers import DATA, GAMES, TOKEN, wait_for

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAME = os.path.join(DATA, GAMES["portuguese"])


def rig(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rig.cli", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def web_toml(tmp_path, body: str) -> str:
    path = tmp_path / "web.toml"
    path.write_text(body)
    return str(path)


def test_rig_run_simulate_serves_the_pages_and_journals_an_arbiter_decision(tmp_path):
    cfg = web_toml(tmp_path, f'[web]\narbiter_token = "{TOKEN}"\n')
    proc = subprocess.Popen([sys.executable, "-m", "rig.cli", "run", "--simulate", GAME, "--speed", "25", "--plain",
                             "--grace", "1", "--out", str(tmp_path / "g.jsonl"), "--listen", "127.0.0.1:0",
                             "--web-config", cfg, "--linger", "0"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT)
    try:
        line = proc.stderr.readline()
        m = re.search(r"pages on (http://127\.0\.0\.1:\d+)/", line)
        assert m, line
        url = m.group(1)
        with httpx.Client(base_url=url, timeout=10) as client:
            wait_for(lambda: len(client.get("/api/game").json()["moves"]) >= 4, timeout=60)
            assert client.get("/").status_code == 200
            assert "1. " in client.get("/game.pdn").text
            r = client.post("/arbiter/api/action", json={"action": "time", "side": "black", "delta_ms": 30000,
                                                         "note": "clock set wrongly"},
                            headers={"Authorization": f"Bearer {TOKEN}"})
            assert r.status_code == 200 and r.json()["status"] == "journaled", r.text
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    _, events = read_session(str(tmp_path / "g.jsonl"))
    decisions = [e for e in events if isinstance(e, ArbiterEvent)]
    assert [(d.action, d.side, d.delta_ms, d.note) for d in decisions] == [("time", "black", 30000, "clock set wrongly")]
    # the simulated arbiter set the emulated clock once the line was journaled: its readings from then on
    # carry the 30 s (less what black used meanwhile: a few seconds; without it, no more than an increment)
    t = decisions[0].t
    readings = [e for e in events if isinstance(e, ClockEvent) and e.event == "time"]
    before = [e for e in readings if e.t < t][-1]
    after = next(e for e in readings if e.t >= t + 4.0)
    assert after.extra.get("source") == "line" and after.black_ms >= before.black_ms + 30000 - 18000, (before, after)
    out = rig("transcribe", str(tmp_path / "g.jsonl"))
    assert out.returncode == 0 and out.stdout == (tmp_path / "g.pdn").read_text()


def test_bad_listen_and_web_config_exit_2(tmp_path):
    out = str(tmp_path / "x")
    r = rig("run", "--simulate", GAME, "--out", out, "--listen", "nonsense")
    assert r.returncode == 2 and "--listen is HOST:PORT" in r.stderr and "Traceback" not in r.stderr
    r = rig("run", "--simulate", GAME, "--out", out, "--web-config", "web.toml")
    assert r.returncode == 2 and "--web-config goes with --listen" in r.stderr
    r = rig("run", "--simulate", GAME, "--out", out, "--linger", "5")
    assert r.returncode == 2 and "--linger goes with --listen" in r.stderr
    for bad in ("-1", "nan", "inf"):
        r = rig("run", "--simulate", GAME, "--out", out, "--listen", "127.0.0.1:0", "--linger", bad)
        assert r.returncode == 2 and "--linger must be a number of seconds" in r.stderr, r.stderr
    r = rig("run", "--simulate", GAME, "--out", out, "--listen", "127.0.0.1:0", "--web-config", str(tmp_path / "no.toml"))
    assert r.returncode == 2 and "no such web config" in r.stderr
    bad = web_toml(tmp_path, "[web]\narbiter_token = 'short'\n")
    r = rig("run", "--simulate", GAME, "--out", out, "--listen", "127.0.0.1:0", "--web-config", bad)
    assert r.returncode == 2 and "at least 8 characters" in r.stderr
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        r = rig("run", "--simulate", GAME, "--out", out, "--listen", f"127.0.0.1:{port}")
    assert r.returncode == 2 and "cannot serve the pages" in r.stderr and "Traceback" not in r.stderr
    assert not [f for f in os.listdir(out) if f.endswith(".jsonl")], "no empty session left behind"


def test_web_config(tmp_path):
    cfg = load_web_config(web_toml(tmp_path, f'[web]\narbiter_token = "{TOKEN}"\nmax_streams = 5\n'))
    assert cfg.arbiter_token == TOKEN and cfg.max_streams == 5 and cfg.max_body == 4096
    assert TOKEN not in repr(cfg)
    for body, message in (("[web]\nmax_body = 10\n", "max_body must be an integer from 64"),
                          ("[web]\ncolour = 'red'\n", "unknown [web] key(s) colour"),
                          ("[web\n", "not valid TOML"), ("web = 3\n", "[web] must be a table")):
        with pytest.raises(WebConfigError, match=re.escape(message)):
            load_web_config(web_toml(tmp_path, body))
    assert parse_listen("0.0.0.0:8080") == ("0.0.0.0", 8080)
    assert parse_listen("[::1]:80") == ("::1", 80)
    for bad in ("8080", ":80", "host:http", "host:70000"):
        with pytest.raises(WebConfigError):
            parse_listen(bad)


class Lines(threading.Thread):
    """The lines a process writes to stderr, read as they come."""

    def __init__(self, stream):
        super().__init__(daemon=True)
        self.stream, self.lines = stream, []
        self.start()

    def run(self) -> None:
        for line in self.stream:
            self.lines.append(line)

    def find(self, pattern: str):
        return next((m for m in (re.search(pattern, ln) for ln in self.lines) if m), None)


def start_board(tmp_path, *extra: str) -> tuple[subprocess.Popen, Lines]:
    cfg = web_toml(tmp_path, f'[web]\narbiter_token = "{TOKEN}"\n')
    proc = subprocess.Popen([sys.executable, "-m", "rig.cli", "run", "--simulate", "random", "--variant",
                             "portuguese", "--plies", "8", "--seed", "4", "--speed", "30", "--plain", "--grace", "0.2",
                             "--out", str(tmp_path / "g.jsonl"), "--listen", "127.0.0.1:0", "--web-config", cfg,
                             *extra], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    return proc, Lines(proc.stderr)


def test_pages_stay_after_the_game_until_sigterm_and_the_arbiter_records_the_result(tmp_path):
    proc, err = start_board(tmp_path)
    try:
        wait_for(lambda: err.find(r"the final game stays on (http://127\.0\.0\.1:\d+)/ until Ctrl-C"), timeout=90)
        url = err.find(r"stays on (http://127\.0\.0\.1:\d+)/").group(1)
        time.sleep(1.0)                                        # well after the end: still served
        with httpx.Client(base_url=url, timeout=10) as client:
            game = client.get("/api/game").json()
            assert game["closed"] is True and len(game["moves"]) == 8 and game["result"] == "*"
            assert client.get("/").status_code == 200 and client.get("/overlay").status_code == 200
            assert client.get("/arbiter").status_code == 200
            pdn = client.get("/game.pdn").text
            assert pdn == (tmp_path / "g.pdn").read_text() and '[Result "*"]' in pdn
            r = client.post("/arbiter/api/action", json={"action": "result", "result": "1-0",
                                                         "note": "black resigned after the last move"},
                            headers={"Authorization": f"Bearer {TOKEN}"})
            assert r.status_code == 200 and r.json()["status"] == "journaled", r.text
            # answered once journaled; then the game is read again from the journal (the record files last)
            wait_for(lambda: '[Result "1-0"]' in (tmp_path / "g.pdn").read_text())
            game = client.get("/api/game").json()
            assert game["result"] == "1-0" and "black resigned" in game["reason"]
            pdn = client.get("/game.pdn").text
            assert '[Result "1-0"]' in pdn and pdn == (tmp_path / "g.pdn").read_text()
            r = client.post("/arbiter/api/action", json={"action": "result", "result": "3-0"},
                            headers={"Authorization": f"Bearer {TOKEN}"})
            assert r.status_code == 400                        # still checked after the end
        assert proc.poll() is None, "serving until interrupted"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    err.join(5)
    assert err.find(r"result 1-0;"), "".join(err.lines)
    _, events = read_session(str(tmp_path / "g.jsonl"))
    assert [(e.action, e.result) for e in events if isinstance(e, ArbiterEvent)] == [("result", "1-0")]
    out = rig("transcribe", str(tmp_path / "g.jsonl"))
    assert out.returncode == 0 and out.stdout == (tmp_path / "g.pdn").read_text() == pdn
    report = json.loads((tmp_path / "g.report.json").read_text())
    assert report["result"] == "1-0"


def test_linger_seconds_then_the_run_ends_by_itself(tmp_path):
    proc, err = start_board(tmp_path, "--linger", "1.5")
    try:
        wait_for(lambda: err.find(r"stays on (http://127\.0\.0\.1:\d+)/ for 1.5 s"), timeout=90)
        url = err.find(r"stays on (http://127\.0\.0\.1:\d+)/").group(1)
        assert httpx.get(url + "/api/game", timeout=5).json()["closed"] is True
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    with pytest.raises(httpx.TransportError):
        httpx.get(url + "/api/game", timeout=2)


HEAD = '{"type": "header", "version": 1, "variant": "portuguese", "ruleset": "fpd-2026", "fen": null, "tags": {}}\n'


def test_session_arbiter_lines_of_the_review_page():
    lines = [
        {"type": "arbiter", "t": 1.0, "action": "dismiss", "ref": 0, "note": "sensor lag"},
        {"type": "arbiter", "t": 2.0, "action": "draw-claim", "side": "white", "upheld": True, "note": "FPD 6.2"},
        {"type": "arbiter", "t": 3.0, "action": "time", "side": "black", "delta_ms": -60000},
    ]
    _, events = read_session(io.StringIO(HEAD + "".join(json.dumps(x) + "\n" for x in lines)))
    assert [e.to_json() for e in events] == lines
    for bad, message in (({"action": "time", "side": "black"}, "delta_ms"),
                         ({"action": "draw-claim", "side": "both", "upheld": True}, "needs 'side'"),
                         ({"action": "draw-claim", "side": "white", "upheld": "yes"}, "'upheld' must be"),
                         ({"action": "adjourn"}, "unknown arbiter action")):
        text = HEAD + json.dumps({"type": "arbiter", "t": 1.0, **bad}) + "\n"
        with pytest.raises(SessionFormatError, match=message):
            read_session(io.StringIO(text))
