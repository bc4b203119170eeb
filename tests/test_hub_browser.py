"""The hub's pages in a real headless browser (Debian's chromium driven by Playwright): the hall draws every
board and follows the game live; a game page lists the moves; a dropped event stream comes back by itself."""

from __future__ import annotations


import pytest
from playwright.sync_api import sync_playwright

from hub_helpers import board_messages, deliver, new_hub
from rig.hub.server import HttpServer
from rig.hub.web import create_app

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def pieces_on(page, selector: str) -> int:
    return page.locator(f"{selector} svg circle").count()


def test_the_hall_follows_every_board_live(browser):
    hub = new_hub()
    e1, m1 = board_messages("international", "b1", plies=30, closed=False)
    e2, m2 = board_messages("brazilian", "b2", plies=20, closed=False)
    deliver(hub, "t", "b1", m1[:5])
    deliver(hub, "t", "b2", m2)
    with HttpServer(create_app(hub)) as server:
        page = browser.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector("#card-b1 svg")
        page.wait_for_selector("#card-b2 svg")
        # brazilian: the pieces of its position, kings counted twice (a ring)
        b2 = hub.games[(1, "b2")].summary()
        assert pieces_on(page, "#card-b2") == len(b2["pieces"]) + sum(c in "WB" for c in b2["pieces"].values())
        before = page.inner_text("#card-b1")
        deliver(hub, "t", "b1", m1[5:])
        n = len(hub.games[(1, "b1")].standing())
        page.wait_for_function(f"document.querySelector('#card-b1').innerText.includes('{n} moves')", timeout=5000)
        assert page.inner_text("#card-b1") != before
        assert "relayed" in page.inner_text("#relay")
        page.close()


def test_a_game_page_lists_the_moves_and_reconnects(browser):
    hub = new_hub()
    engine, msgs = board_messages("international", "b1", plies=24, closed=False)
    deliver(hub, "t", "b1", msgs[:10])
    app = create_app(hub)
    server = HttpServer(app).start()
    try:
        page = browser.new_page()
        page.goto(server.url + "/game/b1")
        page.wait_for_function("document.querySelector('#moves').innerText.includes('1. ')", timeout=5000)
        first = engine.moves[0].move_text
        assert first in page.inner_text("#moves")
        # the connection drops (the server goes away and comes back on the same port)
        server.stop()
        page.wait_for_function("document.querySelector('#live').innerText !== 'live'", timeout=10000)
        deliver(hub, "t", "b1", msgs[10:])
        server = HttpServer(create_app(hub), port=server.port).start()
        last = [m.move_text for m in engine.moves if not m.withdrawn][-1]
        page.wait_for_function(f"document.querySelector('#moves').innerText.includes('{last}')", timeout=15000)
        text = page.inner_text("#moves")
        standing = [m.move_text for m in engine.moves if not m.withdrawn]
        assert text.split() == [t for t in text.split() if t] and \
            [t for t in text.split() if not t.endswith(".")] == standing      # nothing missing or doubled
        page.close()
    finally:
        server.stop()
