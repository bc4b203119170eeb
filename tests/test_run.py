"""``rig run --simulate``: a real game through the simulated matrix (mock pins) and the line-clock emulator (pty),
live, into the journal, the PDN and the report; crash and resume; switch faults; a clock unplugged mid-game."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from rig.live.simulated import occupancy_at
from rig.session import ClockEvent, Frame, read_session
from rig.simulate import HumanModel, simulate_game
from rig.simulate.games import load_pdn_game, load_random_game
from rig.variants import INTERNATIONAL, PORTUGUESE

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAME = os.path.join(ROOT, "rig", "data", "demo", "portuguese.pdn")
SPEED = "50"


def rig(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rig.cli", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT)


def start_rig(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "rig.cli", *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)


def expected_session(path: str = GAME, clock: bool = True):
    g = load_pdn_game(path, 1, "international")
    return simulate_game(g.variant, g.moves, fen=g.fen, seed=0, clock=clock, model=HumanModel(bounce_p=0.0),
                         tags=g.tags)


def report_moves(path: str) -> list[str]:
    with open(path, encoding="utf-8") as fh:
        return [m["move"] for m in json.load(fh)["moves"]]


def transcribed(session: str) -> str:
    r = rig("transcribe", session)
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.fixture(scope="module")
def expected():
    return expected_session()


def test_real_game_live_pdn_equals_transcription(tmp_path, expected):
    out = tmp_path / "game.jsonl"
    r = rig("run", "--simulate", GAME, "--speed", SPEED, "--plain", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "simulation-end" in r.stderr
    assert report_moves(str(tmp_path / "game.report.json")) == expected.expected_moves
    pdn = (tmp_path / "game.pdn").read_text(encoding="utf-8")
    assert pdn == transcribed(str(out))
    header, events = read_session(str(out))
    assert header.extra["clock"] is True and header.variant.name == "portuguese"
    presses = [e for e in events if isinstance(e, ClockEvent) and e.event == "press"]
    assert len(presses) == sum(1 for e in expected.events if isinstance(e, ClockEvent) and e.event == "press")
    assert all(e.extra.get("source") == "line" for e in presses)  # the real LineClock driver read them
    assert [e.t for e in events] == sorted(e.t for e in events)
    # the live view showed every move, in order
    shown = [line.split()[1] for line in r.stdout.splitlines() if line[:1].isdigit() and ". " in line]
    assert shown == expected.expected_moves
    assert (tmp_path / "game.health.jsonl").read_text() == ""


def wait_lines(path, n: int, proc: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if os.path.exists(path):
            with open(path, "rb") as fh:
                if fh.read().count(b"\n") >= n:
                    return
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        time.sleep(0.01)
    raise AssertionError(f"{path}: fewer than {n} lines after {timeout} s")


#: the line a power cut left half written: a time no event of the game has (a real event at t 99.x once
#: matched a looser check)
TORN = b'{"type": "frame", "t": 4321.5, "occu'


def test_killed_mid_game_then_resumed_with_a_torn_line(tmp_path, expected):
    out = tmp_path / "k.jsonl"
    proc = start_rig("run", "--simulate", GAME, "--speed", SPEED, "--plain", "--out", str(out))
    try:
        wait_lines(out, 45, proc)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        proc.stderr.close()
    kept = out.read_bytes()
    assert kept.endswith(b"\n")
    with open(out, "ab") as fh:  # the power cut caught a line half written
        fh.write(TORN)
    r = rig("run", "--simulate", GAME, "--speed", SPEED, "--plain", "--resume", str(out))
    assert r.returncode == 0, r.stderr
    assert "torn final line dropped" in r.stderr
    assert report_moves(str(tmp_path / "k.report.json")) == expected.expected_moves
    assert (tmp_path / "k.pdn").read_text(encoding="utf-8") == transcribed(str(out))
    text = out.read_bytes()
    assert text.startswith(kept) and TORN not in text
    _, events = read_session(str(out))
    gap = [e for e in events if isinstance(e, ClockEvent) and e.extra.get("source") == "rig"]
    assert [e.event for e in gap] == ["disconnected", "reconnected"]
    assert gap[1].t > gap[0].t
    assert [e.t for e in events] == sorted(e.t for e in events)


def test_stuck_switch_is_reported_not_played(tmp_path):
    source = load_random_game(INTERNATIONAL, 14, 3)
    session = simulate_game("international", source.moves, seed=3, clock=False, model=HumanModel(bounce_p=0.0))
    never = sorted(set(range(1, 51)) - set().union(*(f.occupied for f in session.frames)))
    sq = never[len(never) // 2]
    out = tmp_path / "stuck.jsonl"
    r = rig("run", "--simulate", "random", "--variant", "international", "--plies", "14", "--seed", "3",
            "--no-clock", "--fault", f"stuck-closed:{sq}", "--speed", "40", "--plain", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert f"switch stuck-closed: square {sq}" in r.stdout
    health = [json.loads(line) for line in (tmp_path / "stuck.health.jsonl").read_text().splitlines()]
    assert any(h["kind"] == "stuck-closed" and h["square"] == sq for h in health)
    _, events = read_session(str(out))
    frames = [e for e in events if isinstance(e, Frame)]
    assert frames and all(sq not in f.occupied for f in frames)
    assert not any(isinstance(e, ClockEvent) for e in events)
    assert report_moves(str(tmp_path / "stuck.report.json")) == session.expected_moves
    assert (tmp_path / "stuck.pdn").read_text(encoding="utf-8") == transcribed(str(out))


def unplugged_run(tmp_path, expected, at: float, back: float, name: str) -> list[ClockEvent]:
    """``rig run`` with the clock's cable out from ``at`` to ``back`` (session seconds): no press is lost
    (the replayed ones keep their clock time), the moves are exact, live PDN = transcription. Returns the
    journal's clock lines."""
    presses = [e for e in expected.events if isinstance(e, ClockEvent) and e.event == "press"]
    in_gap = [p for p in presses if at <= p.t <= back]
    out = tmp_path / f"{name}.jsonl"
    r = rig("run", "--simulate", GAME, "--speed", SPEED, "--plain", "--out", str(out),
            "--clock-unplug", f"{at:.3f}:{back - at:.3f}")
    assert r.returncode == 0, r.stderr
    _, events = read_session(str(out))
    clock = [e for e in events if isinstance(e, ClockEvent)]
    kinds = [e.event for e in clock]
    assert "disconnected" in kinds and "reconnected" in kinds
    got = [e for e in clock if e.event == "press"]
    assert [e.side for e in got] == [p.side for p in presses]
    replayed = [e for e in got if e.extra.get("replayed")]
    assert len(replayed) >= len(in_gap)
    for e in replayed:  # when it happened on the clock is kept
        assert e.extra["clock_t"] <= e.t
    report = json.loads((tmp_path / f"{name}.report.json").read_text(encoding="utf-8"))
    assert [m["move"] for m in report["moves"]] == expected.expected_moves
    assert report["irregularities"] == []
    assert (tmp_path / f"{name}.pdn").read_text(encoding="utf-8") == transcribed(str(out))
    return clock


