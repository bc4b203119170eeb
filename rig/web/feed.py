"""The game as the pages see it: a live-loop sink that keeps the state and a numbered message history.

:class:`GameFeed` is given to :class:`~rig.live.loop.LiveLoop` as a sink. On the loop's thread, after each
batch of engine outputs, it compares the engine's public surface (``moves``, ``irregularities``, ``board``,
``result``) with what it last published and appends one message per change to its history, each with the
next sequence number. The web server's threads only read under the feed's lock: a page that connects gets
a snapshot, a page that reconnects gets the messages after its Last-Event-ID, so nothing is lost or
repeated. The feed decides nothing about the game (ARCHITECTURE "Sinks").

It also keeps what the arbiter's review needs: the position before and after each irregularity, the
squares the sensors showed, and a bounded ring of the recent journal lines (older ones are read back from
the session file, :mod:`rig.web.review`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import secrets
import threading
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

from rig.board import Board
from rig.errors import RigError
from rig.reconstruct import (ClockUpdate, CounterUpdate, GameEnd, Irregularity, IrregularityUpdate, MoveEntry,
                             MoveWithdrawn, Note, PositionLost, PositionRestored)
from rig.session import ArbiterEvent, Frame, Header
from rig.web.config import WebConfig

if TYPE_CHECKING:  # pragma: no cover
    from rig.live.loop import LiveLoop

__all__ = ["GameFeed", "Message", "FeedClosedError"]

#: the engine's outputs the feed reads; another kind (observations) makes it read the report
_KNOWN = (MoveEntry, MoveWithdrawn, Irregularity, IrregularityUpdate, CounterUpdate, PositionLost, PositionRestored,
          ClockUpdate, GameEnd, Note)


class FeedClosedError(RigError, RuntimeError):
    """The board's run has ended: nothing more can be journaled."""


@dataclass(frozen=True)
class Message:
    """One change, as an SSE message: ``seq`` (the event id), ``kind`` (the SSE event name), ``data``."""

    seq: int
    kind: str
    data: dict[str, Any]


def _arbiter_key(ev: ArbiterEvent) -> tuple:
    return (ev.action, ev.ref, ev.fen, ev.result, ev.note, ev.side, ev.delta_ms, ev.upheld)


