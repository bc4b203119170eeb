"""The board's pages: a Starlette app over a :class:`~rig.web.feed.GameFeed` (docs/web.md).

Public and read-only: ``/`` (board page), ``/overlay`` (OBS browser source), ``/game.pdn``, ``/api/game``,
``/events`` (Server-Sent Events), ``/static/...``. Behind the arbiter token: ``/arbiter/api/review``,
``/arbiter/api/journal``, ``/arbiter/api/action`` (the page ``/arbiter`` itself holds no data and asks for
the token). Every asset is served from ``rig/web/static``: no CDN, no build step.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import math
import threading
from importlib import resources
from typing import AsyncIterator

from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from rig.web.actions import ArbiterRequestError, parse_action
from rig.web.feed import FeedClosedError, GameFeed, Message
from rig.web.review import journal_window

__all__ = ["create_app", "PAGES", "STATIC_DIR"]

STATIC_DIR = str(resources.files("rig.web") / "static")
PAGES = ("/", "/overlay", "/arbiter", "/game.pdn", "/api/game", "/events")
#: seconds an action request waits for its lines to be journaled before answering 202 (queued)
JOURNAL_WAIT_S = 3.0
#: SSE: the client's reconnection delay (ms) and the keep-alive comment interval (s)
RETRY_MS = 1000
PING_S = 15


def _error(status: int, message: str, headers: dict | None = None) -> JSONResponse:
    return JSONResponse({"error": message, "status": status}, status_code=status, headers=headers)


class _Streams:
    """The open ``/events`` connections, capped (a flood gets 503 with Retry-After)."""

    def __init__(self, cap: int):
        self.cap = cap
        self.open = 0
        self.stop = threading.Event()

    def take(self) -> bool:
        if self.open >= self.cap:
            return False
        self.open += 1
        return True


class _Release:
    """Give a stream's slot back exactly once (from the generator's end or the response's end)."""

    def __init__(self, streams: _Streams):
        self.streams, self.done = streams, False

    def __call__(self) -> None:
        if not self.done:
            self.done = True
            self.streams.open -= 1


