"""The MQTT protocol between the boards and the hub: topics, payloads, sequence numbers (docs/hub.md).

Topics, for tournament ``T`` and board ``B``::

    rig/T/B/status   retained, QoS 1: "online" / "offline" (the last will; also sent on a clean close)
    rig/T/B/state    retained, QoS 1: the board's whole game (a snapshot) with the last seq it covers
    rig/T/B/msg      QoS 1: one message, {"seq": n, "kind": ..., ...}, n = 1, 2, ... per session
    rig/T/B/replay   QoS 1, hub -> board: {"from": a, "to": b}: send messages a..b again (from the outbox)

Every payload is UTF-8 JSON (status: the bare word). A board's sequence numbers count per session
(``session``: the journal's id), so a resumed journal continues its numbers and a new game starts at 1.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from rig.hub import HubError

__all__ = ["PREFIX", "Topics", "check_id", "parse_hostport", "session_id", "encode", "decode", "MAX_PAYLOAD",
           "KINDS", "ONLINE", "OFFLINE", "PROTOCOL_VERSION"]

PREFIX = "rig"
PROTOCOL_VERSION = 1
ONLINE = "online"
OFFLINE = "offline"
#: the largest payload the hub reads (a snapshot of a long game is a few tens of kB)
MAX_PAYLOAD = 1 << 20
#: message kinds on ``msg``
KINDS = ("snapshot", "move", "withdrawn", "irregularity", "irregularity-update", "clock", "position-lost",
         "position-restored", "end", "health")

_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def check_id(value: str, what: str) -> str:
    """A board or tournament id: 1-64 of ``A-Z a-z 0-9 _ -`` (it is an MQTT topic level and a URL part)."""
    if not isinstance(value, str) or not _ID.match(value):
        raise HubError(f"{what} must be 1-64 letters, digits, '_' or '-', not {value!r}")
    return value


def parse_hostport(text: str, default_port: int = 1883) -> tuple[str, int]:
    """``HOST:PORT`` (or ``HOST``) as (host, port)."""
    host, sep, port = (text or "").rpartition(":")
    if not sep:
        host, port = text, str(default_port)
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise HubError(f"expected HOST:PORT, not {text!r}")
    return host, int(port)


@dataclass(frozen=True)
class Topics:
    """The topics of one tournament (and board)."""

    tournament: str
    board: str = "+"

    def _t(self, leaf: str) -> str:
        return f"{PREFIX}/{self.tournament}/{self.board}/{leaf}"

    @property
    def status(self) -> str:
        return self._t("status")

    @property
    def state(self) -> str:
        return self._t("state")

    @property
    def msg(self) -> str:
        return self._t("msg")

    @property
    def replay(self) -> str:
        return self._t("replay")

    @staticmethod
    def split(topic: str) -> tuple[str, str, str] | None:
        """(tournament, board, leaf) of a topic of ours, else None."""
        parts = topic.split("/")
        if len(parts) != 4 or parts[0] != PREFIX:
            return None
        return parts[1], parts[2], parts[3]


def session_id(session_path: str, header_line: str) -> str:
    """A session's id: the same for a journal and its resumption, another for a new game."""
    h = hashlib.sha1(header_line.encode("utf-8"))
    name = session_path.rsplit("/", 1)[-1]
    h.update(name.encode("utf-8"))
    return h.hexdigest()[:12]


def encode(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def decode(data: bytes) -> dict[str, Any]:
    """A message payload as a dict; :class:`HubError` names what is wrong."""
    if len(data) > MAX_PAYLOAD:
        raise HubError(f"payload of {len(data)} bytes is over {MAX_PAYLOAD}")
    try:
        obj = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise HubError(f"payload is not UTF-8 JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise HubError("payload is not a JSON object")
    return obj
