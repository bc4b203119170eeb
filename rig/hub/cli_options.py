"""The options ``rig run`` gets for publishing its board to a tournament's broker (docs/hub.md)."""

from __future__ import annotations

import argparse

from rig.hub import HubError

__all__ = ["add_mqtt_options", "mqtt_sink"]


def add_mqtt_options(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("many boards (MQTT, docs/hub.md)")
    g.add_argument("--mqtt", metavar="HOST:PORT", help="publish the board to this MQTT broker (rig hub follows it)")
    g.add_argument("--board", metavar="ID", help="the board's id in the hall (letters, digits, _ -); with --mqtt")
    g.add_argument("--tournament", default="local", metavar="T", help="tournament id (default local)")
    g.add_argument("--round", type=int, metavar="N", help="round number (default: the Round tag, else 1)")


def mqtt_sink(args: argparse.Namespace, session_path: str, tags: dict[str, str]):
    """The :class:`~rig.hub.publish.MqttPublisher` the options ask for, or None without ``--mqtt``."""
    from rig.hub.protocol import check_id, parse_hostport

    if args.mqtt is None:
        if args.board is not None or args.round is not None:
            raise HubError("--board and --round go with --mqtt HOST:PORT")
        return None
    host, port = parse_hostport(args.mqtt)
    if args.board is None:
        raise HubError("--mqtt needs --board ID (the board's id in the hall)")
    check_id(args.board, "--board")
    check_id(args.tournament, "--tournament")
    rnd = args.round
    if rnd is None:
        text = tags.get("Round", "")
        rnd = int(text) if text.isdigit() else 1
    if rnd < 1:
        raise HubError("--round must be 1 or more")
    from rig.hub.publish import MqttPublisher

    return MqttPublisher(host, port, tournament=args.tournament, board=args.board, round=rnd,
                         session_path=session_path)
