"""The engine against the session simulator (rig.simulate): random legal games with noise, with and
without a clock, and every irregularity the simulator can commit, per variant. The transcript must
equal the game exactly; each irregularity must come with its type, move number, side and status."""

from __future__ import annotations

import pytest

from rig.reconstruct import Reconstructor

import rig.simulate as simulate  # noqa: E402

VARIANTS = ("portuguese", "brazilian", "international")


def transcribe(s):
    e = Reconstructor(s.header)
    for ev in s.events:
        e.feed(ev)
    e.finish()
    return e


def irregularities(e):
    return [{k: i.report()[k] for k in ("type", "number", "side", "status")} for i in e.irregularities]


def expected(s):
    return [{k: d[k] for k in ("type", "number", "side", "status")} for d in s.expected_irregularities]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("clock", [True, False])
def test_random_games(variant, clock):
    done = 0
    for seed in range(12):
        try:
            s = simulate.simulate_game(variant, simulate.random_game(variant, 50, seed), seed=seed, clock=clock)
        except simulate.PhysicalError:
            continue
        e = transcribe(s)
        assert [m.move_text for m in e.moves] == s.expected_moves == s.expected_report_moves, (variant, seed, clock)
        assert irregularities(e) == expected(s), (variant, seed, clock)
        done += 1
    assert done >= 8


CASES = [(t, v) for t in sorted(simulate.INJECTION_TYPES) for v in VARIANTS]


@pytest.mark.parametrize("kind, variant", CASES)
def test_injected_irregularities(kind, variant):
    done = 0
    for clock in (True, False):
        for corrected in (False, True):
            for seed in range(2):
                moves = simulate.random_game(variant, 24, seed)
                s = None
                for ply in (0,) + tuple(range(6, 20)):
                    try:
                        s = simulate.simulate_game(variant, moves, seed=seed, clock=clock,
                                                   inject=[f"{kind}@{ply}" + (":corrected" if corrected else "")])
                        break
                    except (simulate.InjectionError, simulate.PhysicalError):
                        continue
                if s is None:
                    continue
                e = transcribe(s)
                where = (kind, variant, clock, corrected, seed)
                assert [m.move_text for m in e.moves] == s.expected_report_moves, where
                assert [m.move_text for m in e.moves if not m.withdrawn] == s.expected_moves, where
                assert irregularities(e) == expected(s), where
                done += 1
    assert done >= 1
