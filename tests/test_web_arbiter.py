"""The arbiter's actions from the review API: each is journaled before it takes effect, and `rig transcribe`
of the journal reproduces the decision; the evidence (journal lines around an irregularity) comes from the
in-memory ring or, further back, from the session file."""

from __future__ import annotations

import contextlib
import io
import json

import httpx
import pytest

from rig.cli import main as rig_main
from rig.reconstruct import IrregularityUpdate, GameEnd
from rig.session import ArbiterEvent, read_session
from rig.web.config import WebConfig
from web_helpers import TOKEN, BoardRig, session_of, wait_for

AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture(scope="module")
def irregular_game():
    s = session_of("portuguese", 20, inject=["clock-without-move@5", "capture-not-removed@9"])
    assert [i["type"] for i in s.expected_irregularities] == ["clock-without-move", "capture-not-removed"]
    return s


class Order:
    """A sink recording, in the loop's order, the journaled arbiter lines and the engine's decisions."""

    def __init__(self):
        self.seen = []

    def on_event(self, loop, ev):
        if isinstance(ev, ArbiterEvent):
            self.seen.append(("journaled", ev.action, ev.ref))

    def on_outputs(self, loop, outs):
        for o in outs:
            if isinstance(o, IrregularityUpdate):
                self.seen.append(("status", o.status, o.index))
            elif isinstance(o, GameEnd):
                self.seen.append(("end", o.result, None))


def post(client, **action):
    r = client.post("/arbiter/api/action", json=action, headers=AUTH)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["status"] == "journaled"
    return body


def transcribe(path, tmp_path, *extra):
    out = io.StringIO()
    report = tmp_path / "t.report.json"
    with contextlib.redirect_stdout(out):
        assert rig_main(["transcribe", path, "--report", str(report), *extra]) == 0
    return out.getvalue(), json.loads(report.read_text())


def test_decisions_journaled_first_and_transcribe_reproduces_them(tmp_path, irregular_game):
    order = Order()
    with BoardRig(tmp_path, irregular_game) as rig, httpx.Client(base_url=rig.url, timeout=10) as client:
        rig.loop.sinks.add(order)
        rig.release_all()
        rig.settle()
        wait_for(lambda: len(rig.feed.irregularities) == 2)
        # the opponent played on; under the FPD (fpd-2026) that accepts nothing: both stay open for the arbiter
        post(client, action="dismiss", ref=1, note="the piece was off the board; sensor lag")
        post(client, action="accept", ref=0, note="seen")
        post(client, action="time", side="white", delta_ms=60000, note="FPD 7.5b penalty for black")
        post(client, action="draw-claim", side="black", upheld=False, note="repetition not reached")
        body = post(client, action="draw-claim", side="white", upheld=True, note="25 king moves (FPD 6.2)")
        assert body["lines"][0]["upheld"] is True
        wait_for(lambda: rig.engine.result != "*")
        review = client.get("/arbiter/api/review", headers=AUTH).json()
        assert [d["action"] for d in review["decisions"]] == ["dismiss", "accept", "time", "draw-claim", "draw-claim"]
        assert [i["status"] for i in review["irregularities"]] == ["accepted", "dismissed"]
        assert any("60 s added to white's clock" in n["text"] for n in review["notes"])
    # journal line first, then the engine's decision, every time
    first = next(i for i, x in enumerate(order.seen) if x[0] == "journaled")
    assert order.seen[first:] == [("journaled", "dismiss", 1), ("status", "dismissed", 1), ("journaled", "accept", 0),
                          ("status", "accepted", 0), ("journaled", "time", None), ("journaled", "draw-claim", None),
                          ("journaled", "draw-claim", None), ("end", "1/2-1/2", None)]
    _, events = read_session(rig.paths.session)
    lines = [e.to_json() for e in events if isinstance(e, ArbiterEvent)]
    assert lines[0] == {"type": "arbiter", "t": lines[0]["t"], "action": "dismiss", "ref": 1,
                        "note": "the piece was off the board; sensor lag"}
    assert lines[2]["delta_ms"] == 60000 and lines[2]["side"] == "white"
    pdn, report = transcribe(rig.paths.session, tmp_path)
    assert pdn == rig.engine.pdn()
    assert report == rig.engine.report()
    assert report["result"] == "1/2-1/2" and [i["status"] for i in report["irregularities"]] == ["accepted", "dismissed"]
    explained, _ = transcribe(rig.paths.session, tmp_path, "--explain")
    assert "60 s added to white's clock" in explained and "black's draw claim rejected" in explained


