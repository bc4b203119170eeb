"""Failing switches, issue 9 part 3 (third pass): what a missing diode's rectangle hid is read when the rectangle
breaks, before the change that broke it (rig/reconstruct/occupancy.py ``Debouncer.reveal``, ghostread.py), through
the simulated matrix as bench/bench_faults.py plays the games."""

from __future__ import annotations

import pytest

from rig.reconstruct.occupancy import REVEAL_S, Debouncer, SquareChange
from tests.test_faults_matrix import MODES, _exact, _read


def test_a_revealed_change_is_confirmed_before_the_frames_own():
    """A square a mask hid reads otherwise once freed: its change waits dated just before the frame, so it
    comes out before the frame's own changes (the lift that broke the rectangle), whatever the square's
    number; a freed square that reads as before changes nothing."""
    deb = Debouncer(0.03)
    deb.frame(0.0, frozenset({24, 34}))
    deb.reveal(1.0, (29, 30), frozenset({29, 34}))            # 29 now reads closed, 30 as before (open)
    deb.take(1.0, frozenset({29, 34}))                        # the frame's own change: 24 lifted
    assert deb.confirm(1.1) == [SquareChange(1.0 - REVEAL_S, 29, False), SquareChange(1.0, 24, True)]
    assert deb.stable == {29, 34}
    deb.reveal(2.0, (29,), frozenset({29, 34}))               # nothing hidden: no change
    assert deb.pending == {} and deb.raw == frozenset({29, 34})


@pytest.mark.parametrize("health", MODES)
def test_missing_diode_22_international_no_clock_landing_under_a_ghost(health):
    """White's 34-29 lands on 29 and 34-30 on 30, both ghosts of 22 (a landing shows nothing); black's lift of 24
    breaks the rectangle and 29 reads closed in the same frame. The landing 29 showed is read first (34-29),
    then black's 24x33 that takes it: no two-moves, no own-piece-removed."""
    s, r = _read("international", 9, "missing-diode:22", False, health, plies=100)
    _exact(s, r, 22, "ghost")
    assert [m.move_text for m in r.moves if not m.withdrawn][-2:] == ["34-29", "24x33"]


@pytest.mark.parametrize("health", MODES)
def test_missing_diode_22_international_no_clock_move_unseen_until_the_diode_square_lifts(health):
    """White's 35-30 leaves and lands on ghosts of 22 (nothing shows); black lifts 22 itself for 22x31, which
    frees every ghost: 35 reads open and 30 closed in that frame. White's move is read before black's lift
    (no wrong-piece-removed, own-piece-removed or piece-moved-after-release)."""
    s, r = _read("international", 5, "missing-diode:22", False, health, plies=70)
    _exact(s, r, 22, "ghost")
    assert [m.move_text for m in r.moves if not m.withdrawn][-4:-1] == ["35-30", "22x31", "36x27"]


@pytest.mark.parametrize("health", MODES)
def test_missing_diode_22_international_no_clock_reply_unseen_then_a_landing_from_a_ghost(health):
    """White's 28-22 lands on 22 itself and its ghosts hide black's whole 8-13; white's 33-28 then shows only its
    landing on 28 (33 a ghost). That landing, while the board shows 28-22 exactly, reads as black's unseen reply
    and white's next move from a masked square, not as a capture 33x22 nor a touched piece."""
    s, r = _read("international", 3, "missing-diode:22", False, health, plies=94)
    _exact(s, r, 22, "ghost")
    assert [m.move_text for m in r.moves if not m.withdrawn][-4:] == ["28-22", "8-13", "33-28", "7-11"]


@pytest.mark.parametrize("health", MODES)
def test_missing_diode_22_international_no_clock_reply_unseen_between_a_release_and_the_next_move(health):
    """Black's 24-29 is set down (and released, well over ``release_s``); white's 40-35 runs between ghosts of 22
    (unseen); black then takes 29 on to 34. With the reply fully masked, the lift of the released piece reads as
    black's next move after white's unseen reply (no chain of re-reads ending in an illegal move); a piece moved on
    after release shows the same frames: an observation says so, no irregularity."""
    s, r = _read("international", 6, "missing-diode:22", False, health, plies=106)
    _exact(s, r, 22, "ghost")
    assert [m.move_text for m in r.moves if not m.withdrawn][-5:-2] == ["24-29", "40-35", "29-34"]
    seen = [o for o in r.observations if o.type == "piece-moved-after-release"]
    assert [(o.number, o.squares) for o in seen] == [(51, (29,))]      # what the same frames could also be
