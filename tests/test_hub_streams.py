"""The hub without a broker: sequencing (duplicates, gaps, reordering, replays), the game record, the relay
feed after irregularities, SQLite; the messages come from real games played on a simulated board."""

from __future__ import annotations

import random

import pytest

from hub_helpers import board_messages, deliver, feed_lag_errors, final_entries, new_hub, standing, topic
from relay_checker import RelayChecker
from rig.hub.feed import RelayFeed, plain_fen
from rig.hub.model import GameState
from rig.hub.pairings import parse_pairings
from rig.hub.protocol import encode
from rig.hub.streams import Stream
from rig.variants import INTERNATIONAL


def test_stream_applies_each_sequence_number_once_in_order():
    s = Stream("b1", "x")
    msgs = [{"seq": i, "kind": "clock"} for i in range(1, 8)]
    assert s.offer(msgs[0]) == [msgs[0]]
    assert s.offer(msgs[0]) == []                       # duplicate
    assert s.offer(msgs[3]) == []                       # ahead of a gap: waits
    assert s.gap() == (2, 3)
    assert s.should_ask(100.0) == (2, 3)
    assert s.should_ask(100.5) is None                  # asked already
    assert s.should_ask(101.2) == (2, 3)                # asked again after ASK_AGAIN_S
    assert s.offer(msgs[2]) == []
    assert [m["seq"] for m in s.offer(msgs[1])] == [2, 3, 4]
    assert s.gap() is None and s.duplicates == 1
    # a snapshot covering a gap ends it
    s.offer(msgs[6])
    state = {"seq": 6, "kind": "state"}
    assert [m["seq"] for m in s.offer_state(state)] == [6, 7]
    assert s.offer_state({"seq": 3, "kind": "state"}) == []   # stale snapshot


