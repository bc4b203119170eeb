"""The engine's state values: game phases, the evidence of a turn, committed plies, held presses, undos.

Plain data shared by the stages of :class:`rig.reconstruct.Reconstructor` (docs/reconstruction.md): a
*segment* is the evidence of one turn since the last commit, a *ply* one committed move entry with what
the record needs to write it, a *held press* the mover's press while the opponent holds a piece he just
lifted, an *undo* what the last commit can be put back to before the opponent moves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Callable, NamedTuple

from rig.board import Board
from rig.move import Move
from rig.pdn import ClockStamp
from rig.reconstruct.matcher import Explanation, PositionIndex
from rig.reconstruct.occupancy import SquareChange
from rig.reconstruct.outputs import MoveEntry
from rig.session import ClockEvent
from rig.variants import Variant

__all__ = ["Phase", "SETUP", "PLAY", "LOST", "OVER", "SIDE", "snap", "start_position", "Ply", "Segment", "TwoMoves",
           "Plan", "PendingSplit", "Recheck", "HeldPress", "Undo", "TakenBack", "LastIndex"]


class Phase(StrEnum):
    """Where the game stands: the set-up is checked before the first move (FPD 000 art. 7.2; CODEX 004 art.
    44), play reads moves, a lost position waits for the board to show it again (FPD 000 art. 7.4; CODEX
    004 art. 46-48), and nothing is read once the game is over."""

    SETUP = "setup"
    PLAY = "play"
    LOST = "lost"
    OVER = "over"


# the members bound to module names: the stages compare the phase on every change (a global is read
# faster than an enum's attribute)
SETUP, PLAY, LOST, OVER = Phase.SETUP, Phase.PLAY, Phase.LOST, Phase.OVER

SIDE = {True: "white", False: "black"}


def snap(board: Board) -> Board:
    """A copy of the position without its history (cheap: no FEN is computed, no stack copied)."""
    return board.position_copy()


@lru_cache(maxsize=64)
def start_position(variant: Variant, fen: str | None) -> Board:
    """The session's start position, parsed once per header position (copy it before use)."""
    return Board(variant, fen)


@dataclass(slots=True)
class Ply:
    """One committed move entry and what the record needs to write it."""

    board_before: Board
    move: Move | None
    legal: bool
    fen: str | Callable[[], str]       # the FEN after it, or what writes it on first use (``fen_after``)
    setup_before: str | None = None    # position the move was played from, when not the record's own
    needs_setup: bool = False          # the board as it stands differs from the move's legal result
    clock: ClockStamp | None = None
    comment: str | None = None
    irregularities: list[int] = field(default_factory=list)
    setup_only: bool = False           # an arbiter's set-position, not a move
    withdrawn: bool = False            # undone on the board before the opponent moved: not in the record
    pressed: bool = False              # its mover's clock press ended it (clock times belong to it)
    start: float = 0.0                 # when its turn began (the previous commit)
    text: str = ""                     # the move entry's text
    #: a capture's landing as its turn read it: when its square closed, and when each captured square read off
    capture_times: tuple[float, dict[int, float]] | None = None
    #: a capture whose landing no switch showed: when each captured square read off (earlylift.py ``_late_landing``)
    removed_at: dict[int, float] | None = None

    @property
    def fen_after(self) -> str:
        fen = self.fen
        if not isinstance(fen, str):
            fen = self.fen = fen()
        return fen

    @fen_after.setter
    def fen_after(self, fen: str) -> None:
        self.fen = fen


