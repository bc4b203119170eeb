"""The lean Server-Sent Events response (rig/web/sse.py) and the hub's viewers built on it (rig/hub/web.py):
batches written in one send, pings only when idle, a disconnect or a viewer too far behind ends the stream,
a new viewer's first events from the cached cards."""

from __future__ import annotations

import asyncio
import json

from rig.hub.web import Viewers, sse_event
import rig.web.sse as sse_module
from rig.web.sse import PING, Channel, EventStream, Sink, chunk


def run(coro):
    return asyncio.run(coro)


def test_channel_gives_what_gathered_then_nothing_on_timeout_then_none_once_closed():
    async def main():
        ch: Channel[int] = Channel(limit=3)
        assert ch.put(1) and ch.put(2)
        assert await ch.take(1.0) == [1, 2]
        t = asyncio.get_running_loop().time()
        assert await ch.take(0.05) == []                      # idle: the caller pings
        assert asyncio.get_running_loop().time() - t >= 0.04
        waiter = asyncio.ensure_future(ch.take(5.0))
        await asyncio.sleep(0)
        ch.put(3)                                             # wakes the waiting viewer at once
        assert await asyncio.wait_for(waiter, 1.0) == [3]
        ch.close()
        assert await ch.take(1.0) is None and not ch.put(4)

    run(main())


def test_channel_closes_a_viewer_that_falls_behind():
    ch: Channel[int] = Channel(limit=2)
    assert ch.put(1) and ch.put(2)
    assert not ch.put(3) and ch.closed and ch.items == []
    assert "closed" in repr(ch)


class Client:
    """An ASGI server's side of one connection: what was sent, and a disconnect on demand."""

    def __init__(self, method: str = "GET"):
        self.scope = {"type": "http", "method": method}
        self.sent: list[dict] = []
        self.gone = asyncio.Event()
        self._first = True

    async def receive(self) -> dict:
        if self._first:
            self._first = False
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.gone.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: dict) -> None:
        self.sent.append(message)

    def bodies(self) -> list[bytes]:
        return [m["body"] for m in self.sent if m["type"] == "http.response.body"]


def test_stream_writes_first_then_batches_then_pings_and_ends_on_disconnect():
    async def main():
        ch: Channel[bytes] = Channel()
        closed = []
        client = Client()
        stream = EventStream(ch, b"".join, first=b"data: 0\r\n\r\n", ping_s=0.05, on_close=lambda: closed.append(1))
        task = asyncio.ensure_future(stream(client.scope, client.receive, client.send))
        await asyncio.sleep(0.01)
        ch.put(b"data: 1\r\n\r\n")
        ch.put(b"data: 2\r\n\r\n")
        await asyncio.sleep(0.12)
        client.gone.set()
        await asyncio.wait_for(task, 1.0)
        start = client.sent[0]
        assert start["status"] == 200 and (b"content-type", b"text/event-stream; charset=utf-8") in start["headers"]
        bodies = client.bodies()
        assert bodies[0] == b"data: 0\r\n\r\n"
        assert bodies[1] == b"data: 1\r\n\r\ndata: 2\r\n\r\n"          # what gathered: one write
        assert PING in bodies[2:]                                       # idle: a comment keeps it open
        assert closed == [1] and ch.closed

    run(main())


def test_stream_of_a_dropped_viewer_ends_its_response_and_head_gets_headers_only():
    async def main():
        ch: Channel[bytes] = Channel(limit=1)
        client = Client()
        task = asyncio.ensure_future(EventStream(ch, b"".join, ping_s=5)(client.scope, client.receive, client.send))
        await asyncio.sleep(0.01)
        ch.put(b"a")
        ch.put(b"b")                        # over the limit before the stream read: closed
        await asyncio.wait_for(task, 1.0)
        assert client.sent[-1] == {"type": "http.response.body", "body": b"", "more_body": False}
        head = Client("HEAD")
        await asyncio.wait_for(EventStream(Channel(), b"".join)(head.scope, head.receive, head.send), 1.0)
        assert [m["type"] for m in head.sent] == ["http.response.start", "http.response.body"]
        assert head.bodies() == [b""]

    run(main())


def card(board: str, rnd: int, seq: int, hub_ts: float) -> dict:
    return {"board": board, "round": rnd, "seq": seq, "ts": hub_ts, "hub_ts": hub_ts}


def events_of(data: bytes) -> list[dict]:
    return [json.loads(line[5:]) for line in data.split(b"\r\n") if line.startswith(b"data:")]


def test_viewers_first_events_come_from_the_latest_cards_in_round_and_board_order():
    async def main():
        v = Viewers()
        v.loop = asyncio.get_running_loop()
        v.prime([card("b2", 1, 5, 10.0), card("b1", 1, 7, 10.0)])
        v.listener([card("b2", 1, 6, 11.0)])
        v._publish([("b1", 1, 9.0, sse_event(card("b1", 1, 3, 9.0)))])   # an older change: the card stays
        await asyncio.sleep(0)
        assert [(e["board"], e["seq"]) for e in events_of(v.first(None))] == [("b1", 7), ("b2", 6)]
        assert events_of(v.first("b2"))[0]["seq"] == 6 and v.first("b9") == b""
        v.listener([card("b1", 2, 1, 12.0)])                            # b1 moved on to round 2
        await asyncio.sleep(0)
        assert [(e["board"], e["round"]) for e in events_of(v.first(None))] == [("b2", 1), ("b1", 2)]

    run(main())