def test_clock_unplugged_mid_game_loses_no_press(tmp_path, expected):
    presses = [e for e in expected.events if isinstance(e, ClockEvent) and e.event == "press"]
    frames = expected.frames
    # the cable goes back in while a player thinks (the next change on the board is seconds away): the presses
    # made meanwhile come back through REPLAY before anyone moves again
    k = next(i for i, p in enumerate(presses[3:], 3)
             if min(f.t for f in frames if f.t > p.t) - p.t > 3.0)
    at = presses[k - 2].t - 0.5
    back = presses[k].t + 1.0
    assert len([p for p in presses if at <= p.t <= back]) >= 3
    unplugged_run(tmp_path, expected, at, back, "u")


#: session seconds from the unplug to the clock driver's reconnection attempts (sensors.clock.serial_link.Backoff
#: scaled to session time by rig run: 0.2, 0.6, 1.4, 3.0, 6.2, ...)
RETRIES_S = (3.0, 6.2)


def test_clock_plugged_back_mid_move_gives_each_replayed_press_its_move(tmp_path, expected):
    """The cable goes back in while a player is making his move, after the presses before it were made in
    the gap: they arrive (replayed, with their clock time) while his piece is off the board or his move is
    on it; each ends the move it belongs to, the move in progress stays his, nothing irregular is read."""
    presses = [e for e in expected.events if isinstance(e, ClockEvent) and e.event == "press"]
    frames = expected.frames
    options = []
    for k in range(3, len(presses)):
        lift = min(f.t for f in frames if f.t > presses[k - 1].t)       # the mover's first lift
        for retry in RETRIES_S:
            at = lift + 0.05 - retry         # the attempt that reconnects comes just after that lift
            made = [p for p in presses if at <= p.t <= lift]
            window = presses[k].t - lift
            if made:     # a long move leaves room for the reconnection's own delay (~0.1-0.3 s here)
                options.append((window >= 1.5, len(made), window, k, at, retry, lift))
    *_, n, _, k, at, retry, lift = max(options)
    clock = unplugged_run(tmp_path, expected, at, at + retry - 1.0, "m")
    back = next(e.t for e in clock if e.event == "reconnected")
    assert lift < back < presses[k].t      # the cable was back in the middle of the move
    late = [e for e in clock if e.event == "press" and e.extra.get("replayed")]
    assert [e.side for e in late] == [p.side for p in presses[k - n:k]]


