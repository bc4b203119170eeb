"""Clock lines that arrive late (issue 3): after an unplug/replug the clock drivers replay the presses made
in the gap with their true time in ``clock_t`` (``replayed``; a DGT press read off the lever is
``inferred`` and has no time). The engine gives each press to the move it ended, by ``clock_t``, whatever
the board did meanwhile, and never reads a false clock-without-move from it."""

from __future__ import annotations

import io

import pytest

from rig.commands.transcribe import transcribe
from rig.session import ClockEvent, write_session
from tests.reconstruct_helpers import VARIANTS, line_to_quiet
from tests.session_builder import SessionBuilder, play_line, run


class Clock:
    """The clock's own view of a game: remaining times, each press kept with the time it was made."""

    def __init__(self, b: SessionBuilder, white_ms: int = 600_000, black_ms: int = 600_000):
        self.b = b
        self.ms = {"white": white_ms, "black": black_ms}
        self.kept: list[tuple[float, str, int, int]] = []
        self.presses = 0

    def press(self, side: str, live: bool, dt: float = 0.3) -> tuple[int, int]:
        """``side`` presses: a live press goes into the session now, a press in the gap is kept."""
        self.b.wait(dt)
        self.ms[side] -= 1_000 + 10 * self.presses
        self.presses += 1
        w, k = self.ms["white"], self.ms["black"]
        if live:
            self.b.press(side, dt=0.0, white_ms=w, black_ms=k)
        else:
            self.kept.append((self.b.t, side, w, k))
        return w, k

    def replay(self, dt: float = 0.2, inferred: bool = False) -> None:
        """The cable is back: the kept presses arrive now, one after the other, with their clock time."""
        self.b.clock("reconnected", dt=dt, extra={"gap_s": 1.0, "state_lost": False})
        for at, side, w, k in self.kept:
            extra = {"inferred": True} if inferred else {"clock_t": round(at, 4), "replayed": True}
            self.b.events.append(ClockEvent(self.b.t, "press", side, w, k, extra=extra))
            self.b.events.append(ClockEvent(self.b.t, "time", None, w, k))
        self.kept = []


def _game(variant: str, back: str):
    """White, black, white play three moves while the clock is unplugged (every press lost), then black
    plays a fourth; the cable goes back in at ``back``: ``thinking`` (before black's first lift), ``lifted``
    (black's piece in the air), ``placed`` (black's move on the board, not pressed yet)."""
    b = play_line(SessionBuilder(variant), line_to_quiet(variant))
    clock = Clock(b)
    b.clock("disconnected", dt=0.1, extra={"reason": "unplugged"})
    played, stamps = [], []
    for _ in range(3):
        side = "white" if b.board.turn else "black"
        m = b.board.legal_moves[0]
        played.append(b.board.move_text(m))
        b.play(m)
        w, k = clock.press(side, live=False)
        stamps.append(w if side == "white" else k)
        b.wait(1.5)
    fourth = b.board.legal_moves[-1]
    played.append(b.board.move_text(fourth))
    if back == "thinking":
        clock.replay()
        b.play(fourth)
    elif back == "lifted":
        b.lift(fourth.origin)
        clock.replay()
        b.place(fourth.destination)
        for c in fourth.captured:
            b.remove(c)
        b.board.push(fourth)
    else:
        b.play(fourth)
        clock.replay()
    w, k = clock.press("black", live=True)
    stamps.append(k)
    fifth = b.board.legal_moves[0]
    played.append(b.board.move_text(fifth))
    b.play(fifth)
    w, k = clock.press("white", live=True)
    stamps.append(w)
    return b, played, stamps


