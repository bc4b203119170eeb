"""The pages in a real headless browser (Debian's chromium driven by Playwright; `./dev test` installs both):
a replayed game appears move by move with the right position and clocks, the OBS overlay renders, the
arbiter acts with the token and is refused without it, a new irregularity alerts within a second, and a
dropped connection resumes without a missing or doubled move."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import sync_playwright

from rig.reconstruct import Irregularity
from rig.rulesets import get_ruleset
from rig.variants import get_variant
from web_helpers import (CHROMIUM, CHROMIUM_ARGS, TOKEN, BoardRig, CuttableProxy, expected_steps, session_of,
                         wait_for)

PIECES_JS = """() => Object.fromEntries([...document.querySelectorAll('#board [data-piece]')]
                 .map(g => [g.dataset.square, g.dataset.piece]))"""
MOVES_JS = """() => [...document.querySelectorAll('#moves li')]
                 .flatMap(li => [li.children[1].textContent, li.children[2].textContent])
                 .flatMap(t => t.split(', ')).filter(t => t && t !== '...')"""


def fmt(ms: int) -> str:
    """The pages' clock format (live.js RigLive.formatMs)."""
    total = ms // 1000
    h, m, s = total // 3600, total // 60 % 60, total % 60
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def to_ms(text: str) -> int:
    parts = [int(p) for p in text.split(":")]
    while len(parts) < 3:
        parts.insert(0, 0)
    return ((parts[0] * 60 + parts[1]) * 60 + parts[2]) * 1000


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(scope="module")
def game():
    return session_of("portuguese", 24)


