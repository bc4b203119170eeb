"""Sinks of the live loop: consumers of what happens at a board (pages, MQTT, ...).

A sink never decides anything about the game: it is told, on the loop's consumer
thread and in journal order, of every event once it is durably journaled, of the
engine's outputs that event (or an ``advance``) produced, and of every matrix
health event. A sink must return quickly (hand work to its own thread) and must
not raise: an exception is logged and the sink is dropped, the game goes on.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Protocol, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from rig.live.loop import LiveLoop
    from rig.session import Event

__all__ = ["Sink", "SinkSet"]

log = logging.getLogger(__name__)


class Sink(Protocol):
    """What the live loop calls. Every method is optional in practice: :class:`SinkSet` skips missing ones."""

    def on_start(self, loop: "LiveLoop") -> None: ...

    def on_event(self, loop: "LiveLoop", ev: "Event") -> None: ...

    def on_outputs(self, loop: "LiveLoop", outs: Sequence[Any]) -> None: ...

    def on_health(self, loop: "LiveLoop", ev: Any) -> None: ...

    def on_close(self, loop: "LiveLoop") -> None: ...


class SinkSet:
    """The loop's sinks; a failing sink is logged once and dropped."""

    def __init__(self, sinks: Sequence[Any] = ()) -> None:
        self.sinks: list[Any] = list(sinks)

    def add(self, sink: Any) -> None:
        self.sinks.append(sink)

    def call(self, name: str, *args: Any) -> None:
        for sink in list(self.sinks):
            fn = getattr(sink, name, None)
            if fn is None:
                continue
            try:
                fn(*args)
            except Exception:  # noqa: BLE001 - a sink never stops the game
                log.exception("sink %r failed in %s; dropped", sink, name)
                self.sinks.remove(sink)

    def __len__(self) -> int:
        return len(self.sinks)
