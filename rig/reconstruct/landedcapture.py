"""A reply that lands where the capture before it took a piece, read as that piece left standing
(docs/reconstruction.md, "Failing switches").

Without a clock, the capturer's move is committed at his opponent's first change. When the opponent's reply is a
capture of the capturing piece (18x27 taking 22, after 31x22 took 27) played from a square whose switch stuck
closed or died just before, its lift shows nothing (or shows during the capture, the switch dying), and its
landing comes as the capturer's removal ends, on the very square just cleared: that square reads as the captured
piece put back (its removal, then a closing). The capture is then committed with ``capture-not-removed`` (and,
where the origin's switch died during it, ``wrong-piece-removed`` there), and the reply shows nothing but the
capturing piece going off: no move explains it, and the position is lost.

Read with the captured pieces removed, the turn is exactly one legal reply that captures the capturing piece and
lands on a square read left standing, from an origin read empty (lifted during the capture: its switch died,
or the opponent picked it up early, which the sensors cannot tell apart; the next piece put there tells). That
is what the sensors showed, not two irregularities: the capture is read again complete (its irregularities
``dismissed``, the reason given), the reply is read, and an observation names the squares. A reply from a
switch stuck closed (its origin reading closed, never changed) is read at its landing, before the capture is
committed, by unseen.py ``_stuck_reply``. A captured piece really left standing stays
``capture-not-removed``: its square never read its removal and a closing after it (a landing there never
seen), or no legal reply lands there, or its owner plays it (FMJD 002 art. 4.4; issue 9 part 4).

:class:`LandedCapture` is mixed into :class:`rig.reconstruct.faults.FaultHandling`; called from chainread.py
``_reread_turn`` where the turn is taken as over (a press, the opponent's lift, a still board).
"""

from __future__ import annotations

from rig.move import Move
from rig.reconstruct.chainread import OpenReading
from rig.reconstruct.matcher import Explanation, explain
from rig.reconstruct.outputs import DISMISSED
from rig.reconstruct.state import Segment, Undo, snap
from rig.reconstruct.stuckempty import reclosing

__all__ = ["LandedCapture"]

#: the capture's irregularities the reply can explain: the pieces read left standing, the origin read taken off
_EXPLAINED = ("capture-not-removed", "wrong-piece-removed", "own-piece-removed")


def _after(occ: frozenset[int], move: Move) -> frozenset[int]:
    return (occ - {move.origin}).difference(move.captured) | {move.destination}


class LandedCapture:
    """The engine's side of a reply landing on a square the capture before it cleared (module docstring)."""

    def _landed_on_cleared(self, t: float, occ: frozenset[int]) -> tuple[Explanation, frozenset[int]] | None:
        """The turn ``occ`` shows no legal move right after a capture read with pieces left standing: read with
        them removed, it is exactly one legal reply capturing the capturing piece and landing on one of them,
        from an origin read empty, and that square read its removal and a closing after it (in the capture's
        turn, or in this one). The capture is read again (:meth:`_reread_cleared`) and the reply and the
        occupancy after it are returned; None otherwise."""
        seg = self._seg
        changed = {c.square for c in seg.changes}
        for r, capture, move, squares in self._standing_captures(occ):      # stuckempty.py
            board = snap(capture.board_before)
            board.push(move)
            board = snap(board)
            cur = _after(r.occ0, move)
            fits = {m.key: m for m in self._index(board).moves
                    if m.destination in squares and move.destination in m.captured and occ == _after(cur, m)}
            if len(fits) != 1:
                continue
            reply, = fits.values()
            landed = r.reclosed and reply.destination not in changed or reclosing(seg, reply.destination) is not None
            if not landed or not self._explained_by(capture, squares, reply.origin):
                continue                  # the landing never seen: the piece may have stood there all along
            shown = _after(cur, reply)
            expl = explain(board, cur, shown, frozenset(seg.landings), tuple(seg.lift_order), seg.hints,
                           self._index(board))
            if expl is None or not (expl.legal and expl.exact) or expl.move.key != reply.key:
                continue
            held, split = self._held, self._split
            self._held = self._split = None
            self._reread_cleared(t, r, move, cur, expl.move)
            self._held, self._split = held, split
            masked = self._mask.squares
            return expl, (occ - masked) | (shown & masked)
        return None

    def _explained_by(self, capture, squares: frozenset[int], origin: int) -> bool:
        """Every irregularity of ``capture`` is one the reply explains: ``capture-not-removed`` on ``squares``
        (its landing), a piece read taken off on its ``origin`` (lifted, or its switch dead, during the capture)."""
        kinds = [self.irregularities[i] for i in capture.irregularities]
        return any(x.type == "capture-not-removed" for x in kinds) and all(
            x.type in _EXPLAINED and set(x.squares) <= (squares if x.type == "capture-not-removed" else {origin})
            for x in kinds)

    def _reread_cleared(self, t: float, r: OpenReading, move: Move, cur: frozenset[int], reply: Move) -> None:
        """Withdraw the capture of ``r`` (the last ply), dismiss its irregularities, commit it complete (the
        segment then starts from ``cur``) and record an observation."""
        plies = self._plies
        first = r.ply
        name = self.variant.square_name
        seg = self._seg
        ply = plies[first]
        index = self._entry_of(ply)
        entry = self.moves[index]
        stamp = (ply.pressed, ply.clock)
        awaiting = self._await_time
        where = ", ".join(name(s) for s in r.standing)
        origin = name(reply.origin)
        reason = (f"read again: {where} was taken off, and the reply {reply.text(name=name)} landed there as the "
                  f"removal ended (played from {origin}, read taken off during the capture)")
        for i in ply.irregularities:
            self._set_status(i, DISMISSED, t, reason)
        self._withdraw(t, Undo(first, r.occ0, ply.board_before))
        plies.pop()
        self._open_readings = [o for o in self._open_readings if o.ply < first]
        self._reread_alts = None
        self._seg = Segment(entry.t, r.occ0, pieces=self._pieces)
        self._commit(Explanation(move, True, None), entry.t, "re-read: the reply landed where the capture took "
                     "a piece", occ_after=cur)
        self._restamp(len(self.moves) - 1, *stamp)
        if awaiting is not None and awaiting == index:
            awaiting = len(self.moves) - 1
        self._mask_sync()
        seg.occ0 = self._mask.filter(cur) if self._mask else cur
        self._seg = seg
        if awaiting is not None:
            self._await_time = awaiting
        self._observe("capture-not-removed", entry.t, tuple(r.standing),
                      f"{entry.move_text}: {where} read as left standing, re-read as removed",
                      entry.side == "white", entry.number,
                      f"the reply {reply.text(name=name)} landed on {where} as the capture's removal ended, its lift "
                      f"unseen on {origin}; a piece left standing reads the same until its square is cleared: read as "
                      "the reply")
