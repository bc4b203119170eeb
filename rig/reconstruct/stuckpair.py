"""A switch stuck closed under one of two squares a move could come from (docs/reconstruction.md, "Failing switches").

A move whose origin's switch is stuck shows only its landing; where two pieces could have made it (40-34 or 39-34,
the switch under 39 or 40 stuck), the engine reads one, names that square's switch ``stuck-closed`` (masked: its
state is the game's) and keeps the reading open (chainread.py). The square read stuck and the other one both read
closed, so the sensors show which only later:

- the square read stuck *opens* (a stuck switch never does: the piece that stood there all along is lifted):
  earlylift.py ``_switch_works`` re-reads the ply with the other origin, however many plies later;
- the opponent's piece lands on the other square, which reads closed before and after (the switch truly stuck,
  the landing unseen), and the mover lifts one of his own: read with the ply taken the other way, the other square
  is masked and empty, and the opponent's lifted piece has a legal move onto it (:meth:`StuckPair._split_to_stuck`).

:class:`StuckPair` is mixed into :class:`rig.reconstruct.faults.FaultHandling`.
"""

from __future__ import annotations

from rig.board import Board
from rig.reconstruct.chainread import reread_chain
from rig.reconstruct.matcher import Explanation
from rig.reconstruct.state import SIDE

__all__ = ["StuckPair"]


class StuckPair:
    """The engine's side of a stuck switch read under the wrong one of two origins (module docstring)."""

    def _split_to_stuck(self, t: float) -> bool:
        """The mover lifts a piece of his while the opponent's first lifted piece (a pending split) stays off and no
        masked square takes it. When an earlier ply read with a switch stuck under one of two origins (an open
        reading), read the other way, masks the other origin empty and the lifted piece then has a legal move
        onto it (its landing unseen on the stuck switch: no piece stays in the hand while the opponent moves on),
        the mover's move is committed, the plies are read so (the fault moves, chainread.py), and the segment is
        the opponent's move from his lift: the caller reads the mover's lift on it. True when so read."""
        split = self._split
        if split is None or self._held is not None or not isinstance(split.plan, Explanation) \
                or not (split.plan.legal and split.plan.exact):
            return False
        plies = self._plies
        n = len(plies)
        if any(r.ply == n for r in self._open_readings):
            return False                  # the mover's own move is one of two readings (_split_reread)
        readings = self._live_readings()
        if not any(r.fault == "stuck-closed" for r in readings):
            return False
        read = {r.fault_at(plies[r.ply].move) for r in readings if r.fault}
        others = {r.fault_at(m) for r in readings if r.fault == "stuck-closed" for m in r.moves} - read
        lifted = split.square

        def accept(board: Board, cur: frozenset[int]) -> bool | None:
            if any(m.origin == lifted and m.destination in others and m.destination not in cur
                   for m in self._index(board).moves):
                return True
            return None

        played = [p.move for p in plies[readings[0].ply:]] + [split.plan.move]
        if reread_chain(readings, played, lambda k: plies[k].board_before if k < n else self.board, self._index,
                        accept) is None:
            return False
        name = self.variant.square_name
        self._split = None
        self._cut(split.index, split.t, split.plan, split.occ, f"{SIDE[not self.board.turn]} lifted {name(lifted)}: "
                                                               "his move starts")
        found = self._find_chain(accept)
        if found is not None:
            self._rewrite_chain(t, found, f"{name(lifted)}'s piece went to the other square, its switch stuck")
        return True
