"""What the reconstruction engine emits: small frozen value types, one per kind of finding.

Each has ``t`` (session seconds) and ``to_json()`` (a JSON-ready dict with a ``"kind"``),
so the live feed, the journal and ``rig transcribe --explain`` share one vocabulary.
Irregularity ids and statuses are those of docs/session-format.md; the article an irregularity cites is the rule
book's in force (:mod:`rig.law`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Union

from rig.move import Move

if TYPE_CHECKING:
    from rig.rulesets import DrawCounter

__all__ = [
    "MoveEntry",
    "MoveWithdrawn",
    "Irregularity",
    "IrregularityUpdate",
    "Observation",
    "SensorFault",
    "CounterUpdate",
    "PositionLost",
    "PositionRestored",
    "ClockUpdate",
    "GameEnd",
    "Note",
    "Output",
    "RULES",
    "OPEN",
    "ACCEPTED",
    "CORRECTED",
    "DISMISSED",
]

OPEN = "open"
ACCEPTED = "accepted"
CORRECTED = "corrected"
#: the arbiter dismissed it with a reason (``dismiss``: an adjustment announced, a hand the sensors cannot see)
DISMISSED = "dismissed"


def _every_book() -> dict[str, str]:
    from rig.law import BOOKS, IRREGULARITY_TYPES, OBSERVATION_TYPES
    books = list({b.id: b for b in BOOKS.values()}.values())
    return {kind: "; ".join(b.laws[kind].article for b in books if kind in b.laws)
            for kind in IRREGULARITY_TYPES + OBSERVATION_TYPES}


#: Every book's article for each irregularity type ("FPD 000 3.4c; FPD 001 2.2.8, 5.1.3; ..."), for a reader
#: with no rule set at hand. A report cites only the book in force: ``rig.law.rule_for(ruleset, type)``.
RULES: dict[str, str] = _every_book()


def _r(t: float) -> float:
    return round(t, 3)


def _finding(f: "Irregularity | Observation", **extra: Any) -> dict[str, Any]:
    """The report item of an irregularity or an observation (``detail`` only when there is one)."""
    d: dict[str, Any] = {"type": f.type, "number": f.number, "side": f.side, "t": _r(f.t),
                         "squares": list(f.squares), "rule": f.rule, "status": f.status, **extra}
    if f.detail:
        d["detail"] = f.detail
    return d


@dataclass(frozen=True)
class MoveEntry:
    """A move made on the board, legal or not, in the variant's notation as the piece went.

    ``number``/``side``: PDN move number and the player who moved. ``clock_ms``: the mover's
    remaining time after his press, when a clock reported it. ``move`` is None only for a
    change no single piece move describes. ``fen_after``: the position the record continues
    from (the board as it stands, colours from the history). ``withdrawn``: undone on the
    board before the opponent moved (taken back, or put back to correct it); the move played
    instead follows with the same number and side, and only that one is in the PDN.
    """

    number: int
    side: str
    move_text: str
    t: float
    clock_ms: int | None
    move: Move | None
    legal: bool
    fen_after: str
    withdrawn: bool = False

    @classmethod
    def lazy(cls, number: int, side: str, move_text: str, t: float, clock_ms: int | None, move: Move | None,
             legal: bool, fen_after: Callable[[], str]) -> MoveEntry:
        """An entry whose ``fen_after`` is written on first use by ``fen_after()`` (the engine keeps the
        position's bitboards; most entries are never asked for their FEN while the game is played)."""
        entry = object.__new__(cls)
        entry.__dict__.update(number=number, side=side, move_text=move_text, t=t, clock_ms=clock_ms, move=move,
                              legal=legal, withdrawn=False, _fen_source=fen_after)
        return entry

    def __getattr__(self, name: str) -> Any:
        # only reached for an attribute not set: the FEN of an entry made by ``lazy``, written once
        if name == "fen_after":
            d = self.__dict__
            source = d.get("_fen_source")
            if source is not None:
                fen = d["fen_after"] = source()
                del d["_fen_source"]
                return fen
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __getstate__(self) -> dict[str, Any]:
        return {f: getattr(self, f) for f in self.__dataclass_fields__}

    def evolve(self, **changes: Any) -> MoveEntry:
        """``dataclasses.replace`` that keeps an unwritten ``fen_after`` unwritten."""
        entry = object.__new__(type(self))
        d = entry.__dict__
        d.update(self.__dict__)
        if "fen_after" in changes:
            d.pop("_fen_source", None)
        d.update(changes)
        return entry

    def report(self) -> dict[str, Any]:
        """The ``moves[]`` item of the docs/session-format.md report (``"withdrawn": true`` only when so)."""
        d: dict[str, Any] = {"number": self.number, "side": self.side, "move": self.move_text, "t": _r(self.t),
                             "clock_ms": self.clock_ms}
        if self.withdrawn:
            d["withdrawn"] = True
        return d

    def to_json(self) -> dict[str, Any]:
        d = {"kind": "move", **self.report(), "legal": self.legal, "fen_after": self.fen_after}
        return d


@dataclass(frozen=True)
class MoveWithdrawn:
    """A move entry withdrawn: the board was put back before the opponent moved, and the move is
    read again. The entry stays in ``moves`` (``index``), marked ``withdrawn``; the record drops it."""

    t: float
    index: int
    move_text: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": "move-withdrawn", "t": _r(self.t), "index": self.index, "move": self.move_text}


@dataclass(frozen=True)
class Irregularity:
    """An irregularity the rule books name, with its evidence (``squares``, ``detail``)."""

    type: str
    number: int
    side: str
    t: float
    squares: tuple[int, ...]
    rule: str
    status: str = OPEN
    detail: str = ""

    def report(self) -> dict[str, Any]:
        """The ``irregularities[]`` item of the docs/session-format.md report (plus ``detail``)."""
        return _finding(self)

    def to_json(self) -> dict[str, Any]:
        return {"kind": "irregularity", **self.report()}


@dataclass(frozen=True)
class Observation:
    """Something an arbiter may want to look at that the sensors cannot settle (a brief set-down that may
    or may not have been a release, a square that may have been jostled, captured pieces removed out of
    order): never an alarm. Same fields as :class:`Irregularity` (``type`` one of its ids) plus ``why``:
    what the data cannot prove. Reported under ``observations`` (docs/session-format.md)."""

    type: str
    number: int
    side: str
    t: float
    squares: tuple[int, ...]
    rule: str
    why: str
    status: str = OPEN
    detail: str = ""

    def report(self) -> dict[str, Any]:
        """The ``observations[]`` item of the report: an irregularity's fields plus ``why``."""
        return _finding(self, why=self.why)

    def to_json(self) -> dict[str, Any]:
        return {"kind": "observation", **self.report()}


@dataclass(frozen=True)
class SensorFault:
    """A switch (or camera square) found faulty from the frames themselves: ``kind`` ``stuck-closed``,
    ``dead`` or ``ghost``; from ``since`` (session seconds) its reading is masked and its state inferred
    from the rules. Reported once under ``sensor_faults``; never a player's irregularity. ``withdrawn``: why it
    no longer stands (emitted again, same ``since``, when the switch proved to work: a ``dead`` one read the
    piece it was named for). ``until``: when the switch read again as a working one does (it recovered: a stuck
    reed freed, a cold joint that came back), unmasked from then on; the fault stands for ``[since, until)``
    (emitted again, same ``since``)."""

    square: int
    kind: str
    since: float
    detail: str = ""
    withdrawn: str = ""
    until: float | None = None

    @property
    def t(self) -> float:
        return self.since

    @property
    def current(self) -> bool:
        """The fault stands now: neither withdrawn nor over (no ``until``): the square's switch is still masked."""
        return not self.withdrawn and self.until is None

    def report(self) -> dict[str, Any]:
        d: dict[str, Any] = {"square": self.square, "kind": self.kind, "since": _r(self.since)}
        if self.detail:
            d["detail"] = self.detail
        if self.withdrawn:
            d["withdrawn"] = self.withdrawn
        if self.until is not None:
            d["until"] = _r(self.until)
        return d

    def to_json(self) -> dict[str, Any]:
        return {"kind": "sensor-fault", **self.report(), "fault": self.kind}


@dataclass(frozen=True)
class IrregularityUpdate:
    """Irregularity ``index`` changed status (accepted by the opponent's move, corrected, or by the arbiter:
    accepted, corrected or dismissed)."""

    index: int
    status: str
    t: float
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": "irregularity-update", "index": self.index, "status": self.status, "t": _r(self.t),
                "reason": self.reason}


