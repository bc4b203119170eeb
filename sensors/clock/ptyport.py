"""The device end of a serial line for the clock emulators: a pty pair whose slave is reachable through a
stable symlink (as ``/dev/serial/by-id/...`` is), unplugged and plugged back like a USB cable; and
:class:`FakeTime`, the manual clock that makes an emulator deterministic in tests."""

from __future__ import annotations

import errno
import logging
import os
import select
import shutil
import tempfile
import threading
import time
import tty

__all__ = ["FakeTime", "PtyPort"]

log = logging.getLogger(__name__)


class FakeTime:
    """A manual monotonic clock: ``now()`` only moves with :meth:`advance`."""

    def __init__(self, start: float = 1000.0):
        self._t = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self._t

    def advance(self, seconds: float) -> float:
        with self._lock:
            self._t += seconds
            return self._t


class PtyPort:
    """The device end of a serial line: a pty master, its slave reachable through a stable symlink."""

    def __init__(self, path: str | None = None):
        self._tmpdir = None if path else tempfile.mkdtemp(prefix="rig-clock-")
        self.path = path or os.path.join(self._tmpdir, "clock")  # type: ignore[arg-type]
        self._master: int | None = None
        self._slave: int | None = None
        self.slave_name: str | None = None
        self.plugs = 0
        self.replug()

    @property
    def plugged(self) -> bool:
        return self._master is not None

    def replug(self) -> None:
        if self.plugged:
            return
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no newline translation, before anyone opens it
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.slave_name = os.ttyname(slave)
        tmp = f"{self.path}.{os.getpid()}.tmp"
        if os.path.lexists(tmp):
            os.unlink(tmp)
        os.symlink(self.slave_name, tmp)
        os.replace(tmp, self.path)
        self.plugs += 1

    def unplug(self) -> None:
        if os.path.lexists(self.path):
            os.unlink(self.path)
        for fd in (self._master, self._slave):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._master = self._slave = None

    def write(self, data: bytes) -> bool:
        fd = self._master
        if fd is None:
            return False
        view = memoryview(data)
        deadline = time.monotonic() + 1.0
        while view:
            try:
                n = os.write(fd, view)
                view = view[n:]
            except BlockingIOError:
                if time.monotonic() > deadline:
                    log.warning("emulator: host not reading; %d bytes dropped", len(view))
                    return False
                select.select([], [fd], [], 0.01)
            except OSError:
                return False
        return True

    def read(self, timeout: float) -> bytes:
        fd = self._master
        if fd is None:
            time.sleep(timeout)
            return b""
        try:
            ready, _, _ = select.select([fd], [], [], timeout)
            if ready:
                return os.read(fd, 4096)
        except (OSError, ValueError) as exc:
            if getattr(exc, "errno", None) not in (errno.EIO, errno.EBADF, None):
                log.debug("emulator: read: %s", exc)
        return b""

    def close(self) -> None:
        self.unplug()
        if self._tmpdir:
            shutil.rmtree(self._tmpdir, ignore_errors=True)

    def __repr__(self) -> str:
        return f"<PtyPort {self.path} -> {self.slave_name if self.plugged else 'unplugged'}>"
