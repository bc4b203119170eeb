"""A captured piece left standing, or a switch stuck closed under it (docs/reconstruction.md, "Failing switches").

A switch that sticks closed under a piece shows nothing until the piece leaves. When the opponent then
captures that piece, its removal is not seen: the board reads as a capture whose piece was left standing
(``capture-not-removed``, which players do; FMJD 002 art. 4.4, CODEX 004 art. 42.K, FPD 000 art. 3.4c). The
two read the same at the capture. The game may tell them apart later: a piece left standing counts in the
position once the opponent plays on, but where the players go on as if it were gone (its owner skips a
capture only that piece could make, the capturer stops a capture short of it), a later turn shows a whole
move that the piece standing alone makes irregular, and every turn since reads as one legal move without
it. (A turn that only lacks a landing on its square is no such sign: a slow magnet or a piece still in the
hand looks the same.)

Then the capture is read again with the piece removed and the switch ``stuck-closed`` (masked from the
capture on), the moves after it are read again on that board (withdrawn from the record without a take-back,
keeping their clock stamps), and the irregularities that only the piece standing made are dismissed, the
reason given. An observation names the square: the sensors cannot prove which it was, and the game read
without an irregularity is the one every later move fits.

:class:`StandingReread` is mixed into :class:`rig.reconstruct.faults.FaultHandling`.
"""

from __future__ import annotations

from typing import Any

from rig.board import Board
from rig.reconstruct.chainread import OpenReading, REREAD_FAULT_PLIES, turn_shown
from rig.reconstruct.maskread import explain_masked
from rig.reconstruct.matcher import Explanation, explain
from rig.reconstruct.outputs import DISMISSED
from rig.reconstruct.state import Segment, Undo, snap

__all__ = ["STANDING_ONLY", "GONE_ONLY", "replay_without", "StandingReread"]

#: irregularities a captured piece counted as standing can make of moves played as if it were gone
STANDING_ONLY = frozenset({"capture-not-removed", "capture-not-taken", "capture-incomplete", "capture-rule-violated",
                           "illegal-move", "two-moves"})
#: the same for a piece counted as taken off the board that stood there all along
GONE_ONLY = STANDING_ONLY - {"capture-not-removed"} | {"wrong-piece-removed", "own-piece-removed"}


def _after(occ: frozenset[int], move: Any) -> frozenset[int]:
    return (occ - {move.origin}).difference(move.captured) | {move.destination}


def replay_without(board: Board, occ0: frozenset[int], shown: list[frozenset[int]], masked: frozenset[int],
                   index_of: Any) -> tuple[list[tuple[Any, frozenset[int]]], Board, frozenset[int]] | None:
    """Read the turns again on ``board`` (the position after the capture, its pieces removed; ``occ0`` its
    occupancy): ``shown`` is what the board read after each turn. Each must be one legal move exactly, the
    ``masked`` squares either way (:func:`explain_masked`, settled). (moves with the occupancy after each,
    the position after them, its occupancy), or None."""
    cur = occ0
    steps: list[tuple[Any, frozenset[int]]] = []
    for seen in shown:
        now = (seen - masked) | (cur & masked)
        index = index_of(board)
        expl = explain(board, cur, now, index=index)
        if expl is None or not (expl.legal and expl.exact):
            expl, settled = explain_masked(board, cur, now, masked, frozenset(), (), None, index, expl)
            if not settled or expl is None or not (expl.legal and expl.exact):
                return None
        cur = (now - masked) | (_after(cur, expl.move) & masked)
        steps.append((expl.move, cur))
        board = snap(board)
        board.push(expl.move)
        board = snap(board)
    return steps, board, cur


