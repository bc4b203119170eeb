"""``rig round --simulate``: a simulated round in one command: a broker, a hub and simulated boards playing
real games, with the hall in the browser and in the terminal (docs/hub.md).

    rig round --simulate [--boards N] [--speed X] [--listen HOST:PORT] [--out DIR] [--mqtt HOST:PORT]
              [--game GAME.pdn]... [--exit-when-done]

Starts Debian's Mosquitto on a free loopback port (or uses --mqtt), a hub serving on --listen (default
127.0.0.1:8400; port 0 takes a free one), and N boards (default 3: an international, a Brazilian and a
Portuguese game from rig/data/demo) as ``rig run --simulate ... --mqtt`` processes. Prints the URLs; Ctrl-C
stops everything cleanly. Exit 2 for bad options or a missing mosquitto.
"""

from __future__ import annotations

import argparse
import os
import sys

from rig.errors import RigError

__all__ = ["register", "run_round"]


def register(subparsers) -> None:
    p = subparsers.add_parser("round", help="a simulated round: broker, hub and simulated boards, with URLs",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--simulate", action="store_true", required=True,
                   help="simulated boards (the only kind of round this command runs)")
    p.add_argument("--boards", type=int, default=3, metavar="N", help="how many boards (default 3)")
    p.add_argument("--speed", type=float, default=10.0, metavar="X", help="times real time (default 10)")
    p.add_argument("--game", action="append", default=[], metavar="GAME.pdn",
                   help="a game to play (repeatable; default the demo games)")
    p.add_argument("--listen", default="127.0.0.1:8400", metavar="HOST:PORT",
                   help="where the hub serves its pages (default 127.0.0.1:8400; port 0: a free one)")
    p.add_argument("--mqtt", metavar="HOST:PORT", help="use this broker instead of starting Mosquitto")
    p.add_argument("--out", metavar="DIR", help="where the journals and the hub's database go (default a temp dir)")
    p.add_argument("--exit-when-done", action="store_true", help="stop once every board has finished")
    p.set_defaults(func=run_round)


def run_round(args: argparse.Namespace) -> int:
    from rig.hub.broker import find_mosquitto
    from rig.hub.protocol import parse_hostport
    from rig.hub.round import RoundPlan, SimulatedRound, demo_games

    try:
        if not 1 <= args.boards <= 200:
            raise ValueError("--boards must be 1..200")
        if args.speed <= 0:
            raise ValueError("--speed must be positive")
        for g in args.game:
            if not os.path.isfile(g):
                raise ValueError(f"--game {g}: no such file")
        host, port = parse_hostport(args.listen, 8400) if not args.listen.endswith(":0") else \
            (args.listen[:-2], 0)
        mqtt = parse_hostport(args.mqtt) if args.mqtt else None
        if mqtt is None:
            find_mosquitto()
    except (RigError, ValueError) as exc:
        print(f"rig round: {exc}", file=sys.stderr)
        return 2
    plan = RoundPlan(boards=args.boards, speed=args.speed, games=args.game or demo_games(), out=args.out,
                     listen=(host, port), mqtt=mqtt, exit_when_done=args.exit_when_done)
    return SimulatedRound(plan).run()