def test_resume_without_clock_marks_the_gap_on_the_next_frame(tmp_path):
    out = tmp_path / "n.jsonl"
    args = ("run", "--simulate", "random", "--variant", "portuguese", "--plies", "10", "--seed", "5", "--no-clock",
            "--speed", "40", "--plain")
    proc = start_rig(*args, "--out", str(out))
    try:
        wait_lines(out, 12, proc)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        proc.stderr.close()
    r = rig(*args, "--resume", str(out))
    assert r.returncode == 0, r.stderr
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    marked = [x for x in lines if "resumed" in x]
    assert len(marked) == 1 and marked[0]["type"] == "frame"
    assert not any(x["type"] == "clock" for x in lines)
    source = load_random_game(PORTUGUESE, 10, 5)
    session = simulate_game("portuguese", source.moves, seed=5, clock=False, model=HumanModel(bounce_p=0.0))
    assert report_moves(str(tmp_path / "n.report.json")) == session.expected_moves
    assert (tmp_path / "n.pdn").read_text(encoding="utf-8") == transcribed(str(out))


def test_occupancy_at_follows_the_hands(expected):
    frames = expected.frames
    assert occupancy_at(expected, -1.0) == frames[0].occupied
    assert occupancy_at(expected, frames[3].t) == frames[3].occupied
    assert occupancy_at(expected, frames[-1].t + 10) == frames[-1].occupied


def test_sigterm_closes_cleanly(tmp_path, expected):
    out = tmp_path / "t.jsonl"
    proc = start_rig("run", "--simulate", GAME, "--speed", SPEED, "--plain", "--out", str(out))
    try:
        wait_lines(out, 30, proc)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
        err = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stderr.close()
    assert "rig run: stopped;" in err
    pdn = (tmp_path / "t.pdn").read_text(encoding="utf-8")
    assert '[Result "*"]' in pdn and pdn == transcribed(str(out))
    moves = report_moves(str(tmp_path / "t.report.json"))
    assert 0 < len(moves) < len(expected.expected_moves) and moves == expected.expected_moves[:len(moves)]
    assert out.read_bytes().endswith(b"\n")
