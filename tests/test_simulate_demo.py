"""``rig demo``: the bundled real game of each variant is played, every move shows up, and the result."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest

from rig.demo import DEMO_DIR, demo_game_path, play
from rig.demo.view import AnsiScreen, PlainLog
from rig.simulate import simulate_game
from rig.simulate.games import load_pdn_game
from simulate_helpers import VARIANTS, texts_of

MOVE_LINE = re.compile(r"^(\d+)(\.|\.\.\.) (\S+)")


@pytest.mark.parametrize("variant", VARIANTS)
def test_rig_demo_plain_shows_every_move_and_the_result(variant):
    done = subprocess.run([sys.executable, "-m", "rig.cli", "demo", "--variant", variant, "--speed", "2000", "--plain"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    game = load_pdn_game(demo_game_path(variant), 1, variant)
    shown = [m.group(3) for m in map(MOVE_LINE.match, done.stdout.splitlines()) if m]
    assert shown == texts_of(variant, game.moves, game.fen)
    assert f"Result: {game.result} (game record)" in done.stdout
    assert "\x1b[" not in done.stdout


def test_demo_paces_events_and_draws_ansi():
    game = load_pdn_game(demo_game_path("portuguese"), 1, "portuguese")
    session = simulate_game("portuguese", game.moves[:8], seed=2, inject=["opponent-piece-touched@3"])
    now = [0.0]
    slept = []

    def sleep(dt):
        slept.append(dt)
        now[0] += dt

    out = io.StringIO()
    result = play(session, AnsiScreen(out), title="t", info="i", recorded="*", speed=10.0, sleep=sleep,
                  clock=lambda: now[0])
    assert abs(now[0] - session.duration / 10.0) < 0.3
    assert max(slept) <= 0.25 + 1e-9
    text = out.getvalue()
    assert "\x1b[H" in text and "opponent-piece-touched" in text and "Result: *" in text
    assert [m.move_text for m in result.view.moves] == texts_of("portuguese", game.moves[:8])


def test_plain_log_reports_irregularities_and_withdrawn_moves():
    game = load_pdn_game(demo_game_path("international"), 1, "international")
    session = simulate_game("international", game.moves[:12], seed=1, inject=["move-taken-back@5"])
    out = io.StringIO()
    play(session, PlainLog(out), title="t", info="i", recorded="0-1", speed=1e9)
    text = out.getvalue()
    assert "taken back:" in text and "!  move-taken-back" in text and "accepted" in text


def test_the_view_lists_the_moves_that_stand_when_several_are_taken_back():
    game = load_pdn_game(demo_game_path("international"), 1, "international")
    session = simulate_game("international", game.moves[:16], seed=1,
                            inject=["move-taken-back@5", "move-taken-back@9:corrected"])
    result = play(session, PlainLog(io.StringIO()), title="t", info="i", recorded="*", speed=1e9)
    assert [m.move_text for m in result.view.moves] == session.expected_moves
    assert [m.move_text for m in result.engine.moves] == session.expected_report_moves
    assert len(session.expected_report_moves) == len(session.expected_moves) + 2


def test_demo_sources_are_documented():
    with open(f"{DEMO_DIR}/SOURCES.md", encoding="utf-8") as fh:
        sources = fh.read()
    for variant in VARIANTS:
        assert f"`{variant}.pdn`" in sources
        assert load_pdn_game(demo_game_path(variant), 1, variant).moves
