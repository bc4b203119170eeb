"""The mid-game bench's "a pair observed" column (bench/bench_faults.py ``pair_observed``): a game read with two
squares swapped, every frame the same either way, and an observation naming both (issue 9 part 3)."""

from __future__ import annotations

from types import SimpleNamespace

from tests.bench_helpers import load_bench
from tests.simulate_helpers import midgame_case

bench = load_bench("bench_faults")


def test_swapped_pair_names_the_two_squares_brazilian():
    got = ["c3-d4", "e7-f6", "b2-a3", "f8-e7"]
    expected = ["c3-d4", "g7-f6", "b2-a3", "f8-g7"]
    assert bench.swapped_pair(got, expected) == ("e7", "g7")


def test_swapped_pair_refuses_other_differences_international():
    # two different pairs, a capture read as a move, a move missing: none is a pair read the other way
    assert bench.swapped_pair(["32-28", "19-23"], ["31-28", "18-23"]) is None
    assert bench.swapped_pair(["18-27"], ["18x27"]) is None
    assert bench.swapped_pair(["32-28"], ["32-28", "19-23"]) is None
    assert bench.swapped_pair(["32-28"], ["32-28"]) is None


def test_pair_observed_needs_both_squares_named_as_words_international():
    got, expected = ["3-9"], ["4-9"]
    named = SimpleNamespace(why="a faulty switch on any of 3, 4 explains the board")
    other = SimpleNamespace(why="a faulty switch on any of 33, 44 explains the board")
    assert bench.pair_observed(got, expected, [named])
    assert not bench.pair_observed(got, expected, [other])
    assert not bench.pair_observed(got, expected, [])


def test_stuck_under_the_piece_that_moves_is_a_pair_observed_portuguese_clock():
    """32 sticks closed under the piece that then plays 32-28, 31 full beside it: 31-28 is as legal, nothing shows
    the lift, and neither piece moves again; the rig reads one of the two and observes both."""
    session, r, square = midgame_case("portuguese", 0, 13, "stuck-closed", True, True, None)
    got = [m.move_text for m in r.moves if not m.withdrawn]
    assert square == 32
    assert not [x for x in r.irregularities if x.status != "dismissed"]
    assert got == session.expected_moves or (
        bench.swapped_pair(got, session.expected_moves) == ("31", "32")
        and bench.pair_observed(got, session.expected_moves, r.observations))


def test_an_engine_crash_is_counted_and_the_run_goes_on_portuguese(monkeypatch, capsys):
    """A crash of the engine on one run is a miss the bench counts and shows (``CRASHED``), not the end of a
    run of hundreds (held-out plies found one)."""
    calls = []

    def crashing(session, health):
        calls.append(health)
        raise KeyError(24)

    monkeypatch.setattr(bench, "transcribe", crashing)
    assert bench.main(["--midgame", "--games", "1", "--variant", "portuguese", "--kind", "dead",
                       "--plies", "10", "--show"]) == 0
    out = capsys.readouterr().out
    # the dead switch's two cases (in the open, under a piece), two clock modes, two reading modes: all tried
    assert len(calls) == 8
    assert out.count("CRASH KeyError: 24") == 8
    assert "dead             health games   2  exact without irregularity   0" in out and "CRASHED 2" in out
