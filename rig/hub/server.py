"""The hub's HTTP server (uvicorn) on a thread: for ``rig round``, the tests and the bench."""

from __future__ import annotations

import threading
import time

from rig.hub import HubError

__all__ = ["HttpServer"]


class HttpServer:
    """``with HttpServer(app, "127.0.0.1", 0) as s: s.url``; port 0 takes a free port."""

    def __init__(self, app, host: str = "127.0.0.1", port: int = 0, log_level: str = "warning"):
        import uvicorn

        if port == 0:
            from rig.hub.broker import free_port

            port = free_port()
        self.host, self.port = host, port
        self.config = uvicorn.Config(app, host=host, port=port, log_level=log_level, access_log=False,
                                     lifespan="on", timeout_graceful_shutdown=1, backlog=2048)
        self.server = uvicorn.Server(self.config)
        self.thread = threading.Thread(target=self.server.run, name="hub-http", daemon=True)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self, timeout: float = 10.0) -> "HttpServer":
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise HubError(f"the hub's web server did not start on {self.host}:{self.port}")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(5.0)

    def __enter__(self) -> "HttpServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"<HttpServer {self.url} {'running' if self.server.started else 'stopped'}>"
