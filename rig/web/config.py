"""The pages' settings: where ``rig run --listen`` serves, the arbiter's token and the request limits.

Read from the ``[web]`` table of a TOML file (``rig run --web-config web.toml``)::

    [web]
    arbiter_token = "long-random-string"   # /arbiter and its API; absent: arbiter review disabled
    max_body = 4096                        # bytes of an arbiter request (larger: 413)
    max_streams = 64                       # open /events connections (more: 503)
    history = 20000                        # SSE messages kept for Last-Event-ID resume
    ring = 2000                            # recent journal lines kept in memory for the review
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass

from rig.errors import RigError

__all__ = ["WebConfig", "WebConfigError", "load_web_config", "parse_listen"]


class WebConfigError(RigError, ValueError):
    """A ``--listen`` address or a ``[web]`` config that cannot be used (``rig run`` exit code 2)."""


@dataclass(frozen=True)
class WebConfig:
    """What the board's web server needs besides the game."""

    arbiter_token: str | None = None
    max_body: int = 4096
    max_streams: int = 64
    history: int = 20000
    ring: int = 2000

    def __repr__(self) -> str:  # never show the token
        token = "set" if self.arbiter_token else "none"
        return (f"<WebConfig arbiter_token={token} max_body={self.max_body} max_streams={self.max_streams} "
                f"history={self.history} ring={self.ring}>")


_INTS = {"max_body": (64, 1 << 20), "max_streams": (1, 10000), "history": (100, 1_000_000), "ring": (10, 100_000)}


def load_web_config(path: str) -> WebConfig:
    """The ``[web]`` table of ``path`` (a file with only the table's keys at top level is read too)."""
    try:
        with open(path, "rb") as fh:
            doc = tomllib.load(fh)
    except FileNotFoundError:
        raise WebConfigError(f"{path}: no such web config") from None
    except OSError as exc:
        raise WebConfigError(f"{path}: cannot read ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise WebConfigError(f"{path}: not valid TOML ({exc})") from None
    table = doc.get("web", doc)
    if not isinstance(table, dict):
        raise WebConfigError(f"{path}: [web] must be a table")
    unknown = sorted(set(table) - {"arbiter_token", *_INTS})
    if unknown:
        raise WebConfigError(f"{path}: unknown [web] key(s) {', '.join(unknown)}")
    token = table.get("arbiter_token")
    if token is not None:
        if not isinstance(token, str) or len(token.strip()) < 8:
            raise WebConfigError(f"{path}: arbiter_token must be a string of at least 8 characters")
        token = token.strip()
    values: dict[str, int] = {}
    for key, (lo, hi) in _INTS.items():
        if key in table:
            v = table[key]
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise WebConfigError(f"{path}: {key} must be an integer from {lo} to {hi}, not {v!r}")
            values[key] = v
    return WebConfig(arbiter_token=token, **values)


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:8080`` for IPv6; port 0 = any free port)."""
    host, sep, port = text.rpartition(":")
    if not sep or not host:
        raise WebConfigError(f"--listen is HOST:PORT (e.g. 0.0.0.0:8080), not {text!r}")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise WebConfigError(f"--listen port must be 0..65535, not {port!r}")
    return host, int(port)
