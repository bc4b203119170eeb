"""Board sessions: the event vocabulary every source produces and every sink consumes.

The format is fixed by docs/session-format.md (version 1): JSON Lines, a header
first, then frames and clock events in time order. This module reads and
writes it; :func:`read_session` validates every line and raises
:class:`SessionFormatError` naming the line and what is wrong.

Optional fields the rig adds (readers ignore what they do not know):
``frame.raw`` (matrix cell states, for re-calibration), ``frame.hand`` (a camera's hand over the board),
``clock.source``,
``clock`` events ``pause``/``resume``/``disconnected``/``reconnected`` and
``arbiter`` decisions (``{"type": "arbiter", "t": ..., "action": ...}``) and the scanner's switch
``health`` findings (``{"type": "health", "t": ..., "kind": ..., "square": ...}``, written by ``rig run``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import IO, Any, Iterable, Iterator, Literal, Union

from rig.errors import SessionFormatError
from rig.rulesets import RULESETS, RuleSet, default_ruleset_for
from rig.variants import VARIANTS, Variant

__all__ = [
    "SESSION_VERSION",
    "Header",
    "Frame",
    "ClockEvent",
    "ArbiterEvent",
    "HealthLine",
    "HEALTH_KINDS",
    "Event",
    "CLOCK_EVENTS",
    "read_session",
    "iter_session",
    "parse_line",
    "dump_event",
    "write_session",
]

SESSION_VERSION = 1
Side = Literal["white", "black"]
SIDES: tuple[Side, Side] = ("white", "black")
PIECE_CODES = ("w", "W", "b", "B")
CLOCK_EVENTS = ("press", "time", "flag", "pause", "resume", "disconnected", "reconnected")
ARBITER_ACTIONS: tuple[str, ...] = ("accept", "rectify", "set-position", "result")
#: arbiter actions added for the review page and the law on irregularities (docs/session-format.md "Arbiter lines")
ARBITER_ACTIONS += ("dismiss", "draw-claim", "time")
#: the kinds of a ``health`` line (the scanner's, sensors/health.py)
HEALTH_KINDS = ("stuck-closed", "dead", "missing-diode", "reversed-diode", "chattering", "recovered",
                "ghost-held")


@dataclass(frozen=True)
class Header:
    """The session's first line: the :class:`Variant` and :class:`RuleSet` objects its names resolve to
    (:func:`parse_header`; :meth:`to_json` writes the names back)."""

    variant: Variant
    ruleset: RuleSet
    fen: str | None = None
    tags: dict[str, str] = field(default_factory=dict)
    version: int = SESSION_VERSION
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.variant, Variant) or not isinstance(self.ruleset, RuleSet):
            raise TypeError(f"a Header holds a Variant and a RuleSet (names are resolved where they enter, with "
                            f"get_variant and get_ruleset), not {self.variant!r} and {self.ruleset!r}")

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": "header", "version": self.version, "variant": self.variant.name,
                             "ruleset": self.ruleset.id, "fen": self.fen, "tags": dict(self.tags)}
        d.update(self.extra)
        return d


@dataclass(frozen=True)
class Frame:
    """The complete set of occupied squares at time ``t`` (seconds)."""

    t: float
    occupied: frozenset[int]
    pieces: dict[int, str] | None = None
    raw: Any = None
    #: a camera saw a hand over the board at ``t``: the frame repeats the last position (the board is hidden)
    hand: bool = False

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": "frame", "t": round(self.t, 4), "occupied": sorted(self.occupied)}
        if self.pieces is not None:
            d["pieces"] = {str(k): v for k, v in sorted(self.pieces.items())}
        if self.raw is not None:
            d["raw"] = self.raw
        if self.hand:
            d["hand"] = True
        return d


@dataclass(frozen=True)
class ClockEvent:
    """A clock event: ``press`` (side), ``time`` (white_ms, black_ms), ``flag`` (side), ``pause``, ``resume``,
    ``disconnected``/``reconnected`` (the link to the clock, marking a gap)."""

    t: float
    event: str
    side: str | None = None
    white_ms: int | None = None
    black_ms: int | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": "clock", "t": round(self.t, 4), "event": self.event}
        if self.side is not None:
            d["side"] = self.side
        if self.white_ms is not None:
            d["white_ms"] = self.white_ms
        if self.black_ms is not None:
            d["black_ms"] = self.black_ms
        d.update(self.extra)
        return d


@dataclass(frozen=True)
class ArbiterEvent:
    """An arbiter decision entered during or after the game: ``accept``/``rectify`` an irregularity
    (``ref`` its index), ``set-position`` (``fen``), ``result`` (``result``); ``dismiss`` an irregularity
    (``ref``, ``note`` the reason), a ``draw-claim`` of ``side`` (``upheld`` or not, ``note`` its basis),
    ``time`` added to (``delta_ms`` > 0) or taken from (< 0) ``side``'s clock."""

    t: float
    action: str
    ref: int | None = None
    fen: str | None = None
    result: str | None = None
    note: str | None = None
    side: str | None = None
    delta_ms: int | None = None
    upheld: bool | None = None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": "arbiter", "t": round(self.t, 4), "action": self.action}
        for k in ("ref", "fen", "result", "note", "side", "delta_ms", "upheld"):
            v = getattr(self, k)
            if v is not None:
                d[k] = v
        return d


