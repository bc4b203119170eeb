"""Per-square recognition on a held part of the rendered set (positions the calibration never saw, hard
light, pieces off-centre, kings), and ``rig vision read``."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from calibration.camera import calibrate_camera
from rig.variants import INTERNATIONAL, PORTUGUESE, get_variant
from vision.render import render
from vision.testset import calibration_pictures, position_scene, write_pictures


def _position(variant: str, rng: random.Random) -> dict[int, str]:
    v = get_variant(variant)
    squares = rng.sample(range(1, v.squares + 1), rng.randrange(4, v.squares * 2 // 3))
    return {s: rng.choice("wwwbbbWB") for s in squares}


#: per-square error floor, "king unknown" on a king counted as an error (a man's stack taken from the rules); was
#: 0.06 before the top-against-wall channel (docs/camera.md)
FLOOR_WRONG = 0.015  # measured 0.26 %, 0.17 %, 0.78 % (2026-11-26)


@pytest.mark.parametrize("variant,seed", [("portuguese", 301), ("international", 302), ("brazilian", 303)],
                         ids=["portuguese-markerless-8x8", "international-markers-10x10", "brazilian-markerless-8x8"])
def test_held_out_positions(variant, seed):
    empty, start = calibration_pictures(get_variant(variant), seed, markers=seed % 2 == 0)
    config = calibrate_camera(get_variant(variant), render(empty), render(start)).config
    clf = config.classifier()
    rng = random.Random(seed)
    n = get_variant(variant).squares
    squares = colour_wrong = wrong = flagged = 0
    for k in range(12):
        pieces = _position(variant, rng)
        reading = clf.read(render(position_scene(empty, pieces, seed * 1000 + k)))
        flagged += reading.occluded
        for s in range(1, n + 1):
            want, got = pieces.get(s), reading.squares.get(s)
            squares += 1
            wrong += want != got
            colour_wrong += (want or "-").lower() != (got or "-").lower()
            if got is not None:
                assert 0.0 <= reading.confidence[s] <= 1.0
    # floors (the benchmark prints the exact figures): occupancy and colour must be right on every square;
    # the stack (man or king) is the hard part, read from the piece's height in perspective
    print(f"{variant}: {wrong} of {squares} squares wrong ('king unknown' counted as a man)")
    assert colour_wrong == 0
    assert wrong / squares <= FLOOR_WRONG
    assert flagged <= 2


def test_rig_vision_read(tmp_path):
    empty, start = calibration_pictures(PORTUGUESE, 310, markers=True, side="left")
    cfg_path = tmp_path / "cam.toml"
    e, s = write_pictures(str(tmp_path / "cal"), [empty, start])
    rig = [sys.executable, "-m", "rig.cli"]
    assert subprocess.run(rig + ["calibrate", "camera", "--empty", e, "--start", s, "-o", str(cfg_path)],
                          capture_output=True).returncode == 0
    pieces = {1: "w", 14: "b", 22: "w", 30: "b"}
    scene = position_scene(empty, pieces, 311, hard=False)
    (x,) = write_pictures(str(tmp_path / "in"), [scene])
    done = subprocess.run(rig + ["vision", "read", "--config", str(cfg_path), x, s, "--out", str(tmp_path / "out")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    got = json.loads((tmp_path / "out" / "000000.json").read_text())
    assert {int(k): v.lower() for k, v in got["squares"].items()} == pieces
    assert got["occluded"] is False and got["ms"] > 0
    assert len(got["confidence"]) == 32 and all(0 <= c <= 1 for c in got["confidence"].values())
    start_read = json.loads((tmp_path / "out" / "000001.json").read_text())
    assert len(start_read["squares"]) == 24
    # bad input: exit 2 naming it
    done = subprocess.run(rig + ["vision", "read", "--config", str(tmp_path / "none.toml"), x, "--out", "o"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "none.toml" in done.stderr
    done = subprocess.run(rig + ["vision", "read", "--config", str(cfg_path), str(tmp_path / "no.jpg"), "--out",
                                 str(tmp_path / "o2")], capture_output=True, text=True)
    assert done.returncode == 2 and "no.jpg" in done.stderr and "Traceback" not in done.stderr


def test_blurred_pieces_rims_are_not_a_hand():
    """Green and grey squares, blur and a shadow band: a black man's blurred rim mixes its colour with the
    square's into one like no class; it is no hand (these pictures were flagged before the rim was left out)."""
    from vision.render import SIDES

    seed = 2010
    empty, start = calibration_pictures(INTERNATIONAL, seed, markers=True, side=SIDES[2])
    assert empty.palette == 1  # green and grey
    config = calibrate_camera(INTERNATIONAL, render(empty), render(start)).config
    clf = config.classifier()
    rng = random.Random(seed)
    positions = [_position("international", rng) for _ in range(19)]
    for k in (7, 11, 17, 18):
        reading = clf.read(render(position_scene(empty, positions[k], seed * 100 + k)))
        assert not reading.occluded, f"position {k}: unexplained {reading.unexplained:.2f} squares"
        assert reading.squares.keys() == positions[k].keys()
