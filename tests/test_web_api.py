"""The board's HTTP surface without a browser: the JSON API and live PDN follow the live loop, SSE resumes
from Last-Event-ID without a missing or doubled move, and bad requests get clear 4xx answers that leave the
game untouched (rig/web, docs/web.md)."""

from __future__ import annotations

import json

import httpx
import pytest

from rig.pdn import read_game
from rig.reconstruct import CounterUpdate
from rig.web.config import WebConfig
from web_helpers import TOKEN, BoardRig, expected_steps, session_of, wait_for

AUTH = {"Authorization": f"Bearer {TOKEN}"}


def read_sse(lines, until):
    """Parse SSE messages from a streaming httpx response (or its ``iter_lines()``, kept open by the caller)
    until ``until(messages)`` is true."""
    msgs, cur = [], {}
    for line in (lines.iter_lines() if hasattr(lines, "iter_lines") else lines):
        if line == "":
            if "data" in cur:
                msgs.append({"id": cur.get("id"), "event": cur.get("event", "message"), "data": json.loads(cur["data"])})
                if until(msgs):
                    return msgs
            cur = {}
            continue
        if line.startswith(":"):
            continue
        key, _, value = line.partition(":")
        cur[key] = value[1:] if value.startswith(" ") else value
    return msgs


def moves_of(msgs, start=None):
    """The move texts by index from a state message and the move messages after it."""
    moves = {}
    if start is not None:
        moves.update(enumerate(m["move"] for m in start["moves"]))
    for m in msgs:
        if m["event"] == "state":
            moves = dict(enumerate(x["move"] for x in m["data"]["moves"]))
        elif m["event"] in ("move", "move-update"):
            moves[m["data"]["index"]] = m["data"]["move"]["move"]
    return [moves[i] for i in sorted(moves)]


@pytest.fixture(scope="module")
def game():
    return session_of("portuguese", 24)


def test_api_and_pdn_follow_the_live_game(tmp_path, game):
    steps = expected_steps(game)
    with BoardRig(tmp_path, game) as rig, httpx.Client(base_url=rig.url) as client:
        rig.release_until(steps[5].t)
        wait_for(lambda: len(client.get("/api/game").json()["moves"]) >= 6)
        snap = client.get("/api/game").json()
        assert [m["move"] for m in snap["moves"]] == steps[5].moves
        assert snap["position"]["pieces"] == steps[5].pieces
        assert snap["info"]["tags"]["White"] == "Ana Lima" and snap["info"]["variant"] == "portuguese"
        rig.release_all()
        rig.settle()
        wait_for(lambda: len(client.get("/api/game").json()["moves"]) == len(rig.engine.moves))
        pdn = client.get("/game.pdn")
        assert pdn.status_code == 200 and pdn.headers["content-type"].startswith("text/plain; charset=utf-8")
        assert pdn.text == rig.engine.pdn()
        assert "[%clock" in pdn.text and '[White "Ana Lima"]' in pdn.text
        final = client.get("/api/game").json()
        assert final["clock"]["white_ms"] is not None
        assert final["counters"] == CounterUpdate(0.0, rig.engine.counters).to_json()["counters"]
        assert final["position"]["fen"] == rig.engine.board.fen()


def test_sse_resumes_from_last_event_id_without_loss_or_repeat(tmp_path, game):
    steps = expected_steps(game)
    with BoardRig(tmp_path, game) as rig, httpx.Client(base_url=rig.url, timeout=10) as client:
        rig.release_until(steps[3].t)
        with client.stream("GET", "/events") as r:
            assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
            first = read_sse(r, lambda ms: len(moves_of(ms)) >= 4)
        assert first[0]["event"] == "state"
        last_id = first[-1]["id"]
        seqs = [m["data"]["seq"] for m in first]
        assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
        # while this client is away the game goes on
        rig.release_until(steps[10].t)
        wait_for(lambda: len(rig.feed.moves) >= 11)
        with client.stream("GET", "/events", headers={"Last-Event-ID": last_id}) as r:
            again = read_sse(r, lambda ms: len(moves_of(first + ms)) >= 11)
        assert all(m["event"] != "state" for m in again), "a resume is not a new snapshot"
        assert again[0]["data"]["seq"] == int(last_id.split("-")[1]) + 1
        assert moves_of(first + again)[:11] == steps[10].moves
        # an id of another process (the board restarted) gets a snapshot
        with client.stream("GET", "/events", headers={"Last-Event-ID": "0000-3"}) as r:
            other = read_sse(r, lambda ms: True)
        assert other[0]["event"] == "state"


