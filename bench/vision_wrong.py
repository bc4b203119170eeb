"""Every wrong square of bench_vision's still positions, one line each, with what may explain it.

    .venv/bin/python bench/vision_wrong.py --seed S [--dump FILE.jsonl] [--crops DIR]

The same boards and positions as ``bench_vision.py`` (its per-square error counts these squares). For each square
read wrong: the truth and the reading (``w`` ``W`` ``b`` ``B`` or ``-``), whether it was left "king unknown" (read as
the colour's man), the square's parallax shift (a king's top beyond a man's, top-view pixels: under 4 the rows
nearest the camera, 8 or more the farthest), glare's distance from the piece (glare radii), the shadow band's edge
(pixels; negative inside), light level, blur, JPEG quality, the first look's fit and quality and its band, every
later look's fit where one was taken. ``--crops`` writes the picture round each such square (and the top view's
window), four times enlarged, as PNG, to look at (not kept in the repository).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections import Counter

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench.bench_kings import _light_factors  # noqa: E402
from bench.bench_vision import bench_board, random_position  # noqa: E402
from rig.variants import get_variant  # noqa: E402
from vision.kings import StackReader, band  # noqa: E402
from vision.render import _Projector, render  # noqa: E402
from vision.testset import position_scene  # noqa: E402


def _row(shift: float) -> str:
    return "near (<4)" if shift < 4 else "middle (4-8)" if shift < 8 else "far (>=8)"


def collect(seed: int, boards: int, positions: int, crops: str | None) -> list[dict]:
    """One record a wrong square of the still positions of ``seed``."""
    out = []
    for b in range(boards):
        try:
            variant, empty, config = bench_board(seed, b)
        except Exception:  # noqa: BLE001 - bench_vision counts it apart
            continue
        v = get_variant(variant)
        bseed = seed * 1000 + b
        clf = config.classifier()
        reader = clf.stacks
        seen: list = []  # each call of a stack reader's fits this picture: (row, col) -> (fit, quality)
        orig = StackReader.fits

        def spy(self, padded, grey, pieces, *a, _orig=orig, seen=seen, **k):
            z, q = _orig(self, padded, grey, pieces, *a, **k)
            seen.append({rc: (round(float(x), 3), round(float(c), 3)) for (rc, _), x, c in zip(pieces, z, q)})
            return z, q

        StackReader.fits = spy  # every reader (the later looks' too), this board only
        rng = random.Random(bseed)
        proj = _Projector(empty.camera, v.size)
        by_square = {sq: rc for rc, sq in clf.square_at.items()}
        for k in range(positions):
            pieces = random_position(variant, rng)
            scene = position_scene(empty, pieces, bseed * 100 + k)
            img = render(scene)
            seen.clear()
            reading = clf.read(img)
            for s in range(1, v.squares + 1):
                truth, got = pieces.get(s) or "-", reading.squares.get(s) or "-"
                if truth == got:
                    continue
                rc = by_square[s]
                model = reader.models[rc] if reader is not None else None
                f, r = v.coords(s)
                dx, dy = scene.offsets.get(s, (0.0, 0.0))
                rec = {"seed": seed, "board": b, "position": k, "square": s, "variant": variant, "truth": truth,
                       "read": got, "unknown": s in reading.unknown, "occluded": reading.occluded,
                       "shift": round(model.shift, 2) if model else None,
                       "band": [round(x, 3) for x in band(model.shift, truth.lower() == "b")] if model else None,
                       "fits": [f_[rc] for f_ in seen if rc in f_]}
                rec.update({k_: (round(x, 3) if isinstance(x, float) else x)
                            for k_, x in _light_factors(scene, proj, f + 0.5 + dx, r + 0.5 + dy).items()})
                out.append(rec)
                if crops:
                    os.makedirs(crops, exist_ok=True)
                    u, vv = proj(np.array([[f + 0.5 + dx, r + 0.5 + dy, 0.0]]))[0]
                    h = 48
                    y0, x0 = max(0, int(vv) - h), max(0, int(u) - h)
                    crop = img[y0:int(vv) + h, x0:int(u) + h]
                    name = f"s{seed}_b{b}_p{k}_sq{s}_{truth}{got}{'u' if rec['unknown'] else ''}.png"
                    cv2.imwrite(os.path.join(crops, name),
                                cv2.resize(crop, None, fx=4, fy=4, interpolation=cv2.INTER_NEAREST))
        StackReader.fits = orig
    return out


def classify(rec: dict) -> str:
    """The wrong square's class: what was read against the truth."""
    t, g = rec["truth"], rec["read"]
    if rec["occluded"]:
        return "flagged as a hand"
    if t == "-" or g == "-":
        return "occupancy"
    if t.lower() != g.lower():
        return "colour"
    if rec["unknown"] and len(rec["fits"]) == 1:  # no later look asked: the square does not allow a king
        return "king unknown: the view cannot tell"
    if rec["unknown"]:
        return f"{'white' if t == 'W' else 'black'} king left unknown"
    return f"wrong claim: {t} read {g}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, nargs="+", default=[2])
    ap.add_argument("--boards", type=int, default=12)
    ap.add_argument("--positions", type=int, default=25)
    ap.add_argument("--dump")
    ap.add_argument("--crops")
    args = ap.parse_args(argv)
    records = [r for s in args.seed for r in collect(s, args.boards, args.positions, args.crops)]
    if args.dump:
        with open(args.dump, "w") as fh:
            for r in records:
                fh.write(json.dumps(r) + "\n")
    for r in records:
        print(f"seed {r['seed']} board {r['board']:2d} pos {r['position']:2d} sq {r['square']:2d} "
              f"{r['truth']}->{r['read']}{' (unknown)' if r['unknown'] else ''}  {classify(r):28s} "
              f"shift {r['shift']} {_row(r['shift'] or 0)}  glare {r.get('glare', '-')}  "
              f"band_edge {r.get('band_edge', '-')}  level {r['level']:.2f} blur {r['blur']:.2f} jpeg {r['jpeg']}  "
              f"band {r['band']} fits {r['fits']}")
    print(Counter((classify(r), _row(r["shift"] or 0)) for r in records).most_common())
    return 0


if __name__ == "__main__":
    sys.exit(main())
