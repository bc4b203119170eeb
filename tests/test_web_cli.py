"""`rig run --listen` end to end (a simulated board serving its pages, an arbiter decision through HTTP that
lands in the journal), its bad options (exit 2 with a clear message), the [web] config, and the arbiter
lines the pages add to the session format."""

from __future__ import annotations

import io
import os
import re
import socket
import subprocess
import sys

import httpx
import pytest

from rig.errors import SessionFormatError
from rig.session import ArbiterEvent, read_session
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
                             "--web-config", cfg], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
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
    out = rig("transcribe", str(tmp_path / "g.jsonl"))
    assert out.returncode == 0 and out.stdout == (tmp_path / "g.pdn").read_text()


def test_bad_listen_and_web_config_exit_2(tmp_path):
    out = str(tmp_path / "x")
    r = rig("run", "--simulate", GAME, "--out", out, "--listen", "nonsense")
    assert r.returncode == 2 and "--listen is HOST:PORT" in r.stderr and "Traceback" not in r.stderr
    r = rig("run", "--simulate", GAME, "--out", out, "--web-config", "web.toml")
    assert r.returncode == 2 and "--web-config goes with --listen" in r.stderr
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


HEAD = '{"type": "header", "version": 1, "variant": "portuguese", "ruleset": "fpd-2026", "fen": null, "tags": {}}\n'


def test_session_arbiter_lines_of_the_review_page():
    lines = [
        {"type": "arbiter", "t": 1.0, "action": "dismiss", "ref": 0, "note": "sensor lag"},
        {"type": "arbiter", "t": 2.0, "action": "draw-claim", "side": "white", "upheld": True, "note": "FPD 6.2"},
        {"type": "arbiter", "t": 3.0, "action": "time", "side": "black", "delta_ms": -60000},
    ]
    import json

    _, events = read_session(io.StringIO(HEAD + "".join(json.dumps(x) + "\n" for x in lines)))
    assert [e.to_json() for e in events] == lines
    for bad, message in (({"action": "time", "side": "black"}, "delta_ms"),
                         ({"action": "draw-claim", "side": "both", "upheld": True}, "needs 'side'"),
                         ({"action": "draw-claim", "side": "white", "upheld": "yes"}, "'upheld' must be"),
                         ({"action": "adjourn"}, "unknown arbiter action")):
        text = HEAD + json.dumps({"type": "arbiter", "t": 1.0, **bad}) + "\n"
        with pytest.raises(SessionFormatError, match=message):
            read_session(io.StringIO(text))
