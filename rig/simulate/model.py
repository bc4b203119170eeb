"""The human model: how long people think, how their hands move, how switches bounce.

Every duration is drawn from a seeded RNG inside the ranges below, and the
ranges are kept safely away from the reconstruction engine's thresholds
(``rig.reconstruct.Settings``; docs/session-format.md and /docs/simulator.md):

- switch bounce: a make or break followed by 1-2 short glitches, the whole
  cluster well under ``bounce_s``;
- a king sliding over an empty square closes it for at least ``bounce_s`` and
  well under ``touch_s`` (a magnet passing over a reed switch);
- a deliberate lift, a touch-down on a landing square of a capture, a piece
  lifted and put back: longer than ``touch_s``;
- without a clock, every pause inside one move stays well under ``stable_s``,
  and a "slow" reply waits well over it.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from typing import Any

from rig.errors import RigError

__all__ = ["HumanModel", "ModelError", "Range", "BEHAVIOURS", "HARD_RATES"]

Range = tuple[float, float]


class ModelError(RigError, ValueError):
    """Parameters of a :class:`HumanModel` that would blur the engine's thresholds."""


@dataclass(frozen=True)
class HumanModel:
    """Seeded behaviour parameters of the two players (seconds unless named ``_ms``).

    ``bounce_s``, ``touch_s`` and ``stable_s`` are the engine thresholds the
    session is made for (defaults equal ``rig.reconstruct.Settings``); the
    model refuses ranges that come within a safety margin of them.
    """

    # thresholds of the engine this session is made for
    bounce_s: float = 0.05
    touch_s: float = 0.15
    stable_s: float = 2.0
    lost_squares: int = 5             #: unexplained changes on this many squares beyond a move: position lost
    removal_margin_s: float = 0.05    #: a removal read closer than this before the landing proves no early removal
    # thinking
    think_median_s: float = 3.0
    think_sigma: float = 0.8          #: log-normal spread of think times
    think_range_s: Range = (0.4, 40.0)
    quick_reply_p: float = 0.35       #: without a clock: the opponent starts at once
    quick_reply_s: Range = (0.25, 0.9)
    slow_reply_s: Range = (2.8, 12.0)  #: without a clock: a reply after the board stood still
    # hands
    travel_s: Range = (0.25, 0.7)     #: a piece in the air between two squares
    hold_s: Range = (0.25, 0.5)       #: a touch-down on an intermediate landing square of a capture
    landing_p: float = 0.85           #: a multiple capture touches down on each landing square
    slide_p: float = 0.5              #: a king slides over the squares it crosses (reed boards)
    slide_gap_s: Range = (0.02, 0.06)  #: between two squares of a slide, no square closed
    removal_first_s: Range = (0.2, 0.7)
    removal_gap_s: Range = (0.15, 0.6)
    #: an early removal (the injected ``capture-removed-early``): the captured piece is off this long before the
    #: capturing piece lands; kept clear of ``removal_margin_s`` like every deliberate act of its threshold
    early_removal_s: Range = (0.1, 0.3)
    press_delay_s: Range = (0.2, 0.7)
    touch_hold_s: Range = (0.4, 0.9)  #: a piece lifted and put back (irregular touches)
    settle_s: Range = (0.3, 1.0)      #: a pause after a touch before the real move
    release_s: Range = (0.5, 0.9)     #: a piece set down and left before being moved on
    # switches
    bounce_p: float = 0.3             #: chance of bounce on each make or break
    bounce_ms: Range = (2.0, 8.0)     #: length of one glitch
    bounce_glitches: int = 2          #: at most this many glitches per make/break
    # clock
    base_ms: int = 3_600_000
    increment_ms: int = 0
    # a real board (issue 9; docs/simulator.md "Real-board behaviours"): all off by default, ``hard()`` turns
    # them all on. None is an irregularity: they change the frames, never the game. Durations here are not
    # kept clear of the engine thresholds: that is the point.
    flown_capture_p: float = 0.0      #: a multiple capture flown: set down only on its last square
    phantom_p: float = 0.0            #: per move: an empty neighbour of the path reads occupied a moment
    phantom_ms: Range = (30.0, 150.0)
    slow_magnet_p: float = 0.0        #: per move: the destination's switch closes late
    slow_magnet_s: Range = (0.05, 0.25)
    flicker_p: float = 0.3            #: a slow magnet flickers (brief closures) before it holds
    early_press_p: float = 0.5        #: with a clock, a slow magnet's plain move is pressed before it closes
    change_mind_p: float = 0.0        #: per move: the piece set down, unreleased, on another square it reaches
    change_mind_s: Range = (0.1, 0.3)
    two_at_once_p: float = 0.0        #: per capture of 2+ pieces: two of them taken off in the same frame
    jostle_p: float = 0.0             #: per move: a piece not in the move reads empty a moment
    jostle_ms: Range = (5.0, 20.0)
    long_hold_p: float = 0.0          #: per move: the piece held in the air, put back, then played
    long_hold_s: Range = (2.0, 5.0)
    fast_reply_p: float = 0.0         #: without a clock: the reply starts soon after the last contact change
    fast_reply_s: Range = (0.3, 0.8)

    def __post_init__(self) -> None:
        margin = 0.015
        cluster = self.bounce_glitches * 2 * self.bounce_ms[1] / 1000
        for name in ("think_range_s", "quick_reply_s", "slow_reply_s", "travel_s", "hold_s", "slide_gap_s",
                     "removal_first_s", "removal_gap_s", "press_delay_s", "touch_hold_s", "settle_s",
                     "release_s", "bounce_ms", "early_removal_s"):
            lo, hi = getattr(self, name)
            if not 0 < lo <= hi:
                raise ModelError(f"{name} must be a range 0 < low <= high, got {(lo, hi)!r}")
        if not 0 < self.bounce_s < self.touch_s < self.stable_s:
            raise ModelError("thresholds must satisfy 0 < bounce_s < touch_s < stable_s")
        if cluster > self.bounce_s - margin:
            raise ModelError(f"a bounce cluster of up to {cluster * 1000:.0f} ms is too close to bounce_s "
                             f"({self.bounce_s * 1000:.0f} ms)")
        if self.early_removal_s[0] < self.removal_margin_s + cluster + margin:
            raise ModelError(f"early_removal_s must start above removal_margin_s ({self.removal_margin_s} s) "
                             "with room for bounce")
        if self.slide_window() is None:
            raise ModelError("no room for a slide closure between bounce_s and touch_s")
        for name in ("hold_s", "touch_hold_s", "release_s", "travel_s"):
            if getattr(self, name)[0] < self.touch_s + 2 * cluster + margin:
                raise ModelError(f"{name} must start above touch_s with room for bounce")
        inside = max(self.travel_s[1], self.hold_s[1], self.removal_first_s[1], self.removal_gap_s[1],
                     self.press_delay_s[1], self.touch_hold_s[1], self.settle_s[1], self.release_s[1],
                     self.quick_reply_s[1])
        if inside > self.stable_s * 0.6:
            raise ModelError(f"pauses inside a move reach {inside} s, too close to stable_s ({self.stable_s} s)")
        if self.slow_reply_s[0] < self.stable_s * 1.25:
            raise ModelError(f"slow_reply_s must start well above stable_s ({self.stable_s} s)")
        for name in ("quick_reply_p", "landing_p", "slide_p", "bounce_p"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ModelError(f"{name} must be a probability")
        if self.base_ms <= 0 or self.increment_ms < 0:
            raise ModelError("base_ms must be positive and increment_ms not negative")
        for name in ("phantom_ms", "slow_magnet_s", "change_mind_s", "jostle_ms", "long_hold_s", "fast_reply_s"):
            lo, hi = getattr(self, name)
            if not 0 < lo <= hi:
                raise ModelError(f"{name} must be a range 0 < low <= high, got {(lo, hi)!r}")
        for name in (*BEHAVIOURS.values(), "flicker_p", "early_press_p"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ModelError(f"{name} must be a probability")

    # -- presets ----------------------------------------------------------------------------

    @classmethod
    def calm(cls, **changes) -> "HumanModel":
        """No noise: no bounce, no slides, every landing touched (for readable examples)."""
        return replace(replace(cls(), bounce_p=0.0, slide_p=0.0, landing_p=1.0), **changes)

    @classmethod
    def noisy(cls, **changes) -> "HumanModel":
        """Much noise: frequent bounce and slides, landings sometimes skipped, quick replies."""
        return replace(replace(cls(), bounce_p=0.8, slide_p=0.9, landing_p=0.6, quick_reply_p=0.5), **changes)

    @classmethod
    def hard(cls, **changes) -> "HumanModel":
        """A real board: the noisy hands plus every real-board behaviour at once (:data:`HARD_RATES`)."""
        return replace(cls.noisy(**HARD_RATES), **changes)

    @classmethod
    def with_behaviours(cls, *names: str, base: "HumanModel | None" = None) -> "HumanModel":
        """``base`` (default ``HumanModel()``) with the named behaviours (:data:`BEHAVIOURS` keys) on at their
        :data:`HARD_RATES`, the others as in ``base``."""
        unknown = [n for n in names if n not in BEHAVIOURS]
        if unknown:
            raise ModelError(f"unknown behaviour {', '.join(unknown)}; known: {', '.join(BEHAVIOURS)}")
        rates: dict[str, Any] = {BEHAVIOURS[n]: HARD_RATES[BEHAVIOURS[n]] for n in names}
        return replace(base or cls(), **rates)

    def behaviours(self) -> tuple[str, ...]:
        """The real-board behaviours this model turns on."""
        return tuple(n for n, f in BEHAVIOURS.items() if getattr(self, f) > 0)

    @classmethod
    def for_settings(cls, settings, **changes) -> "HumanModel":
        """A model made for an engine's ``Settings`` (anything with bounce_s, touch_s, stable_s).

        The default ranges move with the thresholds where they would come within the margins: bounce
        glitches shorten under a short ``bounce_s``, the deliberate lifts and touch-downs start above a long
        ``touch_s``, the slow replies above a long ``stable_s``, and the pauses inside a move stay under a
        short one. Settings with no room left (``touch_s`` near ``stable_s``) still raise ModelError."""
        base = cls()
        b, t, st = settings.bounce_s, settings.touch_s, settings.stable_s
        margin = 0.015
        n = 2 * base.bounce_glitches
        hi_ms = max(0.5, min(base.bounce_ms[1], (b - margin) * 1000 / n))
        fields: dict = {"bounce_ms": (min(base.bounce_ms[0], hi_ms), hi_ms)}
        floor = t + 2 * n * hi_ms / 1000 + margin
        for name in ("hold_s", "touch_hold_s", "release_s", "travel_s"):
            lo, hi = getattr(base, name)
            shift = max(0.0, floor - lo)
            fields[name] = (lo + shift, hi + shift)
        cap = st * 0.6
        for name in ("travel_s", "hold_s", "removal_first_s", "removal_gap_s", "press_delay_s", "touch_hold_s",
                     "settle_s", "release_s", "quick_reply_s"):
            lo, hi = fields.get(name, getattr(base, name))
            fields[name] = (min(lo, cap), min(hi, cap))
        lo, hi = base.slow_reply_s
        shift = max(0.0, st * 1.25 - lo)
        fields["slow_reply_s"] = (lo + shift, hi + shift)
        fields.update(changes)
        margin_s = getattr(settings, "removal_margin_s", cls.removal_margin_s)
        lo, hi = base.early_removal_s
        shift = max(0.0, margin_s + n * hi_ms / 1000 + margin - lo)
        fields.setdefault("early_removal_s", (lo + shift, hi + shift))
        return replace(base, bounce_s=b, touch_s=t, stable_s=st, removal_margin_s=margin_s,
                       lost_squares=getattr(settings, "lost_squares", cls.lost_squares), **fields)

    # -- draws ------------------------------------------------------------------------------

    def put_back_floor_s(self) -> float:
        """The shortest a piece a take-back puts back on its square stays there before it is lifted again: clear
        of the engine's bound for a neighbour phantom's closing (``touch_s + bounce_s`` from the end of its
        bounce, segmenter.py ``_undo_wait_s``), with room for that bounce and a margin (a deliberate act is kept
        clear of the threshold that reads it)."""
        return self.touch_s + self.bounce_s + self.bounce_glitches * 2 * self.bounce_ms[1] / 1000 + 0.015

    def slide_window(self) -> Range | None:
        """Range of the steady part of a slide closure: at least ``bounce_s`` plus margin, and with one
        glitch at each end still under ``touch_s`` minus margin."""
        lo = self.bounce_s + 0.015
        hi = self.touch_s - 0.03 - 2 * 2 * self.bounce_ms[1] / 1000
        return (lo, hi) if hi > lo else None

    def think(self, rng: random.Random) -> float:
        """Think time before a move, log-normal around ``think_median_s``."""
        lo, hi = self.think_range_s
        return min(hi, max(lo, self.think_median_s * math.exp(rng.gauss(0.0, self.think_sigma))))

    def reply_without_clock(self, rng: random.Random) -> float:
        """Without a clock: either an immediate reply or one after the board stood still > stable_s."""
        if rng.random() < self.quick_reply_p:
            return rng.uniform(*self.quick_reply_s)
        lo, hi = self.slow_reply_s
        return max(lo, min(hi, self.think(rng) + lo))


#: the real-board behaviours (issue 9) by name, each with the probability field that turns it on
BEHAVIOURS: dict[str, str] = {
    "flown-capture": "flown_capture_p",
    "neighbour-phantom": "phantom_p",
    "slow-magnet": "slow_magnet_p",
    "change-of-mind": "change_mind_p",
    "two-at-once": "two_at_once_p",
    "jostle": "jostle_p",
    "long-hold": "long_hold_p",
    "fast-reply": "fast_reply_p",
}

#: their rates in :meth:`HumanModel.hard` (per multiple capture for flown-capture, per capture of two or more
#: pieces for two-at-once, per reply without a clock for fast-reply, per move for the others)
HARD_RATES: dict[str, float] = {
    "flown_capture_p": 0.5,
    "phantom_p": 0.25,
    "slow_magnet_p": 0.25,
    "change_mind_p": 0.08,
    "two_at_once_p": 0.5,
    "jostle_p": 0.15,
    "long_hold_p": 0.05,
    "fast_reply_p": 0.5,
}
