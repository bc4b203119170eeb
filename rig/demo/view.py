"""What the demo shows: the board as the players see it, the moves as they are reconstructed, both clocks, the
draw counters, irregularities as they happen, and the result.

:class:`GameView` keeps the state from the engine's outputs; :class:`AnsiScreen` redraws it in place on a
terminal, :class:`PlainLog` prints one line per update (pipes, CI logs, tests).
"""

from __future__ import annotations

import shutil
import textwrap
from dataclasses import dataclass, field
from typing import IO

from rig.board import Board
from rig.reconstruct import (ClockUpdate, CounterUpdate, GameEnd, Irregularity, IrregularityUpdate, MoveEntry,
                             MoveWithdrawn, PositionLost, PositionRestored)

__all__ = ["GameView", "AnsiScreen", "PlainLog", "format_ms"]


def format_ms(ms: int | None) -> str:
    """``H:MM:SS`` (or ``MM:SS`` under an hour) of a clock time in milliseconds."""
    if ms is None:
        return "--:--"
    s = max(0, ms) // 1000
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


@dataclass
class GameView:
    """The demo's picture of the game, updated from engine outputs."""

    title: str
    board: Board
    moves: list[MoveEntry] = field(default_factory=list)
    irregularities: list[Irregularity] = field(default_factory=list)
    counters: tuple = ()
    clock: ClockUpdate | None = None
    lost: bool = False
    result: str | None = None
    reason: str = ""
    t: float = 0.0

    def update(self, out) -> None:
        self.t = max(self.t, out.t)
        if isinstance(out, MoveEntry):
            self.moves.append(out)
        elif isinstance(out, MoveWithdrawn):
            # the move withdrawn is the last that stood (the engine keeps it in its list, marked)
            if self.moves and self.moves[-1].move_text == out.move_text:
                del self.moves[-1]
        elif isinstance(out, Irregularity):
            self.irregularities.append(out)
        elif isinstance(out, IrregularityUpdate):
            old = self.irregularities[out.index]
            self.irregularities[out.index] = Irregularity(old.type, old.number, old.side, old.t, old.squares,
                                                          old.rule, out.status, old.detail)
        elif isinstance(out, CounterUpdate):
            self.counters = out.counters
        elif isinstance(out, ClockUpdate):
            self.clock = out
        elif isinstance(out, PositionLost):
            self.lost = True
        elif isinstance(out, PositionRestored):
            self.lost = False
        elif isinstance(out, GameEnd):
            self.result, self.reason = out.result, out.reason

    def clocks(self, now: float | None = None) -> tuple[str, str]:
        """Both clocks as shown at ``now`` (the running one counts down between updates)."""
        c = self.clock
        if c is None:
            return "--:--", "--:--"
        w, b = c.white_ms, c.black_ms
        if now is not None and c.running and w is not None and b is not None:
            spent = int((now - c.t) * 1000)
            if c.running == "white":
                w -= spent
            else:
                b -= spent
        return format_ms(w), format_ms(b)

    def active_counters(self) -> list[str]:
        return [str(c) for c in self.counters if getattr(c, "count", 0) > 0 or getattr(c, "reached", False)]

    @staticmethod
    def move_label(m: MoveEntry) -> str:
        return f"{m.number}. {m.move_text}" if m.side == "white" else f"{m.number}... {m.move_text}"

    @staticmethod
    def irregularity_label(i: Irregularity) -> str:
        who = f"{i.number}{'.' if i.side == 'white' else '...'} {i.side}"
        detail = f" — {i.detail}" if i.detail else ""
        return f"{i.type} ({who}, {i.rule}): {i.status}{detail}"


_GLYPH = {"w": "o", "W": "O", "b": "x", "B": "X"}


def board_lines(board: Board, highlight: frozenset[int] = frozenset(), ansi: bool = False) -> list[str]:
    """The board as white sees it (white at the bottom), files a.. and ranks 1.. along the edges."""
    v = board.variant
    codes = board.piece_codes()
    out = []
    for rank in range(v.size - 1, -1, -1):
        cells = []
        for f in range(v.size):
            sq = v.square_at(f, rank)
            if sq is None:
                cells.append("  " if not ansi else "\x1b[47m  \x1b[0m")
                continue
            code = codes.get(sq)
            glyph = _GLYPH.get(code, ".") if code else "."
            if ansi:
                colour = "\x1b[1;97m" if code in ("w", "W") else "\x1b[1;91m" if code else "\x1b[90m"
                back = "\x1b[43m" if sq in highlight else "\x1b[100m"
                cells.append(f"{back}{colour}{glyph} \x1b[0m")
            else:
                cells.append(f"{glyph} ")
        out.append(f"{rank + 1:>2} " + "".join(cells))
    out.append("   " + "".join(f"{'abcdefghij'[f]} " for f in range(v.size)))
    return out