@dataclass(frozen=True)
class HealthLine:
    """A switch health finding of the scanner written into the session by ``rig run`` (docs/session-format.md):
    ``kind`` one of :data:`HEALTH_KINDS`, ``square``, ``masked`` (the scanner keeps the square out of the
    frames), ``message``; other fields (``cell``, ``related``) are kept in ``extra``."""

    t: float
    kind: str
    square: int
    masked: bool = False
    message: str = ""
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": "health", "t": round(self.t, 4), "kind": self.kind, "square": self.square,
                             "masked": self.masked, "message": self.message}
        d.update(self.extra)
        return d


Event = Union[Frame, ClockEvent, ArbiterEvent, HealthLine]


def _num(obj: dict, key: str, line: int) -> float:
    v = obj.get(key)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise SessionFormatError(f"{key!r} must be a number, got {v!r}", line)
    if v != v or v in (float("inf"), float("-inf")):
        raise SessionFormatError(f"{key!r} must be finite", line)
    return float(v)


def _ms(obj: dict, key: str, line: int) -> int | None:
    if key not in obj or obj[key] is None:
        return None
    v = obj[key]
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise SessionFormatError(f"{key!r} must be a non-negative integer of milliseconds, got {v!r}", line)
    return v


def parse_header(obj: dict, line: int = 1) -> Header:
    if obj.get("type") != "header":
        raise SessionFormatError("the first line must be the header ({\"type\": \"header\", ...})", line)
    version = obj.get("version")
    if version != SESSION_VERSION:
        raise SessionFormatError(f"unsupported session version {version!r} (this rig reads {SESSION_VERSION})", line)
    variant = obj.get("variant")
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise SessionFormatError(f"unknown variant {variant!r}; expected one of {', '.join(VARIANTS)}", line)
    ruleset = obj.get("ruleset") or default_ruleset_for(VARIANTS[variant]).id
    if not isinstance(ruleset, str) or ruleset not in RULESETS:
        raise SessionFormatError(f"unknown ruleset {ruleset!r}; expected one of {', '.join(RULESETS)}", line)
    _check_ruleset_variant(ruleset, variant, line)
    fen = obj.get("fen")
    if fen is not None and not isinstance(fen, str):
        raise SessionFormatError("'fen' must be a string or null", line)
    if fen is not None:
        _check_fen(fen, variant, line)
    tags = obj.get("tags") or {}
    if not isinstance(tags, dict) or not all(isinstance(k, str) for k in tags):
        raise SessionFormatError("'tags' must be an object of strings", line)
    if obj.get("clock") is not None and not isinstance(obj["clock"], bool):
        raise SessionFormatError(f"'clock' must be true or false, got {obj['clock']!r}", line)
    known = {"type", "version", "variant", "ruleset", "fen", "tags"}
    extra = {k: v for k, v in obj.items() if k not in known}
    # the session header is an edge: its names are resolved here, once (docs/architecture.md)
    return Header(variant=VARIANTS[variant], ruleset=RULESETS[ruleset], fen=fen, tags={k: str(v) for k, v in tags.items()},
                  version=version, extra=extra)


