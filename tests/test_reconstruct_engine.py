"""The engine on clean and noisy hand-built sessions: debounce, slides, touches, commits with and
without a clock, determinism, draw counters and the game's end."""

from __future__ import annotations

import random

import pytest

from rig.board import Board
from rig.reconstruct import Debouncer, Reconstructor, Settings
from tests.reconstruct_helpers import VARIANTS
from tests.session_builder import SessionBuilder, run


def random_line(variant: str, plies: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    b = Board(variant)
    out = []
    for _ in range(plies):
        moves = b.legal_moves
        if not moves:
            break
        m = rng.choice(moves)
        out.append(b.move_text(m))
        b.push(m)
    return out


def noisy_session(variant: str, texts: list[str], seed: int, clock: bool) -> SessionBuilder:
    """Each move with bounce on random squares, touches of the piece that is then played, kings
    sliding, captured pieces removed in random order, and clock presses (or none)."""
    rng = random.Random(seed)
    b = SessionBuilder(variant)
    for text in texts:
        side = "white" if b.board.turn else "black"
        m = b.board.parse_move(text)
        for _ in range(rng.randint(0, 2)):
            b.bounce(rng.randint(1, b.variant.squares), dt=0.07)
        if rng.random() < 0.2:
            b.touch(m.origin, hold=0.3)
        order = list(m.captured)
        rng.shuffle(order)
        b.play(m, slide=rng.random() < 0.5, order=order)
        if clock:
            b.press(side, dt=0.2)
        b.wait(0.3 if clock else 2.5)
    return b


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("clock", [True, False])
def test_noisy_random_games_transcribe_exactly(variant, clock):
    for seed in range(4):
        texts = random_line(variant, 40, seed)
        e = run(noisy_session(variant, texts, seed, clock))
        assert [m.move_text for m in e.moves] == texts
        assert e.irregularities == []
        assert e.record.position().fen() == e.board.fen()


def test_debounce_ignores_short_toggles_and_keeps_real_times():
    d = Debouncer(0.05)
    d.frame(0.0, frozenset({1, 2}))
    assert d.frame(1.0, frozenset({1})) == []          # 2 lifted: pending
    assert d.frame(1.01, frozenset({1, 2})) == []      # back after 10 ms: bounce
    assert d.frame(2.0, frozenset({1})) == []
    changes = d.frame(2.2, frozenset({1}))
    assert [(c.t, c.square, c.up) for c in changes] == [(2.0, 2, True)]
    assert d.settle() == []


def test_same_input_same_output():
    texts = random_line("international", 30, 7)
    b = noisy_session("international", texts, 7, True)
    header, events = b.session()

    def outputs():
        e = Reconstructor(header)
        out = [o.to_json() for ev in events for o in e.feed(ev)]
        return out + [o.to_json() for o in e.finish()]

    assert outputs() == outputs()


def test_advance_commits_a_still_board_without_waiting_for_a_frame():
    b = SessionBuilder("portuguese")
    b.move("11-15")
    header, events = b.session()
    e = Reconstructor(header)
    for ev in events:
        e.feed(ev)
    assert e.moves == []
    out = e.advance(events[-1].t + 2.5)
    assert [o.move_text for o in out if hasattr(o, "move_text")] == ["11-15"]


def test_a_pending_press_waits_for_the_debounce_window():
    b = SessionBuilder("portuguese")
    b.move("11-15")
    b.press("white", dt=0.01)     # pressed 10 ms after the piece came down
    e = run(b)
    assert [m.move_text for m in e.moves] == ["11-15"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_game_end_and_result_in_the_pdn(variant):
    v = Board(variant).variant
    board = Board(variant)
    # white man about to capture black's last piece
    for s in range(1, v.squares + 1):
        for t in range(1, v.squares + 1):
            if s == t:
                continue
            board.set_pieces({s: (True, False), t: (False, False)}, True)
            caps = [m for m in board.legal_moves if m.captured]
            if caps:
                break
        else:
            continue
        break
    b = SessionBuilder(variant, fen=board.fen())
    b.play(caps[0]).press("white")
    e = run(b)
    assert e.result in ("1-0", "2-0")
    assert e.report()["result"] == e.result
    assert f'[Result "{e.result}"]' in e.pdn()
    assert e.pdn().rstrip().endswith(e.result)


def test_draw_counters_reach_the_report():
    # two kings each: king moves only; the counters run (FMJD 6.2 / 6.4 style rules)
    board = Board("international", "W:WK47,K48:BK3,K4")
    b = SessionBuilder("international", fen=board.fen())

    def safe(m):
        after = b.board.copy()
        after.push(m)
        return not m.captured and not after.is_capture_due()

    for _ in range(6):
        side = "white" if b.board.turn else "black"
        m = next(m for m in b.board.legal_moves if safe(m))
        b.play(m).press(side)
    e = run(b)
    rules = e.report()["draw_rules"]
    assert rules and all({"rule", "from_number", "count"} <= set(r) for r in rules)
    assert any(r["count"] >= 1 for r in rules)


def test_arbiter_accepts_and_sets_the_result():
    b = SessionBuilder("portuguese")
    b.move("11-15").press("white").press("black")
    b.arbiter("accept", ref=0).arbiter("result", result="1/2-1/2")
    e = run(b)
    assert e.irregularities[0].status == "accepted"
    assert e.result == "1/2-1/2"


def test_settings_thresholds_are_named_with_defaults():
    s = Settings()
    assert (s.bounce_s, s.touch_s, s.stable_s, s.use_clock) == (0.05, 0.15, 2.0, None)


def test_segment_starts_empty_and_owns_its_evidence():
    """A turn's segment begins with no evidence, and each segment has its own containers (the engine builds
    one per commit with a plain ``__init__``: no evidence may leak from one turn into the next)."""
    from rig.reconstruct.occupancy import SquareChange
    from rig.reconstruct.state import Segment

    occ = frozenset({1, 2, 3})
    first, second = Segment(1.5, occ, pieces={1: "w"}), Segment(2.0, occ)
    assert (first.t0, first.occ0, first.pieces, second.pieces) == (1.5, occ, {1: "w"}, None)
    assert (first.last_change, first.last_own_lift) == (None, None)
    first.changes.append(SquareChange(1.6, 1, True))
    first.lifted_at[1] = 1.6
    first.placed_at[4] = 1.7
    first.touches.append((2, 1.6, 1.7))
    first.landings[4] = 0.1
    first.lift_order.append(1)
    first.hints[4] = 1
    assert second == Segment(2.0, occ)
    for name in ("changes", "lifted_at", "placed_at", "touches", "landings", "lift_order", "hints"):
        assert getattr(second, name) == type(getattr(first, name))(), name