def create_app(feed: GameFeed) -> Starlette:
    """The Starlette app serving ``feed``; ``app.state.streams`` counts the open event streams."""
    cfg = feed.config
    streams = _Streams(cfg.max_streams)

    def page(name: str):
        async def handler(request: Request) -> Response:
            return FileResponse(f"{STATIC_DIR}/{name}", media_type="text/html; charset=utf-8",
                                headers={"Cache-Control": "no-cache"})
        return handler

    async def game_pdn(request: Request) -> Response:
        return Response(feed.pdn_text(), media_type="text/plain; charset=utf-8", headers={"Cache-Control": "no-store"})

    async def api_game(request: Request) -> Response:
        return JSONResponse(feed.snapshot(), headers={"Cache-Control": "no-store"})

    def sse(message: Message) -> ServerSentEvent:
        data = dict(message.data, seq=message.seq, now=feed.now())
        return ServerSentEvent(json.dumps(data, separators=(",", ":")), event=message.kind,
                               id=feed.event_id(message.seq))

    def state() -> tuple[int, ServerSentEvent]:
        snap = feed.snapshot()
        return snap["seq"], ServerSentEvent(json.dumps(snap, separators=(",", ":")), event="state", id=snap["id"],
                                            retry=RETRY_MS)

    async def events(request: Request) -> Response:
        if streams.stop.is_set():
            return _error(503, "the board's server is stopping", {"Retry-After": "5"})
        if not streams.take():
            return _error(503, f"too many live connections to this board (at most {streams.cap}); "
                               "try again shortly", {"Retry-After": "2"})
        release = _Release(streams)
        last = request.headers.get("last-event-id") or request.query_params.get("last")

        async def stream() -> AsyncIterator[ServerSentEvent]:
            waiter = feed.subscribe()
            try:
                msgs = feed.since(last)
                if msgs is None:
                    seq, first = state()
                    yield first
                else:
                    seq = int(last.rpartition("-")[2]) if last else 0
                    yield ServerSentEvent(comment="resumed", retry=RETRY_MS)
                    for m in msgs:
                        yield sse(m)
                        seq = m.seq
                while not streams.stop.is_set():
                    try:
                        await asyncio.wait_for(waiter.wait(), 1.0)
                    except asyncio.TimeoutError:
                        continue
                    waiter.clear()
                    msgs = feed.since(feed.event_id(seq))
                    if msgs is None:            # fell behind the history kept: start over from a snapshot
                        seq, first = state()
                        yield first
                        continue
                    for m in msgs:
                        yield sse(m)
                        seq = m.seq
            finally:
                feed.unsubscribe(waiter)
                release()

        return EventSourceResponse(stream(), ping=PING_S, send_timeout=10,
                                   headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
                                   background=BackgroundTask(release))

    # -- the arbiter -------------------------------------------------------------------------------

    def authorise(request: Request) -> Response | None:
        token = cfg.arbiter_token
        if not token:
            return _error(403, "arbiter review is disabled on this board: set arbiter_token in the [web] "
                               "table of the config given to rig run --web-config")
        given = request.headers.get("x-arbiter-token")
        auth = request.headers.get("authorization", "")
        if given is None and auth.lower().startswith("bearer "):
            given = auth[7:].strip()
        if not given:
            return _error(401, "the arbiter token is required (Authorization: Bearer TOKEN)",
                          {"WWW-Authenticate": 'Bearer realm="arbiter"'})
        if not hmac.compare_digest(given.encode(), token.encode()):
            return _error(403, "wrong arbiter token")
        return None

    async def review(request: Request) -> Response:
        denied = authorise(request)
        if denied is not None:
            return denied
        return JSONResponse(feed.review(), headers={"Cache-Control": "no-store"})

    async def journal(request: Request) -> Response:
        denied = authorise(request)
        if denied is not None:
            return denied
        try:
            t = float(request.query_params.get("t", ""))
            if not math.isfinite(t):
                raise ValueError
        except ValueError:
            return _error(400, "journal needs ?t=SECONDS (a session time)")
        window = await asyncio.to_thread(journal_window, feed, t)
        return JSONResponse(window, headers={"Cache-Control": "no-store"})

    async def body(request: Request) -> bytes:
        length = request.headers.get("content-length")
        if length is not None:
            if not length.isdigit():
                raise HTTPException(400, "bad Content-Length")
            if int(length) > cfg.max_body:
                raise HTTPException(413, f"the request body is larger than {cfg.max_body} bytes")
        data = bytearray()
        async for chunk in request.stream():
            data += chunk
            if len(data) > cfg.max_body:
                raise HTTPException(413, f"the request body is larger than {cfg.max_body} bytes")
        return bytes(data)

    async def action(request: Request) -> Response:
        denied = authorise(request)
        if denied is not None:
            return denied
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            return _error(415, "send the action as application/json")
        raw = await body(request)
        try:
            events = parse_action(raw, feed)
            futures = feed.submit(events)
        except ArbiterRequestError as exc:
            return _error(400, str(exc))
        except FeedClosedError as exc:
            return _error(409, str(exc))
        lines = [ev.to_json() for ev in events]
        try:
            seqs = await asyncio.wait_for(asyncio.gather(*(asyncio.wrap_future(f) for f in futures)),
                                          JOURNAL_WAIT_S)
        except asyncio.TimeoutError:
            return JSONResponse({"status": "queued", "lines": lines}, status_code=202)
        except FeedClosedError as exc:
            return _error(409, str(exc))
        return JSONResponse({"status": "journaled", "lines": lines, "seq": list(seqs)})

    async def not_found(request: Request, exc: Exception) -> Response:
        return _error(404, f"no such page on this board: {request.url.path} (pages: {', '.join(PAGES)})")

    async def http_error(request: Request, exc: HTTPException) -> Response:
        if exc.status_code == 404:
            return await not_found(request, exc)
        return _error(exc.status_code, exc.detail, getattr(exc, "headers", None))

    routes = [
        Route("/", page("board.html")),
        Route("/overlay", page("overlay.html")),
        Route("/arbiter", page("arbiter.html")),
        Route("/game.pdn", game_pdn),
        Route("/api/game", api_game),
        Route("/events", events),
        Route("/arbiter/api/review", review),
        Route("/arbiter/api/journal", journal),
        Route("/arbiter/api/action", action, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error, 404: not_found})
    app.state.feed = feed
    app.state.streams = streams
    return app