def _check_ruleset_variant(ruleset: str, variant: str, line: int) -> None:
    """A rule set is one federation's rules for one variant (docs/rulesets.md): another variant's is bad input."""
    book = RULESETS.get(ruleset)
    if book is not None and book.variant.name != variant:
        mine = ", ".join(r for r, b in RULESETS.items() if b.variant.name == variant)
        raise SessionFormatError(f"rule set {ruleset!r} is for {book.variant.name}, not {variant}; "
                                 f"{variant} is played under {mine}", line)


def _check_fen(fen: str, variant: str, line: int) -> None:
    """The header's start position must be a FEN of the variant the rig can set up (PDN FEN tag)."""
    from rig.board import Board
    from rig.errors import RigError

    try:
        Board(VARIANTS[variant], fen)
    except (RigError, ValueError) as exc:
        raise SessionFormatError(f"'fen' is not a position of the {variant} board: {exc}", line) from None


def parse_event(obj: dict, line: int, squares: int) -> Event:
    kind = obj.get("type")
    if kind == "frame":
        t = _num(obj, "t", line)
        occ = obj.get("occupied")
        if not isinstance(occ, list):
            raise SessionFormatError("frame 'occupied' must be a list of square numbers", line)
        for s in occ:
            if isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= squares:
                raise SessionFormatError(f"unknown square {s!r} in 'occupied' (squares are 1..{squares})", line)
        pieces = obj.get("pieces")
        parsed: dict[int, str] | None = None
        if pieces is not None:
            if not isinstance(pieces, dict):
                raise SessionFormatError("frame 'pieces' must be an object square -> w/W/b/B", line)
            parsed = {}
            for k, v in pieces.items():
                try:
                    sq = int(k)
                except (TypeError, ValueError):
                    raise SessionFormatError(f"unknown square {k!r} in 'pieces'", line) from None
                if not 1 <= sq <= squares:
                    raise SessionFormatError(f"unknown square {k!r} in 'pieces' (squares are 1..{squares})", line)
                if v not in PIECE_CODES:
                    raise SessionFormatError(f"piece {v!r} on {k} is not one of w, W, b, B", line)
                parsed[sq] = v
        hand = obj.get("hand", False)
        if not isinstance(hand, bool):
            raise SessionFormatError(f"frame 'hand' must be true or false, not {hand!r}", line)
        return Frame(t=t, occupied=frozenset(occ), pieces=parsed, raw=obj.get("raw"), hand=hand)
    if kind == "clock":
        t = _num(obj, "t", line)
        ev = obj.get("event")
        if ev not in CLOCK_EVENTS:
            raise SessionFormatError(f"unknown clock event {ev!r}; expected one of {', '.join(CLOCK_EVENTS)}", line)
        side = obj.get("side")
        if ev in ("press", "flag") and side not in SIDES:
            raise SessionFormatError(f"clock {ev} needs 'side' white or black, got {side!r}", line)
        if side is not None and side not in SIDES:
            raise SessionFormatError(f"'side' must be white or black, got {side!r}", line)
        white_ms, black_ms = _ms(obj, "white_ms", line), _ms(obj, "black_ms", line)
        if ev == "time" and (white_ms is None or black_ms is None):
            raise SessionFormatError("clock time needs 'white_ms' and 'black_ms'", line)
        known = {"type", "t", "event", "side", "white_ms", "black_ms"}
        return ClockEvent(t=t, event=ev, side=side, white_ms=white_ms, black_ms=black_ms,
                          extra={k: v for k, v in obj.items() if k not in known})
    if kind == "arbiter":
        t = _num(obj, "t", line)
        action = obj.get("action")
        if action not in ARBITER_ACTIONS:
            raise SessionFormatError(f"unknown arbiter action {action!r}; expected one of {', '.join(ARBITER_ACTIONS)}", line)
        ref = obj.get("ref")
        if ref is not None and (isinstance(ref, bool) or not isinstance(ref, int)):
            raise SessionFormatError("arbiter 'ref' must be an integer", line)
        side, delta, upheld = obj.get("side"), obj.get("delta_ms"), obj.get("upheld")
        if action in ("draw-claim", "time") and side not in SIDES:
            raise SessionFormatError(f"arbiter {action} needs 'side' white or black, got {side!r}", line)
        if action == "time" and (isinstance(delta, bool) or not isinstance(delta, int)):
            raise SessionFormatError(f"arbiter time needs 'delta_ms', an integer of milliseconds, got {delta!r}", line)
        if upheld is not None and not isinstance(upheld, bool):
            raise SessionFormatError(f"arbiter 'upheld' must be true or false, got {upheld!r}", line)
        return ArbiterEvent(t=t, action=action, ref=ref, fen=obj.get("fen"), result=obj.get("result"),
                            note=obj.get("note"), side=side, delta_ms=delta, upheld=upheld)
    if kind == "health":
        t = _num(obj, "t", line)
        hk = obj.get("kind")
        if hk not in HEALTH_KINDS:
            raise SessionFormatError(f"unknown health kind {hk!r}; expected one of {', '.join(HEALTH_KINDS)}", line)
        square = obj.get("square")
        if isinstance(square, bool) or not isinstance(square, int) or not 1 <= square <= squares:
            raise SessionFormatError(f"health 'square' must be a square number 1..{squares}, got {square!r}", line)
        masked = obj.get("masked", False)
        message = obj.get("message", "")
        if not isinstance(masked, bool) or not isinstance(message, str):
            raise SessionFormatError("health 'masked' must be true/false and 'message' a string", line)
        known = {"type", "t", "kind", "square", "masked", "message"}
        return HealthLine(t=t, kind=hk, square=square, masked=masked, message=message,
                          extra={k: v for k, v in obj.items() if k not in known})
    if kind == "header":
        raise SessionFormatError("a second header in the same session", line)
    raise SessionFormatError(f"unknown line type {kind!r}; expected frame, clock, arbiter or health", line)