def open_page(browser, url, viewport=None):
    page = browser.new_page(viewport=viewport or {"width": 1280, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.errors = errors
    return page


def test_replayed_game_appears_move_by_move(tmp_path, browser, game):
    steps = expected_steps(game)
    assert len(steps) >= 20
    with BoardRig(tmp_path, game) as rig:
        page = open_page(browser, rig.url + "/")
        page.wait_for_function("() => window.rigLive && window.rigLive.state && window.rigLive.status === 'live'")
        assert page.inner_text("#white-name") == "Ana Lima" and page.inner_text("#black-name") == "Rui Costa"
        assert "Test Open" in page.inner_text("#event")
        start = page.evaluate(PIECES_JS)
        assert len(start) == 24
        for step in steps:
            rig.release_until(step.t)
            page.wait_for_function(f"() => document.getElementById('moves').dataset.count === '{len(step.moves)}'")
            page.wait_for_function(f"() => {{ const c = window.rigLive.state.clock; return c && c.white_ms === "
                                   f"{step.white_ms} && c.black_ms === {step.black_ms} && c.running === '{step.running}'; }}")
            stopped = "white" if step.running == "black" else "black"
            stopped_ms = step.white_ms if stopped == "white" else step.black_ms
            page.wait_for_function(f"() => document.getElementById('{stopped}-clock').textContent === '{fmt(stopped_ms)}'")
            assert page.evaluate(PIECES_JS) == step.pieces
            assert page.evaluate(MOVES_JS) == step.moves
            running_ms = step.white_ms if step.running == "white" else step.black_ms
            shown = to_ms(page.inner_text(f"#{step.running}-clock"))
            assert running_ms - 3000 <= shown <= running_ms, (step, shown)
            assert "running" in page.get_attribute(f"#{step.running}-row", "class")
            last = page.evaluate("() => [...document.querySelectorAll('#board .rig-last-to')].map(r => r.dataset.square)")
            assert last, "the last move is highlighted"
        # the running clock ticks between presses
        before = page.inner_text(f"#{steps[-1].running}-clock")
        page.wait_for_function(f"() => document.getElementById('{steps[-1].running}-clock').textContent !== '{before}'",
                               timeout=3000)
        assert page.errors == []


def test_overlay_renders_for_a_1920x1080_scene(tmp_path, browser, game):
    steps = expected_steps(game)
    with BoardRig(tmp_path, game) as rig:
        rig.release_until(steps[6].t)
        page = open_page(browser, rig.url + "/overlay", {"width": 1920, "height": 1080})
        page.wait_for_function(f"() => window.rigLive && window.rigLive.state && "
                               f"window.rigLive.state.moves.length === {len(steps[6].moves)}")
        step = steps[6]
        page.wait_for_function(f"() => {{ const c = window.rigLive.state.clock; return c && c.white_ms === "
                               f"{step.white_ms} && c.black_ms === {step.black_ms}; }}")
        assert page.evaluate("() => getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
        assert page.evaluate(PIECES_JS) == steps[6].pieces
        box = page.locator("#board svg").bounding_box()
        assert box["width"] >= 600 and box["x"] + box["width"] <= 1920 and box["y"] + box["height"] <= 1080
        bar = page.locator(".bar").bounding_box()
        assert bar["y"] + bar["height"] <= 1080
        assert page.inner_text("#white-name") == "Ana Lima"
        stopped = "white" if steps[6].running == "black" else "black"
        assert page.inner_text(f"#{stopped}-clock") == fmt(getattr(steps[6], f"{stopped}_ms"))
        assert page.locator("#moves").count() == 0, "the overlay shows the board, clocks and names only"
        shot = tmp_path / "overlay.png"
        page.screenshot(path=str(shot), omit_background=True)
        assert shot.stat().st_size > 10_000
        assert page.errors == []


class Emitted:
    """A sink noting the wall time each irregularity was published by the engine."""

    def __init__(self):
        self.at: list[float] = []

    def on_outputs(self, loop, outs):
        self.at += [time.time() for o in outs if isinstance(o, Irregularity)]


def test_arbiter_page_with_and_without_the_token_and_alert_within_a_second(tmp_path, browser):
    game = session_of("portuguese", 16, inject=["clock-without-move@5"])
    emitted = Emitted()
    with BoardRig(tmp_path, game) as rig:
        rig.loop.sinks.add(emitted)
        spectator = open_page(browser, rig.url + "/")
        status = spectator.evaluate("""() => fetch('/arbiter/api/action', {method: 'POST',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify({action: 'result', result: '1-0'})})
            .then(r => r.status)""")
        assert status == 401
        page = open_page(browser, rig.url + "/arbiter")
        page.wait_for_selector("#login:not([hidden])")
        assert page.is_hidden("#review")
        page.fill("#token", "not-the-token")
        page.click("#login button")
        page.wait_for_function("() => document.getElementById('login-message').textContent === 'wrong arbiter token'")
        page.fill("#token", TOKEN)
        page.click("#login button")
        page.wait_for_selector("#review:not([hidden])")
        page.wait_for_function("() => window.rigLive && window.rigLive.status === 'live'")
        assert page.is_hidden("#alert")
        rig.release_all()
        page.wait_for_selector("#alert:not([hidden])", timeout=5000)
        shown_at = page.evaluate("() => Number(document.getElementById('alert').dataset.at)") / 1000
        assert emitted.at and shown_at - emitted.at[0] < 1.0, shown_at - emitted.at[0]
        assert "clock-without-move" in page.inner_text("#alert-text")
        card = page.locator(".card.irregularity[data-index='0']")
        card.wait_for()
        assert card.locator(".before svg").count() == 1 and card.locator(".after svg").count() == 1
        card.locator("[data-do=evidence]").click()
        page.wait_for_function("() => document.querySelector(\".card[data-index='0'] .timeline\").textContent.includes('clock')")
        card.locator(".reason").fill("the clock lever bounced")
        card.locator("[data-do=dismiss]").click()
        page.wait_for_function("() => document.querySelector(\".card[data-index='0']\").classList.contains('dismissed')")
        page.wait_for_function("() => document.getElementById('decisions').textContent.includes('dismiss #0')")
        lines = [e for e in rig.journal_lines() if getattr(e, "action", None)]
        assert [(e.action, e.ref, e.note) for e in lines] == [("dismiss", 0, "the clock lever bounced")]
        # time added to the player whose clock stands: refused without a number, then on every page at once
        overlay = open_page(browser, rig.url + "/overlay", {"width": 1920, "height": 1080})
        overlay.wait_for_function("() => window.rigLive && window.rigLive.status === 'live'")
        clock = rig.feed.snapshot()["clock"]
        side = "white" if clock["running"] == "black" else "black"
        want = fmt(clock[f"{side}_ms"] + 90_000)
        page.select_option("#time-side", side)
        page.click("[data-act=time]")
        page.wait_for_function("() => document.getElementById('message').textContent.includes(\"'delta_ms' must be\")")
        assert len([e for e in rig.journal_lines() if getattr(e, "action", None)]) == 1
        page.fill("#time-seconds", "90")
        page.fill("#time-note", "opponent's phone rang")
        page.click("[data-act=time]")
        page.wait_for_function(f"() => document.getElementById('decisions').textContent.includes('time {side} 90 s')")
        for p in (spectator, overlay):
            p.wait_for_function(f"() => document.getElementById('{side}-clock').textContent === '{want}'")
        page.wait_for_function(f"() => document.getElementById('now-meta').textContent.includes('{want}')")
        lines = [e for e in rig.journal_lines() if getattr(e, "action", None)]
        assert [(e.action, e.side, e.delta_ms) for e in lines[1:]] == [("time", side, 90_000)]
        assert page.errors == [] and spectator.errors == [] and overlay.errors == []


def test_a_dropped_connection_resumes_without_a_missing_or_doubled_move(tmp_path, browser, game):
    steps = expected_steps(game)
    with BoardRig(tmp_path, game) as rig:
        proxy = CuttableProxy(rig.server.port)
        try:
            page = open_page(browser, f"http://127.0.0.1:{proxy.port}/")
            page.wait_for_function("() => window.rigLive && window.rigLive.status === 'live'")
            rig.release_until(steps[5].t)
            page.wait_for_function(f"() => document.getElementById('moves').dataset.count === '{len(steps[5].moves)}'")
            proxy.cut(stay_down=True)                  # the hall's wifi drops
            page.wait_for_function("() => window.rigLive.status !== 'live'")
            rig.release_until(steps[12].t)             # the game goes on meanwhile
            wait_for(lambda: len(rig.feed.moves) >= len(steps[12].moves))
            time.sleep(1.5)
            assert page.get_attribute("#moves", "data-count") == str(len(steps[5].moves))
            proxy.restore()
            page.wait_for_function(f"() => document.getElementById('moves').dataset.count === '{len(steps[12].moves)}'",
                                   timeout=15000)
            proxy.cut(stay_down=False)                 # a short blip while moves keep coming
            rig.release_until(steps[-1].t)
            page.wait_for_function(f"() => document.getElementById('moves').dataset.count === '{len(steps[-1].moves)}'",
                                   timeout=15000)
            applied = page.evaluate("() => window.rigLive.applied")
            indexes = [a[1] for a in applied]
            assert sorted(indexes) == indexes and len(set(indexes)) == len(indexes), applied
            assert page.evaluate("() => window.rigLive.snapshots") == 1, "resumed from Last-Event-ID, no snapshot"
            assert page.evaluate(MOVES_JS) == steps[-1].moves
            assert page.evaluate(PIECES_JS) == steps[-1].pieces
            assert proxy.cuts == 2
        finally:
            proxy.close()


def test_board_js_is_standalone_and_draws_each_variant_in_its_orientation(tmp_path, browser):
    """/static/board.js on a page of its own (as the hub's pages use it): FPD 2.2 numbers from White's
    bottom right (the dark corner at each player's right, FPD 1.2); FMJD 2.6 from the top left; CBD algebraic
    with a1 at White's bottom left."""
    import httpx

    from rig.web.config import WebConfig
    from rig.web.feed import GameFeed
    from rig.web.server import WebServer
    from rig.session import Header

    cells = """(args) => {
        const [info, flip] = args;
        document.body.innerHTML = '<div id="b" style="width:400px;height:400px"></div>';
        const board = new RigBoard(document.getElementById('b'), info, {flip: flip, coordinates: false});
        board.draw({pieces: {"1": "W"}});
        const box = sq => { const r = document.querySelector('#b .rig-square[data-square="' + sq + '"]')
                                             .getBoundingClientRect(); return [Math.round(r.x), Math.round(r.y)]; };
        const out = {};
        for (const sq of Object.keys(info.squares)) out[sq] = box(sq);
        out.king = document.querySelectorAll('#b [data-piece="W"] .rig-crown').length;
        out.labels = [...document.querySelectorAll('#b .rig-number')].map(t => t.textContent);
        return out;
    }"""
    page = browser.new_page(viewport={"width": 600, "height": 600})
    for variant, fen in (("portuguese", None), ("international", None), ("brazilian", None)):
        feed = GameFeed(Header(get_variant(variant), get_ruleset({"portuguese": "fpd-2026", "international": "fmjd",
                                         "brazilian": "codex-64"}[variant]), fen), WebConfig())
        with WebServer(feed, "127.0.0.1", 0) as server:
            info = httpx.get(server.url + "/api/game").json()["info"]
            page.set_content(f'<script src="{server.url}/static/board.js"></script>')
            page.wait_for_function("() => typeof RigBoard === 'function'")
            at = page.evaluate(cells, [info, False])
            flipped = page.evaluate(cells, [info, True])
        squares = [v for k, v in at.items() if k.isdigit()]
        xs, ys = sorted({x for x, _ in squares}), sorted({y for _, y in squares})
        assert at["king"] == 1
        if variant == "portuguese":
            assert at["1"] == [xs[-1], ys[-1]] and flipped["1"] == [xs[0], ys[0]]
        elif variant == "international":
            assert at["1"] == [xs[1], ys[0]] and at["46"] == [xs[0], ys[-1]] and at["50"][1] == ys[-1]
        else:
            a1 = [k for k, name in info["names"].items() if name == "a1"][0]
            assert at[a1] == [xs[0], ys[-1]] and "a1" in at["labels"] and "h8" in at["labels"]


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1920, "height": 1080}],
                         ids=["phone", "full-hd"])
