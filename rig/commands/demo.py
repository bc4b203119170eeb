"""``rig demo``: a simulated board plays a real game; the terminal shows the board, each move as it is
reconstructed, the clocks, the draw counters and any irregularity, live.

    rig demo [--variant V] [--game FILE.pdn --game-index N] [--speed X] [--seed S] [--no-clock]
             [--inject TYPE@PLY]... [--plain]

Without ``--game`` it plays the bundled real game of the variant (rig/data/demo/SOURCES.md). The default
speed shows a whole game in about a minute and a half. ``--plain`` (and any output that is not a terminal)
prints line-by-line updates instead of redrawing the screen.
"""

from __future__ import annotations

import argparse
import sys

from rig.demo import auto_speed, demo_game_path, play, screen_for
from rig.errors import RigError
from rig.simulate import INJECTION_TYPES, HumanModel, Injection, simulate_game
from rig.simulate.games import load_pdn_game
from rig.commands.names import VARIANT_METAVAR, variant_arg

__all__ = ["register", "run"]


def register(subparsers) -> None:
    p = subparsers.add_parser("demo", help="a simulated board plays a real game, shown live in the terminal",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--variant", type=variant_arg, metavar=VARIANT_METAVAR, default="international",
                   help="variant of the bundled game (default international)")
    p.add_argument("--game", metavar="FILE.pdn", help="play a game of this PDN file instead")
    p.add_argument("--game-index", type=int, default=1, metavar="N", help="which game of --game (1-based)")
    p.add_argument("--speed", type=float, default=None, metavar="X",
                   help="times real time (default: the whole game in about 90 s)")
    p.add_argument("--seed", default="0", help="seed of the simulated players (default 0)")
    p.add_argument("--no-clock", action="store_true", help="play without a game clock")
    p.add_argument("--inject", action="append", default=[], metavar="TYPE@PLY",
                   help="have the players commit an irregularity (types: " + ", ".join(INJECTION_TYPES) + ")")
    p.add_argument("--plain", action="store_true", help="line-by-line updates instead of a live screen")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        path = args.game or demo_game_path(args.variant.name)
        game = load_pdn_game(path, args.game_index if args.game else 1, args.variant)
        if args.speed is not None and args.speed <= 0:
            raise RigError("--speed must be positive")
        seed: int | str = int(args.seed) if args.seed.lstrip("-").isdigit() else args.seed
        session = simulate_game(game.variant, game.moves, fen=game.fen, seed=seed, clock=not args.no_clock,
                                inject=[Injection.parse(i) for i in args.inject], model=HumanModel(),
                                tags=game.tags)
    except (RigError, ValueError) as exc:
        print(f"rig demo: {exc}", file=sys.stderr)
        return 2
    speed = args.speed or auto_speed(session)
    tags = game.tags
    title = f"{tags.get('White', '?')} - {tags.get('Black', '?')}"
    event = ", ".join(x for x in (tags.get("Event"), tags.get("Site"), tags.get("Date")) if x and set(x) - set("?."))
    info = (f"{game.variant.name}, {event or 'real game'}: {len(game.moves)} moves; simulated board, "
            f"{'clock' if not args.no_clock else 'no clock'}, seed {args.seed}, speed {speed:.1f}x")
    screen = screen_for(sys.stdout, args.plain)
    play(session, screen, title=title, info=info, recorded=game.result, speed=speed)
    return 0
