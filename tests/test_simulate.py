"""The session simulator on its own: physical truth, timing against the engine thresholds, clock, determinism."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from rig.board import Board
from rig.session import ClockEvent, read_session
from rig.simulate import (HumanModel, Injection, InjectionError, ModelError, random_game, simulate_game)
from simulate_helpers import (VARIANTS, contact_changes, occupancy_at, presses, real_games, texts_of)

MODELS = {"calm": HumanModel.calm(), "normal": HumanModel(), "noisy": HumanModel.noisy()}


def sessions(variant: str, count: int = 6):
    """A few sessions per variant: random games of various lengths, every preset, with and without clock."""
    for seed in range(count):
        moves = random_game(variant, 20 + 7 * seed, seed)
        name = ("calm", "normal", "noisy")[seed % 3]
        yield seed, moves, simulate_game(variant, moves, seed=seed, clock=seed % 2 == 0, model=MODELS[name])


@pytest.mark.parametrize("variant", VARIANTS)
def test_same_seed_same_session(variant):
    moves = random_game(variant, 30, 5)
    a = simulate_game(variant, moves, seed=11, model=HumanModel.noisy())
    b = simulate_game(variant, moves, seed=11, model=HumanModel.noisy())
    c = simulate_game(variant, moves, seed=12, model=HumanModel.noisy())
    assert a.to_jsonl() == b.to_jsonl()
    assert a.to_jsonl() != c.to_jsonl()
    assert a.expected_moves == c.expected_moves


@pytest.mark.parametrize("variant", VARIANTS)
def test_board_after_each_turn_is_the_position(variant):
    for _, moves, s in sessions(variant):
        board = Board(variant)
        for turn, move in zip(s.turns, moves):
            board.push(move)
            assert occupancy_at(s, turn.end_t) == board.occupied() == turn.occupied
            assert turn.fen == board.fen()
        assert s.expected_moves == texts_of(variant, moves)
        assert s.frames[0].occupied == Board(variant).occupied()
        assert s.frames[-1].occupied == board.occupied()


@pytest.mark.parametrize("variant", VARIANTS)
def test_real_games_expected_moves_are_the_record(variant):
    for game in real_games(variant)[:3]:
        s = simulate_game(game.variant, game.moves, fen=game.fen, seed=1, tags=game.tags)
        assert s.expected_moves == texts_of(variant, game.moves, game.fen)
        assert s.header.tags == game.tags
        assert [e.number for e in s.expected_record][:3] == [1, 1, 2]


@pytest.mark.parametrize("variant", VARIANTS)
def test_timings_keep_clear_of_engine_thresholds(variant):
    """Every contact state lasts either less than bounce_s (a glitch) or at least bounce_s; once glitches are
    merged, a closure that is not a landing (a magnet sliding over a square) stays under touch_s, and every
    lift of a piece that comes back lasts longer than touch_s."""
    m = HumanModel()
    slides = 0
    for _, _, s in sessions(variant, 9):
        for sq, changes in contact_changes(s).items():
            # merge glitches: drop state segments shorter than bounce_s
            merged: list[tuple[float, bool]] = []
            for (t, closed), nxt in zip(changes, changes[1:] + [(float("inf"), None)]):
                length = nxt[0] - t
                assert length < m.bounce_s - 0.01 or length > m.bounce_s + 0.01, (sq, t, length)
                if length >= m.bounce_s and (not merged or merged[-1][1] != closed):
                    merged.append((t, closed))
            for (t, closed), (t2, _) in zip(merged, merged[1:]):
                length = t2 - t
                if closed:
                    assert length < m.touch_s - 0.02 or length > m.touch_s + 0.02, (sq, t, length)
                    slides += length < m.touch_s
                else:
                    assert length > m.touch_s + 0.02, (sq, t, length)
    assert slides > 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_clock_presses_end_each_move(variant):
    _, moves, s = next(iter(sessions(variant, 1)))
    ps = presses(s)
    assert len(ps) == len(moves)
    assert [p.side for p in ps] == ["white", "black"] * (len(ps) // 2) + ["white"] * (len(ps) % 2)
    times = [e for e in s.events if isinstance(e, ClockEvent) and e.event == "time"]
    assert times[0].t == 0 and times[0].white_ms == times[0].black_ms == HumanModel().base_ms
    last = (times[0].white_ms, times[0].black_ms)
    for press, turn in zip(ps, s.turns):
        assert turn.start_t < press.t <= turn.end_t
        assert max(f.t for f in s.frames if f.t <= turn.end_t) < press.t
        after = next(e for e in times if e.t == press.t)
        spent = round((press.t - turn.start_t) * 1000)
        if press.side == "white":
            assert after.black_ms == last[1] and abs(last[0] - after.white_ms - spent) <= 2
        else:
            assert after.white_ms == last[0] and abs(last[1] - after.black_ms - spent) <= 2
        last = (after.white_ms, after.black_ms)


def test_increment_is_added_on_each_press():
    moves = random_game("portuguese", 6, 1)
    s = simulate_game("portuguese", moves, seed=2, model=HumanModel(base_ms=300_000, increment_ms=5_000))
    times = [e for e in s.events if isinstance(e, ClockEvent) and e.event == "time"][1:]
    first = times[0]
    spent = round((presses(s)[0].t - s.turns[0].start_t) * 1000)
    assert abs(first.white_ms - (300_000 - spent + 5_000)) <= 2


@pytest.mark.parametrize("variant", VARIANTS)
def test_without_clock_replies_are_quick_or_after_the_board_stood_still(variant):
    m = HumanModel()
    moves = random_game(variant, 60, 3)
    s = simulate_game(variant, moves, seed=3, clock=False)
    assert not [e for e in s.events if isinstance(e, ClockEvent)]
    assert s.header.extra["clock"] is False
    gaps = []
    for turn in s.turns[1:]:
        # (bounce of the last placement may trail the end of the previous move by a few ms)
        first = min(f.t for f in s.frames if f.t > turn.start_t + m.bounce_s)
        gaps.append(first - turn.start_t)
    assert any(g < m.stable_s / 2 for g in gaps) and any(g > m.stable_s * 1.25 for g in gaps)
    assert all(g < m.stable_s * 0.8 or g > m.stable_s * 1.25 for g in gaps)
    # inside one move the board never stands still long enough to look finished
    for turn in s.turns:
        ts = [f.t for f in s.frames if turn.start_t + m.bounce_s < f.t <= turn.end_t]
        assert all(b - a < m.stable_s * 0.7 for a, b in zip(ts, ts[1:]))


@pytest.mark.parametrize("variant", VARIANTS)
def test_multiple_captures_touch_down_on_each_landing_square(variant):
    calm = HumanModel.calm()
    found = 0
    for seed in range(12):
        moves = random_game(variant, 60, seed)
        s = simulate_game(variant, moves, seed=seed, model=calm)
        changes = contact_changes(s)
        for turn, move in zip(s.turns, moves):
            if len(move.captured) < 2 or len(set(move.path)) < len(move.path):
                continue
            landed = set()
            for sq, cs in changes.items():
                cs = [(t, c) for t, c in cs if turn.start_t < t <= turn.end_t]
                if sq not in (move.origin, move.destination) and any(
                        c and t2 - t > calm.touch_s for (t, c), (t2, _) in zip(cs, cs[1:])):
                    landed.add(sq)
            # the hands took one of the move's landing paths: one touch-down per intermediate landing
            assert len(landed) == len(move.captured) - 1
            found += 1
    assert found > 3


def test_captured_pieces_are_removed_in_varying_order():
    moves = random_game("international", 80, 4)
    index = next(i for i, m in enumerate(moves) if len(m.captured) >= 2)
    orders = set()
    for seed in range(12):
        s = simulate_game("international", moves[: index + 1], seed=seed)
        turn = s.turns[index]
        changes = contact_changes(s)
        order = sorted(moves[index].captured,
                       key=lambda sq: max(t for t, c in changes[sq] if not c and t <= turn.end_t))
        orders.add(tuple(order))
    assert len(orders) > 1


def test_session_file_reads_back():
    moves = random_game("brazilian", 30, 8)
    s = simulate_game("brazilian", moves, seed=8, inject=["opponent-piece-touched@5"])
    header, events = read_session(io.StringIO(s.to_jsonl()))
    assert header == s.header and header.extra["simulator"]["inject"] == ["opponent-piece-touched@5"]
    assert events == s.events


def test_model_refuses_blurred_thresholds():
    with pytest.raises(ModelError, match="bounce"):
        HumanModel(bounce_ms=(2.0, 20.0))
    with pytest.raises(ModelError, match="hold_s"):
        HumanModel(hold_s=(0.1, 0.3))
    with pytest.raises(ModelError, match="stable_s"):
        HumanModel(slow_reply_s=(1.0, 3.0))
    assert isinstance(ModelError("x"), ValueError)


def test_random_game_is_legal_seeded_and_stops_at_game_end():
    a = random_game("portuguese", 400, 9)
    assert a == random_game("portuguese", 400, 9) != random_game("portuguese", 400, 10)
    board = Board("portuguese")
    for m in a:
        assert board.is_legal(m)
        board.push(m)
    assert len(a) == 400 or board.is_game_over()


def test_injection_parsing_and_errors():
    assert Injection.parse("capture-not-removed@12:corrected") == Injection("capture-not-removed", 12, True)
    assert Injection.of(("two-moves", 3)) == Injection("two-moves", 3)
    for bad in ("two-moves", "two-moves@x", "two-moves@3:maybe"):
        with pytest.raises(InjectionError):
            Injection.parse(bad)
    moves = random_game("portuguese", 30, 1)
    with pytest.raises(InjectionError, match="unknown"):
        simulate_game("portuguese", moves, inject=["no-such-thing@1"])
    with pytest.raises(InjectionError, match="not a capture"):
        simulate_game("portuguese", moves, inject=["capture-removed-early@0"])
    with pytest.raises(InjectionError, match="clean turn"):
        simulate_game("portuguese", moves, inject=["opponent-piece-touched@3", "opponent-piece-touched@4"])
    with pytest.raises(InjectionError, match="needs a clock"):
        simulate_game("portuguese", moves, clock=False, inject=["clock-without-move@1"])
    with pytest.raises(InjectionError, match="ply 0"):
        simulate_game("portuguese", moves, inject=["wrong-setup@1"])


def test_rig_simulate_command(tmp_path):
    game = real_games("portuguese")[0]
    out, answers = tmp_path / "s.jsonl", tmp_path / "a.json"
    pdn = game.origin.rsplit(" game ", 1)[0]
    cmd = [sys.executable, "-m", "rig.cli", "simulate", pdn, "--seed", "4", "--inject", "opponent-piece-touched@2",
           "--out", str(out), "--answers", str(answers)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    header, events = read_session(str(out))
    expected = json.loads(answers.read_text())
    assert header.variant.name == "portuguese" and events
    assert [m["text"] for m in expected["moves"]] == texts_of("portuguese", game.moves)
    # fpd-2026 (the Portuguese default): FPD 4.13 is not accepted by the opponent's move, it stays open (rig.law)
    assert expected["irregularities"] == [{"type": "opponent-piece-touched", "number": 2, "side": "white",
                                           "status": "open"}]
    assert expected["observations"] == []
    bad = subprocess.run(cmd[:-4] + ["--inject", "capture-not-removed@0", "--out", str(out)],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "not a capture" in bad.stderr
    rnd = subprocess.run([sys.executable, "-m", "rig.cli", "simulate", "--random", "12", "--variant", "international",
                          "--no-clock", "--out", "-"], capture_output=True, text=True, timeout=60)
    assert rnd.returncode == 0 and '"variant": "international"' in rnd.stdout.splitlines()[0]


def test_load_pdn_folder_reads_every_pdn_file_in_name_order(tmp_path):
    from rig.simulate.games import GameSourceError, load_pdn_folder
    (tmp_path / "b.pdn").write_text('[Event "b"]\n1. 32-28 19-23 *\n')
    (tmp_path / "a.pdn").write_text('[Event "a"]\n1. 31-27 *\n\n[Event "a2"]\n1. 33-29 *\n')
    (tmp_path / "notes.txt").write_text("not a game")
    games = load_pdn_folder(str(tmp_path), "international")
    assert [g.tags.get("Event") for g in games] == ["a", "a2", "b"]
    assert [len(g.moves) for g in games] == [1, 1, 2]
    with pytest.raises(GameSourceError, match="cannot list"):
        load_pdn_folder(str(tmp_path / "missing"))