@dataclass(frozen=True)
class CounterUpdate:
    """The rule set's draw counters after a move (``rig.rulesets.DrawCounter`` values)."""

    t: float
    counters: tuple[DrawCounter, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {"kind": "counters", "t": _r(self.t), "counters": [
            {k: getattr(c, k) for k in ("rule", "title", "count", "limit", "unit", "from_number", "reached")
             if hasattr(c, k)} for c in self.counters]}


@dataclass(frozen=True)
class PositionLost:
    """The board no longer matches any position the engine can explain (FPD 7.4; CODEX art. 46-48)."""

    t: float
    squares: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"kind": "position-lost", "t": _r(self.t), "squares": list(self.squares)}


@dataclass(frozen=True)
class PositionRestored:
    """The board matches a known position again (the last one, or one the arbiter set)."""

    t: float
    fen: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": "position-restored", "t": _r(self.t), "fen": self.fen}


@dataclass(frozen=True)
class ClockUpdate:
    """The clock's times; ``running`` is the side whose clock runs (None when stopped)."""

    t: float
    white_ms: int | None
    black_ms: int | None
    running: str | None

    def to_json(self) -> dict[str, Any]:
        return {"kind": "clock", "t": _r(self.t), "white_ms": self.white_ms, "black_ms": self.black_ms,
                "running": self.running}


@dataclass(frozen=True)
class GameEnd:
    """The game ended: ``result`` is the PDN result text, ``reason`` says why (with the article)."""

    t: float
    result: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": "game-end", "t": _r(self.t), "result": self.result, "reason": self.reason}


@dataclass(frozen=True)
class Note:
    """Something the engine decided that is not a finding (for ``--explain`` and the journal)."""

    t: float
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": "note", "t": _r(self.t), "text": self.text}


Output = Union[MoveEntry, MoveWithdrawn, Irregularity, Observation, SensorFault, IrregularityUpdate, CounterUpdate,
               PositionLost, PositionRestored, ClockUpdate, GameEnd, Note]
