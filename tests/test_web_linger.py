"""After the run's end the board's server lingers (rig.web.linger): the final game stays served, the arbiter's
decisions are journaled first, then the game is read again from the journal as `rig transcribe` reads it; the
held sinks (the MQTT publisher) hear of them before they are closed; a decision after the linger is refused."""

from __future__ import annotations

import threading

import httpx

from rig.reconstruct import GameEnd
from rig.session import ArbiterEvent, read_session
from rig.web.linger import CloseLater, linger
from test_web_arbiter import AUTH, transcribe
from web_helpers import BoardRig, session_of, wait_for


class Seen:
    """A sink recording what it is told, in order (as the MQTT publisher would be)."""

    def __init__(self):
        self.calls = []

    def on_event(self, loop, ev):
        if isinstance(ev, ArbiterEvent):
            self.calls.append(("event", ev.action))

    def on_outputs(self, loop, outs):
        self.calls += [("end", o.result) for o in outs if isinstance(o, GameEnd)]

    def on_close(self, loop):
        self.calls.append(("close", loop.engine.result))


def test_decisions_after_the_end_are_journaled_then_read_again_as_transcribe_does(tmp_path):
    game = session_of("portuguese", 12)
    seen = Seen()
    held = CloseLater(seen)
    with BoardRig(tmp_path, game) as rig, httpx.Client(base_url=rig.url, timeout=10) as client:
        rig.loop.sinks.add(held)
        rig.release_all()
        rig.settle()
        rig.loop.stop.set()                              # the run ends (as at the end of a simulated game)
        wait_for(lambda: rig.feed.closed)
        assert seen.calls == []                          # held: not closed with the loop
        r = client.post("/arbiter/api/action", json={"action": "result", "result": "0-1"}, headers=AUTH)
        assert r.status_code == 409                      # no server lingering yet: nothing journaled
        stop = threading.Event()
        done = threading.Thread(target=linger, args=(rig.loop, rig.feed, stop, None, (held,)))
        done.start()
        wait_for(lambda: rig.feed.lingering)
        assert client.get("/api/game").json()["closed"] is True
        r = client.post("/arbiter/api/action", json={"action": "result", "result": "0-1", "note": "white resigned"},
                        headers=AUTH)
        assert r.status_code == 200 and r.json()["status"] == "journaled", r.text
        wait_for(lambda: client.get("/api/game").json()["result"] == "0-1")
        assert "0-1" in client.get("/game.pdn").text.split("\n\n")[1]
        stop.set()
        done.join(10)
        assert seen.calls == [("event", "result"), ("end", "0-1"), ("close", "0-1")]
        r = client.post("/arbiter/api/action", json={"action": "result", "result": "1-0"}, headers=AUTH)
        assert r.status_code == 409
        pdn = client.get("/game.pdn").text
    _, events = read_session(rig.paths.session)
    assert [(e.action, e.result) for e in events if isinstance(e, ArbiterEvent)] == [("result", "0-1")]
    replayed, report = transcribe(rig.paths.session, tmp_path)
    assert replayed == pdn == rig.loop.engine.pdn() and report == rig.loop.engine.report()
    assert report["result"] == "0-1"


def test_linger_for_seconds_ends_by_itself(tmp_path):
    game = session_of("portuguese", 6)
    with BoardRig(tmp_path, game) as rig:
        rig.release_all()
        rig.settle()
        rig.loop.stop.set()
        wait_for(lambda: rig.feed.closed)
        assert linger(rig.loop, rig.feed, threading.Event(), 0.3) == 0
        assert not rig.feed.lingering