def test_rectify_sets_the_position_before_and_set_position_and_result(tmp_path, irregular_game):
    with BoardRig(tmp_path, irregular_game) as rig, httpx.Client(base_url=rig.url, timeout=10) as client:
        rig.release_all()
        rig.settle()
        wait_for(lambda: len(rig.feed.irregularities) == 2)
        before = rig.feed.reviews[1]["before"]["fen"]
        body = post(client, action="rectify", ref=1, restore=True)
        # FPD 000 7.5a: the rule set's rectify restores the position before it by itself (no set-position line)
        assert [ln["action"] for ln in body["lines"]] == ["rectify"]
        wait_for(lambda: rig.feed.position.get("lost"))        # the board must now be put back by hand
        assert rig.engine.irregularities[1].status == "corrected"
        now = client.get("/api/game").json()
        assert now["position"]["fen"] == before and now["position"]["lost"] is True
        # the board knocked over and set again by the arbiter: the position he names stands
        post(client, action="set-position", fen=before, note="board re-set")
        post(client, action="result", result="0-1", note="white left the hall")
        wait_for(lambda: rig.engine.result == "0-1")
    pdn, report = transcribe(rig.paths.session, tmp_path)
    assert pdn == rig.engine.pdn() and report == rig.engine.report()
    assert f"/FEN/ \"{before}\"" in pdn.replace("\n", " ") or before in pdn
    assert "position set by the arbiter" in pdn and report["result"] == "0-1"


def test_rectify_without_restore_where_the_book_does_not_restore(tmp_path):
    """CODEX (brazilian): a rectification sets the status; putting the position back is the page's choice."""
    game = session_of("brazilian", 20, inject=["clock-without-move@5"])
    with BoardRig(tmp_path, game) as rig, httpx.Client(base_url=rig.url, timeout=10) as client:
        rig.release_all()
        rig.settle()
        wait_for(lambda: len(rig.feed.irregularities) == 1)
        body = post(client, action="rectify", ref=0, restore=False)
        assert [ln["action"] for ln in body["lines"]] == ["rectify"]
        wait_for(lambda: rig.engine.irregularities[0].status == "corrected")
        assert not rig.feed.position["lost"]


def test_rectify_without_restore_refused_where_the_book_restores(tmp_path, irregular_game):
    """FPD 000 7.5a: under fpd-2026 a rectification is the restoration of the position before it."""
    with BoardRig(tmp_path, irregular_game) as rig, httpx.Client(base_url=rig.url, timeout=10) as client:
        rig.release_all()
        rig.settle()
        wait_for(lambda: len(rig.feed.irregularities) == 2)
        r = client.post("/arbiter/api/action", json={"action": "rectify", "ref": 0, "restore": False}, headers=AUTH)
        assert r.status_code == 400 and "7.5a" in r.text
        assert rig.engine.irregularities[0].status == "open"


def test_evidence_window_from_the_ring_and_from_the_journal_file(tmp_path, irregular_game):
    for ring, source in ((2000, "ring"), (10, "journal")):
        with BoardRig(tmp_path / source, irregular_game, WebConfig(arbiter_token=TOKEN, ring=ring)) as rig, \
                httpx.Client(base_url=rig.url, timeout=10) as client:
            rig.release_all()
            rig.settle()
            wait_for(lambda: len(rig.feed.irregularities) == 2)
            t = rig.feed.irregularities[1]["t"]
            r = client.get(f"/arbiter/api/journal?t={t}", headers=AUTH)
            assert r.status_code == 200
            window = r.json()
            assert window["source"] == source
            _, events = read_session(rig.paths.session)
            expected = [e.to_json() for e in events if t - 8.0 <= e.t <= t + 4.0]
            assert window["lines"] == expected[-len(window["lines"]):] or window["lines"] == expected[:len(window["lines"])]
            kinds = {ln["type"] for ln in window["lines"]}
            assert {"frame", "clock"} <= kinds
            assert any(ln["t"] <= t for ln in window["lines"]) and any(ln["t"] > t for ln in window["lines"])
            assert client.get("/arbiter/api/journal?t=nan", headers=AUTH).status_code == 400
            assert client.get("/arbiter/api/journal", headers=AUTH).status_code == 400
            review = client.get("/arbiter/api/review", headers=AUTH).json()
            rv = review["reviews"][1]
            assert rv["before"]["pieces"] != rv["after"]["pieces"] and rv["sensed"]


def test_observations_in_the_report_reach_the_review(tmp_path, irregular_game):
    """What the sensors cannot settle is an observation for review, not an alarm: when the engine's report
    has ``observations`` (a kind of output the pages do not know announces them), the review lists them."""
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Observation:                                      # an output kind the feed does not know
        t: float

    with BoardRig(tmp_path, irregular_game) as rig, httpx.Client(base_url=rig.url, timeout=10) as client:
        rig.release_until(irregular_game.events[40].t)
        rig.settle()
        seen = {"type": "piece-lifted-long", "t": 12.5, "squares": [11], "detail": "lifted 4 s, put back"}
        report = rig.engine.report
        rig.engine.report = lambda: dict(report(), observations=[seen])
        seq = rig.feed.seq
        rig.feed.on_outputs(rig.loop, [Observation(12.5)])   # the loop is idle: nothing released
        review = client.get("/arbiter/api/review", headers=AUTH).json()
        assert review["observations"] == [seen]
        assert rig.feed.seq == seq + 1
        assert "observations" not in client.get("/api/game").json()     # the public page has no review data