def test_viewers_get_their_boards_changes_and_a_viewer_too_far_behind_is_dropped():
    async def main():
        v = Viewers(queue_size=2)
        v.loop = asyncio.get_running_loop()
        _, hall = v.add("c", None)
        k1, one = v.add("c", "b1")
        for i in range(2):
            v._publish([("b1", 1, float(i), sse_event(card("b1", 1, i, float(i))))])
        assert await one.take(1) is not None
        v._publish([("b2", 1, 3.0, sse_event(card("b2", 1, 1, 3.0)))])   # not b1's: the game viewer skips it
        assert one.items == [] and not one.closed
        assert hall.closed and v.dropped == 1 and len(v.subs) == 1 and v.per_client == {"c": 1}
        v.remove(k1)
        assert v.subs == {} and v.per_client == {}
        # a batch with two cards of one board writes the latest only
        items = [("b1", b"old", 1.0), ("b2", b"x", 1.0), ("b1", b"new", 1.0)]
        assert v.render(items) == b"xnew"

    run(main())


class Transport:
    """The part of an asyncio transport a :class:`Sink` uses: what was written, what is still unsent."""

    def __init__(self, unsent: int = 0):
        self.data: list[bytes] = []
        self.unsent = unsent
        self.closing = False
        self.aborted = False

    def is_closing(self) -> bool:
        return self.closing

    def get_write_buffer_size(self) -> int:
        return self.unsent

    def write(self, data: bytes) -> None:
        self.data.append(data)

    def abort(self) -> None:
        self.aborted = self.closing = True


def test_chunk_frames_http11_chunks():
    assert chunk(b"data: 1\r\n\r\n") == b"b\r\ndata: 1\r\n\r\n\r\n"
    assert chunk(b"x" * 300).startswith(b"12c\r\n") and chunk(b"") == b""    # an empty chunk would end the body


def test_an_attached_channel_writes_what_gathered_then_each_item_directly():
    ch: Channel[bytes] = Channel()
    assert ch.put(b"a") and ch.put(b"b")
    t = Transport()
    ch.attach(Sink(t), b"".join)
    assert t.data == [chunk(b"ab")] and ch.items == []                     # what gathered: one chunk
    assert ch.put(b"c") and ch.write(chunk(b"d"))
    assert t.data[1:] == [chunk(b"c"), chunk(b"d")] and ch.writes == 3 and "direct" in repr(ch)
    t.closing = True                                                       # the viewer went away
    assert not ch.write(chunk(b"e")) and ch.closed and len(t.data) == 3


def test_a_direct_viewer_too_far_behind_is_dropped_and_its_connection_aborted():
    ch: Channel[bytes] = Channel()
    t = Transport(unsent=2_000_000)
    ch.attach(Sink(t, limit=1 << 20), b"".join)
    assert not ch.write(chunk(b"x")) and ch.closed and t.aborted and t.data == []


def test_a_direct_stream_is_written_by_the_publisher_and_pinged_when_idle(monkeypatch):
    t = Transport()
    monkeypatch.setattr(sse_module, "direct_sink", lambda scope, send, limit: Sink(t, limit))

    async def main():
        ch: Channel[bytes] = Channel()
        client = Client()
        stream = EventStream(ch, b"".join, first=b"data: 0\r\n\r\n", ping_s=0.1)
        task = asyncio.ensure_future(stream(client.scope, client.receive, client.send))
        await asyncio.sleep(0.01)
        assert ch.sink is not None and client.bodies() == [b"data: 0\r\n\r\n"]
        for _ in range(3):                                                 # busy: written, no ping
            ch.write(chunk(b"data: 1\r\n\r\n"))
            await asyncio.sleep(0.05)
        assert chunk(PING) not in t.data
        await asyncio.sleep(0.2)                                           # idle: a ping
        assert t.data[-1] == chunk(PING)
        client.gone.set()
        await asyncio.wait_for(task, 1.0)
        assert ch.closed and client.sent[-1] == {"type": "http.response.body", "body": b"", "more_body": False}

    run(main())


def test_direct_viewers_get_one_chunk_per_batch_framed_once():
    async def main():
        v = Viewers()
        v.loop = asyncio.get_running_loop()
        hall_t, game_t, other_t = Transport(), Transport(), Transport()
        for t, board in ((hall_t, None), (game_t, "b1"), (other_t, "b3")):
            _, ch = v.add("c", board)
            ch.attach(Sink(t), v.render)
        v._publish([("b1", 1, 1.0, sse_event(card("b1", 1, 1, 1.0))), ("b2", 1, 1.0, sse_event(card("b2", 1, 4, 1.0)))],
                   [0.5, 0.5])
        assert len(hall_t.data) == 1 and [e["board"] for e in events_of(hall_t.data[0])] == ["b1", "b2"]
        assert len(game_t.data) == 1 and [e["board"] for e in events_of(game_t.data[0])] == ["b1"]
        assert other_t.data == []                                          # nothing of b3's
        assert hall_t.data[0] is not game_t.data[0] and v.sent == 3 and len(v.lags) == 1 and len(v.stamp_lags) == 2
        hall_t.closing = True
        v._publish([("b1", 1, 2.0, sse_event(card("b1", 1, 2, 2.0)))])
        assert v.dropped == 1 and len(v.subs) == 2

    run(main())
