"""A piece played from the other square of an old dead reading (docs/reconstruction.md, "Failing switches"; issue 9).

A move whose landing showed nothing on a board with two squares it could reach is read onto one of them, that
square's switch named ``dead`` (an open reading, chainread.py; an observation names both: 41-37 onto a dead 37 read
41-36, 36 or 37 dead). When the piece went to the other square, whose switch is the dead one, nothing shows it while
the piece stands there: a dead switch shows neither the piece nor its lift. The piece may stand for long (70 plies in
a held-out game), past ``REREAD_FAULT_PLIES``, after which an open reading is no longer re-read. A dead switch never
closes, so its piece's move shows only its landing (or captures), and under the reading taken that is no move: the
square reads empty and the piece read on the other square cannot make it.

So a ``dead`` reading past that bound is kept for this evidence alone (the mirror of a stuck-origin reading kept for
its switch opening, earlylift.py ``_switch_works``): when a turn no legal move explains (and no re-read of the recent
readings does) is exactly one legal move from, or capturing, the reading's other square once the reading is taken
the other way, every move since staying the same legal move (or, onto or off the fault's square, the same piece's
move onto or off its new square: chainread.py ``_moved_with_fault``), the moves are read again from that ply and the
fault moves to that square. The other square must not have read closed since the reading's turn began: a switch that
closed works, and would have shown the piece's lift. A player cannot produce that turn: a landing no lift explains,
from a square nothing ever closed on since.

:class:`StaleDead` is mixed into :class:`rig.reconstruct.faults.FaultHandling`.
"""

from __future__ import annotations

from typing import Any, Callable

from rig.board import Board
from rig.move import Move
from rig.reconstruct.chainread import ChainReading, OpenReading, reread_chain, turn_shown
from rig.reconstruct.matcher import Explanation
from rig.reconstruct.occupancy import SquareChange
from rig.reconstruct.unseen import moved_from

__all__ = ["StaleDead"]


class StaleDead:
    """The engine's side of an old dead reading re-read by a move from its other square (module docstring)."""

    def _init_stale_dead(self) -> None:
        # ``dead`` open readings past REREAD_FAULT_PLIES (chainread.py ``_live_readings`` moves them here)
        self._stale_dead: list[OpenReading] = []

    def _stale_dead_chain(self, occ: frozenset[int], masked: frozenset[int],
                          lifted: int | None) -> ChainReading | None:
        """The turn under way (the board reading ``occ``, ``masked`` its masked squares) shows no legal move: the
        one old ``dead`` reading that, taken the other way, makes it exactly one legal move from (or capturing) the
        square that way puts the piece on (the module docstring). When found, that reading is put first among the
        open readings (chainread.py ``_rewrite_chain`` reads the moves again from it) and the re-read is returned;
        None when none or two fit."""
        def fits(others: frozenset[int]) -> Callable[[Board, frozenset[int]], Explanation | None]:
            shown = turn_shown(self._seg, occ, masked | others, self._index, lifted)

            def accept(board: Board, cur: frozenset[int]) -> Explanation | None:
                expl = shown(board, cur)
                if expl is None or not (others & ({expl.move.origin} | set(expl.move.captured))):
                    return None
                return expl
            return accept

        found = self._stale_dead_search(fits)
        if found is None:
            return None
        reading, chain = found
        self._stale_dead = [r for r in self._stale_dead if r is not reading]
        self._open_readings = [reading] + [r for r in self._open_readings if r.ply > reading.ply or r.standing]
        return chain

    def _stale_dead_origin(self, plan: Explanation, c: SquareChange) -> int | None:
        """unseen.py ``_open_dead_origin`` for an old ``dead`` reading: taken the other way, the piece stands on the
        other square, masked, and ``c`` (the first change after the mover's move ``plan``, still pending) fits a
        move of it (a capture's removal, a square on its path): its lift is unseen, so ``c`` may begin the
        opponent's turn. The square, or None."""
        squares: set[int] = set()

        def fits(others: frozenset[int]) -> Callable[[Board, frozenset[int]], bool | None]:
            return moved_from(self._index, self.variant, others, c, squares)

        found = self._stale_dead_search(fits, plan.move)
        return next(iter(squares)) if found is not None and len(squares) == 1 else None

    def _stale_dead_search(self, fits: Callable[[frozenset[int]], Callable[[Board, frozenset[int]], Any]],
                           pending: Move | None = None) -> tuple[OpenReading, ChainReading] | None:
        """The one old ``dead`` reading whose other squares (``others``: never closed since its turn began) make
        ``fits(others)`` accept the board once the reading is taken the other way (chainread.py
        :func:`reread_chain`, the recent readings after it as they are; ``pending``: the mover's move not yet
        committed, after the record's). None when none or two fit."""
        plies = self._plies
        n = len(plies)
        self._stale_dead = [r for r in self._stale_dead if r.ply < n and self._reading_stands(r)]
        found: list[tuple[OpenReading, ChainReading]] = []
        for r in self._stale_dead:
            played = plies[r.ply].move
            others = frozenset(sq for m in r.moves if m.key != played.key and (sq := r.fault_at(m)) != r.fault_at(
                played) and not self._closed_since(r, sq))
            if not others or not self._plies_sound(r.ply):
                continue
            readings = [r] + [x for x in self._live_readings() if x.ply > r.ply]
            moves = [p.move for p in plies[r.ply:]] + ([pending] if pending is not None else [])
            chain = reread_chain(readings, moves, lambda k: plies[k].board_before if k < n else self.board,
                                 self._index, fits(others))
            if chain is not None and chain.first == r.ply and chain.steps[0][0].key != played.key:
                found.append((r, chain))
        return found[0] if len(found) == 1 else None
