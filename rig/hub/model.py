"""A game as the hub knows it, built from a board's messages (docs/hub.md "Payloads").

Every message is keyed by what it is about (move ``idx``, irregularity ``idx``), so applying one twice
changes nothing; a ``snapshot`` (or the retained ``state``) replaces the whole game. Which messages get
applied, and in which order, is :mod:`rig.hub.streams`' job.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rig.fen import parse_fen
from rig.rulesets import RuleSet, get_ruleset
from rig.variants import INTERNATIONAL, Variant, get_variant

__all__ = ["GameState", "GameKey", "alerts_of"]

GameKey = tuple[int, str]          # (round, board)
_HEALTH_KEPT = 20


def _occupied(fen: str | None, variant: Variant) -> dict[int, str]:
    """square -> piece code (w, b, W, B) of a FEN (the variant's initial position for None)."""
    v = variant
    if fen is None:
        from rig.board import Board

        fen = Board(v).fen()
    p = parse_fen(fen, v)
    out: dict[int, str] = {}
    for squares, code in ((p.white_men, "w"), (p.white_kings, "W"), (p.black_men, "b"), (p.black_kings, "B")):
        for sq in squares:
            out[sq] = code
    return out


@dataclass
class GameState:
    """One board's game of one round."""

    round: int
    board: str
    session: str | None = None
    variant: Variant = INTERNATIONAL
    ruleset: RuleSet | None = None
    start_fen: str | None = None
    tags: dict[str, str] = field(default_factory=dict)
    has_clock: bool = False
    moves: dict[int, dict[str, Any]] = field(default_factory=dict)
    irregularities: dict[int, dict[str, Any]] = field(default_factory=dict)
    clock: dict[str, Any] | None = None
    result: str = "*"
    reason: str = ""
    lost: bool = False
    fen: str | None = None                       # the position as it stands on the board
    restored: list[tuple[int, str]] = field(default_factory=list)   # (moves before it, FEN) set by an arbiter
    health: list[dict[str, Any]] = field(default_factory=list)
    online: bool = False
    last_squares: list[int] = field(default_factory=list)
    closed: bool = False                         # the board's run ended (its last move stands)
    ts: float = 0.0                              # the board's wall time of the last message applied
    seq: int = 0
    #: what changed since the store last saved it: move and irregularity idx, or everything (a snapshot)
    dirty: set[tuple[str, int]] = field(default_factory=set, repr=False, compare=False)
    dirty_all: bool = field(default=True, repr=False, compare=False)

    @property
    def key(self) -> GameKey:
        return (self.round, self.board)

    def standing(self) -> list[dict[str, Any]]:
        """The moves that stand (not withdrawn), in order."""
        return [m for _, m in sorted(self.moves.items()) if not m.get("withdrawn")]

    def apply(self, msg: dict[str, Any]) -> bool:
        """Apply one message (any order-independent effect); True when something changed."""
        kind = msg.get("kind")
        self.ts = max(self.ts, float(msg.get("ts") or 0.0))
        self.closed = bool(msg.get("closed"))
        if kind in ("snapshot", "state"):
            self._snapshot(msg)
            return True
        if kind == "move":
            idx = int(msg["idx"])
            entry = {k: msg.get(k) for k in ("idx", "number", "side", "move", "legal", "fen_after", "clock_ms",
                                               "t", "withdrawn")}
            if self.moves.get(idx) == entry:
                return False
            before = self.fen
            self.moves[idx] = entry
            self.dirty.add(("move", idx))
            self._settle_position(before)
            return True
        if kind == "withdrawn":
            m = self.moves.get(int(msg["idx"]))
            if m is None or m.get("withdrawn"):
                return m is None and self._placeholder(int(msg["idx"]), msg)
            m["withdrawn"] = True
            self.dirty.add(("move", int(msg["idx"])))
            self._settle_position(self.fen)
            return True
        if kind == "irregularity":
            idx = int(msg["idx"])
            item = {k: msg.get(k) for k in ("idx", "type", "number", "side", "t", "squares", "rule", "status",
                                              "detail")}
            old = self.irregularities.get(idx)
            if old is not None and old.get("status") != "open" and item["status"] == "open":
                item["status"] = old["status"]   # an update that came first stays
            self.irregularities[idx] = item
            self.dirty.add(("irregularity", idx))
            return old != item
        if kind == "irregularity-update":
            idx = int(msg["idx"])
            item = self.irregularities.setdefault(idx, {"idx": idx, "type": "?", "status": "open"})
            if item.get("status") == msg.get("status"):
                return False
            item["status"], item["reason"] = msg.get("status"), msg.get("reason", "")
            self.dirty.add(("irregularity", idx))
            return True
        if kind == "clock":
            self.clock = {k: msg.get(k) for k in ("white_ms", "black_ms", "running", "t")}
            return True
        if kind == "end":
            self.result, self.reason = str(msg.get("result") or "*"), str(msg.get("reason") or "")
            return True
        if kind == "position-lost":
            self.lost = True
            return True
        if kind == "position-restored":
            self.lost = False
            fen = str(msg.get("fen"))
            if fen != self.fen:
                self.restored.append((len(self.standing()), fen))
                self.fen = fen
            return True
        if kind == "health":
            self.health.append(dict(msg.get("health") or {}))
            del self.health[:-_HEALTH_KEPT]
            return True
        return False

    def _placeholder(self, idx: int, msg: dict[str, Any]) -> bool:
        """A withdrawal that came before its move: keep it, the move will arrive marked."""
        self.dirty.add(("move", idx))
        self.moves[idx] = {"idx": idx, "move": msg.get("move"), "withdrawn": True, "legal": False,
                           "fen_after": None, "number": None, "side": None, "clock_ms": None, "t": msg.get("t")}
        return True

    def _snapshot(self, msg: dict[str, Any]) -> None:
        h = msg.get("header") or {}
        # a board's message is an edge: the header's names are resolved here, once
        self.variant = get_variant(h.get("variant", self.variant))
        self.ruleset = get_ruleset(h["ruleset"]) if h.get("ruleset") else self.ruleset
        self.start_fen = h.get("fen")
        self.tags = {str(k): str(v) for k, v in (h.get("tags") or {}).items()}
        self.has_clock = bool(h.get("clock"))
        before = self.fen
        self.dirty_all = True
        self.moves = {}
        for m in msg.get("moves") or []:
            idx = int(m["idx"])
            self.moves[idx] = {k: m.get(k) for k in ("idx", "number", "side", "move", "legal", "fen_after",
                                                     "clock_ms", "t", "withdrawn")}
        self.irregularities = {int(x["idx"]): {k: x.get(k) for k in ("idx", "type", "number", "side", "t", "squares",
                                                                     "rule", "status", "detail")}
                               for x in msg.get("irregularities") or []}
        self.clock = msg.get("clock")
        self.result = str(msg.get("result") or "*")
        self.reason = str(msg.get("reason") or "")
        self.lost = bool(msg.get("lost"))
        self._settle_position(before)
        if msg.get("fen"):
            self.fen = msg["fen"]

    def _settle_position(self, before: str | None) -> None:
        standing = self.standing()
        fen = next((m["fen_after"] for m in reversed(standing) if m.get("fen_after")), None)
        if fen is None:
            fen = self.restored[-1][1] if self.restored else self.start_fen
        self.fen = fen
        try:
            a, b = _occupied(before if before else self.start_fen, self.variant), _occupied(fen, self.variant)
            self.last_squares = sorted(sq for sq in set(a) | set(b) if a.get(sq) != b.get(sq)) if standing else []
        except ValueError:
            self.last_squares = []

    # -- what the pages show ----------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """The card of the all-boards page (and each SSE event)."""
        standing = self.standing()
        last = standing[-1] if standing else None
        return {"board": self.board, "round": self.round, "variant": self.variant.name,
                "white": self.tags.get("White", "?"), "black": self.tags.get("Black", "?"),
                "fen": self.fen, "pieces": self._pieces(), "last": last["move"] if last else None,
                "last_squares": self.last_squares,
                "moves": len(standing), "number": last["number"] if last else 0,
                "clock": self.clock, "result": self.result, "reason": self.reason, "online": self.online,
                "alerts": alerts_of(self), "seq": self.seq, "ts": self.ts, "closed": self.closed}

    def _pieces(self) -> dict[str, str]:
        """square number -> w, b (men), W, B (kings): the position as the drawings need it."""
        try:
            return {str(sq): code for sq, code in sorted(_occupied(self.fen or self.start_fen, self.variant).items())}
        except ValueError:
            return {}

    def detail(self) -> dict[str, Any]:
        """Everything the game page and ``/api/game/BOARD`` show."""
        d = self.summary()
        d.update({"session": self.session, "ruleset": self.ruleset.id if self.ruleset else "",
                  "start_fen": self.start_fen,
                  "tags": self.tags, "moves_list": [m for _, m in sorted(self.moves.items())],
                  "irregularities": [x for _, x in sorted(self.irregularities.items())],
                  "health": self.health, "lost": self.lost})
        return d


def alerts_of(g: GameState) -> list[str]:
    """What an organiser or arbiter should look at on this board now."""
    out = []
    if not g.online and not g.closed and g.session is not None and g.result == "*":
        out.append("board offline")
    if g.lost:
        out.append("position lost: the arbiter must set the position (FPD 7.4; CODEX art. 46-48)")
    for x in g.irregularities.values():
        if x.get("status") == "open":
            out.append(f"{x.get('type')} at move {x.get('number')} ({x.get('rule') or 'irregularity'})")
    by_square: dict[Any, str] = {}
    for h in g.health:
        by_square[h.get("square")] = str(h.get("kind"))
    out.extend(f"switch {kind} on square {sq}" for sq, kind in by_square.items() if kind != "recovered")
    return out