@dataclass(slots=True, init=False)
class Segment:
    """The evidence of one turn since the last commit. Built at every commit and cut: the containers are made
    in a plain ``__init__`` (only ``t0``, ``occ0`` and ``pieces`` are given), not by the dataclass's default
    factories (about -10M callgrind instructions per replay, speed19)."""

    t0: float
    occ0: frozenset[int]
    changes: list[SquareChange] = field(default_factory=list)
    lifted_at: dict[int, float] = field(default_factory=dict)     # occ0 square -> time it was last lifted
    placed_at: dict[int, float] = field(default_factory=dict)     # square -> time it was last placed
    touches: list[tuple[int, float, float]] = field(default_factory=list)   # (square, up, down) put back
    landings: dict[int, float] = field(default_factory=dict)      # empty-at-start square -> dwell when left
    lift_order: list[int] = field(default_factory=list)
    pieces: dict[int, str] | None = None                          # camera view when the turn began
    last_own_lift: int | None = None
    hints: dict[int, int] = field(default_factory=dict)           # placed square -> own square lifted last before
    last_change: float | None = None

    def __init__(self, t0: float, occ0: frozenset[int], *, pieces: dict[int, str] | None = None) -> None:
        self.t0 = t0
        self.occ0 = occ0
        self.changes = []
        self.lifted_at = {}
        self.placed_at = {}
        self.touches = []
        self.landings = {}
        self.lift_order = []
        self.pieces = pieces
        self.last_own_lift = None
        self.hints = {}
        self.last_change = None


class PendingSplit(NamedTuple):
    """The opponent's first lift after the mover's changes, while it is not yet told whether it began his move
    (docs/reconstruction.md, Commit): the segment is cut there if it did."""

    index: int                         # the segment's changes before the lift
    t: float                           # when the piece was lifted
    plan: Plan                         # the mover's move as the board showed it at the lift
    occ: frozenset[int]                # the confirmed occupancy before the lift
    square: int                        # the square the opponent's piece was lifted from
    own: int | None = None             # a piece of the mover read lifted after it (ownlift.py)


class TwoMoves(NamedTuple):
    """A turn read as two moves of the mover (CODEX 004 art. 42.A): the first, the occupancy and time at
    which the board showed it complete, and the second from there."""

    first: Explanation
    mid: frozenset[int]
    t_mid: float
    second: Explanation


#: what a turn's segment shows: one move (legal or not) or two moves of the mover
Plan = Explanation | TwoMoves


class Recheck(NamedTuple):
    """A correction that the next change may show was a move: a standing captured piece lifted by its owner
    is taken off, or his move with it (CODEX 004 art. 42.K); what to put back if it was the move."""

    square: int                        # the captured piece's square
    board: Board                       # the engine's board before the correction
    seg: Segment
    ply: Ply                           # the ply the correction undid
    entry_index: int                   # its move entry's index in ``moves``
    entry: MoveEntry                   # and the entry as it was
    undo: Undo
    legal_after: Board
    statuses: list[tuple[int, str]]    # (irregularity index, status) before the correction


@dataclass(frozen=True)
class HeldPress:
    """The mover's press while the opponent holds a piece he just lifted: whether that lift began the
    opponent's move (the press came late) or was the mover taking a piece off before pressing is told by
    what follows (docs/reconstruction.md, Commit)."""

    event: ClockEvent
    at: float                          # when it was pressed (``clock_t`` of a line that arrived late)
    occ: frozenset[int]                # the confirmed occupancy at the press
    index: int                         # the segment's changes before the press
    times: tuple[int, int] | None = None   # the time line that came with the press


@dataclass(slots=True)
class Undo:
    """What the last commit can be put back to before the opponent moves."""

    ply: int
    occ_before: frozenset[int]
    board_before: Board
    legal_after: Board | None = None   # the legal result, when the board shows something else


class TakenBack(NamedTuple):
    """A move taken back (``move-taken-back``): the same move played again from the same position corrects it
    (docs/reconstruction.md, "Status of an irregularity")."""

    key: tuple[int, int, frozenset[int]]   # the move's :attr:`rig.move.Move.key`
    irregularity: int                      # its index in ``irregularities``


@dataclass(slots=True)
class LastIndex:
    """The board last looked up and its candidates (boards are never changed once looked up: the identity
    of the board is the key). One per engine, updated in place: it is asked on every change."""

    board: Board | None = None
    candidates: PositionIndex | None = None
