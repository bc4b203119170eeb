"""Time controls (base time, increment, delay, Bronstein) and the rate-of-play class.

Pure values, no I/O. The rate of play decides what the rules ask of players
(notation, draw counts): FPD rules 000 Appendix B (rapid) and C (blitz);
CODEX 004 art. 3 (blitz, rápida, semi-rápida, normal/clássica; 64 and 100
squares). Where a text leaves a gap between two classes, the time goes to the
FASTER class (project setting :data:`GAP_POLICY`, documented in docs/clock.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from rig.errors import RigError

__all__ = [
    "TimeControlError",
    "IncrementMode",
    "TimeControl",
    "RateClass",
    "RateOfPlay",
    "GAP_POLICY",
    "MAX_CLOCK_MS",
    "classify",
]

#: Highest time a clock can show: 9:59:59 (DGT clocks show one hour digit); anything above is out of range.
MAX_CLOCK_MS = 10 * 3600 * 1000 - 1

#: Where a rule book leaves a gap between two classes (CODEX art. 3: exactly 10 min; 20-21 min on 64
#: squares, 30-31 on 100; FPD: exactly 7.5 min), the time counts as the faster class.
GAP_POLICY = "faster"


class TimeControlError(RigError, ValueError):
    """A time control that cannot be read or makes no sense (negative, too long)."""


class IncrementMode(str, Enum):
    """How the per-move time is given (000 6.3a: "incluindo eventual incremento após cada lance")."""

    NONE = "none"
    FISCHER = "fischer"      #: the increment is added after each completed move
    DELAY = "delay"          #: the clock waits ``increment`` before counting down (simple/US delay)
    BRONSTEIN = "bronstein"  #: after each move, the time used is given back, at most ``increment``


_TC_RE = re.compile(
    r"^\s*(?P<base>\d+(?:\.\d+)?)\s*(?P<unit>min|m|s|)\s*"
    r"(?:(?P<sep>[+dbDB])\s*(?P<inc>\d+(?:\.\d+)?)\s*s?)?\s*$"
)


@dataclass(frozen=True)
class TimeControl:
    """Per-player base time and per-move time, in milliseconds."""

    base_ms: int
    increment_ms: int = 0
    mode: IncrementMode = IncrementMode.FISCHER

    def __post_init__(self) -> None:
        if not isinstance(self.base_ms, int) or not 0 < self.base_ms <= MAX_CLOCK_MS:
            raise TimeControlError(f"base time must be 1 ms .. 9:59:59, got {self.base_ms!r} ms")
        if not isinstance(self.increment_ms, int) or not 0 <= self.increment_ms <= 3600_000:
            raise TimeControlError(f"increment must be 0 .. 1 h, got {self.increment_ms!r} ms")
        mode = IncrementMode(self.mode)
        if self.increment_ms == 0:
            mode = IncrementMode.NONE
        elif mode is IncrementMode.NONE:
            raise TimeControlError("an increment needs a mode: fischer, delay or bronstein")
        object.__setattr__(self, "mode", mode)

    @classmethod
    def parse(cls, text: str) -> "TimeControl":
        """Read ``"5"`` / ``"5min"`` (minutes), ``"300s"``, ``"5+3"`` (Fischer, seconds), ``"5d3"`` (delay),
        ``"5b3"`` (Bronstein), ``"300s+3"`` (base in seconds). For the PDN tag form use :meth:`from_pdn_tag`."""
        m = _TC_RE.match(text or "")
        if not m:
            raise TimeControlError(f"cannot read time control {text!r}; examples: 5+3, 90+30, 15d5, 25b10, 300s+3")
        base = float(m["base"])
        base_s = base if m["unit"] == "s" else base * 60
        inc_s = float(m["inc"]) if m["inc"] else 0.0
        sep = (m["sep"] or "+").lower()
        mode = {"+": IncrementMode.FISCHER, "d": IncrementMode.DELAY, "b": IncrementMode.BRONSTEIN}[sep]
        return cls(base_ms=round(base_s * 1000), increment_ms=round(inc_s * 1000),
                   mode=mode if inc_s else IncrementMode.NONE)

    @classmethod
    def from_pdn_tag(cls, text: str) -> "TimeControl":
        """Read a PDN/PGN ``TimeControl`` tag value, seconds: ``"300"``, ``"300+3"``, ``"300d3"``, ``"300b3"``."""
        m = re.match(r"^\s*(\d+)\s*(?:([+dbDB])\s*(\d+(?:\.\d+)?))?\s*$", text or "")
        if not m:
            raise TimeControlError(f"cannot read TimeControl tag {text!r}; expected e.g. 300+3")
        return cls.parse(f"{m[1]}s{(m[2] + m[3]) if m[2] else ''}")

    @property
    def base_minutes(self) -> float:
        return self.base_ms / 60000

    def pdn_tag(self) -> str:
        """The PDN ``TimeControl`` tag value (PGN form, seconds): ``"300"``, ``"300+3"``; delay and
        Bronstein are written ``300d3`` / ``300b3``, as there is no standard form for them."""
        base = _secs(self.base_ms)
        if self.mode is IncrementMode.NONE:
            return base
        sep = {IncrementMode.FISCHER: "+", IncrementMode.DELAY: "d", IncrementMode.BRONSTEIN: "b"}[self.mode]
        return f"{base}{sep}{_secs(self.increment_ms)}"

    def __str__(self) -> str:
        return self.pdn_tag()


def _secs(ms: int) -> str:
    return str(ms // 1000) if ms % 1000 == 0 else f"{ms / 1000:g}"


class RateClass(str, Enum):
    """Rate of play. FPD knows blitz and rapid (000 Appendix C, B), everything slower is the
    standard game; CODEX art. 3 adds semi-rápida and calls the slowest normal/clássica."""

    BELOW_BLITZ = "below-blitz"  #: faster than any class the rule book defines
    BLITZ = "blitz"
    RAPID = "rapid"
    SEMI_RAPID = "semi-rapid"
    CLASSICAL = "classical"


@dataclass(frozen=True)
class RateOfPlay:
    """The class, the minutes the rule compared, the article, and a note when a gap rule was applied."""

    rate: RateClass
    minutes: float
    rule: str
    note: str = ""


def _fpd(tc: TimeControl) -> RateOfPlay:
    """000 Appendix B.1 / C.1: a fixed time, or the base plus 30 times any increment per move."""
    with_inc = tc.mode is not IncrementMode.NONE
    t = (tc.base_ms + 30 * tc.increment_ms) / 60000
    what = "base + 30 x increment" if with_inc else "fixed time"
    if t <= 3:
        return RateOfPlay(RateClass.BELOW_BLITZ, t, "000 C.1", f"{what} of {t:g} min is not more than 3 min")
    if t < 7.5:
        return RateOfPlay(RateClass.BLITZ, t, "000 C.1")
    if t == 7.5:
        return RateOfPlay(RateClass.BLITZ, t, "000 B.1, C.1",
                          "exactly 7.5 min is in neither appendix; counted as the faster class (GAP_POLICY)")
    rapid_upper = 10 if with_inc else 15  # B.1 as written: < 15 min fixed, < 10 min with increment
    if t < rapid_upper:
        return RateOfPlay(RateClass.RAPID, t, "000 B.1")
    return RateOfPlay(RateClass.CLASSICAL, t, "000 B.1",
                      f"{what} of {t:g} min is not under {rapid_upper} min: standard game (rules 1-12)")


_CODEX_BOUNDS = {  # squares -> (rapid from, rapid below, semi from, semi below = classical from)
    64: (10, 20, 21, 45),
    100: (10, 30, 31, 75),
}


def _codex(tc: TimeControl, squares: int) -> RateOfPlay:
    """004 art. 3 A-D, on the base time ("tempo de reflexão"); the increment is not counted
    (art. 3 does not mention it; art. 5 §2 only asks >= 30 s increment at classical rate)."""
    r_lo, r_hi, s_lo, s_hi = _CODEX_BOUNDS[squares]
    t = tc.base_ms / 60000
    art = f"004 art. 3 ({squares} casas)"
    if t < r_lo:
        return RateOfPlay(RateClass.BLITZ, t, f"{art} A")
    if t == r_lo:
        return RateOfPlay(RateClass.BLITZ, t, f"{art} A-B",
                          f"exactly {r_lo} min is in neither class; counted as the faster (GAP_POLICY)")
    if t < r_hi:
        return RateOfPlay(RateClass.RAPID, t, f"{art} B")
    if t <= s_lo:
        return RateOfPlay(RateClass.RAPID, t, f"{art} B-C",
                          f"{r_hi}-{s_lo} min is in neither class; counted as the faster (GAP_POLICY)")
    if t < s_hi:
        return RateOfPlay(RateClass.SEMI_RAPID, t, f"{art} C")
    return RateOfPlay(RateClass.CLASSICAL, t, f"{art} D")


def classify(tc: TimeControl, ruleset: str) -> RateOfPlay:
    """The rate of play of ``tc`` under a rule set id (docs/rules.md): ``fpd-2026``/``fpd-classic`` use
    000 Appendix B/C; ``codex-64``/``codex-100`` use 004 art. 3; ``fmjd`` (002 defines no rates)
    uses 004 art. 3 for 100 squares."""
    if ruleset in ("fpd-2026", "fpd-classic"):
        return _fpd(tc)
    if ruleset == "codex-64":
        return _codex(tc, 64)
    if ruleset == "codex-100":
        return _codex(tc, 100)
    if ruleset == "fmjd":
        r = _codex(tc, 100)
        return RateOfPlay(r.rate, r.minutes, r.rule, (r.note + "; " if r.note else "") +
                          "002 defines no rates of play: CODEX 100-square classes used")
    raise TimeControlError(f"unknown ruleset {ruleset!r}")
