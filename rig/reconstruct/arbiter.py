"""Arbiter decisions: an arbiter's events from the review page into the record.

An arbiter upholds, dismisses or corrects an irregularity; correcting it restores the position just
before the irregularity (FPD 000 art. 7.5a, 001 art. 5.1.3), and setting a position that the board does
not show makes it lost until the pieces are put so (FPD 000 art. 7.4; CODEX 004 art. 46-48).
Mixed into :class:`rig.reconstruct.Reconstructor`.
"""

from __future__ import annotations

from rig.board import Board
from rig.pdn import GameRecord, result_text
from rig.reconstruct.outputs import (
    ACCEPTED,
    ClockUpdate,
    CORRECTED,
    DISMISSED,
    OPEN,
    PositionLost,
)
from rig.reconstruct.state import LOST, SETUP, Ply, Segment, snap
from rig.session import ArbiterEvent

__all__ = ["ArbiterDecisions"]


class ArbiterDecisions:
    """Applies the arbiter's decisions and set positions."""

    # -- arbiter -----------------------------------------------------------------------------

    def _arbiter(self, ev: ArbiterEvent) -> None:
        t = ev.t
        if ev.action in ("accept", "rectify", "dismiss"):
            if ev.ref is None or not 0 <= ev.ref < len(self.irregularities):
                self._note(t, f"arbiter {ev.action}: no irregularity {ev.ref}")
                return
            status = {"accept": ACCEPTED, "rectify": CORRECTED, "dismiss": DISMISSED}[ev.action]
            irr = self.irregularities[ev.ref]
            target = self.judge.restore_target(ev.ref, irr.type) \
                if ev.action == "rectify" and irr.status == OPEN else None
            self._set_status(ev.ref, status, t, f"arbiter decision{': ' + ev.note if ev.note else ''}")
            if target is not None:
                # FPD 000 7.5a, 001 5.1.3: the position just before the irregularity is restored; the record
                # goes on from it (a setup), the board is read again once it stands so
                self._set_position(t, snap(target), f"position before irregularity {ev.ref} ({irr.type}) "
                                                     f"restored by the arbiter ({irr.rule})")
        elif ev.action == "draw-claim":
            what = f"arbiter: {ev.side}'s draw claim {'upheld' if ev.upheld else 'rejected'}" \
                   f"{': ' + ev.note if ev.note else ''}"
            if ev.upheld and self.result == "*":
                self._end(t, result_text(self.variant, "draw"), what)
            else:
                self._note(t, what)
        elif ev.action == "time":
            self._time_correction(t, ev)
        elif ev.action == "set-position":
            try:
                board = Board(self.variant, ev.fen)
            except ValueError as exc:
                self._note(t, f"arbiter set-position ignored: {exc}")
                return
            self._set_position(t, board, "position set by the arbiter")
        elif ev.action == "result":
            if ev.result:
                try:
                    self.record.set_result(ev.result)
                except ValueError as exc:
                    self._note(t, f"arbiter result ignored: {exc}")
                    return
                self._end(t, GameRecord(self.variant, result=ev.result).result,
                          f"arbiter{': ' + ev.note if ev.note else ''}")

    def _time_correction(self, t: float, ev: ArbiterEvent) -> None:
        """Time added to (``delta_ms`` > 0) or taken from a player's clock by the arbiter (FPD 000 art. 6;
        CODEX 004 art. 26-29; FMJD 002 art. 10): noted, and from now on in the times shown and in the
        record's clock stamps (:meth:`_corrected`); a clock's time never goes below zero."""
        ms = ev.delta_ms or 0
        self._note(t, f"arbiter: {abs(ms) / 1000:g} s {'added to' if ms >= 0 else 'taken from'} "
                      f"{ev.side}'s clock{': ' + ev.note if ev.note else ''}")
        if ev.side not in ("white", "black") or not ms:
            return
        white = ev.side == "white"
        dw, db = self._time_offset
        self._time_offset = (dw + ms, db) if white else (dw, db + ms)
        w, b = self._times
        if w is None or b is None:
            return                        # no reading yet: the first one gets the correction
        w, b = (max(0, w + ms), b) if white else (w, max(0, b + ms))
        self._times = (w, b)
        self._emit(ClockUpdate(t, w, b, self._running))

    def _set_position(self, t: float, board: Board, comment: str) -> None:
        """The record goes on from ``board`` (a setup); the engine reads the board from there once the
        squares match it (until then it waits as for a lost position)."""
        self._plies.append(Ply(snap(self.board), None, False, self._fen(board), None, False, None,
                                comment, [], True))
        self.tracker.set_position(self._fen(board))
        self._undo = None
        self._split = None
        self._held = None
        if self._phase in (LOST, SETUP):
            self._lost_target = board
            self.board = snap(board)
            if self._phase is SETUP:
                self.start_board = snap(board)
                self._check_setup(t)
            else:
                self._lost_check(t)
        else:
            self.board = snap(board)
            self._seg = Segment(t, self._occ, pieces=self._pieces)
            if self._occ != board.occupied():
                # the board does not show the position set: lost until it does (FPD 7.4; CODEX art. 46-48)
                self._lost_target = board
                self._phase = LOST
                self._emit(PositionLost(t, tuple(sorted(self._occ ^ board.occupied()))))
        self._note(t, f"arbiter set the position {self._fen(board)}")
