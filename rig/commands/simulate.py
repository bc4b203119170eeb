"""``rig simulate``: turn a game (PDN, or random legal play) into a realistic board session.

    rig simulate GAME.pdn [--game N] [--seed S] [--no-clock] [--inject TYPE@PLY[:corrected]]...
                 [--noise calm|normal|noisy|hard] [--behaviour NAME]... [--matrix [--fault KIND:SQ]...]
                 [--answers FILE.json]
                 --out SESSION.jsonl
    rig simulate --random PLIES --variant V [--seed S] ... --out SESSION.jsonl

The session goes to ``--out`` (``-`` for standard output); ``--answers`` also
writes what the reconstruction must find (moves, irregularities, observations,
notes).
Exit code 0, or 2 for bad input (unreadable game, impossible injection).
"""

from __future__ import annotations

import argparse
import json
import sys
import zlib
from collections import Counter
from typing import Callable

from rig.errors import RigError
from rig.simulate import INJECTION_TYPES, HumanModel, Injection, simulate_game
from rig.simulate.games import GameSource, load_pdn_game, load_random_game
from rig.simulate.model import BEHAVIOURS
from rig.commands.names import VARIANT_METAVAR, variant_arg
from rig.variants import INTERNATIONAL, PORTUGUESE

__all__ = ["register", "run", "MODELS"]

MODELS: dict[str, Callable[..., HumanModel]] = {"calm": HumanModel.calm, "normal": HumanModel,
                                                "noisy": HumanModel.noisy, "hard": HumanModel.hard}


def register(subparsers) -> None:
    p = subparsers.add_parser("simulate", help="turn a PDN game (or random play) into a realistic board session",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", nargs="?", metavar="GAME.pdn", help="PDN file of the game to play")
    p.add_argument("--game", dest="game_index", type=int, default=1, metavar="N",
                   help="which game of the file (1-based, default 1)")
    p.add_argument("--random", type=int, metavar="PLIES", help="random legal play of PLIES moves instead of a PDN game")
    p.add_argument("--variant", type=variant_arg, metavar=VARIANT_METAVAR, default=None,
                   help="variant for --random, and of PDN games without a GameType tag (default international)")
    p.add_argument("--seed", default="0", help="seed of the human model (any text; default 0)")
    p.add_argument("--no-clock", action="store_true", help="no game clock: moves end when the board stands still")
    p.add_argument("--inject", action="append", default=[], metavar="TYPE@PLY[:corrected]",
                   help="commit an irregularity at turn PLY (0-based); types: " + ", ".join(INJECTION_TYPES))
    p.add_argument("--noise", choices=sorted(MODELS), default="normal", help="human model preset (default normal)")
    p.add_argument("--behaviour", action="append", default=[], choices=sorted(BEHAVIOURS), metavar="NAME",
                   help="add a real-board behaviour to the preset (repeatable; --noise hard has them all): "
                        + ", ".join(BEHAVIOURS))
    p.add_argument("--matrix", action="store_true",
                   help="read the board through a simulated reed-switch matrix and the project's scanner")
    p.add_argument("--fault", action="append", default=[], metavar="KIND:SQ",
                   help="with --matrix: stuck-closed:SQ, dead:SQ or missing-diode:SQ (repeatable)")
    p.add_argument("--answers", metavar="FILE.json", help="also write the moves and irregularities to expect")
    p.add_argument("--out", required=True, metavar="SESSION.jsonl", help="where to write the session (- for stdout)")
    p.set_defaults(func=run)


def _source(args: argparse.Namespace) -> GameSource:
    if args.random is not None:
        if args.game:
            raise RigError("give either GAME.pdn or --random, not both")
        if args.random < 1:
            raise RigError("--random needs a positive number of plies")
        return load_random_game(args.variant or PORTUGUESE, args.random, args.seed)
    if not args.game:
        raise RigError("give a PDN file (GAME.pdn) or --random PLIES")
    return load_pdn_game(args.game, args.game_index, args.variant or INTERNATIONAL)


def run(args: argparse.Namespace) -> int:
    try:
        if args.fault and not args.matrix:
            raise RigError("--fault needs --matrix")
        source = _source(args)
        injections = [Injection.parse(text) for text in args.inject]
        seed: int | str = int(args.seed) if args.seed.lstrip("-").isdigit() else args.seed
        # through a matrix, the simulated switches bounce, not the hands
        model = MODELS[args.noise](bounce_p=0.0) if args.matrix else MODELS[args.noise]()
        if args.behaviour:
            model = HumanModel.with_behaviours(*args.behaviour, base=model)
        session = simulate_game(source.variant, source.moves, fen=source.fen, seed=seed,
                                clock=not args.no_clock, inject=injections, model=model, tags=source.tags)
        if args.matrix:
            from sensors.simulation import through_matrix
            session = through_matrix(session, args.fault, seed=zlib.crc32(str(seed).encode()))
    except (RigError, ValueError) as exc:
        print(f"rig simulate: {exc}", file=sys.stderr)
        return 2
    if args.out == "-":
        session.write(sys.stdout)
    else:
        session.write(args.out)
    if args.answers:
        with open(args.answers, "w", encoding="utf-8") as fh:
            json.dump({"source": source.origin, "moves": [vars(m) for m in session.expected_record],
                       "irregularities": session.expected_irregularities,
                       "observations": session.expected_observations, "notes": session.notes,
                       "final_fen": session.final_fen,
                       "behaviours": [vars(q) for q in session.behaviours]}, fh, indent=1, ensure_ascii=False)
            fh.write("\n")
    print(f"rig simulate: {source.origin}: {len(session.expected_moves)} moves, "
          f"{len(session.expected_irregularities)} irregularities, {len(session.events)} events, "
          f"{session.duration:.0f} s", file=sys.stderr)
    if session.behaviours:
        done = Counter(q.kind for q in session.behaviours)
        print("rig simulate: real-board behaviours: " + ", ".join(f"{k} {n}" for k, n in done.items()),
              file=sys.stderr)
    for note in session.notes:
        print(f"rig simulate: {note}", file=sys.stderr)
    return 0
