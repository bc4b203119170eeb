"""Every reading of bench_vision's pictures, dumped to JSON, and the time each took: to check that a change
meant only for speed changes no output, and to time the same pictures before and after.

    .venv/bin/python bench/vision_dump.py --seed 1 --cache /tmp/vis1 --out dump1.json [--repeat 3] [--profile]

The pictures (bench_vision's: ``--boards`` calibrated boards, ``--positions`` still positions each, then
``--games`` games with hands, ``--plies`` plies) are rendered once and kept in ``--cache`` (raw arrays, so a
second run reads exactly the same pixels); each run calibrates again, then reads every picture in the bench's
order (a game's pictures through one :class:`~vision.session.CameraBoard`: the edge watch and the stability
layer keep state). The dump holds, per picture, the squares, king unknown, occluded, every cue and the
confidences and stack fits rounded to 1e-6, and the game frames emitted; the timing the CPU time of each
picture (one OpenCV thread), the best of ``--repeat`` passes, printed as mean / p95 / max and the slowest.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
import time

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench.bench_vision import GAMES, VARIANTS, random_position  # noqa: E402
from calibration.camera import calibrate_camera  # noqa: E402
from rig.simulate.games import load_pdn_game  # noqa: E402
from rig.variants import get_variant  # noqa: E402
from vision.classify import Reading  # noqa: E402
from vision.render import SIDES, render  # noqa: E402
from vision.session import CameraBoard  # noqa: E402
from vision.testset import calibration_pictures, game_pictures, position_scene  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), "..")


def _pictures(args) -> list[dict]:
    """The bench's boards: each a variant, its two calibration pictures, its still pictures and (the first
    ``--games``) its game's pictures."""
    import random

    boards = []
    for b in range(args.boards):
        variant = VARIANTS[b % 3]
        seed = args.seed * 1000 + b
        empty, start = calibration_pictures(get_variant(variant), seed, markers=b % 2 == 0, side=SIDES[b % 4])
        rng = random.Random(seed)
        still = [render(position_scene(empty, random_position(variant, rng), seed * 100 + k))
                 for k in range(args.positions)]
        boards.append({"variant": variant, "empty": render(empty), "start": render(start), "still": still,
                       "scene": empty, "game": []})
    calibrated = [bd for bd in boards if _calibrate(bd) is not None]
    for g in range(min(args.games, len(calibrated))):
        bd = calibrated[g]
        path, index = GAMES[bd["variant"]]
        game = load_pdn_game(os.path.join(ROOT, path), index)
        bd["fen"] = game.fen
        bd["game"] = [render(p.scene) for p in game_pictures(bd["scene"], game.moves[:args.plies], fen=game.fen,
                                                             seed=args.seed + g)]
    for bd in boards:
        del bd["scene"]
    return boards


def _calibrate(bd: dict):
    try:
        return calibrate_camera(get_variant(bd["variant"]), bd["empty"], bd["start"]).config
    except Exception:  # noqa: BLE001 - the bench counts it and goes on
        return None


def _r(x: float) -> float:
    return round(float(x), 6)


def reading_json(r: Reading) -> dict:
    return {"squares": {str(k): v for k, v in sorted(r.squares.items())}, "occluded": r.occluded,
            "unknown": sorted(r.unknown), "confidence": {str(k): _r(v) for k, v in sorted(r.confidence.items())},
            "stack": {str(k): _r(v) for k, v in sorted(r.stack.items())},
            "cues": [_r(r.unexplained), r.foreign, _r(r.dark_on_light), _r(r.skin), _r(r.band), _r(r.warm),
                     _r(r.edge)]}


def run(boards: list[dict], games: int) -> tuple[list[dict], list[tuple[str, float]]]:
    """(every reading, (picture name, CPU ms) of every picture), in the bench's order."""
    out: list[dict] = []
    cpu: list[tuple[str, float]] = []
    configs = []
    for b, bd in enumerate(boards):
        config = _calibrate(bd)
        if config is None:
            out.append({"board": b, "calibration": "failed"})
            continue
        configs.append((b, bd, config))
        clf = config.classifier()
        _ = clf.lut
        for k, img in enumerate(bd["still"]):
            c0 = time.process_time()
            reading = clf.read(img)
            cpu.append((f"board {b} still {k}", (time.process_time() - c0) * 1000))
            out.append({"board": b, "still": k, **reading_json(reading)})
    for b, bd, config in configs[:games]:
        board = CameraBoard(config, bd["fen"])
        _ = board.classifier.lut
        for i, img in enumerate(bd["game"]):
            c0 = time.process_time()
            frames = board.feed(i / 5.0, img)
            cpu.append((f"board {b} game {i}", (time.process_time() - c0) * 1000))
            assert board.last is not None
            out.append({"board": b, "game": i, **reading_json(board.last),
                        "frames": [[f.t, sorted(f.occupied), {str(k): v for k, v in sorted((f.pieces or {}).items())},
                                    f.hand] for f in frames]})
    return out, cpu


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--boards", type=int, default=12)
    ap.add_argument("--positions", type=int, default=25)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--plies", type=int, default=16)
    ap.add_argument("--cache", help="directory keeping the rendered pictures (rendered once)")
    ap.add_argument("--out", help="the readings, JSON")
    ap.add_argument("--repeat", type=int, default=1, help="passes timed; each picture's best is kept")
    ap.add_argument("--profile", help="write cProfile stats of one pass here")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    key = f"s{args.seed}_b{args.boards}_p{args.positions}_g{args.games}_y{args.plies}.pkl"
    path = os.path.join(args.cache, key) if args.cache else None
    if path and os.path.exists(path):
        with open(path, "rb") as f:
            boards = pickle.load(f)
    else:
        boards = _pictures(args)
        if path:
            os.makedirs(args.cache, exist_ok=True)
            with open(path, "wb") as f:
                pickle.dump(boards, f, protocol=pickle.HIGHEST_PROTOCOL)
    if args.profile:
        import cProfile

        prof = cProfile.Profile()
        prof.enable()
        run(boards, args.games)
        prof.disable()
        prof.dump_stats(args.profile)
    best: dict[str, float] = {}
    out: list[dict] = []
    for _ in range(args.repeat):
        out, cpu = run(boards, args.games)
        for name, t in cpu:
            best[name] = min(best.get(name, t), t)
    if args.out:
        with open(args.out, "w") as f:
            for row in out:
                f.write(json.dumps(row, sort_keys=True) + "\n")
    t = np.array(list(best.values()))
    print(f"vision_dump seed {args.seed}: {len(t)} pictures, CPU ms a picture mean {t.mean():.2f} "
          f"p95 {np.percentile(t, 95):.2f} max {t.max():.2f}")
    slow = sorted(best.items(), key=lambda kv: -kv[1])[:8]
    print("  slowest: " + ", ".join(f"{name} {ms:.1f}" for name, ms in slow))
    return 0


if __name__ == "__main__":
    sys.exit(main())
