"""``rig run``: the live game on a real board (or a simulated one): matrix and clock in, journal, PDN and report
out, the game shown live in the terminal.

    rig run [--config rig-matrix.toml] [--variant V] [--ruleset R] [--fen FEN] [--tag NAME=VALUE]...
            [--clock-port PORT --clock-protocol dgt|line [--white-side left|right] | --clock-gpio TC | --no-clock]
            --out DIR_OR_SESSION.jsonl [--plain] [--grace S]
            [--simulate GAME.pdn|random [--game N] [--plies N] [--speed X] [--seed S] [--fault KIND:SQ]...
             [--clock-unplug AT:SECONDS]...]
            [--listen HOST:PORT [--web-config web.toml] [--linger SECONDS]]
    rig run --resume SESSION.jsonl [same source options]

The session file (journal) is written and fsynced line by line; GAME.pdn and GAME.report.json are
rewritten atomically next to it after every move and at the end; switch health events go to
GAME.health.jsonl. Ends at the game's end (after --grace seconds), on Ctrl-C/SIGTERM, or at the end of a
simulated game. --listen serves the board page, the OBS overlay, the arbiter review, /game.pdn, /api/game
and /events (docs/web.md); after the game it keeps serving the final game (the arbiter can still decide)
until Ctrl-C/SIGTERM, or for --linger SECONDS. Exit 0; 2 for bad input (unreadable config, bad options, a
journal that cannot be resumed); 1 when a source or the engine failed (the journal is still complete). See docs/run.md.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import threading
import time
import zlib
from dataclasses import replace

from rig.errors import RigError
from rig.commands import stop_on_signals
from rig.session import ClockEvent, Header
from rig.commands.matrix import DEFAULT_CONFIG
from rig.commands.names import RULESET_METAVAR, VARIANT_METAVAR, ruleset_arg, ruleset_for, variant_arg
from rig.variants import INTERNATIONAL, PORTUGUESE, Variant

__all__ = ["register", "run", "RunSetupError"]



class RunSetupError(RigError, ValueError):
    """Options, config or journal that do not allow the run to start (exit code 2)."""


def register(subparsers) -> None:
    p = subparsers.add_parser("run", help="play a game on the board: live view, journal, PDN and report",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", default=DEFAULT_CONFIG, help=f"matrix config TOML (default {DEFAULT_CONFIG}; "
                   "the standard wiring when the default file is absent)")
    p.add_argument("--variant", type=variant_arg, metavar=VARIANT_METAVAR, help="the variant (default: the config's)")
    p.add_argument("--ruleset", type=ruleset_arg, metavar=RULESET_METAVAR, help="the rule set (default: the variant's)")
    p.add_argument("--fen", help="start position (PDN FEN) when not the initial one")
    p.add_argument("--tag", action="append", default=[], metavar="NAME=VALUE", help="PDN tag (repeatable)")
    clk = p.add_mutually_exclusive_group()
    clk.add_argument("--clock-port", metavar="PORT", help="serial clock: /dev/serial/by-id/..., usb:VID:PID, ...")
    clk.add_argument("--clock-gpio", metavar="TIMECONTROL", help="push buttons on GPIO; the Pi keeps time (e.g. 5+3)")
    clk.add_argument("--no-clock", action="store_true", help="no game clock (moves commit on a still board)")
    p.add_argument("--clock-protocol", choices=("dgt", "line"), help="protocol of --clock-port (and of the "
                   "simulated clock; default line)")
    p.add_argument("--white-side", choices=("left", "right"), default="left",
                   help="the clock side (seen by the arbiter) that is White's (default left)")
    p.add_argument("--out", metavar="DIR_OR_SESSION.jsonl", help="session file, or a directory for a new one")
    p.add_argument("--resume", metavar="SESSION.jsonl", help="continue a session after a crash or power cut")
    p.add_argument("--plain", action="store_true", help="line-by-line updates instead of the live screen")
    p.add_argument("--grace", type=float, default=3.0, metavar="S",
                   help="seconds to keep recording after the game ends (default 3)")
    web = p.add_argument_group("pages (docs/web.md)")
    web.add_argument("--listen", metavar="HOST:PORT", help="serve the board's pages (/, /overlay, /arbiter, "
                     "/game.pdn, /api/game, /events) on this address, e.g. 0.0.0.0:8080")
    web.add_argument("--web-config", metavar="web.toml", help="TOML with a [web] table: arbiter_token, limits")
    web.add_argument("--linger", type=float, metavar="SECONDS", help="after the game, keep serving the final "
                     "game this long (default: until Ctrl-C/SIGTERM); the arbiter can still decide meanwhile")
    cam = p.add_argument_group("camera (instead of the matrix; docs/camera.md)")
    cam.add_argument("--camera", metavar="CAM.toml", help="the board is seen by this calibrated camera")
    cam.add_argument("--camera-device", metavar="N|pi", help="/dev/videoN number, or 'pi' (default 0)")
    cam.add_argument("--camera-images", metavar="DIR", help="a recorded picture sequence instead of a camera")
    cam.add_argument("--camera-fps", type=float, default=5.0, help="pictures a second of --camera-images "
                     "(played at --speed times real time)")
    sim = p.add_argument_group("simulation (no Pi needed)")
    sim.add_argument("--simulate", metavar="GAME.pdn|random",
                     help="a simulated board: the matrix on mock pins, the clock an emulator on a pty")
    sim.add_argument("--game", type=int, default=1, metavar="N", help="which game of GAME.pdn (default 1)")
    sim.add_argument("--plies", type=int, default=60, metavar="N", help="length of a random game (default 60)")
    sim.add_argument("--speed", type=float, default=1.0, metavar="X", help="times real time (default 1)")
    sim.add_argument("--seed", default="0", help="seed of the simulated players and switches (default 0)")
    sim.add_argument("--fault", action="append", default=[], metavar="KIND:SQ",
                     help="simulated switch fault: stuck-closed:SQ, dead:SQ, missing-diode:SQ")
    sim.add_argument("--clock-unplug", action="append", default=[], metavar="AT:SECONDS",
                     help="pull the simulated clock's cable at session time AT for SECONDS")
    from rig.hub.cli_options import add_mqtt_options

    add_mqtt_options(p)
    p.set_defaults(func=run)


# --------------------------------------------------------------------------- setting up


def _tags(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise RunSetupError(f"--tag is NAME=VALUE, not {item!r}")
        out[name.strip()] = value
    return out


def _config(args, variant: Variant | None):
    from sensors.config import default_matrix_config, load_matrix_config

    if os.path.exists(args.config) or args.config != DEFAULT_CONFIG:
        try:
            cfg = load_matrix_config(args.config)
        except (RigError, ValueError) as exc:
            raise RunSetupError(str(exc)) from None
        if variant is not None and cfg.variant != variant:
            raise RunSetupError(f"{args.config} is calibrated for {cfg.variant.name}, not {variant.name}")
        return cfg
    return default_matrix_config(variant or PORTUGUESE)


def _seed(text: str) -> int | str:
    return int(text) if text.lstrip("-").isdigit() else text


def _check_options(args) -> None:
    if args.out is None and args.resume is None:
        raise RunSetupError("--out DIR_OR_SESSION.jsonl is required (or --resume SESSION.jsonl)")
    if args.out is not None and args.resume is not None and os.path.abspath(args.out) != os.path.abspath(args.resume):
        raise RunSetupError("--resume appends to its own session file: leave out --out")
    if args.simulate is None:
        for name in ("fault", "clock_unplug"):
            if getattr(args, name):
                raise RunSetupError(f"--{name.replace('_', '-')} needs --simulate")
        if args.clock_port and not args.clock_protocol:
            raise RunSetupError("--clock-port needs --clock-protocol dgt|line")
    else:
        if args.clock_port or args.clock_gpio:
            raise RunSetupError("--simulate brings its own clock (an emulator); use --no-clock for none")
        if args.speed <= 0:
            raise RunSetupError("--speed must be positive")
    if args.clock_protocol and not (args.clock_port or args.simulate):
        raise RunSetupError("--clock-protocol goes with --clock-port (or --simulate)")
    if args.grace < 0:
        raise RunSetupError("--grace must not be negative")
    if args.web_config and not args.listen:
        raise RunSetupError("--web-config goes with --listen HOST:PORT")
    if args.linger is not None:
        if not args.listen:
            raise RunSetupError("--linger goes with --listen HOST:PORT")
        if not args.linger >= 0 or args.linger == float("inf"):
            raise RunSetupError("--linger must be a number of seconds, 0 or more")


def _web(args):
    """(host, port, WebConfig) of --listen and --web-config, or None without --listen."""
    if not args.listen:
        return None
    from rig.web.config import WebConfig, load_web_config, parse_listen

    host, port = parse_listen(args.listen)
    return host, port, load_web_config(args.web_config) if args.web_config else WebConfig()


def _has_clock(args) -> bool:
    if args.no_clock:
        return False
    return bool(args.clock_port or args.clock_gpio or args.simulate is not None)


def _sim_session(args, variant: Variant | None, clock: bool, tags: dict[str, str]):
    from rig.simulate import HumanModel, simulate_game
    from rig.simulate.games import load_pdn_game, load_random_game

    if args.simulate == "random":
        if args.plies < 1:
            raise RunSetupError("--plies must be positive")
        source = load_random_game(variant or PORTUGUESE, args.plies, _seed(args.seed), args.fen)
    else:
        source = load_pdn_game(args.simulate, args.game, variant or INTERNATIONAL)
        if variant is not None and source.variant != variant:
            raise RunSetupError(f"{args.simulate} game {args.game} is {source.variant.name}, not {variant.name}")
    model = HumanModel(bounce_p=0.0)  # through a matrix, the switches bounce, not the hands
    session = simulate_game(source.variant, source.moves, fen=source.fen, seed=_seed(args.seed), clock=clock,
                            model=model, tags={**source.tags, **tags},
                            ruleset=ruleset_for(source.variant, args.ruleset))
    return source, session, model




def _logging(paths, plain: bool) -> logging.Handler:
    """Driver complaints (clock garbage, reconnections) go to stderr with --plain, to GAME.log on the live screen."""
    handler: logging.Handler = (logging.StreamHandler(sys.stderr) if plain
                                else logging.FileHandler(paths.log, encoding="utf-8"))
    handler.setLevel(logging.WARNING)
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s: %(message)s"))
    root = logging.getLogger("rig")
    root.addHandler(handler)
    if root.level == logging.NOTSET or root.level > logging.WARNING:
        root.setLevel(logging.WARNING)
    return handler


# --------------------------------------------------------------------------- the command


def run(args: argparse.Namespace) -> int:
    from rig.live.journal import Journal, JournalError, RunPaths, recover
    from rig.live.loop import LiveLoop
    from rig.live.screen import RunView, run_screen
    from rig.live.simulated import Unplug, build_world
    from rig.live.sources import ClockSource, MatrixSource, SessionClock, SimMatrixSource
    from rig.reconstruct import Reconstructor
    from rig.errors import SessionFormatError

    world = None
    try:
        _check_options(args)
        tags = _tags(args.tag)
        web = _web(args)
        unplugs = tuple(Unplug.parse(u) for u in args.clock_unplug)
        recovered = None
        if args.resume:
            try:
                recovered = recover(args.resume)
            except SessionFormatError as exc:
                raise RunSetupError(f"{args.resume}: {exc}") from None
            variant = recovered.header.variant
            if args.variant and args.variant != variant:
                raise RunSetupError(f"{args.resume} is a {variant.name} session, not {args.variant.name}")
            clock_on = bool(recovered.header.extra.get("clock"))
            if args.no_clock and clock_on or _has_clock(args) and not clock_on:
                raise RunSetupError(f"{args.resume} was recorded {'with' if clock_on else 'without'} a clock: "
                                    "resume it the same way")
        else:
            variant = args.variant
            clock_on = _has_clock(args)
        camera = None
        if getattr(args, "camera", None):
            from vision.config import load_camera_config

            if args.simulate is not None:
                raise RunSetupError("--camera and --simulate do not go together")
            camera = load_camera_config(args.camera)
            if variant is not None and camera.variant != variant:
                raise RunSetupError(f"{args.camera} is calibrated for {camera.variant.name}, not {variant.name}")
            variant = camera.variant
        if variant is None and args.simulate is None:
            from sensors.config import load_matrix_config

            variant = load_matrix_config(args.config).variant if os.path.exists(args.config) else None
        sim = None
        if args.simulate is not None:
            source, session, model = _sim_session(args, variant, clock_on, tags)
            variant = source.variant
            sim = (source, session, model)
        cfg = _config(args, variant)
        v = cfg.variant
        if recovered is not None:
            header = recovered.header
            paths = RunPaths(args.resume)
        else:
            if sim is not None:
                h = sim[1].header
                extra = dict(h.extra, source="simulated-matrix", clock=clock_on)
                header = replace(h, extra=extra)
            else:
                ruleset = ruleset_for(v, args.ruleset)
                if args.fen:
                    from rig.board import Board

                    Board(v, args.fen)  # raises on a bad FEN
                header = Header(v, ruleset, args.fen, tags,
                                extra={"source": "camera" if camera else "matrix", "clock": clock_on,
                                       "started": time.strftime("%Y-%m-%dT%H:%M:%S%z")})
            paths = RunPaths.for_output(args.out)
    except (RigError, ValueError, OSError) as exc:
        print(f"rig run: {exc}", file=sys.stderr)
        return 2

    # -- the journal, the engine, the pages, the view
    engine = Reconstructor(header)
    feed = server = None

    def give_up(message: str, *journals: Journal) -> int:
        """Stop what has started so far (the simulated world, the pages), close ``journals``, say why: exit 2."""
        if world is not None:
            world.close()
        if server is not None:
            server.stop()
        for opened in journals:
            opened.close()
        print(f"rig run: {message}", file=sys.stderr)
        return 2

    if web is not None:           # before the journal: an address in use leaves no empty session behind
        from rig.web.feed import GameFeed
        from rig.web.server import WebServer, WebServerError

        feed = GameFeed(header, web[2], session_path=paths.session)
        try:
            server = WebServer(feed, web[0], web[1]).start()
        except WebServerError as exc:
            print(f"rig run: {exc}", file=sys.stderr)
            return 2
        print(f"rig run: pages on {server.url}/ (overlay {server.url}/overlay, arbiter {server.url}/arbiter)",
              file=sys.stderr, flush=True)
    try:
        if recovered is not None:
            gap_s = max(0.0, time.time() - os.path.getmtime(paths.session))
            journal = Journal.reopen(recovered)
        else:
            gap_s = 0.0
            journal = Journal.create(paths.session, header)
        health_journal = Journal(paths.health, open(paths.health, "a", encoding="utf-8"))
    except (JournalError, OSError) as exc:
        return give_up(str(exc))
    handler = _logging(paths, args.plain)
    base = 0.0 if recovered is None else round(recovered.last_t + 0.001, 4)
    speed = args.speed if args.simulate is not None or getattr(args, "camera_images", None) else 1.0
    clock = SessionClock(base, speed, started=args.simulate is None)
    tg = header.tags
    view = RunView(f"{tg.get('White', 'White')} - {tg.get('Black', 'Black')}", engine.board)
    screen = run_screen(sys.stdout, args.plain)
    stop = threading.Event()
    loop = LiveLoop(engine, journal, paths, [], clock, view=view, screen=screen, health_journal=health_journal,
                    stop=stop, grace_s=args.grace, sinks=[feed] if feed is not None else [])
    from rig.hub.cli_options import mqtt_sink

    try:
        publisher = mqtt_sink(args, paths.session, header.tags)
    except (RigError, ValueError, OSError) as exc:
        return give_up(str(exc), journal, health_journal)
    later: tuple = ()
    if publisher is not None:
        if server is not None:           # the hub hears of decisions made after the end (rig.web.linger)
            from rig.web.linger import CloseLater

            publisher = CloseLater(publisher)
            later = (publisher,)
        loop.sinks.add(publisher)
    info = (f"{v.name}, {header.ruleset.id}; {'simulated board' if sim else 'camera' if camera else 'matrix'}"
            f"{', clock' if clock_on else ', no clock'}; session {paths.session}")
    screen.start(view, info)
    if recovered is not None:
        if recovered.torn is not None:
            print(f"rig run: {recovered.describe_torn()}", file=sys.stderr)
            loop.note(recovered.describe_torn())
        n = loop.replay(recovered.events)
        loop.note(f"resumed {paths.session}: {n} events replayed, {len(engine.moves)} moves; "
                   f"the rig was down {gap_s:.0f} s")
        if clock_on:
            loop.append(ClockEvent(recovered.last_t, "disconnected",
                                   extra={"source": "rig", "reason": "rig stopped; journal resumed"}))
            loop.append(ClockEvent(base, "reconnected",
                                   extra={"source": "rig", "gap_s": round(gap_s, 3), "state_lost": None}))
        else:
            loop.mark_next_frame = {"resumed": {"after_t": recovered.last_t, "gap_s": round(gap_s, 3)}}
        screen.show(view, [], loop.t)

    # -- the sources
    from sensors.matrix import MatrixScanner

    last_frame = next((e.occupied for e in reversed(recovered.events) if hasattr(e, "occupied")), None) \
        if recovered is not None else None
    expected = last_frame if last_frame is not None else engine.start_board.occupied()
    try:
        if camera is not None:
            from rig.live.sources import CameraSource
            from vision.capture import open_capture
            from vision.session import CameraBoard

            scanner = None
            capture = open_capture(device=args.camera_device, images=args.camera_images, fps=args.camera_fps,
                                   size=camera.image_size)
            capture.open()
            if camera.capture and capture.live:
                capture.lock(camera.capture)  # exposure and white balance as calibrated
            matrix_source = CameraSource(CameraBoard(camera, header.fen), capture, clock)
        elif sim is not None:
            source, session, model = sim
            world = build_world(session, clock=clock, start_t=base, faults=tuple(args.fault),
                                seed=zlib.crc32(str(args.seed).encode()), pinmap=cfg.pins, wiring=cfg.cellmap,
                                protocol=(args.clock_protocol or "line") if clock_on else None,
                                white_side=args.white_side, unplugs=unplugs, model=model)
            scanner = MatrixScanner(v, cfg.pins, cfg.cellmap, pin_factory=world.matrix.pin_factory(),
                                    scan_hz=cfg.scan_hz, debounce=cfg.debounce, clock=world.sim_clock,
                                    sleep=world.sim_clock.sleep, t0=0.0, expected_start=expected,
                                    settle_s=cfg.settle_us * 1e-6)
            matrix_source = SimMatrixSource(scanner, clock, world.matrix, world.sim_clock, base)
            loop.end_at = world.end_at
        else:
            scanner = MatrixScanner(v, cfg.pins, cfg.cellmap, scan_hz=cfg.scan_hz, debounce=cfg.debounce,
                                    clock=clock, t0=0.0, expected_start=expected, settle_s=cfg.settle_us * 1e-6)
            matrix_source = MatrixSource(scanner, clock)
        sources = [matrix_source]
        if camera is not None:
            loop.sinks.add(matrix_source)  # the arbiter's set-position reaches the camera's rules
        if clock_on:
            clock_source = ClockSource(_clock_factory(args, world, clock), clock)
            sources.append(clock_source)
            if world is not None or args.clock_gpio:   # the rig keeps the time: its dials follow the arbiter
                from rig.live.arbiter_hand import ArbiterHand

                emulator = world.emulator if world is not None else None
                dials = (lambda: emulator.model) if emulator is not None else \
                    (lambda: getattr(clock_source.device, "model", None))      # the GPIO clock's own model
                loop.sinks.add(ArbiterHand(dials, args.white_side))
        loop.sources = sources
    except Exception as exc:  # noqa: BLE001 - pins or clock that cannot be opened: say which and stop
        return give_up(f"cannot open the board: {type(exc).__name__}: {exc}", journal, health_journal)

    def started() -> None:
        """A simulation begins once the clock driver is connected (a real clock is there before the game)."""
        if world is not None:
            deadline = time.monotonic() + 5.0
            for s in loop.sources:
                device = getattr(s, "device", None)
                while device is not None and not device.state.connected and time.monotonic() < deadline:
                    time.sleep(0.005)
            clock.start()
            world.start_hands(clock)

    loop.on_started = started
    try:
        with stop_on_signals(stop):
            outcome = loop.run()
            if feed is not None and server is not None and not stop.is_set():
                from rig.web.linger import linger

                how = f"for {args.linger:g} s" if args.linger is not None else "until Ctrl-C"
                print(f"rig run: {outcome.reason}; the final game stays on {server.url}/ {how}",
                      file=sys.stderr, flush=True)
                held, later = later, ()
                linger(loop, feed, stop, args.linger, held)       # closes the held sinks at its end
                outcome.result = loop.engine.result               # a result the arbiter recorded after the end
    finally:
        for sink in later:                  # not lingered: the held sinks close now
            sink.close(loop)
        if server is not None:
            server.stop()
        if world is not None:
            world.close()
        try:
            if scanner is not None:
                scanner.close()
        except Exception:  # noqa: BLE001
            pass
        journal.close()
        health_journal.close()
        logging.getLogger("rig").removeHandler(handler)
        handler.close()
    screen.finish(view, loop.engine.result)
    per_line = 1000 * outcome.sync_s / outcome.lines if outcome.lines else 0.0
    print(f"rig run: {outcome.reason}; {outcome.moves} moves, {outcome.irregularities} irregularities, "
          f"result {outcome.result}; {outcome.lines} lines journaled ({per_line:.2f} ms each with fsync), "
          f"{outcome.health} health events", file=sys.stderr)
    print(f"rig run: session {paths.session}; PDN {paths.pdn}; report {paths.report}", file=sys.stderr)
    for err in outcome.source_errors:
        print(f"rig run: source failed: {err}", file=sys.stderr)
    if outcome.engine_error:
        print(f"rig run: the engine failed: {outcome.engine_error}; transcribe the session later", file=sys.stderr)
    return 1 if outcome.engine_error or outcome.source_errors else 0


def _clock_factory(args, world, clock):
    """A function making the clock driver with the source's callback."""
    from sensors.clock.dgt import DgtClock
    from sensors.clock.line import LineClock
    from sensors.clock.serial_link import Backoff, parse_port_spec

    if world is not None:
        assert world.emulator is not None
        port, protocol = world.emulator.path, world.emulator.protocol
        cls = LineClock if protocol == "line" else DgtClock
        b = Backoff()  # reconnection attempts as often in session time as on a real board
        backoff = Backoff(b.initial / args.speed, b.factor, b.maximum / args.speed)
        return lambda cb: cls(port, white_side=args.white_side, now=clock, on_signal=cb, backoff=backoff)
    elif args.clock_gpio:
        from sensors.clock.gpio import GpioClock

        return lambda cb: GpioClock(args.clock_gpio, white_side=args.white_side, now=clock, on_signal=cb)
    else:
        port, protocol = parse_port_spec(args.clock_port), args.clock_protocol
    cls = LineClock if protocol == "line" else DgtClock
    return lambda cb: cls(port, white_side=args.white_side, now=clock, on_signal=cb)
