"""``rig hub``: follow every board of a tournament (MQTT), keep it in SQLite, serve the hall and the feeds.

    rig hub --mqtt HOST:PORT [--tournament T] [--db hub.sqlite] [--pairings pairings.csv|.toml]
            [--listen HOST:PORT] [--variant V] [--event NAME] [--max-viewers N]

Pages: http://HOST:PORT/ (all boards), /game/BOARD, /round/N.pdn (the relay feed), /game/BOARD.pdn,
/api/... (docs/hub.md). Ctrl-C or SIGTERM stops it; the database keeps everything for the next start.
Exit 2 for bad options, an unreadable pairings file or a port that cannot be opened.
"""

from __future__ import annotations

import argparse
import sys
import threading

from rig.commands import stop_on_signals
from rig.errors import RigError
from rig.commands.names import VARIANT_METAVAR, variant_arg

__all__ = ["register", "run_hub"]


def register(subparsers) -> None:
    p = subparsers.add_parser("hub", help="follow a tournament's boards: the hall page, round PDN feeds, SQLite",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mqtt", required=True, metavar="HOST:PORT", help="the tournament's MQTT broker")
    p.add_argument("--tournament", default="local", metavar="T", help="tournament id (default local)")
    p.add_argument("--db", default="hub.sqlite", metavar="FILE", help="SQLite database (default hub.sqlite)")
    p.add_argument("--pairings", metavar="FILE", help="pairings (CSV or TOML): round, board, white, black")
    p.add_argument("--listen", default="127.0.0.1:8400", metavar="HOST:PORT",
                   help="where the pages are served (default 127.0.0.1:8400)")
    p.add_argument("--variant", type=variant_arg, metavar=VARIANT_METAVAR, default="international",
                   help="variant of a paired game no board has published yet (default international)")
    p.add_argument("--event", metavar="NAME", help="the Event tag of the feeds (default the tournament id)")
    p.add_argument("--max-viewers", type=int, default=2000, metavar="N", help="most SSE viewers (default 2000)")
    p.set_defaults(func=run_hub)


def build(args):
    """The hub (subscribed) and its ASGI app from the options; HubError/OSError on bad input."""
    from rig.hub.pairings import load_pairings
    from rig.hub.protocol import check_id, parse_hostport
    from rig.hub.service import Hub
    from rig.hub.store import Store
    from rig.hub.web import create_app

    host, port = parse_hostport(args.mqtt)
    check_id(args.tournament, "--tournament")
    listen = parse_hostport(args.listen, 8400)
    if args.max_viewers < 1:
        raise ValueError("--max-viewers must be 1 or more")
    pairings = load_pairings(args.pairings) if args.pairings else []
    try:
        store = Store(args.db)
    except Exception as exc:  # noqa: BLE001 - sqlite3.Error and friends: say which file
        raise OSError(f"{args.db}: {exc}") from None
    hub = Hub(args.tournament, store, pairings=pairings, variant=args.variant, event=args.event)
    app = create_app(hub, max_viewers=args.max_viewers)
    return hub, app, (host, port), listen


def run_hub(args: argparse.Namespace) -> int:
    import uvicorn

    try:
        hub, app, (host, port), (lhost, lport) = build(args)
    except (RigError, ValueError, OSError) as exc:
        print(f"rig hub: {exc}", file=sys.stderr)
        return 2
    hub.start(host, port)
    print(f"rig hub: tournament {args.tournament}; broker {host}:{port}; database {args.db}", file=sys.stderr)
    print(f"rig hub: the hall  http://{lhost}:{lport}/", file=sys.stderr)
    config = uvicorn.Config(app, host=lhost, port=lport, log_level="warning", access_log=False,
                            timeout_graceful_shutdown=1, backlog=2048)
    server = uvicorn.Server(config)
    stopped = threading.Event()
    try:
        with stop_on_signals(stopped):   # uvicorn re-raises the signal after its shutdown: ours only notes it
            server.run()
    finally:
        hub.stop()
        hub.store.close()
    if not server.started:
        print(f"rig hub: cannot serve on {lhost}:{lport}", file=sys.stderr)
        return 2
    return 0
