"""A captured piece read off before the capture's landing, then its switch named dead (docs/reconstruction.md,
Failing switches).

Captured pieces come off once the capturing piece has landed (FMJD 002 art. 4.11, 5.4.10; CODEX 004 art. 42.J;
FPD 000 art. 3.8). A reed switch that dies under a piece reads it lifted at that instant, and the removal that
follows, on a dead switch, shows nothing: a switch dying under the piece being captured, before the landing,
reads exactly as that piece taken off early (27 read off 0.3 s before black's 22x31 lands, then nothing). When
the first move after the capture names that very square ``dead`` (white's 36x27 comes down there and it stays
open), the removal read early is the one reading the dead switch gave: nothing the sensors saw shows the
player's removal, early or not. The ``capture-removed-early`` that names only that square is dismissed (kept,
with the reason) and an observation says the sensors cannot tell; an early removal of another piece still
stands.

:class:`DeadRemoval` is mixed into :class:`rig.reconstruct.faults.FaultHandling`.
"""

from __future__ import annotations

from rig.reconstruct.outputs import DISMISSED

__all__ = ["DeadRemoval"]


class DeadRemoval:
    """The engine's side of an early removal that a switch dying under the captured piece explains."""

    def _dead_removal(self, square: int, t: float) -> None:
        """``square`` was just named ``dead`` (at ``t``): a standing ``capture-removed-early`` of the last
        committed ply naming only that square is dismissed and an observation records the doubt (module
        docstring). The last ply only: the square has read empty since, so its switch never closed between."""
        plies = self._plies
        if not plies or square in self._seg.occ0:
            return
        name = self.variant.square_name
        for i in plies[-1].irregularities:
            irr = self.irregularities[i]
            if irr.type != "capture-removed-early" or irr.status == DISMISSED or tuple(irr.squares) != (square,):
                continue
            self._set_status(i, DISMISSED, t, f"the switch under {name(square)} died: its piece read off before "
                                              "the landing may be the switch failing, the removal unseen")
            self._observe("capture-removed-early", irr.t, (square,), irr.detail, irr.side == "white", irr.number,
                          f"the switch under {name(square)} was found dead by the next move: a piece read off "
                          "at the moment its switch dies, and a removal on a dead switch shows nothing; the "
                          "sensors cannot tell when it was taken off")
