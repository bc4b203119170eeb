"""The live loop's MQTT sink: a board publishes its game to the tournament's broker (docs/hub.md).

:class:`MqttPublisher` is told of the engine's outputs and the matrix health on the loop's thread; it turns
them into small JSON messages and hands them to its own worker thread, which gives each its sequence
number, writes it to the :class:`~rig.hub.outbox.Outbox` (fsynced) and publishes it with QoS 1 through
paho-mqtt's network thread. While the broker is away the messages stay in the outbox and go out in order,
from the first one the broker has not acknowledged, when it comes back. The will is ``offline``
(retained on ``status``); ``state`` (retained) is the whole game, so a hub that starts late has it at once.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import Any, Sequence

from rig.hub.messages import Messages
from rig.hub.outbox import Outbox
from rig.hub.protocol import OFFLINE, ONLINE, Topics, check_id, decode, encode, session_id

__all__ = ["MqttPublisher", "outbox_path"]

log = logging.getLogger(__name__)

#: the most messages one replay request gets back
MAX_REPLAY = 5000


def outbox_path(session_path: str) -> str:
    stem = session_path[:-len(".jsonl")] if session_path.endswith(".jsonl") else session_path
    return stem + ".mqtt.jsonl"


class MqttPublisher:
    """A :class:`rig.live.sinks.Sink` publishing one board of a tournament.

    ``state_every_s``: the retained snapshot is refreshed at most this often while the game changes (and at
    the start, the end and the close). Use as a context manager or call :meth:`close`.
    """

    def __init__(self, host: str, port: int, *, tournament: str, board: str, round: int, session_path: str,
                 state_every_s: float = 2.0, keepalive: int = 5, fsync: bool = True):
        self.tournament = check_id(tournament, "tournament")
        self.board = check_id(board, "board id")
        self.round = int(round)
        self.host, self.port = host, port
        self.topics = Topics(self.tournament, self.board)
        with open(session_path, encoding="utf-8") as f:
            header_line = f.readline()
        self.session = session_id(session_path, header_line)
        self.outbox = Outbox(outbox_path(session_path), fsync=fsync)
        self.messages = Messages(self.board, self.tournament, self.round, self.session)
        self.state_every_s = state_every_s
        self.started = False
        self.connected = threading.Event()
        self.published = 0                      # messages handed to the network (replays included)
        self._q: "queue.SimpleQueue[tuple]" = queue.SimpleQueue()
        self._state_at = 0.0
        self._state_dirty = False
        self._last_state: bytes | None = None
        self._mids: dict[int, int] = {}
        self._acks: set[int] = set()
        self._next_send = self.outbox.acked + 1
        self._closed = False
        import paho.mqtt.client as mqtt

        self._client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"rig-{tournament}-{board}",
                                   clean_session=True)
        self._client.will_set(self.topics.status, OFFLINE, qos=1, retain=True)
        self._client.reconnect_delay_set(min_delay=1, max_delay=2)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_publish = self._on_publish
        self._client.on_message = self._on_message
        self._worker = threading.Thread(target=self._work, name=f"mqtt-{board}", daemon=True)
        self._worker.start()
        self._client.connect_async(host, port, keepalive=keepalive)
        self._client.loop_start()

    # -- the sink (the loop's thread: build the message, hand it over) ----------------------------

    def on_start(self, loop) -> None:
        self.started = True
        self._q.put(("msg", self.messages.snapshot(loop.engine, loop.t)))
        self._q.put(("state", self.messages.snapshot(loop.engine, loop.t, "state")))
        self._state_at = time.monotonic()

    def on_outputs(self, loop, outs: Sequence[Any]) -> None:
        msgs = self.messages.from_outputs(loop.engine, outs)
        if not self.started:
            return                              # before on_start: the journal's replay (the snapshot covers it)
        for msg in msgs:
            self._q.put(("msg", msg))
            if msg["kind"] != "clock":
                self._state_dirty = True
        if self._state_dirty and time.monotonic() - self._state_at >= self.state_every_s:
            self._q.put(("state", self.messages.snapshot(loop.engine, loop.t, "state")))
            self._state_at = time.monotonic()
            self._state_dirty = False

    def on_health(self, loop, ev) -> None:
        if self.started:
            self._q.put(("msg", self.messages.health(ev)))

    def on_close(self, loop) -> None:
        if self.started:
            final = self.messages.snapshot(loop.engine, loop.t, "state")
            final["closed"] = True             # the run ended: its last move stands unless a resume says otherwise
            self._q.put(("msg", dict(final, kind="snapshot")))
            self._q.put(("state", final))
        self.close()

    # -- the worker (sequence, outbox, network) ---------------------------------------------------

    def _work(self) -> None:
        while True:
            item = self._q.get()
            kind = item[0]
            try:
                if kind == "msg":
                    msg = item[1]
                    msg["seq"] = self.outbox.last_seq + 1
                    self.outbox.append(encode(msg))
                    self._pump()
                elif kind == "state":
                    state = item[1]
                    state["seq"] = self.outbox.last_seq
                    self._last_state = encode(state)
                    if self.connected.is_set():
                        self._client.publish(self.topics.state, self._last_state, qos=1, retain=True)
                elif kind == "connected":
                    self._mids.clear()
                    self._next_send = self.outbox.acked + 1
                    self._pump()
                    if self._last_state is not None:
                        self._client.publish(self.topics.state, self._last_state, qos=1, retain=True)
                elif kind == "ack":
                    self._ack(item[1])
                elif kind == "replay":
                    self._replay(item[1], item[2])
                elif kind == "stop":
                    self._finish(item[1])
                    return
            except Exception:  # noqa: BLE001 - the worker never dies: the outbox keeps everything
                log.exception("MQTT publisher: %s failed", kind)

    def _ack(self, mid: int) -> None:
        seq = self._mids.pop(mid, None)
        if seq is None or seq <= self.outbox.acked:
            return
        self._acks.add(seq)
        n = self.outbox.acked
        while n + 1 in self._acks:
            n += 1
            self._acks.discard(n)
        self.outbox.mark_acked(n)

    def _pump(self) -> None:
        """Send, in order, what the broker has not had yet (only while connected)."""
        while self.connected.is_set() and self._next_send <= self.outbox.last_seq:
            seq = self._next_send
            info = self._client.publish(self.topics.msg, self.outbox.get(seq), qos=1)
            if info.rc != 0:
                return                          # the connection went: everything from seq goes again
            self._mids[info.mid] = seq
            self._next_send += 1
            self.published += 1

    def _replay(self, first: int, last: int) -> None:
        first, last = max(1, first), min(last, self.outbox.last_seq, first + MAX_REPLAY - 1)
        if not self.connected.is_set():
            return
        for seq in range(first, last + 1):
            if seq >= self._next_send:
                break                           # not sent yet: it goes out in order anyway
            self._client.publish(self.topics.msg, self.outbox.get(seq), qos=1)
            self.published += 1

    def _finish(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.outbox.acked < self.outbox.last_seq:
            if not self.connected.is_set() and time.monotonic() > deadline - timeout / 2:
                break
            try:
                item = self._q.get(timeout=0.05)
            except queue.Empty:
                continue
            if item[0] == "ack":
                self._ack(item[1])
            elif item[0] == "connected":
                self._next_send = self.outbox.acked + 1
                self._pump()
        if self.connected.is_set():
            info = self._client.publish(self.topics.status, OFFLINE, qos=1, retain=True)
            try:
                info.wait_for_publish(1.0)
            except (RuntimeError, ValueError):
                pass
        self._client.disconnect()
        self._client.loop_stop()
        self.outbox.close()

    # -- paho's thread ------------------------------------------------------------------------

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            log.warning("MQTT broker %s:%d refused the board: %s", self.host, self.port, reason_code)
            return
        client.publish(self.topics.status, ONLINE, qos=1, retain=True)
        client.subscribe(self.topics.replay, qos=1)
        self.connected.set()
        self._q.put(("connected",))

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        self.connected.clear()

    def _on_publish(self, client, userdata, mid, reason_code, properties) -> None:
        self._q.put(("ack", mid))

    def _on_message(self, client, userdata, message) -> None:
        try:
            req = decode(message.payload)
            first, last = int(req["from"]), int(req["to"])
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("bad replay request on %s: %s", message.topic, exc)
            return
        if req.get("session") not in (None, self.session):
            return
        self._q.put(("replay", first, last))

    # -- life ----------------------------------------------------------------------------------

    def close(self, timeout: float = 3.0) -> None:
        """Send what is left (up to ``timeout`` s), say ``offline``, disconnect. The outbox keeps the rest."""
        if self._closed:
            return
        self._closed = True
        self._q.put(("stop", timeout))
        self._worker.join(timeout + 2.0)

    def __enter__(self) -> "MqttPublisher":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return (f"<MqttPublisher {self.topics.msg} {self.host}:{self.port} "
                f"{'connected' if self.connected.is_set() else 'disconnected'} seq={self.outbox.last_seq} "
                f"acked={self.outbox.acked}>")