@pytest.mark.parametrize("back", ["thinking", "lifted", "placed"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_presses_replayed_after_a_gap_go_to_their_moves(variant, back):
    b, played, stamps = _game(variant, back)
    e = run(b)
    start = len(line_to_quiet(variant))
    assert [m.move_text for m in e.moves[start:]] == played
    assert e.irregularities == []
    assert [m.clock_ms for m in e.moves[start:]] == stamps
    assert all(m.clock_ms is not None for m in e.moves)
    replayed = [ev.extra["clock_t"] for ev in b.events if isinstance(ev, ClockEvent) and ev.extra.get("clock_t")]
    # a replayed press ends its move at the time it was made on the clock
    assert [m.t for m in e.moves[start:start + 3]] == pytest.approx(replayed)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_press_replayed_after_the_opponents_move_is_not_a_clock_without_move(variant):
    """Reconnected when black has played and pressed live: white's replayed press (made before black's
    first lift) arrives after black's press; it only ends white's move."""
    b = play_line(SessionBuilder(variant), line_to_quiet(variant))
    clock = Clock(b)
    b.clock("disconnected", dt=0.1, extra={"reason": "unplugged"})
    first = b.board.legal_moves[0]
    b.play(first)
    clock.press("white", live=False)
    second = b.board.legal_moves[0]
    b.play(second, dt=1.0)
    clock.press("black", live=False)
    b.wait(2.0)
    clock.replay()
    third = b.board.legal_moves[0]
    b.play(third)
    clock.press("white", live=True)
    e = run(b)
    start = len(line_to_quiet(variant))
    assert [m.move.key for m in e.moves[start:]] == [first.key, second.key, third.key]
    assert e.irregularities == []
    assert [m.clock_ms for m in e.moves[start:]] == [599_000, 598_990, 597_980]


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_press_inferred_from_the_lever_stamps_the_move_it_ended(variant):
    """DGT: the press made in the gap is known only from the lever at reconnection (no clock_t)."""
    b = play_line(SessionBuilder(variant), line_to_quiet(variant))
    clock = Clock(b)
    b.clock("disconnected", dt=0.1, extra={"reason": "unplugged"})
    first = b.board.legal_moves[0]
    b.play(first)
    clock.press("white", live=False)
    second = b.board.legal_moves[0]
    b.lift(second.origin, dt=1.0)
    clock.replay(inferred=True)
    b.place(second.destination)
    for c in second.captured:
        b.remove(c)
    b.board.push(second)
    clock.press("black", live=True)
    e = run(b)
    start = len(line_to_quiet(variant))
    assert [m.move.key for m in e.moves[start:]] == [first.key, second.key]
    assert e.irregularities == []
    assert [m.clock_ms for m in e.moves[start:]] == [599_000, 598_990]


def test_the_timeline_notes_the_late_arrival():
    b, played, _ = _game("portuguese", "lifted")
    buf = io.StringIO()
    write_session(buf, *b.session())
    buf.seek(0)
    out = io.StringIO()
    engine = transcribe(buf, explain=out)
    text = out.getvalue()
    assert "(replayed, made at" in text
    assert "press came after the fact (replayed; made at" in text
    assert "read when his opponent began" in text
    assert [m.move_text for m in engine.moves][-5:] == played


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_press_with_nothing_on_the_board_is_a_clock_without_move_only_when_on_time(variant):
    """Within the debounce window a line is on time (a genuine press without a move is flagged); a replayed
    one, or one that came later, is never read as a clock-without-move."""
    found = []
    for extra in ({"clock_t": None}, {"replayed": True}, {"inferred": True}, {"clock_t": -2.0}):
        b = play_line(SessionBuilder(variant), line_to_quiet(variant))
        b.wait(1.0)
        extra = {k: (round(b.t - 0.02, 4) if v is None else round(b.t + v, 4) if k == "clock_t" else v)
                 for k, v in extra.items()}
        b.events.append(ClockEvent(b.t, "press", "white", extra=extra))
        e = run(b)
        found.append([i.type for i in e.irregularities])
        assert len(e.moves) == len(line_to_quiet(variant))
    assert found == [["clock-without-move"], [], [], []]
