"""A reply whose landing an earlier open reading hid, without a clock (docs/reconstruction.md, "Failing switches").

Without a clock the mover's move is committed at his opponent's first lift (a split) or on a still board. Where
the opponent's lifted piece stays off and the mover lifts again, the reply was over and went somewhere unseen:
onto a square whose switch is dead (unseen.py ``_dead_landing``), or onto a masked square. An earlier turn read
from a switch stuck under one of two origins (38-33 read for 39-33, 38 or 39 stuck: an observation, an open
reading) masks the one read: a reply onto the other (44-39) shows only its lift, and under the reading taken no
legal move of that piece explains it (39 still holds the piece read to have stayed there). When, with that open
reading taken the other way (every move between staying the same legal move, the mover's move pending included),
the reply is one legal move onto the square the fault moves to, the moves are read again that way
(chainread.py), the mover's move and the reply are committed and the lift begins the mover's next move; the
sensors showed that, not a player's irregularity. Only where exactly one such way fits.

:class:`SplitReply` is mixed into :class:`rig.reconstruct.engine.Reconstructor`.
"""

from __future__ import annotations

from rig.reconstruct.chainread import reread_chain, turn_shown
from rig.reconstruct.state import SIDE, Segment

__all__ = ["SplitReply"]


class SplitReply:
    """The engine's side of a reply read from an open reading taken the other way (see the module docstring)."""

    def _split_chain(self, c) -> bool:
        """Without a clock, the opponent's first lift is pending after the mover's move (``_split``), the piece
        stayed off, and the mover lifts one of his own (``c``): where no move explains that under the moves read
        but one open reading of an earlier ply taken the other way makes the opponent's changes one legal move
        (onto the square its fault leaves masked), the moves are read again, the mover's move and the reply are
        committed; ``c`` begins the mover's next move. True when done."""
        kept = self._reply_kept_off(c) if self._open_readings else None   # (unseen.py)
        if kept is None:
            return False
        split, plan, occ = kept
        if occ != split.occ - {split.square}:
            return False
        readings = self._live_readings()
        if not readings or any(r.ply >= len(self._plies) for r in readings):
            return False
        rest = Segment(split.t, split.occ)
        for ch in self._seg.changes[split.index:]:
            self._record_change(rest, ch)
        unsure = frozenset(r.fault_at(m) for r in self._open_readings if r.fault for m in r.moves
                           if not self._closed_since(r, r.fault_at(m)))
        accept = turn_shown(rest, occ, self._mask.squares | unsure, self._index)
        plies = self._plies
        first = readings[0].ply
        found = reread_chain(readings, [p.move for p in plies[first:]] + [plan.move], lambda k: plies[k].board_before,
                             self._index, accept)
        if found is None or found.steps[-1][0].key != plan.move.key or found.current.move.origin != split.square:
            return False
        name = self.variant.square_name
        mover = self.board.turn
        self._split = None
        self._cut(split.index, split.t, plan, split.occ, f"{SIDE[not mover]} lifted {name(split.square)}: "
                                                        "his move starts")
        got = self._reread_turn(c.t, occ)
        if got is not None:
            expl, after = got
            self._commit(expl, c.t, f"{SIDE[mover]} lifted {name(c.square)} after the reply", occ_after=after)
        return True