@pytest.mark.parametrize("variant,inject", [
    ("international", ("move-taken-back@7", "capture-not-taken@12")),
    ("brazilian", ("two-moves@9",)),
    ("portuguese", ("touched-piece-not-moved@2",)),
])
def test_shuffled_duplicated_and_lost_messages_give_the_board_record(variant, inject):
    engine, msgs = board_messages(variant, "b1", inject=inject, plies=40)
    rng = random.Random(variant)
    hub = new_hub()
    chk = RelayChecker()
    # each message once or twice, in a shuffled order, in small batches; a few are lost on the way
    lost = set(rng.sample(range(2, len(msgs) - 1), 5))
    wire = [m for i, m in enumerate(msgs) if i not in lost] + rng.sample(msgs, len(msgs) // 3)
    rng.shuffle(wire)
    lag: list[str] = []
    for k in range(0, len(wire), 7):
        deliver(hub, "t", "b1", wire[k:k + 7])
        if hub.feeds.get(1):
            lag += feed_lag_errors(hub, 1, chk.poll(hub.round_pdn(1)))
    assert hub.replay_requests, "the gaps were asked back"
    # the board answers every replay request from its outbox (here: the numbered list)
    for _ in range(10):
        asked = list(hub.replay_requests)
        hub.replay_requests.clear()
        for board, _session, first, last in asked:
            deliver(hub, "t", board, msgs[first - 1:last])
            lag += feed_lag_errors(hub, 1, chk.poll(hub.round_pdn(1)))
        hub.streams[("b1", "s1")].asked_at = None
        hub.process([])
        if not hub.replay_requests:
            break
    g = hub.games[(1, "b1")]
    assert [m["move"] for m in g.standing()] == standing(engine)
    assert [(x["type"], x["status"]) for _, x in sorted(g.irregularities.items())] == \
        [(x.type, x.status) for x in engine.irregularities]
    assert g.result == engine.result
    assert hub.streams[("b1", "s1")].next == len(msgs) + 1
    assert chk.errors == [] and lag == []
    # SQLite holds the same
    rows = hub.store.moves_of(1, "b1")
    assert [r["move"] for r in rows if not r["withdrawn"]] == standing(engine)


@pytest.mark.parametrize("variant,inject", [
    ("international", ("move-taken-back@7",)),
    ("international", ("move-taken-back@5", "capture-not-removed@8")),
    ("brazilian", ("two-moves@9", "wrong-piece-removed@14")),
])
def test_feed_takes_each_final_move_at_once(variant, inject):
    """One message at a time, polled after each: the feed is never more than the board's non-final
    entries behind (a regular move goes in at its commit, an irregular one when the opponent replies);
    a move taken back after the feed took it is followed by a setup of the position it went back to and
    the move played instead: appended, never rewritten."""
    engine, msgs = board_messages(variant, "b1", inject=inject, plies=24, closed=False)
    hub = new_hub()
    chk = RelayChecker()
    lag: list[str] = []
    held = caught_up = 0
    for m in msgs:
        deliver(hub, "t", "b1", [m])
        if not hub.feeds.get(1):
            continue
        lag += feed_lag_errors(hub, 1, chk.poll(hub.round_pdn(1)))
        g = hub.games[(1, "b1")]
        standing_now = [x for x in g.standing() if x.get("fen_after")]
        if m["kind"] == "move" and not m.get("withdrawn") and g.result == "*":
            if final_entries(g) == len(standing_now):
                caught_up += 1
            else:
                held += 1
    assert chk.errors == [] and lag == []
    assert caught_up > 10, "regular moves go in at their commit, not one ply late"
    if {i.split("@")[0] for i in inject} - {"move-taken-back"}:
        assert held >= 1, "an irregular last move is held until the opponent replies"
    feed = hub.feeds[1]["b1"]
    withdrawn = [mv for mv in engine.moves if mv.withdrawn]
    if "move-taken-back" in " ".join(inject) and withdrawn:
        # the withdrawn move had gone in at its commit: a setup and the move played instead follow it
        texts = [n.text for n in feed.nodes]
        k = texts.index(withdrawn[0].move_text)
        assert feed.nodes[k + 1].kind == "setup"
        assert texts[k + 2] in standing(engine)
    assert hub.round_pdn(1).decode().endswith("*\n\n")


def test_an_irregular_position_goes_on_from_a_plain_fen_setup():
    engine, msgs = board_messages("international", "b1", inject=("two-moves@9",), plies=24)
    irregular = [mv for mv in engine.moves if not mv.legal]
    assert irregular
    hub = new_hub()
    deliver(hub, "t", "b1", msgs)
    feed = hub.feeds[1]["b1"]
    setups = [n for n in feed.nodes if n.kind == "setup"]
    assert setups and all("-" not in n.text for n in setups)     # squares listed one by one
    snap = RelayChecker().poll(hub.round_pdn(1))
    assert snap.errors == []
    assert hub.relay_status(1)[0]["notes"] and hub.relay_status(1)[0]["relayable"]


def test_plain_fen_lists_every_square():
    assert plain_fen("W:W31-35,K3:B1-2", INTERNATIONAL) == "W:WK3,31,32,33,34,35:B1,2"


def test_portuguese_games_are_listed_but_not_relayed():
    engine, msgs = board_messages("portuguese", "p1")
    hub = new_hub()
    deliver(hub, "t", "p1", msgs)
    status = hub.relay_status(1)
    assert not status[0]["relayable"] and "GameType 28" in status[0]["reasons"][0]
    chk = RelayChecker()
    assert chk.poll(hub.round_pdn(1)).errors == []
    assert any("GameType 28 is not played" in n for n in chk.notes)


def test_round_order_is_the_pairings_and_is_frozen_at_the_first_read():
    pairs = parse_pairings("round,board,white,black\n1,b2,Ana,Rui\n1,b1,Eva,Zé\n", "csv")
    hub = new_hub(pairings=pairs)
    chk = RelayChecker()
    snap = chk.poll(hub.round_pdn(1))                   # before any board: both games, tags, *
    assert [g.tags["Board"] for g in snap.games] == ["b2", "b1"] and snap.errors == []
    _, msgs = board_messages("international", "b1", plies=12)
    deliver(hub, "t", "b1", msgs)
    _, late = board_messages("international", "b9", plies=6)
    deliver(hub, "t", "b9", late)                       # not paired, after the round began: not in the feed
    snap = chk.poll(hub.round_pdn(1))
    assert chk.errors == [] and len(snap.games) == 2
    assert snap.games[1].tags["White"] == "Eva" and len(snap.games[1].steps) == 12
    assert any(g["board"] == "b9" and not g["relayable"] for g in hub.relay_status(1))


def test_bad_messages_are_refused_and_change_nothing():
    _, msgs = board_messages("brazilian", "b1", plies=10)
    hub = new_hub()
    deliver(hub, "t", "b1", msgs)
    before = hub.games[(1, "b1")].detail()
    body = hub.round_pdn(1)
    hub.process([("mqtt", topic("t", "b1"), b"\xff\xfe not json"),
                 ("mqtt", topic("t", "b1"), encode({"seq": "x"})),
                 ("mqtt", topic("t", "b1"), encode(dict(msgs[3], board="b2"))),
                 ("mqtt", topic("t", "b1"), encode(dict(msgs[3], seq=len(msgs) + 1, kind="reboot"))),
                 ("mqtt", topic("t", "b1"), b"x" * (1 << 21)),
                 ("mqtt", topic("t", "b1", "status"), b"rebooting")])
    assert hub.stats["bad"] == 6 and len(hub.problems) == 6
    assert hub.games[(1, "b1")].detail() == before and hub.round_pdn(1) == body


def test_the_database_brings_the_hub_back(tmp_path):
    db = str(tmp_path / "hub.sqlite")
    engine, msgs = board_messages("international", "b1", plies=30)
    hub = new_hub(db=db)
    deliver(hub, "t", "b1", msgs[:len(msgs) // 2])
    first = hub.round_pdn(1)
    hub.store.close()
    again = new_hub(db=db)
    assert again.round_pdn(1) == first                  # the feed goes on from exactly what was served
    deliver(again, "t", "b1", msgs)                     # duplicates of the first half, then the rest
    chk = RelayChecker()
    chk.poll(first)
    chk.poll(again.round_pdn(1))
    assert chk.errors == []
    assert [m["move"] for m in again.games[(1, "b1")].standing()] == standing(engine)


def test_game_state_is_idempotent():
    _, msgs = board_messages("international", "b1", plies=8)
    a, b = GameState(1, "b1"), GameState(1, "b1")
    for m in msgs:
        a.apply(m)
        b.apply(m)
        b.apply(m)
    assert a.detail() == b.detail()
    feed = RelayFeed("international", {})
    feed.update(a)
    assert len([n for n in feed.nodes if n.kind == "move"]) == 8


def test_pairings_errors_name_the_line():
    with pytest.raises(ValueError, match="line 3: round must be a number"):
        parse_pairings("round,board,white,black\n1,b1,A,B\nx,b2,C,D\n", "csv")
    with pytest.raises(ValueError, match="lacks black"):
        parse_pairings("round,board,white\n1,b1,A\n", "csv")
    with pytest.raises(ValueError, match="paired twice"):
        parse_pairings("[[pairing]]\nround=1\nboard='b1'\nwhite='A'\nblack='B'\n"
                       "[[pairing]]\nround=1\nboard='b1'\nwhite='C'\nblack='D'\n", "toml")
    with pytest.raises(ValueError, match="board must be"):
        parse_pairings("round,board,white,black\n1,b 1,A,B\n", "csv")


def test_alerts_follow_switch_health_irregularities_and_the_board_status():
    _, msgs = board_messages("international", "b1", inject=("capture-not-taken@12",), plies=24, closed=False)
    hub = new_hub()
    deliver(hub, "t", "b1", msgs)
    g = hub.games[(1, "b1")]
    base = dict(msgs[-1], kind="health", seq=len(msgs) + 1)
    base.pop("health", None)
    deliver(hub, "t", "b1", [dict(base, health={"kind": "stuck-closed", "square": 23, "message": "m"})])
    assert "switch stuck-closed on square 23" in g.summary()["alerts"]
    hub.process([("mqtt", topic("t", "b1", "status"), b"online")])
    assert g.online and not any("offline" in a for a in g.summary()["alerts"])
    hub.process([("mqtt", topic("t", "b1", "status"), b"offline")])
    assert "board offline" in g.summary()["alerts"]
    deliver(hub, "t", "b1", [dict(base, seq=len(msgs) + 2, health={"kind": "recovered", "square": 23, "message": ""})])
    assert not any("square 23" in a for a in g.summary()["alerts"])
    irr = [x for x in g.irregularities.values() if x["type"] == "capture-not-taken"]
    assert irr
    assert any("capture-not-taken" in a for a in g.summary()["alerts"]) == (irr[0]["status"] == "open")
