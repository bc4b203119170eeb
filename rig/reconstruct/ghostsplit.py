"""A missing diode's ghost read under the origin of the move still pending (docs/reconstruction.md, "Failing
switches"; issue 9).

Black's piece comes to 23 with nothing lifted; 18 and 19 both still read closed. 18 is a ghost of 24 (24 and a
corner in its row and one in its column read closed) where a switch stuck under 19 fits too: 18-23 is read with
24's diode suspected, the reading left open (ghostread.py ``_ghost_origin``), and the move stays pending when
white lifts his piece (a split). 19 then opens, which breaks the rectangle, and 18 still reads closed. No ghost
needs every corner closed any more: 18's own switch reads a piece, the one 19-23 leaves there, and 19's opening
is its stuck switch working again (the piece the reading taken leaves there lifted too would read the same, but
the ghost's square then stays unexplained). The pending move is read the other way (recovery.py
``_pending_other_way``): the ghost fault becomes 19's stuck switch, ending at the opening, and an observation
names both squares. Neither square's reading is a change of the turn under way (international game 13 ply 23,
stuck-closed-recovering-2, no clock).

:class:`GhostSplit` is mixed into :class:`rig.reconstruct.faults.FaultHandling`.
"""

from __future__ import annotations

from rig.reconstruct.matcher import Explanation

__all__ = ["GhostSplit"]


class GhostSplit:
    """The engine's side of a ghost read under the pending move's origin (module docstring)."""

    def _ghost_split_freed(self, t: float, occupied: frozenset[int], freed: frozenset[int]) -> bool:
        """A missing diode's rectangle broke (``freed``: the squares masked for its ghosts, now read as their switches
        say) while the mover's move pending was read from a ghost's square where a stuck switch under another origin
        fits too: the ghost's square reads closed, the other origin, read occupied till now, reads open. The
        pending move is read the other way (module docstring). True when so read."""
        split = self._split
        if split is None or self._held is not None or not isinstance(split.plan, Explanation):
            return False
        plan = split.plan.move
        n = len(self._plies)
        reading = next((r for r in self._open_readings if r.ply == n and r.fault == "ghost"
                        and any(m.key == plan.key for m in r.moves)), None)
        if reading is None:
            return False
        ghost = reading.fault_at(plan)
        if ghost not in freed or ghost not in occupied:
            return False
        opened = {reading.fault_at(m) for m in reading.moves if m.key != plan.key} - {ghost}
        opened = {s for s in opened if s not in occupied and s in self._occ and s not in self._mask}
        if len(opened) != 1:
            return False
        (square,) = opened
        name = self.variant.square_name
        why = (f"{name(square)} opened and {name(ghost)} still read closed once that broke the missing diode's "
               f"rectangle: no ghost explains {name(ghost)}, its piece stands there, and {name(square)}'s switch "
               "was the stuck one (it works again)")
        if not self._pending_other_way(t, t, ghost, square, why):        # recovery.py
            return False
        self._set_reading(ghost, True)          # the piece the move read the other way leaves there: no change
        self._set_reading(square, False)        # the switch freed where the move left: no change either
        return True
