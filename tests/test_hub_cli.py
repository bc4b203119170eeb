"""The commands' bad input: a clear message and exit code 2, never a traceback; the outbox on disk."""

from __future__ import annotations

import subprocess
import sys

from hub_helpers import GAMES, ROOT
from rig.hub.outbox import Outbox


def rig(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rig.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)


def test_hub_bad_input_exits_2(tmp_path):
    bad = tmp_path / "pairings.csv"
    bad.write_text("round,board,white,black\n1,b1,Ana,Rui\nseven,b2,Eva,Zé\n", encoding="utf-8")
    r = rig("hub", "--mqtt", "127.0.0.1:1", "--pairings", str(bad), "--db", str(tmp_path / "h.sqlite"))
    assert r.returncode == 2 and "line 3: round must be a number" in r.stderr and "Traceback" not in r.stderr
    r = rig("hub", "--mqtt", "nowhere:port", "--db", str(tmp_path / "h.sqlite"))
    assert r.returncode == 2 and "HOST:PORT" in r.stderr
    r = rig("hub", "--mqtt", "127.0.0.1:1883", "--tournament", "open/26", "--db", str(tmp_path / "h.sqlite"))
    assert r.returncode == 2 and "--tournament" in r.stderr
    r = rig("hub", "--mqtt", "127.0.0.1:1883", "--pairings", str(tmp_path / "missing.csv"))
    assert r.returncode == 2 and "cannot read" in r.stderr


def test_run_mqtt_options_exit_2(tmp_path):
    base = ["run", "--simulate", GAMES["brazilian"], "--speed", "50", "--plain"]
    r = rig(*base, "--out", str(tmp_path / "a.jsonl"), "--mqtt", "127.0.0.1:1883")
    assert r.returncode == 2 and "--mqtt needs --board" in r.stderr
    r = rig(*base, "--out", str(tmp_path / "b.jsonl"), "--board", "b1")
    assert r.returncode == 2 and "go with --mqtt" in r.stderr
    r = rig(*base, "--out", str(tmp_path / "c.jsonl"), "--mqtt", "127.0.0.1:1883", "--board", "b 1")
    assert r.returncode == 2 and "--board" in r.stderr and "Traceback" not in r.stderr


def test_round_bad_input_exits_2():
    r = rig("round", "--simulate", "--boards", "0")
    assert r.returncode == 2 and "--boards" in r.stderr
    r = rig("round", "--simulate", "--game", "/no/such.pdn")
    assert r.returncode == 2 and "no such file" in r.stderr


def test_outbox_keeps_every_message_and_cuts_a_torn_tail(tmp_path):
    path = str(tmp_path / "g.mqtt.jsonl")
    box = Outbox(path, fsync=True)
    for i in range(1, 6):
        assert box.append(f'{{"seq":{i},"kind":"clock"}}'.encode()) == i
    box.mark_acked(3)
    box.close()
    with open(path, "ab") as f:
        f.write(b'{"seq":6,"ki')                  # a crash in the middle of a line
    again = Outbox(path)
    assert again.last_seq == 5 and again.acked == 3
    assert again.get(4) == b'{"seq":4,"kind":"clock"}' and again.get(6) is None
    assert again.append(b'{"seq":6,"kind":"clock"}') == 6
    again.close()
    with open(path, "rb") as f:
        assert f.read().count(b"\n") == 6          # the torn line is gone, the new one follows cleanly


def test_rig_hub_serves_and_stops_on_sigterm(tmp_path):
    import signal
    import time

    import httpx

    from rig.hub.broker import Broker, free_port

    pairs = tmp_path / "pairings.toml"
    pairs.write_text('[[pairing]]\nround = 1\nboard = "b1"\nwhite = "Ana"\nblack = "Rui"\n', encoding="utf-8")
    with Broker() as broker:
        port = free_port()
        p = subprocess.Popen([sys.executable, "-m", "rig.cli", "hub", "--mqtt", broker.address, "--tournament", "t",
                              "--pairings", str(pairs), "--db", str(tmp_path / "hub.sqlite"), "--listen",
                              f"127.0.0.1:{port}"], cwd=ROOT, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                try:
                    r = httpx.get(f"http://127.0.0.1:{port}/round/1.pdn", timeout=2)
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
            assert r.status_code == 200 and '[White "Ana"]' in r.text and r.text.rstrip().endswith("*")
        finally:
            p.send_signal(signal.SIGTERM)
            _, err = p.communicate(timeout=20)
    assert p.returncode == 0, err
    assert "the hall  http://127.0.0.1:" in err
