"""The journal of ``rig run``: fsync per line, recovery of a torn tail, atomic derived files, run paths, and the
command's answers to bad input (exit 2)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import rig.live.journal as journal_mod
from rig.errors import SessionFormatError
from rig.live.journal import Journal, JournalError, RunPaths, atomic_write, recover
from rig.session import ClockEvent, Frame, Header, read_session
from rig.rulesets import FPD_2026
from rig.variants import PORTUGUESE

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = Header(PORTUGUESE, FPD_2026)


def write_journal(path, n: int = 3) -> list:
    events = [Frame(0.5 * i, frozenset({1, 2, i + 3})) for i in range(n)]
    with Journal.create(str(path), HEADER) as j:
        for e in events:
            j.append(e)
    return events


def test_every_line_is_fsynced(tmp_path, monkeypatch):
    synced = []
    real = os.fsync
    monkeypatch.setattr(journal_mod.os, "fsync", lambda fd: (synced.append(fd), real(fd)))
    path = tmp_path / "s.jsonl"
    with Journal.create(str(path), HEADER) as j:
        fd = j._fh.fileno()
        assert synced.count(fd) == 1  # the header
        j.append(Frame(0.1, frozenset({1})))
        assert synced.count(fd) == 2
        j.append(ClockEvent(0.2, "press", side="white"))
        assert synced.count(fd) == 3 and j.lines == 3 and j.appended == 3
    header, events = read_session(str(path))
    assert header == HEADER and [e.t for e in events] == [0.1, 0.2]


def test_create_never_overwrites(tmp_path):
    path = tmp_path / "s.jsonl"
    write_journal(path)
    with pytest.raises(JournalError, match="--resume"):
        Journal.create(str(path), HEADER)
    with pytest.raises(OSError):
        Journal.create(str(path), HEADER)


def test_recover_intact(tmp_path):
    path = tmp_path / "s.jsonl"
    events = write_journal(path)
    rec = recover(str(path))
    assert rec.torn is None and not rec.missing_newline
    assert rec.events == events and rec.lines == 4 and rec.last_t == events[-1].t
    assert rec.good_bytes == rec.file_bytes == path.stat().st_size


@pytest.mark.parametrize("tail", [b'{"type": "frame", "t": 9.0, "occ', b'{"type": "fra\0\0\0', b"\xc3"])
def test_recover_drops_a_torn_last_line_and_appends_after_it(tmp_path, tail):
    path = tmp_path / "s.jsonl"
    events = write_journal(path)
    good = path.read_bytes()
    path.write_bytes(good + tail)
    rec = recover(str(path))
    assert rec.torn is not None and rec.torn_line == 5
    assert "torn final line dropped" in rec.describe_torn()
    assert rec.events == events and rec.good_bytes == len(good)
    with Journal.reopen(rec) as j:
        j.append(Frame(9.0, frozenset({4})))
    assert path.read_bytes() == good + b'{"type": "frame", "t": 9.0, "occupied": [4]}\n'


def test_recover_zeros_after_the_last_line(tmp_path):
    path = tmp_path / "s.jsonl"
    events = write_journal(path)
    good = path.read_bytes()
    path.write_bytes(good + b"\0" * 512)
    rec = recover(str(path))
    assert rec.torn is None and rec.events == events and rec.good_bytes == len(good)
    Journal.reopen(rec).close()
    assert path.read_bytes() == good


def test_recover_keeps_a_complete_line_whose_newline_was_lost(tmp_path):
    path = tmp_path / "s.jsonl"
    write_journal(path)
    path.write_bytes(path.read_bytes() + b'{"type": "frame", "t": 7.0, "occupied": [5]}')
    rec = recover(str(path))
    assert rec.torn is None and rec.missing_newline and rec.last_t == 7.0
    with Journal.reopen(rec) as j:
        j.append(Frame(8.0, frozenset({6})))
    _, events = read_session(str(path))
    assert [e.t for e in events][-2:] == [7.0, 8.0]


def test_a_bad_line_before_the_end_is_an_error_naming_it(tmp_path):
    path = tmp_path / "s.jsonl"
    write_journal(path)
    lines = path.read_bytes().split(b"\n")
    lines[2] = b'{"type": "frame", "t": oops}'
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(SessionFormatError) as err:
        recover(str(path))
    assert err.value.line == 3


def test_atomic_write_replaces_whole(tmp_path):
    path = str(tmp_path / "g.pdn")
    atomic_write(path, "one\n")
    atomic_write(path, "two\n")
    assert open(path).read() == "two\n"
    assert os.listdir(tmp_path) == ["g.pdn"]


def test_run_paths(tmp_path):
    p = RunPaths.for_output(str(tmp_path / "games"))
    assert os.path.isdir(tmp_path / "games")
    assert os.path.basename(p.session).startswith("game-") and p.session.endswith(".jsonl")
    q = RunPaths(str(tmp_path / "round1.jsonl"))
    assert (q.pdn, q.report, q.health) == tuple(str(tmp_path / f"round1{s}")
                                                for s in (".pdn", ".report.json", ".health.jsonl"))


def rig_run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rig.cli", "run", *args], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)


def test_unreadable_config_is_exit_2(tmp_path):
    r = rig_run("--config", str(tmp_path / "nope.toml"), "--out", str(tmp_path / "s.jsonl"))
    assert r.returncode == 2 and "nope.toml: no such matrix config" in r.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text("variant = [\n")
    r = rig_run("--config", str(bad), "--out", str(tmp_path / "s.jsonl"))
    assert r.returncode == 2 and "bad.toml: not valid TOML" in r.stderr
    assert not os.path.exists(tmp_path / "s.jsonl")


def test_bad_options_and_journals_are_exit_2(tmp_path):
    existing = tmp_path / "s.jsonl"
    write_journal(existing)
    r = rig_run("--simulate", "random", "--out", str(existing))
    assert r.returncode == 2 and "exists: resume it" in r.stderr
    r = rig_run("--clock-port", "/dev/null", "--out", str(tmp_path / "x.jsonl"))
    assert r.returncode == 2 and "--clock-protocol" in r.stderr
    r = rig_run("--fault", "stuck-closed:3", "--out", str(tmp_path / "x.jsonl"))
    assert r.returncode == 2 and "--simulate" in r.stderr
    r = rig_run("--simulate", "random", "--clock-unplug", "soon", "--out", str(tmp_path / "x.jsonl"))
    assert r.returncode == 2 and "AT:SECONDS" in r.stderr
    lines = existing.read_bytes().split(b"\n")
    lines[1] = b"garbage"
    existing.write_bytes(b"\n".join(lines))
    r = rig_run("--simulate", "random", "--no-clock", "--resume", str(existing))
    assert r.returncode == 2 and "line 2" in r.stderr
    r = rig_run("--out", str(tmp_path / "y.jsonl"), "--resume", str(existing))
    assert r.returncode == 2 and "leave out --out" in r.stderr
