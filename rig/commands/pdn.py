"""``rig pdn check FILE...``: replay every game of PDN files through the rules core.

Prints one line per game that fails (file, game, move, why), then
``N games, M replayed legally``. Exit code 0 if every game replays, 1 if some
fail, 2 if a file cannot be read.
"""

from __future__ import annotations

import argparse
import sys

from rig.pdn import read_file
from rig.commands.names import VARIANT_METAVAR, variant_arg

__all__ = ["register", "check"]


def register(subparsers) -> None:
    parser = subparsers.add_parser("pdn", help="PDN 3.0 files: check that their games replay legally")
    sub = parser.add_subparsers(dest="pdn_command", metavar="ACTION", required=True)
    check_parser = sub.add_parser("check", help="replay every game of the files; list the games that fail")
    check_parser.add_argument("files", nargs="+", metavar="FILE")
    check_parser.add_argument("--variant", type=variant_arg, metavar=VARIANT_METAVAR, default="international",
                              help="variant of games without a GameType tag (default: international)")
    check_parser.set_defaults(func=check)


def _players(tags: dict[str, str]) -> str:
    white, black = tags.get("White", "?"), tags.get("Black", "?")
    return "" if (white, black) == ("?", "?") else f" ({white} - {black})"


def check(args: argparse.Namespace) -> int:
    total = legal = 0
    unreadable = False
    for path in args.files:
        try:
            result = read_file(path, args.variant)
        except OSError as exc:
            print(f"{path}: cannot read: {exc.strerror or exc}", file=sys.stderr)
            unreadable = True
            continue
        total += result.game_count
        reported: set[int] = set()
        games = {g.index: g for g in result.games}
        for index in range(result.game_count):
            errors = result.errors_of(index)
            if errors:
                e = errors[0]
                more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
                print(f"{path}: game {index + 1}: line {e.line}, column {e.column}: {e.message}{more}")
                reported.add(index)
                continue
            game = games[index]
            replay = game.replay()
            if replay.ok:
                legal += 1
            else:
                print(f"{path}: game {index + 1}{_players(game.tags)}: {replay.error}")
    print(f"{total} games, {legal} replayed legally")
    if unreadable:
        return 2
    return 0 if legal == total else 1
