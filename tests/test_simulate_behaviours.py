"""Real-board behaviours of the simulator (issue 9 part 1): each shows in the frames as described in
docs/simulator.md, per variant and clock mode, and none changes the game the simulator expects."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rig.session import ClockEvent, Frame
from rig.simulate import HumanModel, ModelError, random_game, simulate_game
from rig.simulate.hands import step_squares
from rig.simulate.model import BEHAVIOURS, HARD_RATES
from rig.variants import get_variant

VARIANTS = ("portuguese", "brazilian", "international")


def state_at(frames: list[Frame], t: float) -> frozenset[int]:
    """The occupancy the frames show at ``t`` (the last frame at or before it)."""
    out = frames[0].occupied
    for f in frames:
        if f.t > t + 1e-9:
            break
        out = f.occupied
    return out


def before(frames: list[Frame], t: float) -> frozenset[int]:
    """The occupancy just before the frame at ``t``."""
    out = frames[0].occupied
    for f in frames:
        if f.t >= t - 1e-9:
            break
        out = f.occupied
    return out


def between_frames(frames: list[Frame], t0: float, t1: float) -> list[Frame]:
    return [f for f in frames if t0 + 1e-9 < f.t < t1 - 1e-9]


def with_only(name: str) -> HumanModel:
    """Calm hands (no bounce: the frames show the behaviour alone) with ``name`` on every time it can be."""
    return replace(HumanModel.calm(), **{BEHAVIOURS[name]: 1.0})


def played(variant: str, name: str, clock: bool):
    """A random game with the behaviour on, the same game without it, and the game's moves; the first seed
    whose game shows the behaviour (multiple captures are not in every game)."""
    for seed in range(40):
        moves = random_game(variant, 70, seed=f"behaviour:{seed}")
        s = simulate_game(variant, moves, seed=seed, clock=clock, model=with_only(name))
        if any(q.kind == name for q in s.behaviours) or (name == "fast-reply" and clock):
            base = simulate_game(variant, moves, seed=seed, clock=clock, model=HumanModel.calm())
            return s, base, moves
    raise AssertionError(f"no game of 40 showed {name}")


def check_game_unchanged(s, base, moves, variant: str) -> None:
    texts = simulate_game(variant, moves, seed=0, model=HumanModel.calm()).expected_moves
    assert s.expected_moves == base.expected_moves == texts
    assert s.expected_report_moves == base.expected_report_moves
    assert s.expected_irregularities == base.expected_irregularities == []
    assert s.final_fen == base.final_fen
    assert [t.occupied for t in s.turns] == [t.occupied for t in base.turns]


def check_flown(s, frames) -> None:
    for q in s.behaviours:
        origin, *landings, dest = q.squares
        assert landings, q
        assert origin not in state_at(frames, q.t)
        for f in [f for f in frames if q.t - 1e-9 <= f.t < q.until - 1e-9]:
            assert not (set(landings) - {origin, dest}) & f.occupied, (q, f)
        assert dest in state_at(frames, q.until)


def check_phantom(s, frames, variant: str) -> None:
    v = get_variant(variant)
    for q in s.behaviours:
        (sq,) = q.squares
        assert sq not in before(frames, q.t) and sq in state_at(frames, q.t)
        assert sq not in state_at(frames, q.until)
        assert 0.03 <= q.until - q.t <= 0.15 + 1e-3
        turn = s.turns[q.ply]
        assert sq not in turn.occupied                     # an empty square: nothing stands there
        moved = (s.turns[q.ply - 1].occupied if q.ply else frames[0].occupied) ^ turn.occupied
        near = {n for m in moved for n in step_squares(v, m)}
        assert sq in near or any(sq in step_squares(v, n) for n in near), q


def check_slow_magnet(s, frames) -> None:
    for q in s.behaviours:
        (dest,) = q.squares
        assert 0.05 - 1e-3 <= q.until - q.t <= 0.25 + 1e-3
        assert dest not in before(frames, q.until) and dest in state_at(frames, q.until)
        # before it holds, at most brief flickers (3-15 ms closures)
        closed = [f for f in between_frames(frames, q.t, q.until) if dest in f.occupied]
        for f in closed:
            nxt = next(g for g in frames if g.t > f.t)
            assert dest not in nxt.occupied and nxt.t - f.t <= 0.016
    assert any(between_frames(frames, q.t, q.until) for q in s.behaviours)   # other changes come meanwhile


def check_slow_magnet_press(s, clock: bool) -> None:
    """With a clock, a quick press can come before the weak magnet closes its switch."""
    presses = [e.t for e in s.events if isinstance(e, ClockEvent) and e.event == "press"]
    early = [q for q in s.behaviours if any(q.t < p < q.until for p in presses)]
    assert bool(early) is clock


def check_change_of_mind(s, frames) -> None:
    for q in s.behaviours:
        (sq,) = q.squares
        assert sq not in before(frames, q.t) and sq in state_at(frames, q.t)
        assert sq not in state_at(frames, q.until)
        assert 0.1 - 1e-3 <= q.until - q.t <= 0.3 + 1e-3
        assert sq not in s.turns[q.ply].occupied          # played elsewhere


def check_two_at_once(s, frames) -> None:
    for q in s.behaviours:
        a, b = q.squares
        assert {a, b} <= before(frames, q.t) and not {a, b} & state_at(frames, q.t)


def check_jostle(s, frames) -> None:
    for q in s.behaviours:
        (sq,) = q.squares
        assert sq in before(frames, q.t) and sq not in state_at(frames, q.t)
        assert sq in state_at(frames, q.until)
        assert 0.005 - 1e-3 <= q.until - q.t <= 0.02 + 1e-3
        assert sq in s.turns[q.ply].occupied and (q.ply == 0 or sq in s.turns[q.ply - 1].occupied)


def check_long_hold(s, frames) -> None:
    for q in s.behaviours:
        (origin,) = q.squares
        held = before(frames, q.t)
        assert origin in held and state_at(frames, q.t) == held - {origin}
        assert 2.0 <= q.until - q.t <= 5.0 + 1e-3
        assert all(f.occupied == held - {origin} for f in between_frames(frames, q.t, q.until))
        assert state_at(frames, q.until) == held


def check_fast_reply(s, frames, clock: bool) -> None:
    if clock:
        assert not s.behaviours                          # with a clock the reply runs from the press
        return
    assert s.behaviours
    for q in s.behaviours:
        assert any(abs(f.t - q.t) < 1e-9 for f in frames)                   # the mover's last change
        assert not between_frames(frames, q.t, q.until)
        first = next(f for f in frames if f.t > q.t + 1e-9)
        assert abs(first.t - q.until) < 1e-9 and 0.3 - 1e-3 <= q.until - q.t <= 0.8 + 1e-3


CHECKS = {
    "flown-capture": lambda s, fr, v, c: check_flown(s, fr),
    "neighbour-phantom": lambda s, fr, v, c: check_phantom(s, fr, v),
    "slow-magnet": lambda s, fr, v, c: (check_slow_magnet(s, fr), check_slow_magnet_press(s, c)),
    "change-of-mind": lambda s, fr, v, c: check_change_of_mind(s, fr),
    "two-at-once": lambda s, fr, v, c: check_two_at_once(s, fr),
    "jostle": lambda s, fr, v, c: check_jostle(s, fr),
    "long-hold": lambda s, fr, v, c: check_long_hold(s, fr),
    "fast-reply": lambda s, fr, v, c: check_fast_reply(s, fr, c),
}

CASES = [pytest.param(name, variant, clock, id=f"{name}-{variant}-{'clock' if clock else 'noclock'}")
         for name in BEHAVIOURS for variant in VARIANTS for clock in (True, False)]


@pytest.mark.parametrize("name,variant,clock", CASES)
def test_behaviour_shows_in_the_frames_and_leaves_the_game(name, variant, clock):
    s, base, moves = played(variant, name, clock)
    assert {q.kind for q in s.behaviours} <= {name}
    CHECKS[name](s, s.frames, variant, clock)
    check_game_unchanged(s, base, moves, variant)


def test_flown_capture_only_where_the_removals_tell_the_path():
    from rig.board import Board
    from rig.simulate.behaviours import identified_by_removals

    # two landing paths of one king capture taking the same pieces: flown, nothing would tell them apart
    moves = random_game("international", 120, seed="flown")
    s = simulate_game("international", moves, seed=3, model=with_only("flown-capture"))
    board = Board("international")
    flown = {q.ply for q in s.behaviours}
    assert flown
    for ply, mv in enumerate(moves):
        alts = [m for m in board.legal_moves_all_paths() if m.key == mv.key]
        if ply in flown:
            assert len(mv.path) > 2 and identified_by_removals(board, next(m for m in alts if m.path == mv.path))
        board.push(mv)


@pytest.mark.parametrize("clock", (True, False), ids=("clock", "noclock"))
@pytest.mark.parametrize("variant", VARIANTS)
def test_hard_preset_all_behaviours_in_one_game_game_unchanged(variant, clock):
    moves = random_game(variant, 100, seed="hard")
    s = simulate_game(variant, moves, seed=5, clock=clock, model=HumanModel.hard())
    base = simulate_game(variant, moves, seed=5, clock=clock, model=HumanModel.noisy())
    kinds = {q.kind for q in s.behaviours}
    assert {"neighbour-phantom", "slow-magnet", "jostle"} <= kinds
    assert ("fast-reply" in kinds) is not clock
    assert s.expected_moves == base.expected_moves and s.expected_irregularities == []
    assert [t.occupied for t in s.turns] == [t.occupied for t in base.turns]


@pytest.mark.parametrize("clock", (True, False), ids=("clock", "noclock"))
def test_hard_preset_with_injections_international_keeps_the_irregularities(clock):
    moves = random_game("international", 60, seed="hard-inj")
    inject = ["touched-piece-not-moved@4", "opponent-piece-touched@9"]
    s = simulate_game("international", moves, seed=2, clock=clock, inject=inject, model=HumanModel.hard())
    base = simulate_game("international", moves, seed=2, clock=clock, inject=inject, model=HumanModel.noisy())
    assert s.expected_irregularities == base.expected_irregularities and len(s.expected_irregularities) == 2
    assert s.expected_moves == base.expected_moves
    assert not {q.ply for q in s.behaviours} & {4, 9}     # the hands act plainly in an irregular turn


def test_presets_and_knobs():
    assert HumanModel().behaviours() == HumanModel.noisy().behaviours() == HumanModel.calm().behaviours() == ()
    assert HumanModel.hard().behaviours() == tuple(BEHAVIOURS)
    assert HumanModel.hard().bounce_p == HumanModel.noisy().bounce_p
    alone = HumanModel.with_behaviours("jostle")
    assert alone.behaviours() == ("jostle",) and alone.jostle_p == HARD_RATES["jostle_p"]
    with pytest.raises(ModelError, match="unknown behaviour"):
        HumanModel.with_behaviours("sneeze")
    with pytest.raises(ModelError, match="probability"):
        HumanModel(phantom_p=1.5)
    with pytest.raises(ModelError, match="range"):
        HumanModel(long_hold_s=(5.0, 2.0))


def test_behaviours_are_seeded():
    moves = random_game("brazilian", 60, seed=1)
    a = simulate_game("brazilian", moves, seed=9, clock=False, model=HumanModel.hard())
    b = simulate_game("brazilian", moves, seed=9, clock=False, model=HumanModel.hard())
    assert a.to_jsonl() == b.to_jsonl() and a.behaviours == b.behaviours


def test_cli_noise_hard_and_behaviour_option(tmp_path, capsys):
    import json

    from rig.cli import main

    out, answers = tmp_path / "s.jsonl", tmp_path / "a.json"
    assert main(["simulate", "--random", "60", "--variant", "international", "--no-clock", "--seed", "4",
                 "--noise", "hard", "--out", str(out), "--answers", str(answers)]) == 0
    done = json.loads(answers.read_text())["behaviours"]
    assert "fast-reply" in {q["kind"] for q in done}
    assert "real-board behaviours:" in capsys.readouterr().err
    assert main(["simulate", "--random", "30", "--variant", "portuguese", "--behaviour", "jostle",
                 "--out", str(out), "--answers", str(answers)]) == 0
    assert {q["kind"] for q in json.loads(answers.read_text())["behaviours"]} == {"jostle"}
