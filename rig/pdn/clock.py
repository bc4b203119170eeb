"""Clock times embedded in PDN comments (pdn.fmjd.org, "PDN Extensions").

Written: ``[%clock w0:59:10 B1:02:03]`` after each move, the PDN 3.0 form for
live recordings with electronic boards; the upper-case letter marks the clock
that is running (docs/rules.md "Record keeping"). Read: that form, with one or two
times, and the DGT ``[%clk H:MM:SS]``, a time without a colour letter being the
clock of the side that just moved.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rig.pdn.errors import PdnSyntaxError

__all__ = ["ClockStamp", "extract_clock", "format_clock_time", "parse_clock_time"]

_COMMAND = re.compile(r"\[%(clock|clk)\b([^\]]*)\]", re.IGNORECASE)
_TIME = re.compile(r"^([wWbB]?)(?:(\d+):)?(\d{1,2}):(\d\d)(?:\.(\d{1,3}))?$")


@dataclass(frozen=True)
class ClockStamp:
    """The two clocks after a move, in milliseconds (None: not recorded).

    ``running``: True if white's clock runs, False if black's, None if unknown.
    """

    white_ms: int | None
    black_ms: int | None
    running: bool | None = None

    def __post_init__(self) -> None:
        for name in ("white_ms", "black_ms"):
            v = getattr(self, name)
            if v is not None and (not isinstance(v, int) or v < 0):
                raise ValueError(f"{name} must be a non-negative int of milliseconds or None, not {v!r}")
        if self.white_ms is None and self.black_ms is None:
            raise ValueError("a clock stamp needs at least one time")

    def command(self) -> str:
        """``[%clock w0:59:10 B1:02:03]``; seconds are truncated, as a clock displays them."""
        parts = []
        for white, ms in ((True, self.white_ms), (False, self.black_ms)):
            if ms is None:
                continue
            letter = "w" if white else "b"
            if self.running is white:
                letter = letter.upper()
            parts.append(letter + format_clock_time(ms))
        return "[%clock " + " ".join(parts) + "]"

    def __str__(self) -> str:
        return self.command()


def format_clock_time(ms: int) -> str:
    """``H:MM:SS`` from milliseconds (truncated to the second)."""
    s = max(0, ms) // 1000
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def parse_clock_time(text: str) -> int:
    """Milliseconds from ``H:MM:SS`` (also ``MM:SS`` and a fraction ``.5``)."""
    m = _TIME.match(text)
    if m is None or m.group(1):
        raise PdnSyntaxError(f"clock time {text!r} is not H:MM:SS")
    return _ms(m)


def _ms(m: re.Match) -> int:
    h, mi, s, frac = m.group(2), m.group(3), m.group(4), m.group(5)
    if int(s) >= 60 or (h is not None and int(mi) >= 60):
        raise PdnSyntaxError(f"clock time {m.group(0)!r} has minutes or seconds over 59")
    ms = ((int(h or 0) * 60 + int(mi)) * 60 + int(s)) * 1000
    if frac:
        ms += int(frac.ljust(3, "0"))
    return ms


def extract_clock(comment: str, mover_white: bool | None) -> tuple[ClockStamp | None, str, str | None]:
    """Split the clock commands out of a comment.

    Returns ``(clock, rest, problem)``: the last clock command read (None if
    none), the comment text without the clock commands, and what was wrong with
    a malformed clock command (None if nothing). ``mover_white`` is the side
    that just moved, owner of a time without a colour letter (None: unknown,
    such a time is then dropped)."""
    clock: ClockStamp | None = None
    problem: str | None = None
    for m in _COMMAND.finditer(comment):
        try:
            clock = _parse_command(m.group(2), mover_white)
        except PdnSyntaxError as exc:
            problem = f"{m.group(0)!r}: {exc}"
    rest, found = _COMMAND.subn("", comment)
    if found:
        rest = re.sub(r"[ \t]{2,}", " ", rest)
    rest = rest.strip()
    return clock, rest, problem


def _parse_command(body: str, mover_white: bool | None) -> ClockStamp | None:
    white: int | None = None
    black: int | None = None
    running: bool | None = None
    items = body.split()
    if not 1 <= len(items) <= 2:
        raise PdnSyntaxError("a clock command holds one or two times")
    for item in items:
        m = _TIME.match(item)
        if m is None:
            raise PdnSyntaxError(f"{item!r} is not [w|b]H:MM:SS")
        ms = _ms(m)
        letter = m.group(1)
        if letter:
            is_white = letter in "wW"
            if letter.isupper():
                running = is_white
        elif mover_white is None:
            continue
        else:
            is_white = mover_white
        if is_white:
            white = ms
        else:
            black = ms
    if white is None and black is None:
        return None
    return ClockStamp(white, black, running)
