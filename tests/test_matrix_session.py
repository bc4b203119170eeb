"""matrix_session: hands' timelines through a simulated matrix and the project's scanner."""

import pytest

from rig.variants import INTERNATIONAL, PORTUGUESE, get_variant
from sensors.errors import MatrixConfigError
from sensors.simulation import matrix_session, run_matrix_session

P = get_variant("portuguese")
I = get_variant("international")
PS = frozenset(P.white_start) | frozenset(P.black_start)
IS = frozenset(I.white_start) | frozenset(I.black_start)

# portuguese: 9-13, 22-18, 13x22 (lift 13, put on 22, remove 18)
MOVE = [(0.0, PS), (1.0, PS - {9}), (1.3, PS - {9} | {13})]
CAPTURE = MOVE + [(2.0, PS - {9, 22} | {13}), (2.3, PS - {9, 22} | {13, 18}),
                  (3.0, PS - {9, 22} | {18}), (3.3, PS - {9} | {18}), (3.8, PS - {9})]


def expected(timeline):
    out = []
    for _, occ in timeline:
        if not out or out[-1] != occ:
            out.append(occ)
    return out


@pytest.mark.parametrize("timeline", [MOVE, CAPTURE], ids=["move", "capture"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_clean_board_gives_the_hands_timeline(timeline, seed):
    frames = matrix_session(PORTUGUESE, timeline, seed=seed)
    assert [f.occupied for f in frames] == expected(timeline)
    for f, (t, _) in zip(frames[1:], timeline[1:]):
        assert t <= f.t < t + 0.03                       # a few scans after the hand
    assert all(a.t < b.t for a, b in zip(frames, frames[1:]))


def test_international_capture():
    # 32-28, 19-23, 28x19: lift 28, put it on 19, remove 23
    tl = [(0.0, IS), (1.0, IS - {32}), (1.2, IS - {32} | {28}), (2.0, IS - {32, 19} | {28}),
          (2.2, IS - {32, 19} | {28, 23}), (3.0, IS - {32, 19} | {23}), (3.2, IS - {32} | {23}), (3.5, IS - {32})]
    assert [f.occupied for f in matrix_session(INTERNATIONAL, tl, seed=5)] == expected(tl)


def test_stuck_closed_from_the_start_is_masked_and_reported():
    run = run_matrix_session(PORTUGUESE, CAPTURE, ["stuck-closed:16"], seed=1)
    assert [f.occupied for f in run.frames] == expected(CAPTURE)   # no phantom piece on 16
    (ev,) = [h for h in run.health if h.kind == "stuck-closed"]
    assert ev.square == 16 and ev.masked and ev.t < 0.05


def test_dead_square_is_reported_and_never_invented():
    run = run_matrix_session(PORTUGUESE, MOVE, ["dead:5"], seed=1)
    assert [h.square for h in run.health if h.kind == "dead"] == [5]
    assert all(5 not in f.occupied for f in run.frames)
    assert [f.occupied | {5} for f in run.frames] == expected(MOVE)
    dead13 = matrix_session(PORTUGUESE, MOVE, ["dead:13"])
    assert [f.occupied for f in dead13] == [PS, PS - {9}]            # the move to 13 is not seen


def test_missing_diode_never_shows_ghosts():
    run = run_matrix_session(PORTUGUESE, CAPTURE, ["missing-diode:1"], seed=3)
    assert all(not (f.occupied & {14, 15, 16}) for f in run.frames)
    assert ("missing-diode", 1) in [(h.kind, h.square) for h in run.health]
    assert run.frames[0].occupied == PS and run.frames[-1].occupied == PS - {9}


def test_missing_diode_without_check_lets_ghosts_through():
    frames = matrix_session(PORTUGUESE, MOVE, ["missing-diode:1"], diode_check=False)
    assert frames[-1].occupied == PS - {9} | {13, 14, 15, 16}


def test_bad_timelines_and_faults_are_errors():
    with pytest.raises(MatrixConfigError, match="time order"):
        matrix_session(PORTUGUESE, [(1.0, PS), (0.5, PS)])
    with pytest.raises(MatrixConfigError, match="unknown fault"):
        matrix_session(PORTUGUESE, MOVE, ["melted:3"])
    with pytest.raises(MatrixConfigError, match="squares 1..32"):
        matrix_session(PORTUGUESE, MOVE, ["dead:40"])
