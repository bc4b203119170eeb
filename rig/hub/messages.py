"""The messages a board publishes, made from the engine's outputs (docs/hub.md "Payloads").

Pure: :class:`Messages` turns what the reconstruction engine emitted into JSON-ready dicts, and the
engine's whole game into a snapshot. The publisher numbers them (``seq``) and sends them; the tests build
the same messages from a recorded session without a broker.
"""

from __future__ import annotations

import time
from typing import Any, Sequence

from rig.hub.protocol import PROTOCOL_VERSION
from rig.reconstruct import (ClockUpdate, GameEnd, Irregularity, IrregularityUpdate, MoveEntry, MoveWithdrawn,
                             PositionLost, PositionRestored)

__all__ = ["Messages"]


def _index_of(items: list, item: Any, fields: tuple[str, ...]) -> int:
    """Where the engine keeps ``item``: itself, or the entry it became (the engine may replace an entry by an
    updated copy, e.g. a move stamped with its clock time, in the same step that emitted it)."""
    for i in range(len(items) - 1, -1, -1):
        if items[i] is item:
            return i
    key = tuple(getattr(item, f) for f in fields)
    for i in range(len(items) - 1, -1, -1):
        if tuple(getattr(items[i], f) for f in fields) == key:
            return i
    raise LookupError(f"{item!r} is not in the engine's list")


class Messages:
    """Message maker of one board session; remembers the clock, the end reason and a lost position."""

    def __init__(self, board: str, tournament: str, round: int, session: str):
        self.board, self.tournament, self.round, self.session = board, tournament, round, session
        self.clock: dict[str, Any] | None = None
        self.reason = ""
        self.lost = False

    def common(self, kind: str, t: float | None) -> dict[str, Any]:
        return {"v": PROTOCOL_VERSION, "board": self.board, "tournament": self.tournament, "round": self.round,
                "session": self.session, "kind": kind, "t": None if t is None else round(t, 4),
                "ts": time.time()}

    def snapshot(self, engine, t: float | None, kind: str = "snapshot") -> dict[str, Any]:
        """The whole game as the engine holds it (rebuilt from the journal on resume)."""
        h = engine.header
        d = self.common(kind, t)
        d.update({
            "header": {"variant": h.variant.name, "ruleset": h.ruleset.id, "fen": h.fen, "tags": dict(h.tags),
                       "clock": bool(h.extra.get("clock"))},
            "moves": [dict(m.to_json(), idx=i) for i, m in enumerate(engine.moves)],
            "irregularities": [dict(x.report(), idx=i) for i, x in enumerate(engine.irregularities)],
            "result": engine.result, "reason": self.reason, "clock": self.clock, "lost": self.lost,
            "fen": engine.board.fen(),
        })
        for m in d["moves"]:
            m.pop("kind", None)
        return d

    def from_outputs(self, engine, outs: Sequence[Any]) -> list[dict[str, Any]]:
        """One message per output a page or the hub needs (moves, withdrawals, irregularities and their
        updates, clock, game end, position lost/restored); notes and counters are not sent."""
        msgs = []
        for out in outs:
            d: dict[str, Any] | None = None
            if isinstance(out, MoveEntry):
                i = _index_of(engine.moves, out, ("number", "side", "move_text", "t"))
                d = dict(engine.moves[i].to_json(), idx=i, kind="move")
            elif isinstance(out, MoveWithdrawn):
                d = {"kind": "withdrawn", "idx": out.index, "move": out.move_text}
            elif isinstance(out, Irregularity):
                i = _index_of(engine.irregularities, out, ("type", "number", "side", "t"))
                d = dict(engine.irregularities[i].report(), idx=i, kind="irregularity")
            elif isinstance(out, IrregularityUpdate):
                d = {"kind": "irregularity-update", "idx": out.index, "status": out.status, "reason": out.reason}
            elif isinstance(out, ClockUpdate):
                self.clock = {"white_ms": out.white_ms, "black_ms": out.black_ms, "running": out.running,
                              "t": round(out.t, 4)}
                d = dict(self.clock, kind="clock")
            elif isinstance(out, GameEnd):
                self.reason = out.reason
                d = {"kind": "end", "result": out.result, "reason": out.reason}
            elif isinstance(out, PositionLost):
                self.lost = True
                d = {"kind": "position-lost", "squares": list(out.squares)}
            elif isinstance(out, PositionRestored):
                self.lost = False
                d = {"kind": "position-restored", "fen": out.fen}
            if d is None:
                continue
            msg = self.common(d.pop("kind"), out.t)
            msg.update(d)
            msgs.append(msg)
        return msgs

    def health(self, ev) -> dict[str, Any]:
        body = ev.to_json()
        body.pop("type", None)
        msg = self.common("health", getattr(ev, "t", None))
        msg["health"] = body
        return msg
