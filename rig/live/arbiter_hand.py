"""The arbiter's hand on the simulated board's clock: a time correction sets the emulated clock's dials.

On a real board the arbiter who adds or takes time sets the clock himself (FPD 000 art. 6.4b, 7.1), and the
clock's next reading, read over USB, carries it (docs/clock.md, "The arbiter's time corrections"). The
clock emulator of ``rig run --simulate`` has no arbiter at its buttons: this live-loop sink plays that part,
once the decision is journaled, so the simulated hall behaves as a real one.
"""

from __future__ import annotations

from typing import Any

from rig.session import ArbiterEvent

__all__ = ["ArbiterHand"]


class ArbiterHand:
    """Live-loop sink: each journaled ``time`` decision sets the emulator's dial of that side (never below 0)."""

    def __init__(self, emulator: Any, white_side: str = "left"):
        self.emulator = emulator
        self.white_side = white_side
        self.corrections = 0

    def __repr__(self) -> str:
        return f"<ArbiterHand white={self.white_side} corrections={self.corrections} on {self.emulator!r}>"

    def on_event(self, loop: Any, ev: Any) -> None:
        if not isinstance(ev, ArbiterEvent) or ev.action != "time" or not ev.delta_ms:
            return
        if ev.side not in ("white", "black"):
            return
        hand = self.white_side if ev.side == "white" else ("right" if self.white_side == "left" else "left")
        model = self.emulator.model
        left, right = model.times()
        if hand == "left":
            left = max(0, left + ev.delta_ms)
        else:
            right = max(0, right + ev.delta_ms)
        model.set_times(left, right)
        self.corrections += 1
