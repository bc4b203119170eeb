"""The board's outbox: every MQTT message it ever made, on disk, in sequence order (docs/hub.md).

``GAME.mqtt.jsonl`` next to the session holds one message per line (the payload as published, with its
``seq``), written, flushed and fsynced *before* the message is handed to the network: a message the hub
may have seen is always on disk, so a resumed board never reuses a sequence number. It is the buffer while
the broker is away (sent in order when it returns, from the first message the broker has not acknowledged,
kept in ``GAME.mqtt.ack``) and the source of the replays the hub asks for. The session journal stays the
source of truth: on resume the board publishes a snapshot rebuilt from it, so a message that a crash kept
off the outbox is never missing from the hub's record.
"""

from __future__ import annotations

import json
import os
import threading

__all__ = ["Outbox"]


class Outbox:
    """Append-only, fsynced message log with an acknowledged-up-to mark. Not thread-safe for writers: one
    writer thread (the publisher's worker); readers may call :meth:`get` from any thread."""

    def __init__(self, path: str, fsync: bool = True):
        self.path = path
        self.ack_path = path[:-len(".jsonl")] + ".ack" if path.endswith(".jsonl") else path + ".ack"
        self.fsync = fsync
        self._lock = threading.Lock()
        self._items: list[bytes] = []            # index seq-1
        self.acked = 0                           # every seq <= acked reached the broker
        self._load()
        self._file = open(path, "ab")

    def _load(self) -> None:
        if not os.path.exists(self.path):
            return
        with open(self.path, "rb") as f:
            data = f.read()
        for raw in data.split(b"\n"):
            if not raw.strip():
                continue
            try:
                obj = json.loads(raw)
            except ValueError:
                break                            # a torn last line: never published (fsync comes first)
            if obj.get("seq") != len(self._items) + 1:
                break
            self._items.append(raw)
        good = sum(len(r) + 1 for r in self._items)
        if good != len(data):                    # cut a torn tail so the next line starts clean
            with open(self.path, "r+b") as f:
                f.truncate(good)
        try:
            with open(self.ack_path, encoding="ascii") as f:
                self.acked = min(int(f.read().strip() or 0), len(self._items))
        except (OSError, ValueError):
            self.acked = 0

    @property
    def last_seq(self) -> int:
        return len(self._items)

    def append(self, payload: bytes) -> int:
        """Write one encoded message (its seq must be :attr:`last_seq` + 1) durably; return its seq."""
        with self._lock:
            self._file.write(payload + b"\n")
            self._file.flush()
            if self.fsync:
                os.fsync(self._file.fileno())
            self._items.append(payload)
            return len(self._items)

    def get(self, seq: int) -> bytes | None:
        with self._lock:
            return self._items[seq - 1] if 1 <= seq <= len(self._items) else None

    def mark_acked(self, seq: int) -> None:
        """Everything up to ``seq`` reached the broker (written without fsync: losing it only resends)."""
        if seq <= self.acked:
            return
        self.acked = seq
        tmp = self.ack_path + ".tmp"
        with open(tmp, "w", encoding="ascii") as f:
            f.write(str(seq))
        os.replace(tmp, self.ack_path)

    def close(self) -> None:
        with self._lock:
            self._file.close()

    def __repr__(self) -> str:
        return f"<Outbox {self.path} last_seq={self.last_seq} acked={self.acked}>"
