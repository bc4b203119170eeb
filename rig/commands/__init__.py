"""Sub-commands of the ``rig`` console script.

Each module here defines ``register(subparsers)`` that adds one or more
sub-commands, each with ``set_defaults(func=...)``; ``rig.cli`` discovers
the modules, so adding a command never edits a shared file.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def stop_on_signals(stop: threading.Event) -> Iterator[None]:
    """SIGINT/SIGTERM set ``stop`` so a recording loop ends and closes its files cleanly
    (the journal stays complete); the previous handlers come back afterwards."""
    old = {}
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            old[sig] = signal.signal(sig, lambda *_: stop.set())
        except ValueError:  # not the main thread (tests)
            pass
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
