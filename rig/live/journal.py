"""The journal: the session file of a live run, written line by line, and everything derived from it.

The session JSONL file (docs/session-format.md) is the source of truth of a live
run. :class:`Journal` appends one event per line and flushes and fsyncs it at
once, so a power cut loses at most the line being written. :func:`recover`
reads a journal back for ``rig run --resume``: a torn final line (cut by the
crash: no newline, not valid JSON, or NUL bytes left by the file system) is
detected, reported and dropped; a bad line anywhere else is an error naming
the line. The PDN and the report are derived files, replaced atomically
(:func:`atomic_write`), never appended.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from typing import IO, Any

from rig.errors import RigError, SessionFormatError
from rig.session import Event, Header, dump_event, iter_session, parse_line

__all__ = ["JournalError", "RunPaths", "Journal", "Recovered", "recover", "atomic_write"]


class JournalError(RigError, OSError):
    """A journal that cannot be created, read or appended to."""


@dataclass(frozen=True)
class RunPaths:
    """The files of one run: the session (journal) and, next to it, the PDN, the report and the health log."""

    session: str

    @classmethod
    def for_output(cls, out: str, now: float | None = None) -> "RunPaths":
        """``out`` is a session file (``*.jsonl``) or a directory, where ``game-YYYYmmdd-HHMMSS.jsonl`` is made."""
        if os.path.isdir(out) or out.endswith(os.sep) or not out.endswith(".jsonl"):
            os.makedirs(out, exist_ok=True)
            stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
            return cls(os.path.join(out, f"game-{stamp}.jsonl"))
        return cls(out)

    @property
    def stem(self) -> str:
        return self.session[:-len(".jsonl")] if self.session.endswith(".jsonl") else self.session

    @property
    def pdn(self) -> str:
        return self.stem + ".pdn"

    @property
    def report(self) -> str:
        return self.stem + ".report.json"

    @property
    def health(self) -> str:
        return self.stem + ".health.jsonl"

    @property
    def log(self) -> str:
        return self.stem + ".log"


def _fsync_dir(path: str) -> None:
    try:
        fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(path: str, text: str) -> None:
    """Replace ``path`` with ``text`` all at once: a reader (or a power cut) sees the old file or the new one."""
    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    _fsync_dir(path)


class Journal:
    """An append-only JSON Lines file; every :meth:`append` is written, flushed and fsynced before it returns.

    ``lines`` counts the lines in the file, ``sync_s`` the time spent in write+flush+fsync (for the figures).
    """

    def __init__(self, path: str, fh: IO[str], lines: int = 0):
        self.path = path
        self._fh = fh
        self.lines = lines
        self.sync_s = 0.0
        self.appended = 0

    @classmethod
    def create(cls, path: str, header: Header) -> "Journal":
        """A new journal starting with ``header``; an existing file is never overwritten (use --resume)."""
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            raise JournalError(f"{path} exists: resume it with --resume {path}, or choose another --out") from None
        except OSError as exc:
            raise JournalError(f"cannot create {path}: {exc.strerror or exc}") from None
        _fsync_dir(path)
        journal = cls(path, os.fdopen(fd, "w", encoding="utf-8"))
        journal.append(header)
        return journal

    @classmethod
    def reopen(cls, recovered: "Recovered") -> "Journal":
        """Append to a recovered journal, after cutting off its torn final line (if any)."""
        path = recovered.path
        try:
            if recovered.file_bytes != recovered.good_bytes or recovered.missing_newline:
                with open(path, "r+b") as raw:
                    raw.truncate(recovered.good_bytes)
                    if recovered.missing_newline:
                        raw.seek(0, os.SEEK_END)
                        raw.write(b"\n")
                    raw.flush()
                    os.fsync(raw.fileno())
            fh = open(path, "a", encoding="utf-8")
        except OSError as exc:
            raise JournalError(f"cannot append to {path}: {exc.strerror or exc}") from None
        return cls(path, fh, recovered.lines)

    def append(self, item: Header | Event | dict[str, Any]) -> None:
        """Write one line and make it durable (write, flush, fsync)."""
        text = json.dumps(item, separators=(", ", ": ")) if isinstance(item, dict) else dump_event(item)
        t = time.perf_counter()
        self._fh.write(text + "\n")
        self._fh.flush()
        os.fsync(self._fh.fileno())
        self.sync_s += time.perf_counter() - t
        self.lines += 1
        self.appended += 1

    def close(self) -> None:
        if not self._fh.closed:
            self._fh.close()

    @property
    def closed(self) -> bool:
        return self._fh.closed

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Journal {self.path} lines={self.lines}{' closed' if self.closed else ''}>"


@dataclass
class Recovered:
    """A journal read back: header, events, and what was dropped from its end."""

    path: str
    header: Header
    events: list[Event] = field(default_factory=list)
    lines: int = 0                 # complete lines kept (header included)
    good_bytes: int = 0            # length of the file up to the end of the last kept line
    torn: str | None = None        # the dropped final line's text, if one was torn
    torn_line: int | None = None   # its line number
    missing_newline: bool = False  # the last line was complete but its newline never reached the disk
    file_bytes: int = 0            # the file's length as found

    @property
    def last_t(self) -> float:
        return self.events[-1].t if self.events else 0.0

    def describe_torn(self) -> str:
        if self.torn is None:
            return ""
        shown = self.torn if len(self.torn) <= 60 else self.torn[:57] + "..."
        return f"{self.path} line {self.torn_line}: torn final line dropped ({len(self.torn)} bytes: {shown!r})"


def recover(path: str) -> Recovered:
    """Read a journal for resuming. Raises :class:`SessionFormatError` (naming the line) for a bad line that is
    not the last one, :class:`JournalError` when the file cannot be read."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise JournalError(f"cannot read {path}: {exc.strerror or exc}") from None
    body = data.rstrip(b"\0")          # a file system may leave zeros where the last write was going
    parts = body.split(b"\n")
    tail = parts.pop()                 # text after the last newline ("" when the file ends with one)
    offsets, pos = [], 0
    for p in parts:
        pos += len(p) + 1
        offsets.append(pos)
    texts: list[str] = []
    for i, p in enumerate(parts):
        try:
            texts.append(p.decode("utf-8"))
        except UnicodeDecodeError:
            if i == len(parts) - 1 and not tail:
                tail, parts = p, parts[:i]
                offsets = offsets[:i]
                break
            raise SessionFormatError("not UTF-8 text", i + 1) from None
    torn: str | None = None
    torn_line: int | None = None
    missing_newline = False
    good = offsets[-1] if offsets else 0
    if tail:
        text = tail.decode("utf-8", errors="replace")
        try:
            parse_line(text, len(texts) + 1)
            texts.append(text)         # complete: only its newline was lost
            missing_newline = True
            good = len(body)
        except SessionFormatError:
            torn, torn_line = text, len(texts) + 1
    else:
        # the last complete line may itself be garbage (a block of the file system's choosing)
        while texts and not texts[-1].strip():
            texts.pop()
            offsets.pop()
            good = offsets[-1] if offsets else 0
        if texts:
            try:
                parse_line(texts[-1], len(texts))
            except SessionFormatError:
                torn, torn_line = texts.pop(), len(texts) + 1
                offsets.pop()
                good = offsets[-1] if offsets else 0
    if not texts:
        raise SessionFormatError("empty journal: the header is missing", 1)
    items = list(iter_session(texts))
    header = items[0]
    assert isinstance(header, Header)
    return Recovered(path, header, items[1:], len(texts), good, torn, torn_line, missing_newline, len(data))  # type: ignore[arg-type]
