"""``rig hub``'s pages: the all-boards hall, each game's page, the round PDN, the API, Server-Sent Events.

Starlette (the event streams: :mod:`rig.web.sse`), served by uvicorn; every asset comes from
``rig/hub/static`` (no CDN, no build step). Everything is read-only; a request that is not a GET/HEAD, has a
body, an over-long URL, names an unknown board or round, or would open one viewer too many gets a clear 4xx
and changes nothing.

    /                     the hall: every board (thumbnail, clocks, alerts) and the relay status
    /game/BOARD           one game: board, clocks, moves, irregularities, switch health
    /round/N.pdn          the round's multi-game PDN (the relay feed, a stable URL)
    /game/BOARD.pdn       the board's current game as the feed has it
    /events[?board=B]     Server-Sent Events: ``board`` events, one JSON summary each
    /api/boards  /api/game/BOARD  /api/round/N  /api/hub  /api/layouts
    /static/board.js      the board pages' renderer (``rig/web/static/board.js``, the one file both serve)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import threading
import time
from collections import deque
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from rig.hub.protocol import check_id
from rig.hub.service import Hub
from rig.variants import BRAZILIAN, INTERNATIONAL, PORTUGUESE
from rig.web.sse import Channel, EventStream, chunk

__all__ = ["create_app", "Viewers", "PDN_TYPE"]

#: what a viewer's channel holds: (board, encoded event, hub time of the change)
Item = tuple[str, bytes, float]

STATIC = os.path.join(os.path.dirname(__file__), "static")
#: the project's one board renderer, served by the board pages and the hub alike
BOARD_JS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "web", "static", "board.js")
PDN_TYPE = "text/plain; charset=utf-8"
MAX_URL = 2048
MAX_BODY = 16384
#: how long the hub's worker waits for a batch's writes before its SQLite transaction (a stopped loop)
WRITE_WAIT_S = 1.0


def _error(status: int, message: str, **headers: str) -> JSONResponse:
    return JSONResponse({"error": message, "status": status}, status_code=status, headers=headers or None)


class Viewers:
    """The connected SSE viewers, each with a :class:`~rig.web.sse.Channel` the hub's changes are put into
    (never waits: a viewer that falls ``queue_size`` events behind is dropped; its browser reconnects and
    starts from a fresh state). Each change is encoded once, on the hub's worker thread; every viewer gets the
    same bytes. A viewer written to directly (:class:`~rig.web.sse.Sink`) gets one chunk per batch of changes,
    framed once for all of them, written in the same pass over the viewers. The latest card of every board is
    kept encoded too, so a new viewer's first event costs no lock and no JSON."""

    def __init__(self, max_viewers: int = 2000, max_per_client: int = 1000, queue_size: int = 512):
        self.max_viewers = max_viewers
        self.max_per_client = max_per_client
        self.queue_size = queue_size
        self.subs: dict[int, tuple[Channel[Item], str | None, str]] = {}
        self.per_client: dict[str, int] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        #: board -> (round, hub time, encoded event) of its current game
        self.cards: dict[str, tuple[int, float, bytes]] = {}
        self._hall: bytes | None = None             # every card in (round, board) order, joined
        self.refused = 0
        self.dropped = 0
        self.sent = 0
        #: seconds each write waited in the hub, from the change applied to its write to a viewer (the last ones;
        #: for the direct viewers, one per batch: to the batch's last write)
        self.lags: deque[tuple[float, float]] = deque(maxlen=20000)         # (time of the write, lag)
        #: seconds from a board's stamp (``ts``) to the last direct write of its change: the hub's side of the
        #: move-to-page latency, MQTT included (the rest is the network and the viewer)
        self.stamp_lags: deque[tuple[float, float]] = deque(maxlen=20000)

    def refuse(self, client: str) -> str | None:
        if len(self.subs) >= self.max_viewers:
            return f"{len(self.subs)} viewers are connected, the most this hub serves"
        if self.per_client.get(client, 0) >= self.max_per_client:
            return f"{self.per_client[client]} event streams are open from {client}, the most one client gets"
        return None

    def add(self, client: str, board: str | None) -> tuple[int, Channel[Item]]:
        ch: Channel[Item] = Channel(self.queue_size)
        key = id(ch)
        self.subs[key] = (ch, board, client)
        self.per_client[client] = self.per_client.get(client, 0) + 1
        return key, ch

    def remove(self, key: int) -> None:
        item = self.subs.pop(key, None)
        if item is not None:
            n = self.per_client.get(item[2], 1) - 1
            if n > 0:
                self.per_client[item[2]] = n
            else:
                self.per_client.pop(item[2], None)

    def prime(self, summaries: list[dict[str, Any]]) -> None:
        """The cards of the boards the hub knows at start-up (on the event loop's thread)."""
        self._cards([(s["board"], int(s["round"]), s.get("hub_ts") or 0.0, sse_event(s)) for s in summaries])

    def first(self, board: str | None) -> bytes:
        """What a new viewer gets first: the board's card, or every card (the hall)."""
        if board is not None:
            card = self.cards.get(board)
            return card[2] if card else b""
        if self._hall is None:
            self._hall = b"".join(c[2] for _, c in sorted(self.cards.items(), key=lambda kv: (kv[1][0], kv[0])))
        return self._hall

    def listener(self, summaries: list[dict[str, Any]]) -> None:
        """Called on the hub's worker thread: encode each change once, hand them to the event loop, and wait
        (up to ``WRITE_WAIT_S``) until they are written: the worker's SQLite transaction, which follows, then
        never takes the GIL from the writes (each socket write lets another thread take it, and a thread that
        loses its core while holding it stalls the writes for a whole time slice on a busy machine)."""
        loop = self.loop
        if loop is None:
            return
        now = time.time()
        payload = [(s["board"], int(s["round"]), s.get("hub_ts") or now, sse_event(s)) for s in summaries]
        stamps = [float(s["ts"]) for s in summaries if isinstance(s.get("ts"), (int, float))]
        try:
            on_loop = asyncio.get_running_loop() is loop
        except RuntimeError:
            on_loop = False
        written = None if on_loop else threading.Event()
        loop.call_soon_threadsafe(self._publish, payload, stamps, written)
        if written is not None:
            written.wait(WRITE_WAIT_S)

    def lag_ms(self, lags: deque[tuple[float, float]] | None = None, since: float = 0.0) -> dict[str, float]:
        """p50, p99 and max of ``lags`` (the write lags by default) of the writes from ``since`` on, in ms."""
        xs = sorted(lag for t, lag in (self.lags if lags is None else lags) if t >= since)
        if not xs:
            return {"n": 0}
        return {"n": len(xs), "p50": round(1000 * xs[len(xs) // 2], 2),
                "p99": round(1000 * xs[min(len(xs) - 1, int(0.99 * len(xs)))], 2), "max": round(1000 * xs[-1], 2)}

    def _cards(self, payload: list[tuple[str, int, float, bytes]]) -> None:
        for b, rnd, made, data in payload:
            card = self.cards.get(b)
            if card is None or (rnd, made) >= card[:2]:     # a board's latest round; a late older change loses
                self.cards[b] = (rnd, made, data)
                self._hall = None

    def _publish(self, payload: list[tuple[str, int, float, bytes]], stamps: list[float] = (),
                 written: threading.Event | None = None) -> None:
        try:
            self._write(payload, stamps)
        finally:
            if written is not None:
                written.set()

    def _write(self, payload: list[tuple[str, int, float, bytes]], stamps: list[float]) -> None:
        self._cards(payload)
        items = [(b, data, made) for b, _, made, data in payload]
        frames: dict[str | None, tuple[int, bytes]] | None = None     # None (the hall) or a board -> its chunk
        direct = 0
        for key, (ch, board, _) in list(self.subs.items()):
            if ch.closed:                               # gone: its stream removes it
                continue
            if ch.sink is not None:
                if frames is None:
                    frames = _frames(items)
                frame = frames.get(board)
                if frame is None:                       # nothing of this viewer's board
                    continue
                direct += 1
                if ch.write(frame[1]):
                    self.sent += frame[0]
                else:
                    self.dropped += 1
                    self.remove(key)
                continue
            for item in items:
                if board is not None and item[0] != board:
                    continue
                if ch.put(item):
                    self.sent += 1
                else:
                    self.dropped += 1
                    self.remove(key)
                    break
        if direct:
            done = time.time()
            self.lags.append((done, done - min(made for _, _, made in items)))
            self.stamp_lags.extend((done, done - ts) for ts in stamps)

    def render(self, items: list[Item]) -> bytes:
        """One write for what gathered: each board's latest card only (a card is whole)."""
        now = time.time()
        self.lags.append((now, now - items[0][2]))
        if len(items) == 1:
            return items[0][1]
        latest: dict[str, bytes] = {}
        for b, data, _ in items:
            latest.pop(b, None)
            latest[b] = data
        return b"".join(latest.values())


def _frames(items: list[Item]) -> dict[str | None, tuple[int, bytes]]:
    """The chunks of one batch, each framed once for every direct viewer: the hall's (each board's latest card)
    and each board's own, with the number of events in it."""
    latest: dict[str, bytes] = {}
    for b, data, _ in items:
        latest.pop(b, None)
        latest[b] = data
    out: dict[str | None, tuple[int, bytes]] = {b: (1, chunk(data)) for b, data in latest.items()}
    out[None] = (len(latest), chunk(b"".join(latest.values())))
    return out


def sse_event(summary: dict[str, Any]) -> bytes:
    """One ``board`` Server-Sent Event, encoded once for every viewer."""
    return b"event: board\r\ndata: " + json.dumps(summary, separators=(",", ":")).encode("utf-8") + b"\r\n\r\n"


class _Limits:
    """ASGI middleware: read-only server; bodies, methods and URLs that are refused before any handler.
    ``direct`` paths (the event streams) are answered here, without the router's layers around every write."""

    def __init__(self, app, max_body: int = MAX_BODY, direct: dict[str, Any] | None = None):
        self.app = app
        self.max_body = max_body
        self.direct = direct or {}

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        problem = None
        if len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"") > MAX_URL:
            problem = (414, f"the URL is over {MAX_URL} bytes")
        elif length is not None and (not length.isdigit() or int(length) > self.max_body):
            problem = (413, f"the request body is over {self.max_body} bytes")
        elif scope["method"] not in ("GET", "HEAD"):
            problem = (405, f"{scope['method']} is not served: the hub's pages and API are read-only")
        elif length is not None and int(length) > 0 or b"chunked" in headers.get(b"transfer-encoding", b""):
            problem = (413, "a request to the hub has no body")
        if problem is None:
            handler = self.direct.get(scope["path"])
            if handler is not None:
                response = await handler(Request(scope, receive))
                return await response(scope, receive, send)
            return await self.app(scope, receive, send)
        extra = {"Allow": "GET, HEAD"} if problem[0] == 405 else {}
        return await _error(problem[0], problem[1], **extra)(scope, receive, send)


def layouts() -> dict[str, Any]:
    """Each variant's geometry as board.js takes it (the board pages' ``info``): squares as (file, rank)
    seen from White, their names, and whether the record names them algebraically (CBD art. 6A)."""
    out = {}
    for v in (PORTUGUESE, BRAZILIAN, INTERNATIONAL):
        out[v.name] = {"size": v.size, "algebraic": v.algebraic,
                     "squares": {str(s): list(v.coords(s)) for s in range(1, v.squares + 1)},
                     "names": {str(s): v.square_name(s) for s in range(1, v.squares + 1)}}
    return out


def create_app(hub: Hub, *, max_viewers: int = 2000, max_per_client: int = 1000, ping_s: float = 15.0) -> Starlette:
    """The ASGI app of one hub."""
    viewers = Viewers(max_viewers, max_per_client)
    hub.listeners.append(viewers.listener)
    layout_json = layouts()

    def _board(request: Request) -> str | None:
        board = request.path_params["board"]
        try:
            check_id(board, "board")
        except ValueError:
            return None
        return board

    async def hall(request: Request) -> Response:
        return FileResponse(os.path.join(STATIC, "hall.html"), headers={"Cache-Control": "no-cache"})

    async def game_page(request: Request) -> Response:
        board = _board(request)
        if board is None or board not in hub.current:
            return _error(404, f"no board {request.path_params['board']!r} in tournament {hub.tournament}")
        return FileResponse(os.path.join(STATIC, "game.html"), headers={"Cache-Control": "no-cache"})

    async def game_pdn(request: Request) -> Response:
        board = _board(request)
        try:
            if board is None:
                raise KeyError(board)
            body = hub.game_pdn(board)
        except KeyError:
            return _error(404, f"no board {request.path_params['board']!r} in tournament {hub.tournament}")
        return Response(body, media_type=PDN_TYPE, headers={"Cache-Control": "no-cache"})

    async def round_pdn(request: Request) -> Response:
        rnd = request.path_params["n"]
        try:
            body = hub.round_pdn(rnd)
        except KeyError:
            return _error(404, f"no round {rnd} in tournament {hub.tournament} (no pairings and no board yet)")
        return Response(body, media_type=PDN_TYPE, headers={"Cache-Control": "no-cache"})

    async def api_boards(request: Request) -> Response:
        return JSONResponse(hub.summaries())

    async def api_game(request: Request) -> Response:
        board = _board(request)
        try:
            if board is None:
                raise KeyError(board)
            return JSONResponse(hub.game(board))
        except KeyError:
            return _error(404, f"no board {request.path_params['board']!r} in tournament {hub.tournament}")

    async def api_round(request: Request) -> Response:
        rnd = request.path_params["n"]
        if rnd not in hub.rounds():
            return _error(404, f"no round {rnd} in tournament {hub.tournament}")
        return JSONResponse({"round": rnd, "pdn": f"/round/{rnd}.pdn", "frozen": rnd in hub.frozen,
                             "games": hub.relay_status(rnd)})

    async def api_hub(request: Request) -> Response:
        try:
            since = float(request.query_params.get("since", 0.0))   # the lags of the writes from then on
        except ValueError:
            return _error(400, "since must be a time in seconds since the epoch")
        with hub.lock:
            problems = list(hub.problems)
            stats = dict(hub.stats)
        return JSONResponse({"tournament": hub.tournament, "rounds": hub.rounds(), "stats": stats,
                             "problems": problems, "viewers": len(viewers.subs), "refused": viewers.refused,
                             "dropped": viewers.dropped, "write_lag_ms": viewers.lag_ms(since=since),
                             "stamp_to_write_ms": viewers.lag_ms(viewers.stamp_lags, since)})

    async def board_js(request: Request) -> Response:
        return FileResponse(BOARD_JS, media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    async def api_layouts(request: Request) -> Response:
        return JSONResponse(layout_json, headers={"Cache-Control": "max-age=3600"})

    async def events(request: Request) -> Response:
        board = request.query_params.get("board")
        if board is not None:
            try:
                check_id(board, "board")
            except ValueError as exc:
                return _error(400, str(exc))
            if board not in hub.current:
                return _error(404, f"no board {board!r} in tournament {hub.tournament}")
        client = request.client.host if request.client else "?"
        why = viewers.refuse(client)
        if why is not None:
            viewers.refused += 1
            return _error(429, f"too many viewers: {why}; try again later", **{"Retry-After": "10"})
        key, ch = viewers.add(client, board)
        return EventStream(ch, viewers.render, first=viewers.first(board), ping_s=ping_s,
                           on_close=lambda: viewers.remove(key))

    async def not_found(request: Request, exc) -> Response:
        return _error(404, f"nothing at {request.url.path}")

    @contextlib.asynccontextmanager
    async def lifespan(app):
        viewers.loop = asyncio.get_running_loop()
        now = time.time()                              # before the summaries: a later change wins
        viewers.prime([dict(s, hub_ts=now) for s in hub.summaries()])
        yield
        viewers.loop = None

    routes = [
        Route("/", hall),
        Route("/game/{board}.pdn", game_pdn),
        Route("/game/{board}", game_page),
        Route("/round/{n:int}.pdn", round_pdn),
        Route("/api/boards", api_boards),
        Route("/api/game/{board}", api_game),
        Route("/api/round/{n:int}", api_round),
        Route("/api/hub", api_hub),
        Route("/api/layouts", api_layouts),
        Route("/static/board.js", board_js),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={404: not_found})
    wrapped = _Limits(app, direct={"/events": events})
    wrapped.viewers, wrapped.hub = viewers, hub
    return wrapped  # type: ignore[return-value]
