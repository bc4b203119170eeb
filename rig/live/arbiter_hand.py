"""The arbiter's hand on a clock the rig keeps itself: a time correction sets that clock's dials.

On a board whose clock is read over USB the arbiter who adds or takes time sets the clock himself (FPD 000
art. 6.4b, 7.1), and the clock's next reading carries it (docs/clock.md, "The arbiter's time corrections").
Where the rig keeps the time itself (the GPIO lever clock's time model, the clock emulator of ``rig run
--simulate``) there is no dial to set by hand: this live-loop sink sets it, once the decision is journaled,
so the next readings carry the correction there too.
"""

from __future__ import annotations

from typing import Any, Callable

from rig.session import ArbiterEvent

__all__ = ["ArbiterHand"]


class ArbiterHand:
    """Live-loop sink: each journaled ``time`` decision sets that side's dial (never below 0) of the
    :class:`~sensors.clock.model.ClockModel` that ``dials()`` returns (None: no clock open yet)."""

    def __init__(self, dials: Callable[[], Any], white_side: str = "left"):
        self.dials = dials
        self.white_side = white_side
        self.corrections = 0

    def __repr__(self) -> str:
        return f"<ArbiterHand white={self.white_side} corrections={self.corrections}>"

    def on_event(self, loop: Any, ev: Any) -> None:
        if not isinstance(ev, ArbiterEvent) or ev.action != "time" or not ev.delta_ms:
            return
        model = self.dials()
        if model is None or ev.side not in ("white", "black"):
            return
        hand = self.white_side if ev.side == "white" else ("right" if self.white_side == "left" else "left")
        left, right = model.times()
        if hand == "left":
            left = max(0, left + ev.delta_ms)
        else:
            right = max(0, right + ev.delta_ms)
        model.set_times(left, right)
        self.corrections += 1