def test_pages_fit_a_phone_and_a_full_hd_screen(tmp_path, browser, viewport):
    """Nothing wider than the screen; the arbiter's before/after positions big enough to read (on a phone one
    above the other, the card's width); every button on screen; the overlay scaled to its browser source."""
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Observation:                                      # an output kind the feed does not know
        t: float

    game = session_of("portuguese", 16, inject=["clock-without-move@5"])
    width = viewport["width"]
    overflow_js = """() => [document.documentElement.scrollWidth,
        [...document.querySelectorAll('body *')].filter(e => { const r = e.getBoundingClientRect();
          return r.width && r.height && (r.right > document.documentElement.clientWidth + 1 || r.left < -1); }).length]"""
    with BoardRig(tmp_path, game) as rig:
        rig.release_all()
        rig.settle()
        wait_for(lambda: len(rig.feed.irregularities) == 1)
        seen = {"type": "piece-lifted-long", "t": 12.5, "squares": [11], "detail": "lifted 4 s, put back"}
        report = rig.engine.report
        rig.engine.report = lambda: dict(report(), observations=[seen])
        rig.feed.on_outputs(rig.loop, [Observation(12.5)])
        for path in ("/", "/overlay"):
            page = open_page(browser, rig.url + path, viewport)
            page.wait_for_function("() => window.rigLive && window.rigLive.status === 'live'")
            assert page.evaluate(overflow_js) == [width, 0], path
            board = page.locator("#board svg").bounding_box()
            if path == "/overlay":                          # the 1920x1080 scene, scaled to fit the source
                assert abs(board["width"] - 640 * width / 1920) < 2
            else:
                assert board["width"] >= min(width, 1920) * 0.8 - 40 or board["width"] >= 600
            assert page.errors == []
            page.close()
        page = open_page(browser, rig.url + "/arbiter", viewport)
        page.fill("#token", TOKEN)
        page.click("#login button")
        page.wait_for_selector(".card.irregularity")
        page.wait_for_selector(".card.observation")
        page.locator(".card.irregularity [data-do=evidence]").click()
        page.wait_for_function("() => document.querySelector('.card.irregularity .timeline').textContent.includes('frame')")
        assert page.evaluate(overflow_js) == [width, 0]
        before = page.locator(".card.irregularity .before svg").bounding_box()
        after = page.locator(".card.irregularity .after svg").bounding_box()
        assert before["width"] >= (300 if width < 560 else 400) and after["width"] == before["width"]
        if width < 560:
            assert after["y"] > before["y"] + before["height"] - 1            # one above the other
        for button in page.locator("#review button").all():
            box = button.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, button.inner_text()
        assert page.errors == []
