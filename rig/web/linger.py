"""After the game: ``rig run --listen`` keeps serving the final game, and the arbiter can still decide.

When the live loop has ended (the game's end and ``--grace``, the end of a simulated game, a source that
ended) the board's pages stay up (docs/web.md, "After the game") until Ctrl-C/SIGTERM or ``--linger``
seconds. The arbiter's decisions sent meanwhile (recording the result, most often) are journaled like any
other line (fsynced, before they take effect); then the game is read again from the whole journal exactly
as ``rig transcribe`` reads it (every line, then the end of the input), so the pages, ``/game.pdn``, the
record files and the hub show what a transcription of the journal gives, to the byte.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rig.reconstruct import Reconstructor
from rig.session import ArbiterEvent, read_session

if TYPE_CHECKING:  # pragma: no cover
    from rig.live.loop import LiveLoop
    from rig.web.feed import GameFeed

__all__ = ["CloseLater", "linger"]

#: how often the lingering server looks for a decision (s)
POLL_S = 0.2


class CloseLater:
    """A live-loop sink whose ``on_close`` waits until :meth:`close` (the MQTT publisher: the hub hears of
    the arbiter's decisions after the game's end, then the board says it is closed)."""

    def __init__(self, sink: Any):
        self.sink = sink

    def __repr__(self) -> str:
        return f"<CloseLater {self.sink!r}>"

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sink, name)

    def on_close(self, loop: "LiveLoop") -> None:
        """Not yet: see :meth:`close`."""

    def close(self, loop: "LiveLoop") -> None:
        fn = getattr(self.sink, "on_close", None)
        if fn is not None:
            fn(loop)


def linger(loop: "LiveLoop", feed: "GameFeed", stop: threading.Event, seconds: float | None,
           later: tuple[CloseLater, ...] = ()) -> int:
    """Serve the ended game until ``stop`` is set or ``seconds`` have passed (None: until ``stop``); journal
    and apply the arbiter's decisions meanwhile. Returns how many decisions were applied. The sinks held by
    ``later`` are closed at the end."""
    deadline = None if seconds is None else time.monotonic() + seconds
    applied = 0
    feed.linger(True)
    try:
        while not stop.is_set():
            wait = POLL_S
            if deadline is not None:
                wait = min(wait, deadline - time.monotonic())
                if wait <= 0:
                    break
            items = loop.inbox.get(wait)
            decisions = [it.payload for it in sorted(items)
                         if it.kind == "event" and isinstance(it.payload, ArbiterEvent)]
            if decisions:
                apply_decisions(loop, decisions)
                applied += len(decisions)
    finally:
        feed.linger(False)
        for sink in later:
            sink.close(loop)
    return applied


def apply_decisions(loop: "LiveLoop", decisions: list[ArbiterEvent]) -> None:
    """Journal ``decisions`` (in order, never before the journal's last line), then read the game again
    from the journal as ``rig transcribe`` does and tell the sinks what the decisions changed."""
    for ev in decisions:
        ev = replace(ev, t=max(round(ev.t, 4), loop.t))
        loop.journal.append(ev)
        loop.outcome.lines += 1
        loop.t = ev.t
        if loop.sinks:
            loop.sinks.call("on_event", loop, ev)
    header, events = read_session(loop.paths.session)
    engine = Reconstructor(header, loop.engine.settings)
    first_new = len(events) - len(decisions)
    outs: list = []
    for i, ev in enumerate(events):
        got = engine.feed(ev)
        if i >= first_new:
            outs += got
    engine.finish()
    loop.engine = engine
    if loop.view is not None:
        loop.view.board = engine.board
    if loop.sinks:
        loop.sinks.call("on_outputs", loop, outs)
    loop.write_record()
