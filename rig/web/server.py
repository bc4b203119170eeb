"""The board's web server: uvicorn serving :func:`rig.web.app.create_app` on its own thread next to the live loop."""

from __future__ import annotations

import logging
import threading
import time

from rig.errors import RigError
from rig.web.app import create_app
from rig.web.feed import GameFeed

__all__ = ["WebServer", "WebServerError"]

log = logging.getLogger(__name__)


class WebServerError(RigError, OSError):
    """The server could not start (address in use, no permission, ...)."""


class WebServer:
    """uvicorn on a daemon thread; a context manager. ``port`` 0 takes a free port (``.port`` tells which).

    >>> with WebServer(feed, "127.0.0.1", 0) as server:   # doctest: +SKIP
    ...     print(server.url)
    """

    def __init__(self, feed: GameFeed, host: str = "127.0.0.1", port: int = 8080):
        self.feed = feed
        self.host = host
        self.requested_port = port
        self.app = create_app(feed)
        self._server = None
        self._thread: threading.Thread | None = None
        self.port: int | None = None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, timeout: float = 10.0) -> "WebServer":
        import uvicorn

        config = uvicorn.Config(self.app, host=self.host, port=self.requested_port, log_level="warning",
                                access_log=False, lifespan="off", timeout_graceful_shutdown=2,
                                ws="none", limit_concurrency=self.feed.config.max_streams + 64)
        server = uvicorn.Server(config)
        self._server = server
        failure: list[BaseException] = []

        def serve() -> None:
            try:
                server.run()
            except BaseException as exc:  # noqa: BLE001 - uvicorn exits (SystemExit) when it cannot bind
                failure.append(exc)

        self._thread = threading.Thread(target=serve, name="rig-web", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                why = f"{type(failure[0]).__name__}: {failure[0]}" if failure else "it did not start in time"
                raise WebServerError(f"cannot serve the pages on {self.host}:{self.requested_port} ({why}; "
                                     "is the address in use?)")
            time.sleep(0.01)
        sockets = [s for srv in server.servers for s in srv.sockets]
        self.port = sockets[0].getsockname()[1] if sockets else self.requested_port
        return self

    def stop(self) -> None:
        self.app.state.streams.stop.set()
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(5.0)
            if self._thread.is_alive():
                log.warning("the web server did not stop within 5 s")

    def __enter__(self) -> "WebServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = f"serving {self.url}" if self.running and self.port is not None else "stopped"
        return f"<WebServer {state} streams={self.app.state.streams.open}>"