def parse_line(text: str, line: int) -> dict:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SessionFormatError(f"not valid JSON ({exc.msg} at column {exc.colno})", line) from None
    if not isinstance(obj, dict):
        raise SessionFormatError("each line must be a JSON object", line)
    return obj


def iter_session(stream: Iterable[str]) -> Iterator[Header | Event]:
    """Yield the header, then each event, validating as it goes (time must not go backwards).

    Raises :class:`SessionFormatError` at the first malformed line; blank lines are skipped.
    """
    header: Header | None = None
    last_t = float("-inf")
    squares = 0
    for lineno, text in enumerate(stream, start=1):
        if not text.strip():
            continue
        obj = parse_line(text, lineno)
        if header is None:
            header = parse_header(obj, lineno)
            squares = header.variant.squares
            yield header
            continue
        ev = parse_event(obj, lineno, squares)
        if ev.t < last_t:
            raise SessionFormatError(f"time goes backwards ({ev.t} after {last_t})", lineno)
        last_t = ev.t
        yield ev
    if header is None:
        raise SessionFormatError("empty session: the header is missing", 1)


def read_session(path_or_stream: str | IO[str]) -> tuple[Header, list[Event]]:
    """Read a whole session file: (header, events)."""
    if isinstance(path_or_stream, str):
        with open(path_or_stream, encoding="utf-8") as fh:
            items = list(iter_session(fh))
    else:
        items = list(iter_session(path_or_stream))
    header = items[0]
    assert isinstance(header, Header)
    return header, items[1:]  # type: ignore[return-value]


def dump_event(ev: Header | Event) -> str:
    """One JSON line (no newline) for a header or event."""
    return json.dumps(ev.to_json(), separators=(", ", ": "))


def write_session(stream: IO[str], header: Header, events: Iterable[Event]) -> None:
    stream.write(dump_event(header) + "\n")
    for ev in events:
        stream.write(dump_event(ev) + "\n")