def test_unknown_paths_are_404_and_public_pages_read_only(tmp_path, game):
    with BoardRig(tmp_path, game) as rig, httpx.Client(base_url=rig.url) as client:
        for path in ("/nope", "/game/3.pdn", "/round/1.pdn", "/static/missing.js", "/api/games"):
            r = client.get(path)
            assert r.status_code == 404, path
            assert "no such page" in r.json()["error"] or r.status_code == 404
        assert "pages: /, /overlay" in client.get("/game/3.pdn").json()["error"]
        for path in ("/", "/api/game", "/game.pdn", "/overlay"):
            assert client.post(path, content=b"{}").status_code == 405
        for path in ("/", "/overlay", "/arbiter", "/static/board.js", "/static/live.js", "/static/style.css"):
            assert client.get(path).status_code == 200, path
        assert rig.feed.decisions == []


def test_arbiter_api_needs_the_token(tmp_path, game):
    with BoardRig(tmp_path, game) as rig, httpx.Client(base_url=rig.url) as client:
        body = {"action": "result", "result": "1-0"}
        r = client.get("/arbiter/api/review")
        assert r.status_code == 401 and "token is required" in r.json()["error"]
        assert r.headers["www-authenticate"].startswith("Bearer")
        r = client.post("/arbiter/api/action", json=body, headers={"Authorization": "Bearer wrong-token"})
        assert r.status_code == 403 and r.json()["error"] == "wrong arbiter token"
        r = client.post("/arbiter/api/action", json=body)
        assert r.status_code == 401
        assert client.get("/arbiter/api/journal?t=1", headers={"X-Arbiter-Token": "nope"}).status_code == 403
        assert client.get("/arbiter/api/review", headers=AUTH).status_code == 200
        rig.settle()
        assert rig.feed.decisions == [] and rig.engine.result == "*"
        assert not any(getattr(e, "action", None) for e in rig.journal_lines())


def test_arbiter_disabled_without_a_token(tmp_path, game):
    with BoardRig(tmp_path, game, WebConfig()) as rig, httpx.Client(base_url=rig.url) as client:
        r = client.get("/arbiter/api/review", headers=AUTH)
        assert r.status_code == 403 and "arbiter review is disabled" in r.json()["error"]
        assert client.get("/arbiter").status_code == 200      # the page itself holds nothing


BAD = [
    (b"not json", "must be a JSON object"),
    (b"[1, 2]", "must be a JSON object"),
    (b'{"action": "resign"}', "unknown action 'resign'"),
    (b'{"action": "accept"}', "'ref' must be an integer"),
    (b'{"action": "accept", "ref": 7}', "no irregularity 7"),
    (b'{"action": "accept", "ref": true}', "'ref' must be an integer"),
    (b'{"action": "set-position"}', "needs 'fen'"),
    (b'{"action": "set-position", "fen": "W:W99:B1"}', "is not a portuguese position"),
    (b'{"action": "result", "result": "3-0"}', "'result'"),
    (b'{"action": "draw-claim", "side": "white"}', "needs 'upheld'"),
    (b'{"action": "draw-claim", "side": "red", "upheld": true}', "'side' must be"),
    (b'{"action": "time", "side": "black", "delta_ms": 0}', "non-zero"),
    (b'{"action": "time", "side": "black", "delta_ms": 1.5}', "'delta_ms' must be an integer"),
    (b'{"action": "result", "result": "1-0", "fen": "x"}', "does not take 'fen'"),
    (b'{"action": "result", "result": "1-0", "note": 5}', "'note' must be a string"),
    (json.dumps({"action": "result", "result": "1-0", "note": "x" * 600}).encode(), "longer than 500"),
]


def test_malformed_actions_are_400_and_leave_the_game_untouched(tmp_path, game):
    steps = expected_steps(game)
    with BoardRig(tmp_path, game) as rig, httpx.Client(base_url=rig.url) as client:
        rig.release_until(steps[4].t)
        wait_for(lambda: len(rig.feed.moves) >= 5)
        rig.settle()
        seq, pdn = rig.feed.seq, rig.feed.pdn_text()
        lines = len(rig.journal_lines())
        for body, message in BAD:
            r = client.post("/arbiter/api/action", content=body,
                            headers={**AUTH, "Content-Type": "application/json"})
            assert r.status_code == 400, (body, r.text)
            assert message in r.json()["error"], (body, r.json())
        r = client.post("/arbiter/api/action", content=b'{"action": "result", "result": "1-0"}',
                        headers={**AUTH, "Content-Type": "text/plain"})
        assert r.status_code == 415
        dismiss = client.post("/arbiter/api/action", json={"action": "dismiss", "ref": 0}, headers=AUTH)
        assert dismiss.status_code == 400
        rig.settle()
        assert rig.feed.seq == seq and rig.feed.pdn_text() == pdn and rig.engine.result == "*"
        assert len(rig.journal_lines()) == lines


