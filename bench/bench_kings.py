"""Where "king unknown" comes from: the still positions of ``bench_vision.py`` (same boards, same positions),
every piece's man-or-king reading broken down by what may cause an abstention.

    .venv/bin/python bench/bench_kings.py [--boards 12] [--positions 25] [--seed 1] [--dump FILE.jsonl]

A king is two stacked men (FPD 000 art. 3.1 d, FMJD 002 art. 3.5): the camera tells it by its height seen
in perspective (:mod:`vision.kings`). For every piece read in its right colour the outcome is one of: right,
wrong (a stack claimed wrong), unknown because the fit fell in the band, unknown because the better model fit
badly (quality), unknown because the square does not allow a king to be told. Printed per colour and stack, per
the square's parallax shift (the king's top beyond a man's, pixels), per light (glare on or near the piece, in
or at the edge of a shadow band, level, blur, JPEG quality), per how far off-centre the piece stands, per the
neighbours between the piece and the camera (that may hide its wall) and beyond it (where its top shows), and
per distance from the point below the camera (near and far rows). ``--dump`` writes one JSON line a piece
(the fit, its quality and every factor) for a closer look.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import sys
from collections import defaultdict

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench.bench_vision import VARIANTS, random_position  # noqa: E402
from calibration.camera import calibrate_camera  # noqa: E402
from rig.variants import get_variant  # noqa: E402
from vision.kings import MIN_QUALITY, band  # noqa: E402
from vision.render import SIDES, _Projector, render  # noqa: E402
from vision.testset import calibration_pictures, position_scene  # noqa: E402

OUTCOMES = ("right", "wrong", "band", "quality", "view", "flagged")


def _light_factors(scene, proj, x: float, y: float) -> dict:
    """The light where the piece stands: glare's distance (in its radii) from the piece, the shadow band's edge
    (pixels from the piece; negative inside), level, blur, JPEG quality."""
    light = scene.light
    u, v = proj(np.array([[x, y, 0.0]]))[0]
    w, h = scene.camera.width, scene.camera.height_px
    out = {"level": light.level, "blur": light.blur, "jpeg": light.jpeg, "noise": light.noise}
    if light.glare is not None:
        gx, gy, gr, gs = light.glare
        out["glare"] = math.hypot(u - gx, v - gy) / gr
        out["glare_strength"] = gs
    if light.band is not None:
        ang, off, width, depth = light.band
        d = (u - w / 2) * math.cos(ang) + (v - h / 2) * math.sin(ang) - off
        out["band_edge"] = abs(d) - width / 2
        out["band_depth"] = depth
    return out


def _neighbours(variant, pieces: dict[int, str], square: int, foot) -> dict:
    """Pieces on the diagonal neighbours (and two squares along a file or rank) nearer the camera than this
    one (between it and the camera: may hide its wall) and farther (where its top is displaced to)."""
    f, r = variant.coords(square)
    p = np.array([f + 0.5, r + 0.5])
    towards = np.array(foot) - p
    towards /= max(1e-9, np.hypot(*towards))
    code = pieces[square]
    out = {"near_same": 0, "near_other": 0, "near_king": 0, "far_same": 0, "far_other": 0, "far_king": 0}
    for other, c in pieces.items():
        if other == square:
            continue
        of, orr = variant.coords(other)
        d = np.array([of - f, orr - r], float)
        if max(abs(d)) > 1 and not (max(abs(d)) == 2 and min(abs(d)) == 0):
            continue
        if abs(d[0]) + abs(d[1]) > 2:
            continue
        side = "near" if d @ towards > 0.3 * np.hypot(*d) else "far" if d @ towards < -0.3 * np.hypot(*d) else None
        if side is None:
            continue
        out[f"{side}_{'same' if c.lower() == code.lower() else 'other'}"] += 1
        out[f"{side}_king"] += c.isupper()
    return out


def collect(args) -> list[dict]:
    """One record a piece of the still positions (the fit and quality captured from the stack reader)."""
    records = []
    for b in range(args.boards):
        variant = VARIANTS[b % 3]
        v = get_variant(variant)
        seed = args.seed * 1000 + b
        empty, start = calibration_pictures(v, seed, markers=b % 2 == 0, side=SIDES[b % 4])
        try:
            config = calibrate_camera(v, render(empty), render(start)).config
        except Exception as exc:  # noqa: BLE001 - shown
            print(f"  board {b}: calibration failed: {exc}")
            continue
        clf = config.classifier()
        reader = clf.stacks
        seen: list = []
        if reader is not None:
            fits = reader.fits

            def spy(padded, grey, pieces, static=None, black=None, _fits=fits, seen=seen):
                z, q = _fits(padded, grey, pieces, static, black)
                seen.append({rc: (float(a), float(c), colour == black) for (rc, colour), a, c in zip(pieces, z, q)})
                return z, q

            reader.fits = spy
            if args.first_look:
                read = reader.read

                def first_look(*a, _read=read, again=None, **k):
                    return _read(*a, **k)

                reader.read = first_look
        rng = random.Random(seed)
        proj = _Projector(empty.camera, v.size)
        foot = proj.C[:2]
        for k in range(args.positions):
            pieces = random_position(variant, rng)
            scene = position_scene(empty, pieces, seed * 100 + k)
            seen.clear()
            reading = clf.read(render(scene))
            fitted = seen[0] if seen else {}
            by_square = {sq: rc for rc, sq in clf.square_at.items()}
            for s, code in pieces.items():
                got = reading.squares.get(s)
                if got is None or got.lower() != code.lower():
                    continue  # occupancy or colour wrong: not the stack's doing
                rc = by_square[s]
                z, q, black = fitted.get(rc, (float("nan"), float("nan"), code == "b"))
                again = seen[1].get(rc) if len(seen) > 1 else None  # the second look, where it was taken
                model = reader.models[rc] if reader is not None else None
                if reading.occluded:
                    outcome = "flagged"  # a hand seen where none is: no stack read (vision.classify)
                elif s in reading.unknown:
                    if reader is None or not reader.allows(rc):
                        outcome = "view"
                    else:
                        lo, hi = band(model.shift, black)
                        outcome = "band" if lo < z < hi else "quality"
                else:
                    outcome = "right" if got == code else "wrong"
                first = outcome  # the first look alone (before the second look at the light within a square)
                if outcome not in ("flagged", "view") and len(seen) > 1 and rc in seen[1]:
                    lo, hi = band(model.shift, black)
                    if q < MIN_QUALITY[int(black)] or lo < z < hi:
                        first = "band" if lo < z < hi else "quality"
                f, r = v.coords(s)
                dx, dy = scene.offsets.get(s, (0.0, 0.0))
                x, y = f + 0.5 + dx, r + 0.5 + dy
                rec = {"board": b, "position": k, "square": s, "variant": variant, "colour": code.lower(),
                       "king": code.isupper(), "outcome": outcome, "first": first, "z": z, "quality": q,
                       "shift": model.shift if model else 0.0, "tilt": model.tilt if model else 0.0,
                       "offset": math.hypot(dx, dy) * 1.0, "foot": math.hypot(x - foot[0], y - foot[1]),
                       "bias": list(reader.bias) if reader is not None else [0, 0],
                       "quality_floor": MIN_QUALITY[int(black)],
                       "band": list(band(model.shift, black)) if model else []}
                if again is not None:
                    rec["z2"], rec["quality2"] = again[0], again[1]
                rec.update(_light_factors(scene, proj, x, y))
                rec.update(_neighbours(v, pieces, s, foot))
                # how far the offset moves the piece along the parallax (towards / away from the camera's foot)
                towards = (foot - np.array([f + 0.5, r + 0.5]))
                towards /= max(1e-9, np.hypot(*towards))
                rec["offset_along"] = float(np.array([dx, dy]) @ towards)
                records.append(rec)
    return records


GROUPS = [
    ("colour", lambda r: r["colour"]),
    ("shift px", lambda r: "<4" if r["shift"] < 4 else "4-6" if r["shift"] < 6 else "6-8" if r["shift"] < 8 else ">=8"),
    ("glare", lambda r: "none" if "glare" not in r else "on the piece (<1.5 glare radii)" if r["glare"] < 1.5 else
     "near (1.5-3 glare radii)" if r["glare"] < 3 else "far"),
    ("shadow band", lambda r: "none" if "band_edge" not in r else "edge (+-12 px)" if abs(r["band_edge"]) < 12 else
     "inside" if r["band_edge"] < 0 else "outside"),
    ("level", lambda r: "<0.8" if r["level"] < 0.8 else "0.8-0.9" if r["level"] < 0.9 else ">=0.9"),
    ("blur", lambda r: "<0.4" if r["blur"] < 0.4 else "0.4-0.9" if r["blur"] < 0.9 else ">=0.9"),
    ("jpeg", lambda r: str(r["jpeg"])),
    ("noise", lambda r: "<3" if r["noise"] < 3 else "3-4" if r["noise"] < 4 else ">=4"),
    ("off-centre, squares", lambda r: "<0.06" if r["offset"] < 0.06 else "0.06-0.12" if r["offset"] < 0.12 else
     ">=0.12"),
    ("off-centre along the parallax", lambda r: "towards camera >0.05" if r["offset_along"] > 0.05 else
     "away >0.05" if r["offset_along"] < -0.05 else "within 0.05"),
    ("nearer neighbours (hide the wall)", lambda r: f"{min(2, r['near_same'] + r['near_other'])}"
     + (" (a king)" if r["near_king"] else "")),
    ("nearer neighbour of its colour", lambda r: str(min(2, r["near_same"]))),
    ("farther neighbours (where the top shows)",
     lambda r: f"same {min(2, r['far_same'])}, other {min(2, r['far_other'])}"),
    ("distance from the camera's foot, squares", lambda r: f"<{int(r['foot'] // 2 * 2 + 2)}"),
]


def _order(bucket: str) -> tuple[float, str]:
    """Buckets in the order of the first number they name ("<4" before "4-6" before ">=8"), then by name."""
    m = re.search(r"\d+(\.\d+)?", bucket)
    return ((float(m.group()) - 0.5 * (bucket[m.start() - 1:m.start()] == "<")) if m else -1.0, bucket)


def breakdown(records: list[dict]) -> None:
    """Print, per factor and bucket: pieces, kings unknown %, men unknown %, and the outcome counts."""
    kings = [r for r in records if r["king"]]
    men = [r for r in records if not r["king"]]

    def share(rs, what, key="outcome") -> str:
        return f"{100.0 * sum(r[key] in what for r in rs) / len(rs):5.1f}" if rs else "    -"

    unk = ("band", "quality", "view", "flagged")
    print(f"pieces {len(records)}: kings {len(kings)} (unknown {share(kings, unk)} %), men {len(men)} "
          f"(unknown {share(men, unk)} %); wrong claims {sum(r['outcome'] == 'wrong' for r in records)}")
    print("  unknown by cause: " + ", ".join(f"{o} {sum(r['outcome'] == o for r in records)}" for o in unk))
    print(f"  the first look alone: kings unknown {share(kings, unk, 'first')} %, men {share(men, unk, 'first')} %; "
          + ", ".join(f"{o} {sum(r['first'] == o for r in records)}" for o in unk)
          + f"; the second look settled {sum(r['first'] != r['outcome'] for r in records)} pieces, "
          f"{sum(r['first'] != r['outcome'] and r['outcome'] == 'wrong' for r in records)} of them wrong")
    for colour in ("w", "b"):
        for king in (True, False):
            rs = [r for r in records if r["colour"] == colour and r["king"] == king]
            print(f"  {colour}{'K' if king else 'm'}: {len(rs):5d}  " +
                  ", ".join(f"{o} {sum(r['outcome'] == o for r in rs)}" for o in OUTCOMES))
    for name, key in GROUPS:
        print(f"\n{name}:  bucket | pieces | kings unknown %, first look -> both | men unknown %, the same | "
              "band / quality / view / flagged / wrong (both looks)")
        buckets = defaultdict(list)
        for r in records:
            buckets[key(r)].append(r)
        for bucket in sorted(buckets, key=_order):
            rs = buckets[bucket]
            ks = [r for r in rs if r["king"]]
            ms = [r for r in rs if not r["king"]]
            print(f"  {bucket:28s} {len(rs):6d}   K {share(ks, unk, 'first')} -> {share(ks, unk)} ({len(ks):5d})   "
                  f"m {share(ms, unk, 'first')} -> {share(ms, unk)} ({len(ms):5d})   "
                  + " / ".join(str(sum(r["outcome"] == o for r in rs)) for o in unk + ("wrong",)))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=12)
    ap.add_argument("--positions", type=int, default=25)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dump", help="write one JSON line a piece here")
    ap.add_argument("--first-look", action="store_true",
                    help="the first look alone (no second look at the light within a square): the reading before")
    args = ap.parse_args(argv)
    records = collect(args)
    if args.dump:
        with open(args.dump, "w") as out:
            for r in records:
                out.write(json.dumps(r) + "\n")
    print(f"bench_kings: seed {args.seed}, {args.boards} boards x {args.positions} still positions")
    breakdown(records)
    return 0


if __name__ == "__main__":
    sys.exit(main())
