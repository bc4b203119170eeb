"""``rig record``, ``rig doctor``, ``rig calibrate matrix``: the reed-switch matrix from the command line.

``--simulate`` everywhere runs on a simulated matrix through gpiozero mock
pins (virtual time), so every command can be tried and tested off a Pi.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
from typing import Any

from rig.commands import stop_on_signals
from rig.session import Frame, Header, dump_event, read_session
from rig.commands.names import VARIANT_METAVAR, ruleset_arg, ruleset_for, variant_arg
from rig.variants import PORTUGUESE

DEFAULT_CONFIG = "rig-matrix.toml"


def _config(args):
    from sensors.config import default_matrix_config, load_matrix_config

    if args.config and os.path.exists(args.config):
        cfg = load_matrix_config(args.config)
        if args.variant and args.variant != cfg.variant:
            raise SystemExit(f"rig: {args.config} is calibrated for {cfg.variant.name}, not {args.variant.name}")
        return cfg
    if args.config and args.config != DEFAULT_CONFIG:
        load_matrix_config(args.config)  # raises: no such file
    return default_matrix_config(args.variant or PORTUGUESE)


def _sim_matrix(cfg, args, clock):
    from sensors.cellmap import structured_map
    from sensors.simmatrix import SimulatedMatrix

    wiring = cfg.cellmap
    if getattr(args, "sim_orientation", None):
        v = cfg.variant
        from calibration.matrix import ORIENTATIONS

        axis, up_r, up_c = next(k for k, name in ORIENTATIONS.items() if name == args.sim_orientation)
        rows = list(range(v.size)) if up_r else list(reversed(range(v.size)))
        cols = list(range(v.half)) if up_c else list(reversed(range(v.half)))
        wiring = structured_map(v, axis, rows, cols)
    return SimulatedMatrix(cfg.variant, pinmap=cfg.pins, wiring=wiring, faults=args.fault or (),
                           seed=getattr(args, "seed", 0), clock=clock)




def _demo_timeline(variant):
    """The initial position, then white and black each push their most advanced man one square."""
    v = variant
    occ = set(v.white_start) | set(v.black_start)
    out = [(0.0, frozenset(occ))]
    t = 1.0
    for side, step in ((v.white_start, 1), (v.black_start, -1)):
        for sq in sorted(side, key=lambda s: v.coords(s)[1] * step, reverse=True):
            f, r = v.coords(sq)
            to = next((d for d in (v.square_at(f - 1, r + step), v.square_at(f + 1, r + step))
                       if d is not None and d not in occ), None)
            if to is not None:
                occ.discard(sq)
                out.append((t, frozenset(occ)))
                occ.add(to)
                out.append((t + 0.4, frozenset(occ)))
                t += 2.0
                break
    return out


def cmd_record(args) -> int:
    if getattr(args, "camera", None):
        from rig.commands.vision import cmd_record_camera

        return cmd_record_camera(args)
    from sensors.matrix import MatrixScanner
    from sensors.simmatrix import SimClock

    cfg = _config(args)
    v = cfg.variant
    try:
        ruleset = ruleset_for(v, args.ruleset)
    except ValueError as exc:
        print(f"rig record: {exc}", file=sys.stderr)
        return 2
    stop = threading.Event()
    clock = sleep = factory = None
    duration = args.duration
    expected = None if args.no_start_check else frozenset(v.white_start) | frozenset(v.black_start)
    if args.simulate is not None:
        clock = SimClock()
        sleep = clock.sleep
        if args.simulate:
            _, events = read_session(args.simulate)
            timeline = [(e.t, e.occupied) for e in events if isinstance(e, Frame)]
        else:
            timeline = _demo_timeline(v)
        matrix = _sim_matrix(cfg, args, clock)
        matrix.set_occupied(timeline[0][1], timeline[0][0], bounce=False)
        for t, occ in timeline[1:]:
            matrix.set_occupied(occ, t)
        factory = matrix.pin_factory()
        duration = timeline[-1][0] + 1.0 if duration is None else duration
    header = Header(variant=v, ruleset=ruleset,
                    tags={"Event": args.event} if args.event else {}, extra={"source": "matrix"})
    out = sys.stdout if args.output == "-" else open(args.output, "w", encoding="utf-8")
    health_out = open(args.health, "w", encoding="utf-8") if args.health else None

    def write(fh, line: str) -> None:
        fh.write(line + "\n")
        fh.flush()
        if fh is not sys.stdout:
            os.fsync(fh.fileno())  # a power cut loses at most the line being written

    frames = 0
    try:
        write(out, dump_event(header))
        opts: dict[str, Any] = {} if clock is None else {"clock": clock, "sleep": sleep}
        with stop_on_signals(stop), MatrixScanner(v, cfg.pins, cfg.cellmap, pin_factory=factory,
                                                   scan_hz=cfg.scan_hz, debounce=cfg.debounce,
                                                   settle_s=cfg.settle_us * 1e-6, expected_start=expected,
                                                   raw=args.raw, **opts) as scanner:
            for ev in scanner.run(duration=duration, stop=stop):
                if isinstance(ev, Frame):
                    write(out, dump_event(ev))
                    frames += 1
                else:
                    print(f"rig record: {ev.kind}: {ev.message}", file=sys.stderr)
                    if health_out:
                        write(health_out, json.dumps(ev.to_json()))
    finally:
        if out is not sys.stdout:
            out.close()
        if health_out:
            health_out.close()
    print(f"rig record: {frames} frames", file=sys.stderr)
    return 0


def cmd_doctor(args) -> int:
    from sensors.doctor import analyse_recording, check_live
    from sensors.matrix import MatrixScanner
    from sensors.prompts import CellWaiter

    if args.recording:
        header, events = read_session(args.recording)
        cellmap = None
        if args.config and os.path.exists(args.config):
            from sensors.config import load_matrix_config

            cfg = load_matrix_config(args.config)
            cellmap = cfg.cellmap if cfg.variant == header.variant else None
        findings = analyse_recording(header, events, cellmap)
    else:
        cfg = _config(args)
        v = cfg.variant
        opts, factory, prompter = _hands(cfg, args)
        with MatrixScanner(v, cfg.pins, cfg.cellmap, pin_factory=factory, scan_hz=cfg.scan_hz,
                           debounce=cfg.debounce, settle_s=cfg.settle_us * 1e-6, **opts) as scanner:
            squares = [v.parse_square(s) for s in args.squares.split(",")] if args.squares else None
            poses = ("centre",) if args.quick else ("centre", "off-centre", "king")
            findings = check_live(scanner, CellWaiter(scanner, timeout=args.timeout), prompter, squares,
                                  poses=poses)
    if args.json:
        print(json.dumps([f.__dict__ for f in findings], indent=1))
    else:
        for f in findings:
            print(f)
        if not findings:
            print("rig doctor: no problem found")
    return 1 if any(f.severity == "error" for f in findings) else 0


def _hands(cfg, args):
    """Who places the pieces: a person at the terminal on the real pins, or scripted hands on a
    simulated matrix (``--simulate``, virtual time). Returns (scanner options, pin factory, prompter)."""
    from sensors.prompts import ScriptedHands, TerminalPrompter
    from sensors.simmatrix import SimClock

    if not args.simulate:
        return {}, None, TerminalPrompter()
    clock = SimClock()
    matrix = _sim_matrix(cfg, args, clock)
    return {"clock": clock, "sleep": clock.sleep}, matrix.pin_factory(), ScriptedHands(matrix)


def cmd_calibrate_matrix(args) -> int:
    from calibration.matrix import run_wizard
    from sensors.config import save_matrix_config
    from sensors.errors import CalibrationError
    from sensors.matrix import MatrixScanner
    from sensors.pinmap import default_pinmap
    from sensors.prompts import CellWaiter

    v = args.variant
    from sensors.config import default_matrix_config

    cfg = default_matrix_config(v)
    pins = default_pinmap(v.size)
    opts, factory, prompter = _hands(cfg, args)
    with MatrixScanner(v, pins, pin_factory=factory, **opts) as scanner:
        try:
            result = run_wizard(v, CellWaiter(scanner, timeout=args.timeout), prompter, pins)
        except CalibrationError as exc:
            print(f"rig calibrate: {exc}", file=sys.stderr)
            return 1
    save_matrix_config(result.config(pins), args.output)
    print(f"rig calibrate: {v.name} map ({result.orientation}) saved to {args.output}")
    for c in result.crossed:
        print(f"  {c}")
    return 0


def _common(p: argparse.ArgumentParser, variant_default: str | None = None) -> None:
    p.add_argument("--variant", type=variant_arg, metavar=VARIANT_METAVAR, default=variant_default,
                   help="the variant (default: the config's, else portuguese)")
    p.add_argument("--config", default=DEFAULT_CONFIG, help=f"matrix config TOML (default {DEFAULT_CONFIG})")


def _sim_options(p: argparse.ArgumentParser) -> None:
    from calibration.matrix import ORIENTATIONS

    p.add_argument("--fault", action="append", metavar="KIND:N",
                   help="simulated fault: stuck-closed:SQ, dead:SQ, missing-diode:SQ, reversed-diode:SQ, "
                        "dead-spot:SQ, crosstalk:SQ, repelling-king:SQ, broken-row:I, broken-col:J")
    p.add_argument("--sim-orientation", choices=sorted(ORIENTATIONS.values()),
                   help="how the simulated board is really wired")
    p.add_argument("--seed", type=int, default=0, help="bounce pattern of the simulated switches")


def _subparsers_of(sub, name: str, help_text: str):
    """The nested sub-command group ``name`` (shared with other modules that add to it)."""
    parser = sub.choices.get(name)
    if parser is None:
        parser = sub.add_parser(name, help=help_text)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    return parser.add_subparsers(dest=f"{name}_target", metavar="TARGET")


def register(sub) -> None:
    p = sub.add_parser("record", help="record what the matrix sees to a session file")
    _common(p)
    p.add_argument("-o", "--output", default="-", help="session file (JSON Lines; default standard output)")
    p.add_argument("--raw", action="store_true", help="add the matrix cells to every frame (re-calibration)")
    p.add_argument("--duration", type=float, help="stop after this many seconds")
    p.add_argument("--health", metavar="FILE", help="also write health events (JSON Lines) to FILE")
    p.add_argument("--ruleset", type=ruleset_arg, help="the header's ruleset (default: the variant's)")
    p.add_argument("--event", help="the Event tag")
    p.add_argument("--no-start-check", action="store_true",
                   help="the game does not start from the initial position: skip the start health checks")
    p.add_argument("--simulate", nargs="?", const="", metavar="SESSION",
                   help="record a simulated matrix following SESSION's frames (default: a short demo)")
    _sim_options(p)
    from rig.commands.vision import add_record_options

    add_record_options(p)
    p.set_defaults(func=cmd_record)

    p = sub.add_parser("doctor", help="check the matrix wiring and every switch, live or from a recording")
    _common(p)
    p.add_argument("--recording", metavar="SESSION", help="analyse a recorded session instead of the live board")
    p.add_argument("--squares", help="live: only these squares (comma-separated)")
    p.add_argument("--timeout", type=float, default=20.0, help="live: seconds to wait for each piece")
    p.add_argument("--quick", action="store_true",
                   help="live: a centred piece only (skip the off-centre piece and the stacked king)")
    p.add_argument("--json", action="store_true", help="findings as JSON")
    p.add_argument("--simulate", action="store_true", help="live check of a simulated matrix, scripted hands")
    _sim_options(p)
    p.set_defaults(func=cmd_doctor)

    targets = _subparsers_of(sub, "calibrate", "calibrate a sensor")
    p = targets.add_parser("matrix", help="learn which matrix cell is which square (placement wizard)")
    p.add_argument("--variant", type=variant_arg, metavar=VARIANT_METAVAR, default="portuguese")
    p.add_argument("-o", "--output", default=DEFAULT_CONFIG, help=f"config TOML to write (default {DEFAULT_CONFIG})")
    p.add_argument("--timeout", type=float, default=20.0, help="seconds to wait for each piece")
    p.add_argument("--simulate", action="store_true", help="calibrate a simulated matrix with scripted hands")
    _sim_options(p)
    p.set_defaults(func=cmd_calibrate_matrix)
    from rig.commands.vision import add_calibrate_parser

    add_calibrate_parser(targets)
