"""What the terminal shows during ``rig run``: the demo's live view (rig/demo/view.py) plus the rig's own news:
switch health warnings (stuck or dead switches, with the square), notes (resumed journal, clock link), and
where the files are."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import IO

from rig.demo.view import AnsiScreen, GameView, PlainLog

__all__ = ["RunView", "RunAnsiScreen", "RunPlainLog", "run_screen"]


@dataclass
class RunView(GameView):
    """The game view, plus the health warnings and notes of the run."""

    health: list = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def warnings(self) -> list[str]:
        """Current health warnings, latest per square (a recovered switch clears its square)."""
        latest: dict[int, object] = {}
        for ev in self.health:
            latest[ev.square] = ev
        return [f"{ev.kind}: {ev.message}" for ev in latest.values() if ev.kind != "recovered"]


class RunPlainLog(PlainLog):
    """Line by line, with health events and notes as lines of their own."""

    def health(self, view: RunView, ev) -> None:
        self._flush(view)
        self._print(f"!  switch {ev.kind}: {ev.message}")

    def note(self, view: RunView, text: str) -> None:
        self._flush(view)
        self._print(f"-  {text}")


class RunAnsiScreen(AnsiScreen):
    """The live screen, with the health warnings and the last notes under the irregularities."""

    def health(self, view: RunView, ev) -> None:
        self.draw(view, view.t)

    def note(self, view: RunView, text: str) -> None:
        self.draw(view, view.t)

    def draw(self, view: GameView, now: float, footer: str = "") -> None:
        lines = []
        if isinstance(view, RunView):
            lines += [f"\x1b[1;95mswitch\x1b[0m {w}" for w in view.warnings()[-4:]]
            lines += view.notes[-2:]
        if footer:
            lines.append(footer)
        super().draw(view, now, "\x1b[K\n".join(lines))


def run_screen(stream: IO[str], plain: bool) -> RunAnsiScreen | RunPlainLog:
    """ANSI when ``stream`` is a terminal and ``plain`` is not asked for."""
    if plain or not (hasattr(stream, "isatty") and stream.isatty()):
        return RunPlainLog(stream)
    return RunAnsiScreen(stream)
