"""What the terminal shows during ``rig run``: the demo's live view (rig/demo/view.py) plus the rig's own news:
switch health warnings (stuck or dead switches, with the square), notes (resumed journal, clock link), and
where the files are."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import IO, Any

from rig.demo.view import AnsiScreen, GameView, PlainLog
from rig.reconstruct import Observation, SensorFault

__all__ = ["RunView", "RunAnsiScreen", "RunPlainLog", "run_screen"]


@dataclass
class RunView(GameView):
    """The game view, plus the health warnings and notes of the run."""

    health: list = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: switches the engine found faulty from the frames (masked: the arbiter checks the square)
    faults: list = field(default_factory=list)
    #: what the sensors could not settle, for the arbiter's review (never an alarm)
    observations: list = field(default_factory=list)

    def update(self, out) -> None:
        super().update(out)
        if isinstance(out, SensorFault):
            # a fault emitted again with the same ``since`` is the same fault, moved by a re-read (another square,
            # or a ghost found to be a stuck switch): it replaces the one shown
            same = next((i for i, f in enumerate(self.faults) if f.since == out.since), None)
            if same is None:
                self.faults.append(out)
            else:
                self.faults[same] = out
        elif isinstance(out, Observation):
            self.observations.append(out)

    def warnings(self) -> list[str]:
        """Current health warnings, latest per square (a recovered switch clears its square), then the
        switches the engine masked: which square the arbiter should check."""
        latest: dict[int, Any] = {}   # the scanner's health events (sensors.health.HealthEvent)
        for ev in self.health:
            latest[ev.square] = ev
        out = [f"{ev.kind}: {ev.message}" for ev in latest.values() if ev.kind != "recovered"]
        out += [self.fault_label(f) for f in self.faults if not f.withdrawn]
        return out

    def fault_label(self, f) -> str:
        name = self.board.variant.square_name(f.square)
        if f.withdrawn:
            return f"square {name}: switch {f.kind} withdrawn ({f.withdrawn})"
        if f.until is not None:
            return f"check square {name}: switch {f.kind} from {f.since:.1f} s to {f.until:.1f} s (works again)"
        if f.kind == "ghost":
            return (f"check square {name}: its diode is missing since {f.since:.1f} s (the ghosts it makes are "
                    "masked, read from the rules)")
        return f"check square {name}: switch {f.kind} since {f.since:.1f} s, masked (read from the rules)"


class RunPlainLog(PlainLog):
    """Line by line, with health events, the engine's sensor faults and observations, and notes as lines of
    their own."""

    def show(self, view: GameView, outputs: list, now: float) -> None:
        super().show(view, outputs, now)
        for out in outputs:
            if isinstance(out, SensorFault) and isinstance(view, RunView):
                self._flush(view)
                self._print(f"!  {view.fault_label(out)}")
            elif isinstance(out, Observation):
                self._flush(view)
                self._print(f"?  observation {out.type} ({out.number}, {out.side}): {out.detail} [{out.why}]")

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
