"""The arbiter's evidence: the journal lines (frames, clock events, decisions) around a moment of the game.

Recent lines come from the feed's in-memory ring; when the window reaches further back than the ring (a
long game, or a session resumed after a crash), the session file itself is read: the journal is the
source of truth.
"""

from __future__ import annotations

import json
from typing import Iterable

from rig.web.feed import GameFeed

__all__ = ["journal_window", "WINDOW_BEFORE_S", "WINDOW_AFTER_S", "WINDOW_LINES"]

#: session seconds of journal shown before and after an irregularity
WINDOW_BEFORE_S = 8.0
WINDOW_AFTER_S = 4.0
#: at most this many lines (the latest before the moment, then the earliest after it)
WINDOW_LINES = 120


def _from_file(path: str, lo: float, hi: float) -> list[dict]:
    out: list[dict] = []
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            for text in fh:
                try:
                    obj = json.loads(text)
                except ValueError:       # a torn last line: the reader of the journal skips it too
                    continue
                if not isinstance(obj, dict) or obj.get("type") == "header":
                    continue
                t = obj.get("t")
                if isinstance(t, (int, float)) and lo <= t <= hi:
                    out.append(obj)
                elif isinstance(t, (int, float)) and t > hi:
                    break
    except OSError:
        return []
    return out


def _trim(lines: Iterable[dict], t: float, limit: int) -> list[dict]:
    lines = list(lines)
    before = [ln for ln in lines if ln["t"] <= t][-(limit * 2 // 3):]
    after = [ln for ln in lines if ln["t"] > t][: limit - len(before)]
    return before + after


def journal_window(feed: GameFeed, t: float, before_s: float = WINDOW_BEFORE_S, after_s: float = WINDOW_AFTER_S,
                   limit: int = WINDOW_LINES) -> dict:
    """The journal lines with ``t - before_s <= line.t <= t + after_s`` (``source``: ``ring`` or ``journal``)."""
    lo, hi = t - before_s, t + after_s
    ring = feed.ring_lines()
    if ring and ring[0].get("t", 0.0) <= lo or not feed.session_path:
        lines = [ln for ln in ring if lo <= ln.get("t", -1.0) <= hi]
        source = "ring"
    else:
        lines = _from_file(feed.session_path, lo, hi)
        source = "journal"
    return {"t": t, "from": round(lo, 4), "to": round(hi, 4), "source": source, "lines": _trim(lines, t, limit)}
