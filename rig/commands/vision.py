"""``rig vision read``, and the camera halves of ``rig calibrate camera`` and ``rig record --camera``.

    rig calibrate camera --variant V -o CAM.toml (--empty EMPTY.jpg --start START.jpg | --device N|pi)
    rig vision read --config CAM.toml IMAGE... --out DIR
    rig record --camera CAM.toml (--device N|pi | --images DIR --fps F) -o S.jsonl

Bad input (a missing or broken config or picture, a board not found, a wrong setup) is exit 2 with a
message naming it. See docs/camera.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading

from rig.errors import RigError
from rig.commands.names import VARIANT_METAVAR, ruleset_for, variant_arg

__all__ = ["register", "cmd_read", "cmd_calibrate_camera", "cmd_record_camera", "add_record_options",
           "add_calibrate_parser"]


def _fail(cmd: str, exc: BaseException) -> int:
    print(f"rig {cmd}: {exc}", file=sys.stderr)
    return 2


def _imread(path: str):
    import cv2

    img = cv2.imread(path, cv2.IMREAD_COLOR)
    if img is None:
        raise FileNotFoundError(f"{path}: no such picture, or not one OpenCV can read")
    return img


def cmd_read(args) -> int:
    from vision.config import load_camera_config

    try:
        config = load_camera_config(args.config)
        clf = config.classifier()
        os.makedirs(args.out, exist_ok=True)
        for path in args.images:
            img = _imread(path)
            h, w = img.shape[:2]
            if (w, h) != tuple(config.image_size):
                raise ValueError(f"{path}: {w}x{h}, but {args.config} was calibrated at "
                                 f"{config.image_size[0]}x{config.image_size[1]}")
            reading = clf.read(img)
            name = os.path.splitext(os.path.basename(path))[0] + ".json"
            with open(os.path.join(args.out, name), "w", encoding="utf-8") as fh:
                json.dump(reading.to_json(), fh)
                fh.write("\n")
            if args.verbose:
                print(f"{path}: {'hand over the board' if reading.occluded else len(reading.squares)} "
                      f"({reading.ms:.1f} ms)")
    except (RigError, ValueError, OSError) as exc:
        return _fail("vision read", exc)
    return 0


def cmd_calibrate_camera(args) -> int:
    from calibration.camera import calibrate_camera
    from vision.config import save_camera_config

    v = args.variant
    try:
        capture = None
        if args.empty or args.start:
            if not (args.empty and args.start):
                raise ValueError("--empty and --start go together (the empty board, then the start position)")
            empty, start = _imread(args.empty), _imread(args.start)
        else:
            from vision.capture import open_capture

            capture = open_capture(device=args.device if args.device is not None else 0)
            capture.open()
            input("Empty board in view, nothing in the way: press Enter ")
            empty = capture.read()[1]
            input(f"Now set up the {v.name} start position, hands away: press Enter ")
            start = capture.read()[1]
        report = calibrate_camera(v, empty, start, px=args.px, marker_size=args.marker_size,
                                  marker_offset=args.marker_offset, use_markers=not args.no_markers)
        config = report.config
        if capture is not None:
            from dataclasses import replace

            config = replace(config, capture=capture.lock())
            capture.close()
        save_camera_config(config, args.output)
    except (RigError, ValueError, OSError) as exc:
        return _fail("calibrate", exc)
    print(f"rig calibrate: {v.name} board found by its {config.method}, white at the {report.white_side} of "
          f"the picture; saved to {args.output}")
    for w in report.warnings:
        print(f"  warning: {w}")
    return 0


def cmd_record_camera(args) -> int:
    """``rig record --camera``: pictures -> session frames, fsynced line by line; held-back readings go
    to ``S.camera.jsonl`` next to the session."""
    from rig.commands import stop_on_signals
    from rig.session import Header, dump_event
    from rig.board import Board
    from vision.capture import open_capture
    from vision.config import load_camera_config
    from vision.session import CameraBoard

    try:
        config = load_camera_config(args.camera)
        if args.variant and args.variant != config.variant:
            raise ValueError(f"{args.camera} is calibrated for {config.variant.name}, not {args.variant.name}")
        ruleset = ruleset_for(config.variant, args.ruleset)
        if args.images is None and args.fps != 5.0:
            raise ValueError("--fps goes with --images (a camera runs at its own rate)")
        if args.fen:
            Board(config.variant, args.fen)  # raises on a FEN not of this board
        capture = open_capture(device=args.device, images=args.images, fps=args.fps, size=config.image_size)
        capture.open()
        if config.capture and capture.live:
            capture.lock(config.capture)
    except (RigError, ValueError, OSError) as exc:
        return _fail("record", exc)
    board = CameraBoard(config, args.fen)
    header = Header(config.variant, ruleset, args.fen,
                    tags={"Event": args.event} if args.event else {}, extra={"source": "camera"})
    out = sys.stdout if args.output == "-" else open(args.output, "w", encoding="utf-8")
    side = None if args.output == "-" else os.path.splitext(args.output)[0] + ".camera.jsonl"

    def write(line: str) -> None:
        out.write(line + "\n")
        out.flush()
        if out is not sys.stdout:
            os.fsync(out.fileno())

    stop = threading.Event()
    code = 0
    try:
        write(dump_event(header))
        t_end = None
        with stop_on_signals(stop):
            while not stop.is_set():
                got = capture.read()
                if got is None or (args.duration is not None and got[0] > args.duration):
                    break
                t_end = got[0]
                for frame in board.feed(*got):
                    write(dump_event(frame))
        if t_end is not None:
            for frame in board.finish(t_end):
                write(dump_event(frame))
    except (RigError, ValueError, OSError) as exc:
        code = _fail("record", exc)
    finally:
        capture.close()
        if out is not sys.stdout:
            out.close()
        if side is not None and board.watcher.log:
            with open(side, "w", encoding="utf-8") as fh:
                for held in board.watcher.log:
                    fh.write(json.dumps(held.to_json()) + "\n")
    print(f"rig record: {board.stats.summary()}", file=sys.stderr)
    return code


def add_record_options(p: argparse.ArgumentParser) -> None:
    """The camera options of ``rig record`` (the matrix module owns the parser)."""
    p.add_argument("--camera", metavar="CAM.toml", help="record from a calibrated camera instead of the matrix")
    p.add_argument("--device", help="camera: /dev/videoN number, or 'pi' for the Pi camera (default 0)")
    p.add_argument("--images", metavar="DIR", help="camera: read the pictures of DIR in name order instead")
    p.add_argument("--fps", type=float, default=5.0, help="camera --images: pictures a second (default 5)")
    p.add_argument("--fen", help="camera: the game starts from this position (PDN FEN), not the initial one")


def add_calibrate_parser(targets) -> None:
    p = targets.add_parser("camera", help="learn the camera's view of the board (empty board, then start position)")
    p.add_argument("--variant", type=variant_arg, metavar=VARIANT_METAVAR, default="portuguese")
    p.add_argument("-o", "--output", default="rig-camera.toml", help="config TOML to write (default rig-camera.toml)")
    p.add_argument("--empty", metavar="EMPTY.jpg", help="a picture of the empty board")
    p.add_argument("--start", metavar="START.jpg", help="a picture of the start position, same camera and place")
    p.add_argument("--device", help="take the two pictures with this camera (/dev/videoN number or 'pi')")
    p.add_argument("--px", type=int, default=32, help="pixels a square in the top-down view (default 32)")
    p.add_argument("--marker-size", type=float, default=0.9, help="marker side, in squares (default 0.9)")
    p.add_argument("--marker-offset", type=float, default=0.65,
                   help="marker centre outside each board corner, in squares (default 0.65)")
    p.add_argument("--no-markers", action="store_true", help="find the board by its squares even if markers show")
    p.set_defaults(func=cmd_calibrate_camera)


def register(sub) -> None:
    p = sub.add_parser("vision", help="the camera: read pictures of the board")
    targets = p.add_subparsers(dest="vision_command", metavar="COMMAND")
    r = targets.add_parser("read", help="read pictures: DIR/X.json with every square, hands, time")
    r.add_argument("--config", required=True, metavar="CAM.toml", help="camera config from `rig calibrate camera`")
    r.add_argument("images", nargs="+", metavar="IMAGE", help="pictures to read")
    r.add_argument("--out", required=True, metavar="DIR", help="directory for the X.json files")
    r.add_argument("-v", "--verbose", action="store_true", help="one line a picture on standard output")
    r.set_defaults(func=cmd_read)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])
