"""The hub's side of the sequence numbers: one :class:`Stream` per board session (docs/hub.md).

MQTT with QoS 1 delivers at least once, in order on one connection; across a broker restart or a board
that reconnects, messages come twice, late, or not at all. A stream applies each sequence number once and
in order: a duplicate is dropped, a message ahead of a gap waits, and the gap is asked back from the board
(``rig/T/B/replay``), which answers from its outbox. A snapshot (``state``) covering the gap ends it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Stream", "ASK_AGAIN_S", "MAX_PENDING"]

#: a gap still open after this long is asked for again
ASK_AGAIN_S = 1.0
#: messages kept ahead of a gap; beyond that the oldest are dropped (the replay brings them back)
MAX_PENDING = 10000


@dataclass
class Stream:
    """Messages of one board session, applied in sequence order exactly once."""

    board: str
    session: str
    next: int = 1                                   # the next sequence number to apply
    pending: dict[int, dict[str, Any]] = field(default_factory=dict)
    asked_at: float | None = None
    duplicates: int = 0
    replays_asked: int = 0

    def offer(self, msg: dict[str, Any]) -> list[dict[str, Any]]:
        """Take one ``msg`` message; return the messages now ready to apply, in order."""
        seq = int(msg["seq"])
        if seq < self.next or seq in self.pending:
            self.duplicates += 1
            return []
        self.pending[seq] = msg
        if len(self.pending) > MAX_PENDING:
            del self.pending[max(self.pending)]
        return self._drain()

    def offer_state(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        """Take a snapshot covering everything up to its ``seq``: it replaces what came before."""
        seq = int(state.get("seq") or 0)
        if seq < self.next or seq < 1:
            return []
        self.next = seq + 1
        for s in [s for s in self.pending if s <= seq]:
            del self.pending[s]
        return [state] + self._drain()

    def _drain(self) -> list[dict[str, Any]]:
        out = []
        while self.next in self.pending:
            out.append(self.pending.pop(self.next))
            self.next += 1
        if not self.pending:
            self.asked_at = None
        return out

    def gap(self) -> tuple[int, int] | None:
        """The sequence numbers missing before the first waiting message, if any."""
        if not self.pending:
            return None
        return self.next, min(self.pending) - 1

    def should_ask(self, now: float) -> tuple[int, int] | None:
        """The gap to ask for now (first time, or again after :data:`ASK_AGAIN_S`)."""
        gap = self.gap()
        if gap is None or self.asked_at is not None and now - self.asked_at < ASK_AGAIN_S:
            return None
        self.asked_at = now
        self.replays_asked += 1
        return gap
