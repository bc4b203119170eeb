"""The interactive loop shared by the calibration wizard and ``rig doctor``: the rig asks
for a piece on a square, the matrix answers.

The rig talks to the person through a :class:`Prompter` (the terminal here;
a web page can implement the same two methods). The answer is read from the
matrix itself by :class:`CellWaiter`: nobody types anything, the piece on
the square is the answer. Tests use :class:`ScriptedHands`, a prompter that
answers by moving pieces on a :class:`~sensors.simmatrix.SimulatedMatrix`.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, AbstractSet, Callable, Protocol, TextIO

from sensors.cellmap import Cell

if TYPE_CHECKING:
    from sensors.matrix import MatrixScanner
    from sensors.simmatrix import SimulatedMatrix

__all__ = ["Step", "Prompter", "TerminalPrompter", "ScriptedHands", "CellWaiter"]


@dataclass(frozen=True)
class Step:
    """One request to the person: ``place`` a piece on ``square`` (centred, ``pose="off-centre"`` pushed
    towards a corner, or ``pose="king"`` two stacked pieces), ``lift`` it, or ``clear`` the board."""

    kind: str
    square: int | None
    name: str
    index: int
    total: int
    pose: str = "centre"

    @property
    def message(self) -> str:
        if self.kind == "place" and self.pose == "off-centre":
            return (f"[{self.index}/{self.total}] Place a piece on square {self.name}, pushed off-centre "
                    f"(5 mm towards a corner)")
        if self.kind == "place" and self.pose == "king":
            return f"[{self.index}/{self.total}] Place a king (two stacked pieces) on square {self.name}"
        if self.kind == "place":
            return f"[{self.index}/{self.total}] Place a piece on square {self.name}"
        if self.kind == "lift":
            return f"[{self.index}/{self.total}] Lift the piece from {self.name}"
        return "Clear the board: remove every piece"


class Prompter(Protocol):
    def ask(self, step: Step) -> None:
        """Show the request; return at once (the matrix gives the answer)."""

    def tell(self, text: str) -> None:
        """Show a result or a warning."""


class TerminalPrompter:
    def __init__(self, out: TextIO | None = None):
        self.out = out or sys.stdout

    def ask(self, step: Step) -> None:
        print(step.message, file=self.out, flush=True)

    def tell(self, text: str) -> None:
        print(text, file=self.out, flush=True)


class ScriptedHands:
    """A scripted user: answers each request by moving a piece on a simulated matrix.

    ``skip``: squares it is asked to place on but does not (a person who misses a prompt).
    """

    def __init__(self, matrix: "SimulatedMatrix", skip: AbstractSet[int] = frozenset()):
        self.matrix = matrix
        self.skip = set(skip)
        self.steps: list[Step] = []
        self.told: list[str] = []

    def ask(self, step: Step) -> None:
        self.steps.append(step)
        if step.square is None or step.square in self.skip:
            if step.kind == "clear":
                self.matrix.set_occupied(())
            return
        if step.kind == "place":
            self.matrix.place(step.square, pose=step.pose)
        elif step.kind == "lift":
            self.matrix.lift(step.square)

    def tell(self, text: str) -> None:
        self.told.append(text)


class CellWaiter:
    """Reads answers off a scanner: waits until the debounced cells change and hold still."""

    def __init__(self, scanner: "MatrixScanner", timeout: float = 20.0, hold: float = 0.3):
        self.scanner = scanner
        self.timeout = timeout
        self.hold = hold

    def _scan_for(self, until: Callable[[frozenset[Cell], float], bool]) -> frozenset[Cell]:
        s = self.scanner
        period = 1.0 / s.scan_hz
        start = s.clock()
        last, since = s.cells, start
        while s.clock() - start < self.timeout:
            s.scan()
            now = s.clock()
            if s.cells != last:
                last, since = s.cells, now
            if until(last, now - since):
                break
            s.sleep(period)
        return last

    def settle(self) -> frozenset[Cell]:
        """The cells once nothing has moved for ``hold`` seconds."""
        return self._scan_for(lambda cells, still: still >= self.hold)

    def change(self, baseline: frozenset[Cell]) -> frozenset[Cell]:
        """The cells once they differ from ``baseline`` and hold still (``baseline`` on timeout)."""
        return self._scan_for(lambda cells, still: cells != baseline and still >= self.hold)

    def back_to(self, baseline: frozenset[Cell]) -> frozenset[Cell]:
        return self._scan_for(lambda cells, still: cells == baseline)
