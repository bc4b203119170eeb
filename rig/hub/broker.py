"""A Mosquitto broker (Debian's ``mosquitto``) on a free loopback port: for the tests, the demo and the bench.

A tournament runs its own broker; this one is for a machine where the hall is simulated. It listens on
127.0.0.1 only, keeps nothing on disk, and can be stopped (or killed) and started again on the same port.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

from rig.hub import HubError

__all__ = ["Broker", "free_port", "find_mosquitto"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def find_mosquitto() -> str:
    path = shutil.which("mosquitto") or next((p for p in ("/usr/sbin/mosquitto", "/usr/bin/mosquitto")
                                              if os.path.exists(p)), None)
    if path is None:
        raise HubError("mosquitto is not installed (Debian: apt-get install mosquitto; ./dev does it)")
    return path


class Broker:
    """``with Broker() as b: b.port``; :meth:`kill` (SIGKILL) and :meth:`start` again keep the port."""

    def __init__(self, port: int | None = None, max_connections: int = -1):
        self.exe = find_mosquitto()
        self.port = port or free_port()
        self.dir = tempfile.mkdtemp(prefix="rig-broker-")
        self.conf = os.path.join(self.dir, "mosquitto.conf")
        with open(self.conf, "w", encoding="utf-8") as f:
            f.write(f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
                    f"max_connections {max_connections}\nmax_queued_messages 100000\n"
                    "log_dest none\n")
        self.proc: subprocess.Popen | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self, timeout: float = 5.0) -> "Broker":
        self.proc = subprocess.Popen([self.exe, "-c", self.conf], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
                raise HubError(f"mosquitto exited at start: {err.strip()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise HubError(f"mosquitto did not listen on 127.0.0.1:{self.port}")

    def kill(self) -> None:
        """SIGKILL: the broker dies as in a power cut (nothing kept, no will delivered by it)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc is not None and self.proc.stderr is not None:
            self.proc.stderr.close()

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> "Broker":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        running = self.proc is not None and self.proc.poll() is None
        return f"<Broker 127.0.0.1:{self.port} {'running' if running else 'stopped'}>"
