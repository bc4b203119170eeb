"""Black pieces on the rows nearest the camera (a king's extra parallax under 4 pixels) of bench_vision's still
positions: each one's readings and fits, one JSON line a piece, and the count of kings and men read right, left "king
unknown" and claimed wrong (vision27, docs/camera.md "Black pieces on the nearest rows").

    .venv/bin/python bench/near_black_rows.py dump SEED FILE.jsonl [BOARDS POSITIONS]
    .venv/bin/python bench/near_black_rows.py count FILE.jsonl ...
    .venv/bin/python bench/near_black_rows.py          # (./dev bench) dev seed 11, 12 x 25, dumped and counted

``dump`` reads the seed's still positions (bench_vision's boards and draws, ``BOARDS`` x ``POSITIONS``, 12 x 25 by
default) and writes, for every black piece on those rows read in its right colour on a hand-free picture: the
reading (code, "king unknown"), the first reader's fits in the order asked (``StackReader.fits`` spied: the first
look's, then the second and glare looks'), the first band, whether glare reaches its window, and the soft look's fit
and quality of its window (:mod:`vision.soft_look`, the near black look's: measured whether a look asked or not).
``count`` prints right / unknown / wrong for the kings and the men of the files given.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
from collections import Counter

import cv2

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench.bench_vision import bench_board, random_position  # noqa: E402
from vision.classify import BLACK  # noqa: E402
from vision.fine_look import MIN_SHIFT  # noqa: E402
from vision.kings import band  # noqa: E402
from vision.render import render  # noqa: E402
from vision.testset import position_scene  # noqa: E402


def dump(seed0: int, path: str, boards: int = 12, positions: int = 25) -> None:
    """One JSON line a black piece on the nearest rows of the seed's still positions (see the module's doc)."""
    cv2.setNumThreads(1)
    with open(path, "w") as out:
        for b in range(boards):
            try:
                variant, empty, config = bench_board(seed0, b)
            except Exception:  # noqa: BLE001 - as the bench: a board not calibrated is left out
                continue
            seed = seed0 * 1000 + b
            clf = config.classifier()
            st = clf.stacks
            if st is None:
                continue
            calls: dict = {}
            fits = st.fits

            def spy(padded, grey, pieces, static=None, black=None, _f=fits, calls=calls):
                z, q = _f(padded, grey, pieces, static, black)
                for (rc, _), a, qq in zip(pieces, z, q):
                    calls.setdefault(rc, []).append((float(a), float(qq)))
                return z, q

            st.fits = spy
            rng = random.Random(seed)
            at = {sq: rc for rc, sq in clf.square_at.items()}
            for k in range(positions):
                pieces = random_position(variant, rng)
                image = render(position_scene(empty, pieces, seed * 100 + k))
                calls.clear()
                reading = clf.read(image)
                if reading.occluded:
                    continue
                near = [s for s, code in pieces.items() if code in "bB" and reading.squares.get(s, "").lower() == "b"
                        and st.models[at[s]].shift < MIN_SHIFT]
                if not near:
                    continue
                glared = {}
                if clf._glare.any():
                    white = clf._glare_field.field(clf._glare)
                    glared = {s: bool(clf._glare_field.reaches(white, st.boxes([at[s]])[0])) for s in near}
                canon = clf.canonical(image)
                m = clf.margin
                gain = cv2.copyMakeBorder(clf.gain(clf.inner(canon)), m, m, m, m, cv2.BORDER_REPLICATE)
                rcs = [at[s] for s in near]
                zs, qs = clf.soft_look.fits(image, gain, clf.classes, rcs, BLACK)
                for s, rc, z, q in zip(near, rcs, zs, qs):
                    model = st.models[rc]
                    out.write(json.dumps({
                        "seed": seed0, "board": b, "pos": k, "sq": s, "truth": pieces[s], "got": reading.squares[s],
                        "unknown": s in reading.unknown, "shift": model.shift, "allows": st.allows(rc),
                        "band": list(band(model.shift, True)), "coarse": calls.get(rc, []),
                        "glared": glared.get(s, False), "soft": [float(z), float(q)],
                        "soft_band": list(clf.soft_look.reader.band_at(rc, True))}) + "\n")


def count(paths: list[str]) -> None:
    """Right / unknown / wrong for the black kings and men of the dumps ``paths``."""
    seen = Counter()
    for path in paths:
        for line in open(path):
            r = json.loads(line)
            outcome = "unknown" if r["unknown"] else "right" if r["got"] == r["truth"] else "wrong"
            seen[r["truth"], outcome] += 1
    for code, name in (("B", "kings"), ("b", "men")):
        total = sum(seen[code, o] for o in ("right", "unknown", "wrong"))
        print(f"black {name} on the nearest rows ({total}): right {seen[code, 'right']}, "
              f"unknown {seen[code, 'unknown']}, wrong {seen[code, 'wrong']}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["dump"]:
        dump(int(sys.argv[2]), sys.argv[3], *map(int, sys.argv[4:6]))
    elif sys.argv[1:2] == ["count"]:
        count(sys.argv[2:])
    elif not sys.argv[1:]:
        with tempfile.TemporaryDirectory() as tmp:
            dump(11, os.path.join(tmp, "nb11.jsonl"))
            count([os.path.join(tmp, "nb11.jsonl")])
    else:
        sys.exit(__doc__)
