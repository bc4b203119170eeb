"""The relay checker itself: each rule of the relay, broken once, is caught; a good feed passes."""

from __future__ import annotations

import pytest

from relay_checker import RelayChecker

TAGS = '[Event "e"]\n[Round "1"]\n[White "{w}"]\n[Black "{b}"]\n[Result "{r}"]\n[GameType "20"]\n'


def game(moves: str, result: str = "*", w: str = "A", b: str = "B", extra: str = "") -> str:
    return TAGS.format(w=w, b=b, r=result) + extra + "\n" + moves + " " + result + "\n\n"


GOOD = game("1. 32-28 {[%clk 1:59:50]} 19-23 {[%clock w1:59:50 B1:59:40]}") + game("1. 31-27", w="C", b="D")


def test_a_good_feed_and_its_appended_successor_pass():
    chk = RelayChecker()
    assert chk.poll(GOOD.encode()).errors == []
    more = game("1. 32-28 19-23 2. 28x19 14x23", "1-1") + game("1. 31-27 18-22", w="C", b="D")
    assert chk.poll(more.encode()).errors == []
    assert chk.errors == []


@pytest.mark.parametrize("body,message", [
    (game("1. 32-28 19-23 2. 28-23?"), "unparsable token"),
    (game("1. 32-28 19-23") + "\n[Event \"x\"]\n\n\n[Event \"y\"]\n\n*\n", "no result token"),
    (game("1. 32-28 18-22 2. 28-22"), "illegal move 28-22"),
    (game("1. 32-28", "1-0 forfeit"), "after the result"),
    (game("1. 32-28", "2-1"), "would be read as a draw"),
    (game("1. 32-28", extra='[FEN "W:W31-50:B1-20"]\n'), "has a range"),
    (game('/FEN "W:W31-50:B1-20"/ 1. 32-28'), "has a range"),
    (game("1. 32-28 {[%clock 1:59:50 1:59:40]}"), "is not [%clock"),
    (game("1. 32-28 {[%clk 1:59]}"), "is not [%clock"),
    (game("1. 32-28") + "\n\n" + "1. 31-27 *\n", "after the result"),
], ids=["token", "empty", "illegal", "result-token", "result-value", "fen-range", "setup-range", "clock", "clk",
        "tagless"])
def test_each_broken_rule_is_caught(body, message):
    snap = RelayChecker().poll(body.encode())
    assert any(message in e for e in snap.errors), snap.errors


def test_games_added_dropped_reordered_or_rewritten_fail_the_poll():
    chk = RelayChecker()
    chk.poll(GOOD.encode())
    assert any("added or dropped" in e for e in chk.poll((GOOD + game("*", w="E", b="F")).encode()).errors)
    swapped = game("1. 31-27", w="C", b="D") + game("1. 32-28 19-23")
    assert any("reordered" in e for e in chk.poll(swapped.encode()).errors)
    rewritten = game("1. 33-28 19-23") + game("1. 31-27", w="C", b="D")
    assert any("rewritten" in e for e in chk.poll(rewritten.encode()).errors)


def test_an_ended_game_never_changes():
    chk = RelayChecker()
    chk.poll(game("1. 32-28", "2-0").encode())
    assert any("ended game" in e for e in chk.poll(game("1. 32-28", "*").encode()).errors)


def test_transport_rules():
    chk = RelayChecker()
    snap = chk.poll("[Event \"é\"]\n\n*\n".encode("latin-1"), status=200, elapsed_s=4.5, content_type="text/plain")
    assert any("not UTF-8" in e for e in snap.errors)
    assert any("4 s" in e for e in snap.errors)
    assert any("does not say UTF-8" in e for e in snap.errors)
    assert any("status 503" in e for e in chk.poll(GOOD.encode(), status=503).errors)


def test_other_gametypes_are_noted_not_failed():
    body = game("1. 21-17").replace('[GameType "20"]', '[GameType "28,W,8,8,N1,1"]')
    chk = RelayChecker()
    assert chk.poll(body.encode()).errors == []
    assert any("GameType 28" in n for n in chk.notes)
