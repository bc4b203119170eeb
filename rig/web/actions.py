"""The arbiter's actions from the review page: a JSON request checked and turned into session arbiter lines.

Every action becomes one or two :class:`~rig.session.ArbiterEvent` lines (docs/session-format.md "Arbiter
lines"), journaled by the live loop before the engine acts on them, so ``rig transcribe`` of the session
reproduces the decision. A request that is not exactly one of these is refused with a message naming
what is wrong, and nothing is journaled:

    {"action": "accept",       "ref": N, "note": "..."}            the irregular position stands
    {"action": "rectify",      "ref": N, "restore": true}          corrected; restore: set the position before
    {"action": "dismiss",      "ref": N, "note": "why"}            not an irregularity after all (reason required)
    {"action": "set-position", "fen": "W:W..:B.."}                 after a knocked-over board (FPD 7.4; CODEX 46-48)
    {"action": "result",       "result": "1-0"}                    the arbiter's decision on the game
    {"action": "draw-claim",   "side": "white", "upheld": true}    a claim (its basis in ``note``)
    {"action": "time",         "side": "black", "delta_ms": 120000} time added (> 0) or taken (< 0)
"""

from __future__ import annotations

import json
from typing import Any

from rig.board import Board
from rig.errors import RigError
from rig.pdn import normal_result
from rig.session import ArbiterEvent
from rig.web.feed import GameFeed

__all__ = ["ArbiterRequestError", "parse_action", "ACTIONS"]

ACTIONS = ("accept", "rectify", "dismiss", "set-position", "result", "draw-claim", "time")
_FIELDS = {
    "accept": {"ref"}, "rectify": {"ref", "restore"}, "dismiss": {"ref"}, "set-position": {"fen"},
    "result": {"result"}, "draw-claim": {"side", "upheld"}, "time": {"side", "delta_ms"},
}
NOTE_MAX = 500
#: the largest time correction taken in one action (10 hours)
DELTA_MAX_MS = 36_000_000


class ArbiterRequestError(RigError, ValueError):
    """A malformed arbiter action (HTTP 400): the message names the field and what is wrong."""


def _int(obj: dict, key: str) -> int:
    v = obj.get(key)
    if isinstance(v, bool) or not isinstance(v, int):
        raise ArbiterRequestError(f"{key!r} must be an integer, got {v!r}")
    return v


def _side(obj: dict) -> str:
    side = obj.get("side")
    if side not in ("white", "black"):
        raise ArbiterRequestError(f"'side' must be \"white\" or \"black\", got {side!r}")
    return side


def _decode(body: bytes) -> dict[str, Any]:
    try:
        obj = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ArbiterRequestError("the body must be a JSON object, e.g. {\"action\": \"accept\", \"ref\": 0}") from None
    if not isinstance(obj, dict):
        raise ArbiterRequestError("the body must be a JSON object, e.g. {\"action\": \"accept\", \"ref\": 0}")
    return obj


def parse_action(body: bytes, feed: GameFeed) -> list[ArbiterEvent]:
    """The arbiter lines for a request body, at the time of the decision; :class:`ArbiterRequestError` if bad."""
    obj = _decode(body)
    action = obj.get("action")
    if action not in ACTIONS:
        raise ArbiterRequestError(f"unknown action {action!r}; expected one of {', '.join(ACTIONS)}")
    extra = sorted(set(obj) - _FIELDS[action] - {"action", "note"})
    if extra:
        raise ArbiterRequestError(f"{action} does not take {', '.join(repr(k) for k in extra)}")
    note = obj.get("note")
    if note is not None and not isinstance(note, str):
        raise ArbiterRequestError("'note' must be a string")
    note = note.strip() if note else None
    if note is not None and len(note) > NOTE_MAX:
        raise ArbiterRequestError(f"'note' is longer than {NOTE_MAX} characters")
    t = feed.decision_time()
    if action in ("accept", "rectify", "dismiss"):
        ref = _int(obj, "ref")
        count = feed.irregularity_count()
        if not 0 <= ref < count:
            raise ArbiterRequestError(f"no irregularity {ref}: the game has {count} (0..{count - 1})"
                                      if count else f"no irregularity {ref}: the game has none")
        if action == "dismiss" and not note:
            raise ArbiterRequestError("dismiss needs a 'note' with the reason")
        events = [ArbiterEvent(t, action, ref=ref, note=note)]
        restore = obj.get("restore", True)
        if not isinstance(restore, bool):
            raise ArbiterRequestError("'restore' must be true or false")
        if action == "rectify" and not restore and feed.law_restores(ref):
            raise ArbiterRequestError("under this rule set a rectification restores the position before the "
                                      "irregularity (FPD 000 7.5a, 001 5.1.3); to let the position stand, "
                                      "accept or dismiss it")
        if action == "rectify" and restore and not feed.law_restores(ref):
            # where the book restores by itself (FPD 000 7.5a) the engine does it; elsewhere the page sets it
            fen = feed.fen_before(ref)
            if fen:
                events.append(ArbiterEvent(t, "set-position", fen=fen,
                                           note=f"irregularity {ref} rectified: the position before it"))
        return events
    if action == "set-position":
        fen = obj.get("fen")
        if not isinstance(fen, str) or not fen.strip():
            raise ArbiterRequestError("set-position needs 'fen', a FEN string of the position")
        try:
            Board(feed.variant, fen.strip())
        except ValueError as exc:
            raise ArbiterRequestError(f"'fen' is not a {feed.variant.name} position: {exc}") from None
        return [ArbiterEvent(t, action, fen=fen.strip(), note=note)]
    if action == "result":
        result = obj.get("result")
        if not isinstance(result, str):
            raise ArbiterRequestError("result needs 'result', e.g. \"1-0\", \"0-1\", \"1/2-1/2\" "
                                      "(2-0, 0-2, 1-1 on 10x10)")
        try:
            normal_result(result, feed.variant)
        except ValueError as exc:
            raise ArbiterRequestError(f"'result': {exc}") from None
        return [ArbiterEvent(t, action, result=result, note=note)]
    if action == "draw-claim":
        side = _side(obj)
        upheld = obj.get("upheld")
        if not isinstance(upheld, bool):
            raise ArbiterRequestError("draw-claim needs 'upheld': true or false")
        return [ArbiterEvent(t, action, side=side, upheld=upheld, note=note)]
    side = _side(obj)                         # time
    delta = _int(obj, "delta_ms")
    if delta == 0 or abs(delta) > DELTA_MAX_MS:
        raise ArbiterRequestError(f"'delta_ms' must be non-zero and at most {DELTA_MAX_MS} ms either way")
    return [ArbiterEvent(t, action, side=side, delta_ms=delta, note=note)]