def test_oversized_bodies_are_413(tmp_path, game):
    with BoardRig(tmp_path, game, WebConfig(arbiter_token=TOKEN, max_body=256)) as rig, \
            httpx.Client(base_url=rig.url) as client:
        big = json.dumps({"action": "result", "result": "1-0", "note": "x" * 400}).encode()
        r = client.post("/arbiter/api/action", content=big, headers={**AUTH, "Content-Type": "application/json"})
        assert r.status_code == 413 and "larger than 256 bytes" in r.json()["error"]

        def chunks():                       # no Content-Length: the body is counted as it comes
            for _ in range(10):
                yield b"x" * 100

        r = client.post("/arbiter/api/action", content=chunks(), headers={**AUTH, "Content-Type": "application/json"})
        assert r.status_code == 413
        rig.settle()
        assert rig.feed.decisions == [] and rig.engine.result == "*"


def test_a_flood_of_event_streams_is_capped(tmp_path, game):
    with BoardRig(tmp_path, game, WebConfig(arbiter_token=TOKEN, max_streams=3)) as rig, \
            httpx.Client(base_url=rig.url, timeout=10) as client:
        opened = []
        for _ in range(3):
            cm = client.stream("GET", "/events")
            r = cm.__enter__()
            assert r.status_code == 200
            lines = r.iter_lines()
            read_sse(lines, lambda ms: True)
            opened.append((cm, lines))
        refused = client.get("/events")
        assert refused.status_code == 503 and refused.headers["retry-after"] == "2"
        assert "too many live connections" in refused.json()["error"]
        assert client.get("/api/game").status_code == 200       # the rest of the board still answers
        opened.pop()[0].__exit__(None, None, None)
        wait_for(lambda: rig.server.app.state.streams.open == 2)
        with client.stream("GET", "/events") as r:
            assert r.status_code == 200
        for cm, _ in opened:
            cm.__exit__(None, None, None)
        wait_for(lambda: rig.server.app.state.streams.open == 0)


def test_an_action_after_the_run_ended_is_409(tmp_path, game):
    with BoardRig(tmp_path, game) as rig, httpx.Client(base_url=rig.url) as client:
        rig.release_all()
        rig.settle()
        rig.loop.stop.set()
        wait_for(lambda: rig.feed.closed)
        r = client.post("/arbiter/api/action", json={"action": "result", "result": "1-0"}, headers=AUTH)
        assert r.status_code == 409 and "not running" in r.json()["error"]
        assert client.get("/api/game").json()["closed"] is True
        assert rig.engine.result == "*"


def movetext(pdn: str) -> list[str]:
    """The moves and setups of a PDN game, comments and move numbers left out."""
    import re

    body = pdn.split("\n\n", 1)[1]
    body = re.sub(r"\{[^}]*\}", " ", body)
    return [tok for tok in body.split() if not re.fullmatch(r"\d+\.(\.\.)?|\*", tok)]


def test_live_pdn_never_rewrites_a_move_without_a_reason(tmp_path):
    game = session_of("portuguese", 24, inject=["move-taken-back@7", "capture-not-taken@13"])
    with BoardRig(tmp_path, game) as rig, httpx.Client(base_url=rig.url) as client:
        snapshots = [client.get("/game.pdn").text]
        for ev in game.events:                       # every state a poller could see
            rig.release_until(ev.t)
            rig.settle()
            text = client.get("/game.pdn").text
            if text != snapshots[-1]:
                snapshots.append(text)
        for text in snapshots:                       # each one a PDN game that replays
            parsed = read_game(text, "portuguese")
            assert parsed.replay().ok, text
        rewrites = 0
        for old, new in zip(snapshots, snapshots[1:]):
            a, b = movetext(old), movetext(new)
            if b[:len(a)] != a:
                rewrites += 1
                assert "taken back" in new or "position set by the arbiter" in new, (old, new)
        assert rewrites >= 1, "the taken-back move was shown, then replaced with its reason"
        assert snapshots[-1] == rig.engine.pdn() and "[%clock" in snapshots[-1]
