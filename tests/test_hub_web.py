"""The hub's pages over real HTTP (uvicorn on a loopback port): pages, PDN, API, Server-Sent Events, and bad
requests (unknown game, methods, bodies, URLs, a flood of event streams) that get a 4xx and change nothing."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import time

import httpx
import pytest

from hub_helpers import board_messages, deliver, new_hub
from relay_checker import RelayChecker
from rig.hub.server import HttpServer
from rig.hub.web import BOARD_JS, create_app


@pytest.fixture()
def served():
    hub = new_hub()
    engine, msgs = board_messages("international", "b1", plies=30, closed=False)
    deliver(hub, "t", "b1", msgs[:20])
    app = create_app(hub, max_viewers=4, max_per_client=4, ping_s=1)
    with HttpServer(app) as server:
        yield hub, server, msgs


def state(hub):
    return json.dumps(hub.game("b1"), sort_keys=True), hub.round_pdn(1)


def test_pages_pdn_and_api(served):
    hub, server, _ = served
    with httpx.Client(base_url=server.url, timeout=5) as c:
        r = c.get("/")
        assert r.status_code == 200 and "rig hub" in r.text and "/static/board.js" in r.text
        assert c.get("/game/b1").status_code == 200
        for asset in ("board.js", "hall.js", "game.js", "common.js", "hub.css"):
            assert c.get(f"/static/{asset}").status_code == 200
        # one renderer for the project: the hub serves the board pages' board.js itself (no copy of it)
        with open(BOARD_JS, "rb") as f:
            assert c.get("/static/board.js").content == f.read()
        assert BOARD_JS.endswith(os.path.join("rig", "web", "static", "board.js"))
        assert c.get("/static/thumb.js").status_code == 404
        r = c.get("/round/1.pdn")
        assert r.status_code == 200 and r.headers["content-type"] == "text/plain; charset=utf-8"
        assert RelayChecker().poll(r.content, r.status_code, 0.0, r.headers["content-type"]).errors == []
        r = c.get("/game/b1.pdn")
        assert r.status_code == 200 and '[Board "b1"]' in r.text and r.text.endswith("*\n\n")
        game = c.get("/api/game/b1").json()
        assert game["board"] == "b1" and game["moves"] == len(hub.games[(1, "b1")].standing())
        assert c.get("/api/boards").json()[0]["board"] == "b1"
        assert c.get("/api/round/1").json()["games"][0]["relayable"] is True
        assert set(c.get("/api/layouts").json()) == {"portuguese", "brazilian", "international"}
        assert c.get("/api/hub").json()["tournament"] == "t"


def test_bad_requests_get_a_clear_4xx_and_change_nothing(served):
    hub, server, _ = served
    before = state(hub)
    with httpx.Client(base_url=server.url, timeout=5) as c:
        cases = [
            (c.get("/game/nobody"), 404, "no board"),
            (c.get("/game/nobody.pdn"), 404, "no board"),
            (c.get("/api/game/no%20body"), 404, "no board"),
            (c.get("/round/7.pdn"), 404, "no round 7"),
            (c.get("/api/round/7"), 404, "no round 7"),
            (c.get("/nothing/here"), 404, "nothing at"),
            (c.post("/api/game/b1", json={"result": "2-0"}), 405, "read-only"),
            (c.delete("/round/1.pdn"), 405, "read-only"),
            (c.post("/events", content=b"x" * 100_000), 413, "over"),
            (c.request("GET", "/api/boards", content=b"{}"), 413, "no body"),
            (c.get("/api/boards?" + "x" * 5000), 414, "URL"),
            (c.get("/events?board=b%201"), 400, "board"),
            (c.get("/events?board=b7"), 404, "no board"),
            (c.get("/api/hub?since=yesterday"), 400, "since"),
        ]
    for r, status, text in cases:
        assert r.status_code == status, (r.request.url, r.status_code, r.text)
        assert text in r.json()["error"]
    assert state(hub) == before


def _events(url: str, out: list, stop: threading.Event) -> None:
    with httpx.Client(timeout=10) as c, c.stream("GET", url) as r:
        assert r.status_code == 200
        for line in r.iter_lines():
            if line.startswith("data:"):
                out.append(json.loads(line[5:]))
            if stop.is_set():
                return


def test_events_follow_the_game(served):
    hub, server, msgs = served
    got: list = []
    stop = threading.Event()
    t = threading.Thread(target=_events, args=(server.url + "/events?board=b1", got, stop), daemon=True)
    t.start()
    deadline = time.monotonic() + 5
    while not got and time.monotonic() < deadline:
        time.sleep(0.02)
    assert got and got[0]["seq"] == 20
    deliver(hub, "t", "b1", msgs[20:])
    while got[-1]["seq"] != len(msgs) and time.monotonic() < deadline:
        time.sleep(0.02)
    stop.set()
    assert got[-1]["seq"] == len(msgs)
    assert got[-1]["moves"] == len(hub.games[(1, "b1")].standing())
    seqs = [g["seq"] for g in got]
    assert seqs == sorted(seqs)


def test_a_flood_of_event_streams_is_refused_and_changes_nothing(served):
    hub, server, _ = served
    before = state(hub)
    with contextlib.ExitStack() as stack:
        c = stack.enter_context(httpx.Client(base_url=server.url, timeout=5))
        open_ = [stack.enter_context(c.stream("GET", "/events")) for _ in range(4)]
        assert all(r.status_code == 200 for r in open_)
        refused = [c.get("/events") for _ in range(20)]
        assert all(r.status_code == 429 for r in refused)
        assert "too many viewers" in refused[0].json()["error"] and refused[0].headers["retry-after"] == "10"
        assert c.get("/api/hub").json()["viewers"] == 4
    # once they are gone a viewer gets in again
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        with httpx.Client(base_url=server.url, timeout=5) as c, c.stream("GET", "/events") as r:
            if r.status_code == 200:
                break
        time.sleep(0.1)
    assert r.status_code == 200
    assert state(hub) == before


def _raw_events(url: str, request: bytes, until: bytes, timeout: float = 5.0) -> bytes:
    """What a plain socket reads from an event stream until ``until`` appears."""
    host, port = url.rsplit("/", 1)[1].split(":")
    with socket.create_connection((host, int(port)), timeout=timeout) as s:
        s.sendall(request)
        got = b""
        deadline = time.monotonic() + timeout
        while until not in got and time.monotonic() < deadline:
            data = s.recv(65536)
            if not data:
                break
            got += data
    return got


def test_http11_viewers_are_written_directly_in_chunks_and_pinged_when_idle(served):
    hub, server, msgs = served
    viewers = server.config.app.viewers
    got: list = []
    stop = threading.Event()
    t = threading.Thread(target=_events, args=(server.url + "/events", got, stop), daemon=True)
    t.start()
    deadline = time.monotonic() + 5
    while not got and time.monotonic() < deadline:
        time.sleep(0.02)
    assert [ch.sink is not None for ch, _, _ in viewers.subs.values()] == [True]   # uvicorn, HTTP/1.1: direct
    for m in msgs[20:25]:                                            # one batch each: one event each
        deliver(hub, "t", "b1", [m])
    while got[-1]["seq"] != 25 and time.monotonic() < deadline:
        time.sleep(0.02)
    stop.set()
    assert [g["seq"] for g in got] == [20, 21, 22, 23, 24, 25]       # httpx parsed every chunk
    lags = httpx.get(server.url + "/api/hub").json()
    assert lags["write_lag_ms"]["n"] >= 5 and lags["stamp_to_write_ms"]["n"] >= 5
    later = httpx.get(server.url + "/api/hub", params={"since": time.time() + 60}).json()
    assert later["write_lag_ms"] == later["stamp_to_write_ms"] == {"n": 0}   # only the writes from then on
    # an idle direct stream gets a ping (the fixture's ping_s is 1 s); the chunks are well framed
    raw = _raw_events(server.url, b"GET /events?board=b1 HTTP/1.1\r\nHost: x\r\n\r\n", b": ping")
    head, _, body = raw.partition(b"\r\n\r\n")
    assert b"transfer-encoding: chunked" in head.lower() and b": ping" in body
    size, _, rest = body.partition(b"\r\n")
    assert rest[:int(size, 16)].startswith(b"event: board\r\ndata: {")


def test_an_http10_viewer_gets_the_queued_stream(served):
    hub, server, msgs = served
    raw = _raw_events(server.url, b"GET /events?board=b1 HTTP/1.0\r\n\r\n", b'"seq":20')
    head, _, body = raw.partition(b"\r\n\r\n")
    assert b"chunked" not in head.lower() and body.startswith(b"event: board\r\ndata: {")   # no chunk framing
    assert b'"seq":20' in body
