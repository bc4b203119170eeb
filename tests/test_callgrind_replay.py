"""bench/callgrind_replay.py: the corpus written as session files replays to the games it was built from, and bad
input is a clear error (exit 2). The valgrind run itself is the benchmark's, not a test's (it takes minutes)."""

from __future__ import annotations

import json
import os

import pytest

from bench_helpers import load_bench



@pytest.fixture(scope="module")
def cg():
    return load_bench("callgrind_replay")


@pytest.fixture(scope="module")
def corpus(cg, tmp_path_factory):
    d = str(tmp_path_factory.mktemp("corpus"))
    assert cg.main(["write", d, "--games", "3", "--plies", "12"]) == 0
    return d


def test_write_gives_one_session_file_per_game_and_the_moves(corpus):
    names = sorted(os.listdir(corpus))
    assert names == ["000.jsonl", "001.jsonl", "002.jsonl", "expected.json"]
    with open(os.path.join(corpus, "expected.json"), encoding="utf-8") as fh:
        expected = json.load(fh)
    assert len(expected) == 3 and all(len(moves) == 12 for moves in expected)
    with open(os.path.join(corpus, "000.jsonl"), encoding="utf-8") as fh:
        assert json.loads(fh.readline())["type"] == "header"


def test_replay_reads_every_move_back(cg, corpus, capsys):
    assert cg.main(["replay", corpus]) == 0
    out = capsys.readouterr().out
    assert "3 sessions replayed, 36 moves, 0 transcripts differing from the game" in out
    assert cg.main(["replay", corpus, "--parse-only"]) == 0
    assert "3 sessions read" in capsys.readouterr().out


def test_bad_input_is_a_clear_error(cg, tmp_path, capsys):
    assert cg.main(["replay", str(tmp_path / "missing")]) == 2
    assert "is not a directory" in capsys.readouterr().err
    assert cg.main(["replay", str(tmp_path)]) == 2
    assert "is not a corpus" in capsys.readouterr().err
    (tmp_path / "000.jsonl").write_text('{"type": "frame", "t": 0, "occupied": []}\n')
    (tmp_path / "expected.json").write_text("[[]]")
    assert cg.main(["replay", str(tmp_path)]) == 2
    assert "000.jsonl: line 1" in capsys.readouterr().err


def test_count_needs_valgrind(cg, corpus, monkeypatch, capsys):
    monkeypatch.setattr(cg.shutil, "which", lambda name: None)
    assert cg.main(["count", corpus]) == 2
    assert "valgrind is not installed" in capsys.readouterr().err


def test_the_total_is_read_from_the_callgrind_file(cg, tmp_path):
    out = tmp_path / "callgrind.out"
    out.write_text("version: 1\ncreator: callgrind-3.19.0\nevents: Ir\nfn=main\n0 12\nsummary: 1234567\n"
                   "totals: 1234567\n")
    assert cg.callgrind_total(str(out)) == 1234567
    out.write_text("version: 1\n")
    assert cg.callgrind_total(str(out)) is None