class PlainLog:
    """Line-by-line updates: every move, clock, counter change and irregularity as it happens."""

    def __init__(self, stream: IO[str]):
        self.stream = stream
        self._counters: list[str] = []
        self._pending: MoveEntry | None = None

    def _print(self, text: str) -> None:
        self.stream.write(text + "\n")
        self.stream.flush()

    def start(self, view: GameView, info: str) -> None:
        self._print(view.title)
        self._print(info)
        for line in board_lines(view.board):
            self._print(line)

    def show(self, view: GameView, outputs: list, now: float) -> None:
        for out in outputs:
            if isinstance(out, MoveEntry):
                self._flush(view)
                self._pending = out
            elif isinstance(out, ClockUpdate):
                self._flush(view)
            elif isinstance(out, MoveWithdrawn):
                self._flush(view)
                self._print(f"   taken back: {out.move_text}")
            elif isinstance(out, Irregularity):
                self._flush(view)
                self._print(f"!  {view.irregularity_label(out)}")
            elif isinstance(out, IrregularityUpdate):
                self._flush(view)
                self._print(f"!  {view.irregularity_label(view.irregularities[out.index])}")
            elif isinstance(out, PositionLost):
                self._flush(view)
                self._print(f"!  position lost: squares {', '.join(map(str, out.squares))} changed")
            elif isinstance(out, PositionRestored):
                self._flush(view)
                self._print("!  position restored")
        counters = view.active_counters()
        if counters != self._counters:
            self._flush(view)
            self._counters = counters
            if counters:
                self._print("   draw counters: " + "; ".join(counters))

    def _flush(self, view: GameView) -> None:
        """Print the move waiting for its clock reading (the clock reports the times just after the press)."""
        out, self._pending = self._pending, None
        if out is None:
            return
        w, b = view.clocks()
        clock = f"  [white {w}  black {b}]" if view.clock else ""
        flag = "" if out.legal else "  (irregular)"
        self._print(f"{view.move_label(out)}{flag}{clock}")

    def tick(self, view: GameView, now: float) -> None:
        """Nothing between events: the log only prints what changed."""

    def finish(self, view: GameView, recorded: str) -> None:
        self._flush(view)
        for line in board_lines(view.board):
            self._print(line)
        board_result = view.result or "*"
        self._print(f"Result: {recorded} (game record); the board's result: {board_result}"
                    + (f" ({view.reason})" if view.reason else ""))


class AnsiScreen:
    """A full-screen view redrawn in place (ANSI escape codes)."""

    MOVE_ROWS = 12

    def __init__(self, stream: IO[str]):
        self.stream = stream
        self.info = ""

    def start(self, view: GameView, info: str) -> None:
        self.info = info
        self.stream.write("\x1b[2J\x1b[?25l")
        self.draw(view, 0.0)

    def show(self, view: GameView, outputs: list, now: float) -> None:
        self.draw(view, now)

    def tick(self, view: GameView, now: float) -> None:
        self.draw(view, now)

    def draw(self, view: GameView, now: float, footer: str = "") -> None:
        last = view.moves[-1] if view.moves else None
        hl = frozenset(last.move.path) if last is not None and last.move is not None else frozenset()
        left = board_lines(view.board, hl, ansi=True)
        w, b = view.clocks(now)
        running = view.clock.running if view.clock else None
        cols = shutil.get_terminal_size((100, 40)).columns
        info = textwrap.wrap(self.info, max(30, cols - (3 + 2 * view.board.variant.size) - 4)) or [""]
        right = [
            f"\x1b[1m{view.title}\x1b[0m",
            *info,
            "",
            f"White {w}{' ◀' if running == 'white' else ''}",
            f"Black {b}{' ◀' if running == 'black' else ''}",
            "",
            f"Last move: {view.move_label(last) if last else '-'}",
            "Draw counters: " + ("; ".join(view.active_counters()) or "-"),
            "\x1b[1;91mPOSITION LOST\x1b[0m" if view.lost else "",
        ]
        pairs: list[str] = []
        for m in view.moves:
            if m.side == "white" or not pairs:
                pairs.append(f"{m.number:>3}. {m.move_text:<9}" if m.side == "white"
                             else f"{m.number:>3}. {'...':<9} {m.move_text}")
            else:
                pairs[-1] += f" {m.move_text}"
        right += ["Moves:"] + pairs[-self.MOVE_ROWS:]
        width = 3 + 2 * view.board.variant.size
        out = ["\x1b[H"]
        for i in range(max(len(left), len(right))):
            l_text = left[i] if i < len(left) else " " * width
            out.append(f"{l_text}   {right[i] if i < len(right) else ''}\x1b[K\n")
        out.append("\x1b[K\n")
        for irr in view.irregularities[-5:]:
            out.append(f"\x1b[1;93m!\x1b[0m {view.irregularity_label(irr)}\x1b[K\n")
        if footer:
            out.append(f"\x1b[K\n{footer}\x1b[K\n")
        out.append("\x1b[J")
        self.stream.write("".join(out))
        self.stream.flush()

    def finish(self, view: GameView, recorded: str) -> None:
        board_result = view.result or "*"
        footer = (f"\x1b[1mResult: {recorded}\x1b[0m (game record); the board's result: {board_result}"
                  + (f" ({view.reason})" if view.reason else ""))
        self.draw(view, view.t, footer)
        self.stream.write("\x1b[?25h")
        self.stream.flush()
