"""``rig round --simulate``, the README's main command: URLs printed, a round played to the end, a clean stop."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import httpx

from hub_helpers import ROOT


def start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "rig.cli", "round", "--simulate", "--listen", "127.0.0.1:0", *args],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)


def test_a_round_plays_to_the_end(tmp_path):
    p = start("--boards", "2", "--speed", "80", "--out", str(tmp_path), "--exit-when-done")
    out, _ = p.communicate(timeout=120)
    assert p.returncode == 0, out
    assert "the hall:" in out and "/round/1.pdn" in out and "board b2:" in out
    assert "every board has finished" in out
    for b in ("b1", "b2"):
        assert os.path.getsize(tmp_path / f"{b}.pdn") > 0
    assert (tmp_path / "hub.sqlite").exists()
    # the hall shown in the terminal: each board with its players and moves
    assert "Weitsman,V." in out and " moves " in out


def test_ctrl_c_stops_everything_cleanly(tmp_path):
    p = start("--boards", "2", "--speed", "2", "--out", str(tmp_path))
    url = None
    deadline = time.monotonic() + 30
    lines = []
    while url is None and time.monotonic() < deadline:
        line = p.stdout.readline()
        lines.append(line)
        if "the hall:" in line:
            url = line.split()[-1]
    assert url, lines
    while time.monotonic() < deadline:
        boards = httpx.get(url + "api/boards", timeout=5).json()
        if len(boards) == 2 and all(b["online"] for b in boards):
            break
        time.sleep(0.2)
    os.killpg(p.pid, signal.SIGINT)
    out, _ = p.communicate(timeout=30)
    assert p.returncode == 0, out
    assert "stopped; the journals" in out
    # the boards closed their journals cleanly: each PDN written, each run said offline
    for b in ("b1", "b2"):
        assert (tmp_path / f"{b}.pdn").exists()
        assert "rig run: stopped" in (tmp_path / f"{b}.out").read_text()
    # nothing left listening
    try:
        httpx.get(url, timeout=1)
        raise AssertionError("the hub still answers")
    except httpx.HTTPError:
        pass
