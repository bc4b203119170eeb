"""The hub's pages in a real headless browser (Debian's chromium driven by Playwright): the hall draws every
board and follows the game live; a game page lists the moves; a dropped event stream comes back by itself."""

from __future__ import annotations


import pytest
from playwright.sync_api import sync_playwright

from hub_helpers import board_messages, deliver, new_hub
from rig.hub.server import HttpServer
from rig.hub.web import create_app, layouts as hub_layouts

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
    return page.locator(f"{selector} svg .rig-piece").count()


# what a card's board shows, read from the SVG board.js draws: its classes, each piece's square and code, and
# where each piece and each square stands on the screen
DRAWN_JS = """(sel) => {
    const svg = document.querySelector(sel + ' svg');
    const box = (e) => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; };
    const squares = {}, pieces = {};
    for (const r of svg.querySelectorAll('.rig-grid .rig-square')) squares[r.dataset.square] = box(r);
    for (const g of svg.querySelectorAll('.rig-pieces .rig-piece'))
        pieces[g.dataset.square] = [g.dataset.piece, box(g.querySelectorAll('circle')[1])];
    return {cls: svg.getAttribute('class'), role: svg.getAttribute('role'), squares, pieces,
            crowns: svg.querySelectorAll('.rig-crown').length};
}"""


def test_the_hall_follows_every_board_live(browser):
    hub = new_hub()
    e1, m1 = board_messages("international", "b1", plies=30, closed=False)
    e2, m2 = board_messages("brazilian", "b2", plies=20, closed=False)
    e3, m3 = board_messages("portuguese", "b3", plies=12, closed=False)
    deliver(hub, "t", "b1", m1[:5])
    deliver(hub, "t", "b2", m2)
    deliver(hub, "t", "b3", m3)
    with HttpServer(create_app(hub)) as server:
        page = browser.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector("#card-b1 svg")
        page.wait_for_selector("#card-b2 svg")
        # brazilian: the pieces of its position, kings counted twice (a ring)
        b2 = hub.games[(1, "b2")].summary()
        assert pieces_on(page, "#card-b2") == len(b2["pieces"])
        # the thumbnails are board.js's drawing (the board pages' renderer), each piece on its square
        page.wait_for_selector("#card-b3 svg")
        for card, variant in (("#card-b2", "brazilian"), ("#card-b3", "portuguese")):
            drawn = page.evaluate(DRAWN_JS, card)
            summary = hub.games[(1, card[-2:])].summary()
            assert drawn["cls"] == "rig-board" and drawn["role"] == "img"
            assert len(drawn["squares"]) == 32
            assert {sq: p for sq, (p, _) in drawn["pieces"].items()} == summary["pieces"]
            assert drawn["crowns"] == sum(p in "WB" for p in summary["pieces"].values())
            for sq, (_, (x, y, w, h)) in drawn["pieces"].items():
                sx, sy, sw, sh = drawn["squares"][sq]
                assert sx <= x + w / 2 <= sx + sw and sy <= y + h / 2 <= sy + sh
            xs = sorted({round(b[0]) for b in drawn["squares"].values()})
            ys = sorted({round(b[1]) for b in drawn["squares"].values()})
            if variant == "portuguese":
                # FPD 2.2: square 1 at White's bottom right, 32 at Black's (as board.js draws it on the board pages);
                # White's men start on 1-12, so after 12 plies White's pieces still stand lower than Black's
                assert [round(v) for v in drawn["squares"]["1"][:2]] == [xs[-1], ys[-1]]
                assert [round(v) for v in drawn["squares"]["32"][:2]] == [xs[0], ys[0]]
                mean = {c: sum(b[1] for p, b in drawn["pieces"].values() if p.lower() == c) /
                        sum(p.lower() == c for p, _ in drawn["pieces"].values()) for c in "wb"}
                assert mean["w"] > mean["b"]
            else:
                # CBD art. 6A: a1 at White's bottom left
                a1 = [sq for sq, name in hub_layouts()["brazilian"]["names"].items() if name == "a1"][0]
                assert [round(v) for v in drawn["squares"][a1][:2]] == [xs[0], ys[-1]]
        # each card: White's name with White's clock on one line, Black's name with Black's clock on the next
        rows = page.evaluate("""() => [...document.querySelectorAll('#card-b3 .player')].map(r =>
            [r.dataset.side, r.querySelector('.name').textContent, !!r.querySelector('.clock')])""")
        b3 = hub.games[(1, "b3")].summary()
        assert rows == [["white", b3["white"], True], ["black", b3["black"], True]]
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
        # the game page's board is board.js's too, with the square numbers
        b1 = hub.games[(1, "b1")].summary()
        assert page.locator("#board svg.rig-board .rig-piece").count() == len(b1["pieces"])
        assert page.locator("#board svg .rig-number").count() == 50
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


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1920, "height": 1080}],
                         ids=["phone", "full-hd"])
def test_hub_pages_fit_a_phone_and_a_full_hd_screen(browser, viewport):
    """The hall and a game page are no wider than the screen: on a phone the moves go below the board."""
    hub = new_hub()
    _, msgs = board_messages("international", "b1", plies=24, closed=False)
    deliver(hub, "t", "b1", msgs)
    with HttpServer(create_app(hub)) as server:
        for path, ready in (("/", "#card-b1 svg"), ("/game/b1", "#board svg")):
            page = browser.new_page(viewport=viewport)
            page.goto(server.url + path)
            page.wait_for_selector(ready)
            if path != "/":
                page.wait_for_function("document.querySelector('#moves').innerText.includes('1. ')", timeout=5000)
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], path
            if path != "/":
                board = page.locator("#board svg").bounding_box()
                moves = page.locator("#moves").bounding_box()
                assert board is not None and moves is not None
                if viewport["width"] < 700:
                    assert moves["y"] >= board["y"] + board["height"]     # below the board
                else:
                    assert moves["x"] >= board["x"] + board["width"]      # beside it
            page.close()
