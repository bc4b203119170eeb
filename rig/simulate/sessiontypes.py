"""Value types of a simulated session: the injections asked for, the moves and turns expected, the session.

Re-exported by :mod:`rig.simulate.game` and :mod:`rig.simulate`.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import IO

from rig.errors import RigError
from rig.session import Event, Frame, Header, write_session

__all__ = ["InjectionError", "Injection", "ExpectedMove", "Turn", "SimulatedSession", "side_name", "move_number"]


class InjectionError(RigError, ValueError):
    """An irregularity that cannot be injected where asked (unknown type, wrong ply, not possible there)."""


def side_name(white: bool) -> str:
    return "white" if white else "black"


def move_number(ply: int, white_first: bool = True) -> int:
    """The PDN move number of a 0-based turn index (``1...`` when black moves first)."""
    return (ply + (0 if white_first else 1)) // 2 + 1


@dataclass(frozen=True)
class Injection:
    """An irregularity to commit at turn ``ply``; ``corrected``: the board is put right before the opponent
    moves (where the physical model allows it)."""

    type: str
    ply: int
    corrected: bool = False

    @classmethod
    def parse(cls, text: str) -> "Injection":
        """``TYPE@PLY`` or ``TYPE@PLY:corrected`` (the ``--inject`` option)."""
        body, _, status = text.partition(":")
        kind, at, ply = body.partition("@")
        if not at or not ply.strip().isdigit():
            raise InjectionError(f"cannot read injection {text!r}: expected TYPE@PLY or TYPE@PLY:corrected")
        if status not in ("", "corrected", "accepted"):
            raise InjectionError(f"cannot read injection {text!r}: the status after ':' must be 'corrected'")
        return cls(kind.strip(), int(ply), status == "corrected")

    @classmethod
    def of(cls, item: "Injection | str | tuple") -> "Injection":
        if isinstance(item, Injection):
            return item
        if isinstance(item, str):
            return cls.parse(item)
        kind, ply, *rest = item
        corrected = bool(rest and rest[0] in (True, "corrected"))
        if kind.endswith(":corrected"):
            kind, corrected = kind[: -len(":corrected")], True
        return cls(kind, int(ply), corrected)

    def __str__(self) -> str:
        return f"{self.type}@{self.ply}" + (":corrected" if self.corrected else "")


@dataclass(frozen=True)
class ExpectedMove:
    """A move the engine must report: PDN move number, the side that made it, its text."""

    number: int
    side: str
    text: str


@dataclass(frozen=True)
class Turn:
    """One player's turn as simulated: when it began and ended, and the board after it."""

    ply: int
    number: int
    side: str
    start_t: float
    end_t: float
    texts: tuple[str, ...]
    occupied: frozenset[int]
    fen: str
    injected: str | None = None


@dataclass
class SimulatedSession:
    """A simulated session and the answers the reconstruction must give."""

    header: Header
    events: list[Event]
    expected_moves: list[str]
    expected_irregularities: list[dict]
    expected_record: list[ExpectedMove] = field(default_factory=list)
    #: every move made on the board, in order, as the report's ``moves`` lists them: ``expected_moves`` plus
    #: the moves taken back (withdrawn), each before the move played instead
    expected_report_moves: list[str] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    final_fen: str = ""
    notes: list[str] = field(default_factory=list)
    diverged_at: int | None = None
    #: irregularities committed that the frames cannot prove (``type``, ``number``, ``side``): the engine keeps each
    #: as an observation (``Reconstructor.observations``), never as an irregularity
    expected_observations: list[dict] = field(default_factory=list)
    #: the real-board behaviours done (``rig.simulate.behaviours.Quirk``), in order
    behaviours: list = field(default_factory=list)

    @property
    def frames(self) -> list[Frame]:
        return [e for e in self.events if isinstance(e, Frame)]

    @property
    def duration(self) -> float:
        return self.events[-1].t if self.events else 0.0

    def write(self, target: str | IO[str]) -> None:
        """Write the session as JSON Lines to a path or an open text stream."""
        if isinstance(target, str):
            with open(target, "w", encoding="utf-8") as fh:
                write_session(fh, self.header, self.events)
        else:
            write_session(target, self.header, self.events)

    def to_jsonl(self) -> str:
        buf = io.StringIO()
        self.write(buf)
        return buf.getvalue()
