"""Irregularity log: records the findings of :mod:`rig.reconstruct.detectors` and keeps their status.

The detectors are pure functions that say what a turn shows; this stage of the engine records what they
return, in order: an irregularity gets its index in ``irregularities`` (and the position before it, what an
arbiter's ``rectify`` restores where the book says so), an observation goes to ``observations``, and both
are emitted to the journal. An irregular position stays *open* until accepted, corrected or dismissed (FPD
000 art. 7.5a, 001 art. 5.1.3). Mixed into :class:`rig.reconstruct.Reconstructor`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from rig.board import Board
from rig.reconstruct.detectors import Context, Finding
from rig.reconstruct.outputs import (
    Irregularity,
    IrregularityUpdate,
    SensorFault,
)

__all__ = ["IrregularityLog"]


class IrregularityLog:
    """Records irregularities and observations and keeps their status."""

    def _context(self, t: float, white: bool, number: int | None = None) -> Context:
        """Who and when for the detectors: the book in force, ``t``, the side, the move number (default: the
        next move's)."""
        return Context(self.judge.book, t, white, self._number if number is None else number)

    def _record(self, findings: Iterable[Finding], before: Board | None = None) -> list[int]:
        """Record the detectors' findings in order: the indexes of the irregularities among them. ``before``:
        the position they were committed from (default the engine's board), what an arbiter's ``rectify``
        restores where the book says so."""
        found: list[int] = []
        for f in findings:
            if isinstance(f, Irregularity):
                if f.type == "capture-not-removed":
                    self._standing_suspect(f.squares)     # or a switch stuck under it (stuckcapture.py)
                    self._reclosed_suspect(f.squares)     # or stuck after the removal (stuckempty.py)
                elif f.type in ("wrong-piece-removed", "own-piece-removed"):
                    self._gone_suspect(f.squares)         # or a switch that died under it (stuckcapture.py)
                self.irregularities.append(f)
                self._emit(f)
                index = len(self.irregularities) - 1
                self.judge.remember(index, self.board if before is None else before)
                found.append(index)
            else:
                self.observations.append(f)
                self._emit(f)
        return found

    def _irregular(self, kind: str, t: float, squares, detail: str, white: bool, number: int,
                   before: Board | None = None) -> int:
        """Record an irregularity, cited by the rule set in force (see :meth:`_record` for ``before``)."""
        return self._record((self._context(t, white, number).irregularity(kind, squares, detail),), before)[0]

    def _observe(self, kind: str, t: float, squares, detail: str, white: bool, number: int, why: str) -> int:
        """Record an observation for review: ``kind`` an irregularity id whose facts the sensors cannot prove
        (``why`` says what is missing). Never changes the game or its status."""
        self._record((self._context(t, white, number).observation(kind, squares, detail, why),))
        return len(self.observations) - 1

    def _sensor_fault(self, square: int, kind: str, since: float, detail: str = "") -> None:
        """Report a faulty switch once (by square and kind; one that recovered and fails again is a new item)."""
        if any(f.square == square and f.kind == kind and f.current
               for f in self.sensor_faults):
            return
        fault = SensorFault(square, kind, since, detail)
        self.sensor_faults.append(fault)
        self._emit(fault)

    def _withdraw_fault(self, index: int, reason: str) -> None:
        """Fault ``index`` no longer stands (the switch proved to work): kept, marked ``withdrawn`` with the
        reason, and emitted again (the same ``since``: it replaces the one shown)."""
        fault = self.sensor_faults[index] = replace(self.sensor_faults[index], withdrawn=reason)
        self._emit(fault)

    def _set_status(self, index: int, status: str, t: float, reason: str) -> None:
        irr = self.irregularities[index]
        if irr.status == status:
            return
        self.irregularities[index] = replace(irr, status=status)
        self._emit(IrregularityUpdate(index, status, t, reason))

    def _irregular_position(self, indexes: list[int]) -> str:
        """The record's mark on a move played on from open irregularities (FPD 000 7.5a, 001 5.1.3)."""
        return "played from an irregular position (" + "; ".join(
            f"{self.irregularities[i].type} {self.irregularities[i].rule}" for i in indexes) + ")"