class StandingReread:
    """The engine's side of a captured piece whose switch may be stuck (see the module docstring)."""

    def _standing_suspect(self, squares: tuple[int, ...]) -> None:
        """A capture about to be committed leaves ``squares`` standing: when none of them changed in the turn,
        a switch stuck closed under it reads the same; kept open (``OpenReading.standing``) for the moves
        after it to tell."""
        seg = self._seg
        if any(c.square in squares for c in seg.changes) or any(s in self._mask for s in squares):
            return
        self._open_readings.append(OpenReading(len(self._plies), (), seg.occ0, None, tuple(squares)))
        self._standing_keep(len(self._plies), tuple(squares))    # for an undo of a re-read (standingundo.py)

    def _gone_suspect(self, squares: tuple[int, ...]) -> None:
        """A move about to be committed finds ``squares`` taken off the board: when each opened once in the turn
        and stayed open, a switch that died under a piece reads the same; kept open (``OpenReading.gone``) for
        the moves after it to tell (the piece moving from there with no lift: it stood there all along)."""
        seg = self._seg
        for s in squares:
            changes = [c for c in seg.changes if c.square == s]
            if len(changes) != 1 or not changes[0].up or s in self._mask:
                return
        self._open_readings.append(OpenReading(len(self._plies), (), seg.occ0, None, tuple(squares), True))

    def _gone_reaches(self, board: Board, square: int) -> bool:
        """A piece read taken off the board (an open ``gone`` reading: its switch may have died under it), put back
        on ``board``, has a legal move landing on ``square``: a landing there with no lift seen is its move as
        well as one from a switch stuck under another origin, and the piece read off is the first to try (it
        explains the lift the other reading leaves unexplained)."""
        plies = self._plies
        for r in self._open_readings:
            if not r.gone or r.ply >= len(plies) or plies[r.ply].withdrawn:
                continue
            for s in r.standing:
                piece = plies[r.ply].board_before.piece_at(s)
                if piece is None or piece.white != board.turn or board.piece_at(s) is not None:
                    continue
                back = board.copy(stack=False)
                back.set_pieces({**board.pieces(), s: piece}, board.turn)
                if any(m.origin == s and m.destination == square for m in self._index(back).moves):
                    return True
        return False

    def _reread_standing(self, t: float, occ: frozenset[int], lifted: int | None, committing: bool,
                         over: bool = False) -> tuple[Explanation, frozenset[int]] | None:
        """The current turn shows no legal move: when a capture whose piece was read as left standing, its
        square unchanged since, makes every turn after it one legal move read with the piece removed and its
        switch stuck closed, and the current turn one too, the capture and the moves after it are read so
        (see the module docstring). ``over``: the turn is known over (the mover's press; without a clock, his
        opponent lifting after the mover's piece stayed off). The turn's move and the occupancy after it; None
        otherwise."""
        plies = self._plies
        n = len(plies)
        stale = [r for r in self._open_readings if r.standing and (
            n - r.ply > REREAD_FAULT_PLIES or r.ply < n and plies[r.ply].withdrawn)]
        if stale:
            self._open_readings = [r for r in self._open_readings if r not in stale]
        for r in reversed([r for r in self._open_readings if r.standing]):
            if r.ply >= n or not r.gone and (r.ply, tuple(r.standing)) in self._standing_refuted:
                continue                  # (a re-read a later capture of the piece refuted: standingundo.py)
            found = self._standing_chain(r, occ, lifted, over)
            if found is None:
                continue
            steps, board, cur, current, own = found
            held, split = self._held, self._split
            self._held = self._split = None
            self._rewrite_standing(t, r, steps, cur, own)
            if committing:
                self._held, self._split = held, split
            masked = self._mask.squares
            return current, (occ - masked) | (_after(cur, current.move) & masked)
        return None

    def _standing_landed(self, t: float) -> tuple[Explanation, frozenset[int]] | None:
        """At the mover's press (its magnet wait done), the board showing no move of his: a move landing on the
        square of a captured piece read standing, every turn since read with that piece removed, is read before
        a new faulty switch (:meth:`_reread_standing`, the turn over: the press ends the move)."""
        if not self._open_readings or self._split is not None or self._held is not None:
            return None
        return self._reread_standing(t, self._occ, None, False, True)

    def _standing_chain(self, r: OpenReading, occ: frozenset[int], lifted: int | None, over: bool = False) -> Any:
        """The capture of ``r`` and the turns after it read with its standing pieces removed (their switches
        stuck closed), the current turn's move last; None when one of them does not read so. A turn known
        over (``over``: the press ends the move, FPD 000 art. 6.2a; no player keeps a piece in his hand while his
        opponent moves on) may also be a move landing on that square that shows no move at all with the piece
        standing: no piece is still in the hand, so its landing is no longer "not yet seen". So is a capture one of
        whose pieces is being taken off (``lifted``): the capturing piece is down (FMJD 002 art. 4.4)."""
        own = self._explain(occ)
        gone = r.gone
        if gone and own is not None and own.legal and own.exact:
            return None
        whole = own is not None and own.exact and own.kind is not None
        if not gone and not whole and (not over and lifted is None or own is not None and own.legal and own.exact):
            return None                   # the turn must be a whole move the piece standing alone makes irregular
        plies = self._plies
        capture = plies[r.ply]
        move = capture.move
        squares = frozenset(r.standing)
        if capture.withdrawn or move is None or not capture.legal or squares & {c.square for c in self._seg.changes}:
            return None
        if gone and (squares & occ or squares & {move.origin, *move.captured}) \
                or not gone and (not squares <= occ or not squares <= set(move.captured)):
            return None
        later = plies[r.ply + 1:]
        if any(p.withdrawn or p.setup_before is not None or p.setup_only for p in later):
            return None
        expected = {"wrong-piece-removed", "own-piece-removed"} if gone else {"capture-not-removed"}
        if not any(self.irregularities[i].type in expected and squares <= set(self.irregularities[i].squares)
                   for i in capture.irregularities):
            return None                   # the ply read with those pieces standing (or gone) is another
        allowed = GONE_ONLY if gone else STANDING_ONLY
        if any(self.irregularities[i].type not in allowed and not (gone and self._cleared_later(capture, i, occ))
               for p in plies[r.ply:] for i in p.irregularities):
            return None
        bounds = [p.board_before.occupied() for p in later] + [self.board.occupied()]   # after each ply
        if any(bool(squares & s) if gone else not squares <= s for s in bounds):
            return None                   # the switch read as a piece would: it works
        shown = bounds[1:]
        board = snap(capture.board_before)
        board.push(move)
        board = snap(board)
        masked = self._mask.squares | squares
        replay = replay_without(board, _after(r.occ0, move), shown, masked, self._index)
        if replay is None:
            return None
        steps, board, cur = replay
        current = turn_shown(self._seg, occ, masked, self._index, lifted, clearing=True)(board, cur)
        if current is None:
            return None
        if gone and current.move.origin not in squares:
            return None                   # only the piece moving from there, with no lift, shows it stood there
        if not gone and not over and not whole:
            if lifted not in current.move.captured:
                return None               # the turn not known over
            over = True                   # a piece it captured being taken off: its capturing piece is down
            #                               (FMJD 002 art. 4.4)
        touched = squares & {current.move.origin, current.move.destination, *current.move.captured}
        if not gone and touched and not (over and touched == {current.move.destination}):
            return None                   # a landing not yet seen (a slow magnet, a piece in hand) looks the same
        if not gone and not whole and current.move.destination not in squares:
            return None                   # a turn over: only a landing on the square read stuck
        return [(move, _after(r.occ0, move))] + steps, board, cur, current, own

    def _cleared_later(self, capture: Any, i: int, occ: frozenset[int]) -> bool:
        """Irregularity ``i`` is the ``capture-not-removed`` of ``capture`` (the ply a switch may have died in)
        and its pieces are off the board now: read with that switch dead, the capture was cleared while the
        opponent's piece read lifted, and his move came after (earlylift.py tells the same with the lift seen)."""
        irr = self.irregularities[i]
        return irr.type == "capture-not-removed" and i in capture.irregularities \
            and set(irr.squares) <= set(capture.move.captured) and not set(irr.squares) & occ

    def _rewrite_standing(self, t: float, r: OpenReading, steps: list, cur: frozenset[int],
                          own: Explanation | None = None) -> None:
        """Withdraw the capture of ``r`` and the plies after it, dismiss the irregularities the piece standing
        made, name the stuck switch (masked from the capture on) and commit the moves ``steps`` read. ``own``: the
        current turn read with the piece standing (its irregularity, dropped, is an observation)."""
        plies = self._plies
        first = r.ply
        seg = self._seg
        name = self.variant.square_name
        squares = r.standing
        where = ", ".join(name(s) for s in squares)
        capture_entry = self.moves[self._entry_of(plies[first])]
        entries = [self.moves[self._entry_of(p)] for p in plies[first:]]
        old_index = [self._entry_of(p) for p in plies[first:]]
        stamps = [(p.pressed, p.clock) for p in plies[first:]]
        awaiting = self._await_time
        if r.gone:
            reason = (f"read again: the switch under {where} died, the piece stood there (it was played from there "
                      "later)")
        else:
            reason = (f"read again: the switch under {where} is stuck closed, the captured piece was removed "
                      "(the moves after it were played as if it were gone)")
        kinds = [self.irregularities[i].type for i in plies[first].irregularities]
        dropped = [self.irregularities[i] for p in plies[first + 1:] for i in p.irregularities
                   if not r.gone and self.irregularities[i].type in STANDING_ONLY]
        for p in plies[first:]:
            for i in p.irregularities:
                irr = self.irregularities[i]
                if r.gone and irr.type == "capture-not-removed":    # (:meth:`_cleared_later`)
                    taken = ", ".join(name(s) for s in irr.squares)
                    self._set_status(i, DISMISSED, t, f"{reason}; {taken} taken off while {where} read lifted: "
                                                      "the capture was cleared")
                else:
                    self._set_status(i, DISMISSED, t, reason)
        olds = [r.occ0] + [p.board_before.occupied() for p in plies[first + 1:]]
        for k in range(len(plies) - 1, first - 1, -1):
            self._withdraw(t, Undo(k, olds[k - first], plies[k].board_before))
            plies.pop()
        self._open_readings = [o for o in self._open_readings if o.ply < first]
        self._reread_alts = None
        for s in squares:
            if r.gone:
                self._fault(s, "dead", capture_entry.t, f"{name(s)} read empty from {capture_entry.move_text} on, yet "
                                                        "its piece was played from there later: its switch died",
                            True)
            else:
                self._fault(s, "stuck-closed", capture_entry.t,
                            f"the piece {capture_entry.move_text} took on {name(s)} was removed and its switch stayed "
                            "closed: the moves after it were played as if it were gone", False)
        prev = r.occ0
        for k, (entry, (move, after)) in enumerate(zip(entries, steps)):
            self._seg = Segment(entry.t, prev, pieces=self._pieces)
            self._commit(Explanation(move, True, None), entry.t, "re-read: a switch dead under a piece read taken "
                         "off" if r.gone else "re-read: a switch stuck closed under a captured piece", occ_after=after)
            self._restamp(len(self.moves) - 1, *stamps[k])
            if awaiting is not None and awaiting == old_index[k]:
                awaiting = len(self.moves) - 1
            prev = after
        self._mask_sync()
        seg.occ0 = cur
        self._seg = seg
        if awaiting is not None:
            self._await_time = awaiting
        if r.gone:
            kind = next((k for k in kinds if k in ("wrong-piece-removed", "own-piece-removed")), "wrong-piece-removed")
            self._observe(kind, capture_entry.t, tuple(squares),
                          f"{capture_entry.move_text}: {where} read as taken off the board, re-read as standing",
                          capture_entry.side == "white", capture_entry.number,
                          f"a piece taken off and a switch that died under it read the same; the piece on {where} "
                          "was played later with no lift seen: read as the switch")
        else:
            self._observe("capture-not-removed", capture_entry.t, tuple(squares),
                          f"{capture_entry.move_text}: {where} read as left standing, re-read as removed",
                          capture_entry.side == "white", capture_entry.number,
                          f"a captured piece left standing and a switch stuck closed under it read the same; the "
                          f"moves after it were played as if {where} were gone: read as the switch")
            self._standing_dropped(t, where, dropped, own)
            faults = tuple(i for i, f in enumerate(self.sensor_faults)
                           if f.square in squares and f.kind == "stuck-closed" and f.current)
            self._standing_reread_made(first, tuple(squares), faults)      # standingundo.py

    def _standing_dropped(self, t: float, where: str, dropped: list, own: Explanation | None) -> None:
        """The findings a piece read standing made after its capture, dropped with the standing reading (those
        of the turns since, dismissed; the current turn's, never raised): each an observation, the sensors cannot
        prove which reading it was."""
        why = (f"read with {where} standing, a {{}}; re-read with its switch stuck closed under a removed piece, "
               "no irregularity: the sensors cannot tell the two apart")
        for irr in dropped:
            self._observe(irr.type, irr.t, irr.squares, irr.detail, irr.side == "white", irr.number,
                          why.format(irr.type))
        if own is not None and own.kind in STANDING_ONLY:
            move = own.move
            self._observe(own.kind, t, (move.origin, move.destination), f"read as {own.kind} with {where} standing",
                          self.board.turn, self._number, why.format(own.kind))