class GameFeed:
    """Live-loop sink keeping the published game; thread-safe readers (:meth:`snapshot`, :meth:`since`)."""

    def __init__(self, header: Header, config: WebConfig | None = None, *, session_path: str | None = None):
        self.header = header
        self.config = config or WebConfig()
        self.variant = header.variant
        self.session_path = session_path
        self.epoch = secrets.token_hex(4)
        self.loop: LiveLoop | None = None
        self.closed = False
        #: the run has ended but its server still takes the arbiter's decisions (:mod:`rig.web.linger`)
        self.lingering = False
        self._lock = threading.Lock()
        self._seq = 0
        self._history: deque[Message] = deque(maxlen=self.config.history)
        self._waiters: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()
        self._pending: list[tuple[tuple, concurrent.futures.Future]] = []
        #: recent journal lines (dicts as in the session file), for the review's timelines
        self.ring: deque[dict] = deque(maxlen=self.config.ring)
        # published state
        self.moves: list[dict] = []
        self.irregularities: list[dict] = []
        self.reviews: list[dict] = []
        self.observations: list[dict] = []
        self.decisions: list[dict] = []
        self.notes: deque[dict] = deque(maxlen=200)
        self.health: deque[dict] = deque(maxlen=50)
        self.counters: list[dict] = []
        self.clock: dict | None = None
        start = Board(self.variant, header.fen)        # until the loop runs: the session's start position
        self.position: dict = {"fen": start.fen(), "pieces": {str(k): v for k, v in start.piece_codes().items()},
                               "turn": "white" if start.turn else "black", "last": None, "lost": False}
        self._synced = False
        self.result = "*"
        self.reason = ""
        self.pdn = ""
        self._sensed: list[int] = []
        self._rate = 1.0
        self._now: Callable[[], float] = lambda: 0.0

    def __repr__(self) -> str:
        return (f"<GameFeed {self.variant.name} seq={self._seq} moves={len(self.moves)} "
                f"irregularities={len(self.irregularities)} result={self.result}{' closed' if self.closed else ''}>")

    # -- the sink (loop thread) ----------------------------------------------------------------

    def _attach(self, loop: "LiveLoop") -> None:
        if self.loop is not loop:
            self.loop = loop
            self._now = loop.clock
            self._rate = float(getattr(loop.clock, "speed", 1.0))
        if not self._synced:
            self._synced = True
            self._sync(loop, (), first=True)

    def on_start(self, loop: "LiveLoop") -> None:
        self._attach(loop)

    def on_event(self, loop: "LiveLoop", ev) -> None:
        self._attach(loop)
        line = ev.to_json()
        with self._lock:
            self.ring.append(line)
        if isinstance(ev, Frame):
            self._sensed = sorted(ev.occupied)
        elif isinstance(ev, ArbiterEvent):
            decision = {**line, "index": len(self.decisions)}
            with self._lock:
                self.decisions.append(decision)
                seq = self._append("arbiter", {"decision": decision})
                key = _arbiter_key(ev)
                for i, (k, fut) in enumerate(self._pending):
                    if k == key:
                        del self._pending[i]
                        fut.set_result(seq)
                        break
            self._wake()

    def on_outputs(self, loop: "LiveLoop", outs: Sequence[Any]) -> None:
        self._attach(loop)
        self._sync(loop, outs)

    def on_health(self, loop: "LiveLoop", ev) -> None:
        self._attach(loop)
        item = ev.to_json() if hasattr(ev, "to_json") else {"text": str(ev)}
        with self._lock:
            self.health.append(item)
            self._append("health", {"health": item})
        self._wake()

    def on_close(self, loop: "LiveLoop") -> None:
        with self._lock:
            self.closed = True
            self._append("closed", {"result": self.result})
            for _, fut in self._pending:
                fut.set_exception(FeedClosedError("the board's run ended before the decision was journaled"))
            self._pending.clear()
        self._wake()

    def _sync(self, loop: "LiveLoop", outs: Sequence[Any], first: bool = False) -> None:
        """Publish what changed in the engine's public surface after a batch of outputs."""
        with self._lock:
            changed = self._sync_locked(loop, outs, first)
        if changed:
            self._wake()
        if changed or first:      # after the pages are woken: the record takes longest (a replay of the game)
            pdn = self._live_pdn(loop.engine)
            with self._lock:
                self.pdn = pdn

    def _sync_locked(self, loop: "LiveLoop", outs: Sequence[Any], first: bool) -> bool:
        engine = loop.engine
        msgs: list[tuple[str, dict]] = []
        before = self.position
        clocked = False
        for out in outs:
            if isinstance(out, ClockUpdate):
                self.clock = {"white_ms": out.white_ms, "black_ms": out.black_ms, "running": out.running,
                              "t": round(out.t, 4)}
                clocked = True
            elif isinstance(out, CounterUpdate):
                self.counters = out.to_json()["counters"]
                msgs.append(("counters", {"counters": self.counters}))
            elif isinstance(out, GameEnd):
                self.result, self.reason = out.result, out.reason
                msgs.append(("end", {"result": out.result, "reason": out.reason}))
            elif isinstance(out, Note):
                note = out.to_json()
                self.notes.append(note)
                msgs.append(("note", {"note": note}))
        if clocked:
            msgs.append(("clock", {"clock": self.clock}))
        # the moves (a press stamps an earlier entry's clock without an output: compare them all)
        items = [dict(m.report(), legal=m.legal) for m in engine.moves]
        for i, item in enumerate(items):
            if i >= len(self.moves):
                self.moves.append(item)
                msgs.append(("move", {"index": i, "move": item}))
            elif self.moves[i] != item:
                self.moves[i] = item
                msgs.append(("move-update", {"index": i, "move": item}))
        # the position (what the record continues from), the last move standing, lost or not
        board = engine.board
        lost = self._lost(outs, bool(before.get("lost")))
        position = {"fen": board.fen(), "pieces": {str(k): v for k, v in board.piece_codes().items()},
                    "turn": "white" if board.turn else "black", "last": self._last(engine), "lost": lost}
        if position != before:
            self.position = position
            if not first:
                msgs.append(("position", {"position": position}))
        # the irregularities (status changes come as outputs, but compare anyway)
        for i, irr in enumerate(engine.irregularities):
            item = irr.report()
            if i >= len(self.irregularities):
                self.irregularities.append(item)
                self.reviews.append({"index": i, "t": item["t"], "before": before or position,
                                     "after": position, "sensed": list(self._sensed),
                                     # the rule set's rectify puts the position back itself (FPD 7.5a)
                                     "law_restores": engine.judge.restores(irr.type)})
                msgs.append(("irregularity", {"index": i, "irregularity": item}))
            elif self.irregularities[i] != item:
                self.irregularities[i] = item
                msgs.append(("irregularity-update", {"index": i, "irregularity": item}))
        # observations (in the report when the engine gives them): read at a kind of output the pages do
        # not know, a note, an irregularity or the end
        if first or any(not isinstance(o, _KNOWN) or isinstance(o, (Note, Irregularity, GameEnd)) for o in outs):
            obs = engine.report().get("observations")
            if isinstance(obs, list) and obs != self.observations:
                self.observations = list(obs)
                msgs.append(("observations", {"observations": self.observations}))
        for kind, data in msgs:
            self._append(kind, data)
        return bool(msgs)

    @staticmethod
    def _live_pdn(engine) -> str:
        """The engine's record; while the last moves on the board stand withdrawn (taken back, the move
        instead not made yet) the record says so in a final comment, so that no move a reader has seen
        disappears without its reason (the engine puts the same words on the move played instead)."""
        pdn = engine.pdn()
        gone = []
        for m in reversed(engine.moves):
            if not m.withdrawn:
                break
            gone.append(m.move_text)
        if not gone:
            return pdn
        parts = pdn.rstrip().rsplit(None, 1)          # the movetext's last token is the result
        if len(parts) != 2:
            return pdn
        return f"{parts[0]} {{{', '.join(reversed(gone))} taken back}} {parts[1]}\n\n"

    @staticmethod
    def _lost(outs: Sequence[Any], was: bool) -> bool:
        for out in outs:
            if isinstance(out, PositionLost):
                was = True
            elif isinstance(out, PositionRestored):
                was = False
        return was

    @staticmethod
    def _last(engine) -> dict | None:
        for m in reversed(engine.moves):
            if m.withdrawn:
                continue
            if m.move is None:
                return None
            return {"path": list(m.move.path), "captured": list(m.move.captured), "text": m.move_text}
        return None

    # -- history and waiters ---------------------------------------------------------------------

    def _append(self, kind: str, data: dict) -> int:
        """Under the lock: the next message."""
        self._seq += 1
        self._history.append(Message(self._seq, kind, data))
        return self._seq

    def _wake(self) -> None:
        for aio, event in list(self._waiters):
            try:
                aio.call_soon_threadsafe(event.set)
            except RuntimeError:  # that event loop is closed
                self._waiters.discard((aio, event))

    def subscribe(self) -> asyncio.Event:
        """An event set (on the caller's asyncio loop) whenever a message is published."""
        event = asyncio.Event()
        self._waiters.add((asyncio.get_running_loop(), event))
        return event

    def unsubscribe(self, event: asyncio.Event) -> None:
        self._waiters = {(a, e) for a, e in self._waiters if e is not event}

    @property
    def seq(self) -> int:
        return self._seq

    def event_id(self, seq: int) -> str:
        """The SSE id of message ``seq``: ``EPOCH-SEQ`` (the epoch changes when the board process restarts)."""
        return f"{self.epoch}-{seq}"

    def since(self, last_id: str | None) -> list[Message] | None:
        """The messages after SSE id ``last_id``; None when a snapshot is needed instead (no id, another
        process's id, or one older than the history kept)."""
        if not last_id:
            return None
        epoch, _, num = last_id.strip().partition("-")
        if epoch != self.epoch or not num.isdigit():
            return None
        seq = int(num)
        with self._lock:
            if seq > self._seq:
                return None
            if self._history and seq < self._history[0].seq - 1:
                return None
            if not self._history and seq != self._seq:
                return None
            return [m for m in self._history if m.seq > seq]

    def now(self) -> float:
        """The session time now (the clocks on the pages run from it)."""
        return round(self._now(), 4)

    def info(self) -> dict:
        """What does not change during the game: variant, board geometry, tags."""
        v = self.variant
        return {"variant": v.name, "size": v.size, "ruleset": self.header.ruleset.id, "algebraic": v.algebraic,
                "squares": {str(s): list(v.coords(s)) for s in range(1, v.squares + 1)},
                "names": {str(s): v.square_name(s) for s in range(1, v.squares + 1)},
                "tags": dict(self.header.tags), "rate": self._rate, "epoch": self.epoch}

    def snapshot(self) -> dict:
        """The whole public state, with the sequence number it includes."""
        with self._lock:
            return {"seq": self._seq, "id": self.event_id(self._seq), "info": self.info(),
                    "moves": list(self.moves), "position": dict(self.position), "clock": self.clock,
                    "counters": list(self.counters), "irregularities": list(self.irregularities),
                    "decisions": list(self.decisions), "result": self.result, "reason": self.reason,
                    "closed": self.closed, "now": self.now()}

    def review(self) -> dict:
        """The arbiter's view: the public state plus each irregularity's positions, notes and health."""
        snap = self.snapshot()
        with self._lock:
            snap.update(reviews=list(self.reviews), observations=list(self.observations), notes=list(self.notes),
                        health=list(self.health))
        return snap

    def pdn_text(self) -> str:
        """The game's PDN as of the last change (the engine's record: clock comments, /FEN/ setups)."""
        with self._lock:
            return self.pdn

    def ring_lines(self) -> list[dict]:
        with self._lock:
            return list(self.ring)

    def fen_before(self, index: int) -> str | None:
        """The position before irregularity ``index`` (what a rectification puts back)."""
        with self._lock:
            return self.reviews[index]["before"].get("fen") if 0 <= index < len(self.reviews) else None

    def law_restores(self, index: int) -> bool:
        """The rule set in force restores the position before irregularity ``index`` on a ``rectify``
        (:meth:`rig.reconstruct.law.Judge.restores`): no set-position is needed."""
        with self._lock:
            return 0 <= index < len(self.reviews) and bool(self.reviews[index].get("law_restores"))

    def irregularity_count(self) -> int:
        with self._lock:
            return len(self.irregularities)

    # -- arbiter decisions -----------------------------------------------------------------------

    def submit(self, events: Sequence[ArbiterEvent]) -> list[concurrent.futures.Future]:
        """Queue arbiter events on the loop (journaled, then fed to the engine); each future gets the
        sequence number of the message published once that event is journaled."""
        loop = self.loop
        if loop is None or (self.closed and not self.lingering):
            raise FeedClosedError("the board is not running: nothing can be journaled")
        futures = []
        with self._lock:
            for ev in events:
                fut: concurrent.futures.Future = concurrent.futures.Future()
                self._pending.append((_arbiter_key(ev), fut))
                futures.append(fut)
        for ev in events:
            loop.submit(ev)
        return futures

    def linger(self, on: bool) -> None:
        """After the run's end: take the arbiter's decisions again (``on``), or no longer; the decisions
        still waiting when it stops are refused."""
        with self._lock:
            self.lingering = on
            if not on:
                for _, fut in self._pending:
                    fut.set_exception(FeedClosedError("the board's server stopped before the decision was journaled"))
                self._pending.clear()

    def decision_time(self) -> float:
        """A time for a decision now: not before the loop's time (the journal stays in time order)."""
        loop = self.loop
        t = self.now()
        if loop is not None:
            t = max(t, loop.t)
        return round(t, 4)
