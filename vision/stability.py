"""From readings to positions: hands, agreement, and what the rules allow to follow.

A frame with a hand over the board is never turned into a position. A position is emitted once
``agree`` consecutive hand-free readings agree on it (the first of them gives its time). A reading the
rules cannot explain from the last position emitted is held back: it is let through once it has stood for
``hold`` agreeing frames (a real irregularity stays on the board; a misreading does not), or when the
arbiter sets the position. Nothing is dropped silently: every held-back reading is logged with what
became of it (released, superseded), and ``rig record`` writes that log next to the session.

What explains a reading, from the last position and the captured pieces still standing (FPD 000 3.8:
captured pieces come off after the capturing piece lands): the same position with some of those pieces
removed, or any legal move of the side to move with any of its captured pieces still standing. Colours
and occupancy are compared. A king cannot appear or vanish but by a promotion, so an explained
position carries the tracked kings, except on the promotion's square, where the camera's reading says
whether the man was crowned (the engine checks that, CODEX 004 art. 42.O) when the view can tell a king
there; where it cannot (``king unknown``), the rules' king stands. A reading let through unexplained, or one
before the start, keeps on a square whose stack is unknown the tracked piece of that colour, else a man
(the reading's code there). Before the start position is seen, every agreed reading is emitted (setting up).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rig.board import Board
from rig.session import Frame
from rig.variants import Variant
from vision.classify import Reading

__all__ = ["BoardWatcher", "HeldReading"]


@dataclass
class HeldReading:
    """A reading the rules did not explain: when it was first seen, what it showed, what became of it."""

    since: float
    pieces: dict[int, str]
    fate: str = "held"        # held | released | superseded | arbiter
    at: float | None = None

    def to_json(self) -> dict:
        return {"type": "camera-held", "t": round(self.since, 4), "fate": self.fate,
                "at": None if self.at is None else round(self.at, 4),
                "pieces": {str(k): v for k, v in sorted(self.pieces.items())}}


def _colours(pieces: dict[int, str]) -> dict[int, str]:
    return {s: c.lower() for s, c in pieces.items()}


@dataclass
class BoardWatcher:
    """Feed :class:`~vision.classify.Reading` in time order; get :class:`~rig.session.Frame` to journal."""

    variant: Variant
    fen: str | None = None
    agree: int = 2
    hold: int = 6
    log: list[HeldReading] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.v = self.variant
        self.start = Board(self.v, self.fen)
        self.board: Board | None = None     # None: setting up (the start position not seen yet)
        self.standing: dict[int, str] = {}  # captured pieces still on the board
        self.emitted: dict[int, str] | None = None
        self._run: tuple | None = None
        self._run_len = 0
        self._since = 0.0
        self._pending: HeldReading | None = None
        self._promoted: int | None = None   # the square of the last move's promotion
        self._unknown: frozenset[int] = frozenset()  # squares of the reading being explained whose stack is unknown
        self.frames = self.occluded = 0

    @property
    def pending_since(self) -> float | None:
        """Time of the held-back reading waiting to be let through (a live source's horizon)."""
        if self._pending is not None:
            return self._pending.since
        if self._run is not None and self._run_len < self.agree:
            return self._since
        return None

    def feed(self, reading: Reading) -> list[Frame]:
        self.frames += 1
        if reading.occluded:
            self.occluded += 1
            self._run, self._run_len = None, 0
            return []
        key = tuple(sorted(_colours(reading.squares).items()))  # stacks are not voted on (see _explain)
        if key == self._run:
            self._run_len += 1
        else:
            self._run, self._run_len, self._since = key, 1, reading.t
        if self._run_len < self.agree:
            return []
        pieces = self._settle(dict(reading.squares), reading.unknown)
        self._unknown = reading.unknown
        if self.emitted is not None and _colours(pieces) == _colours(self.emitted) and (
                self.board is not None or pieces == self.emitted):
            self._supersede(reading.t)
            return []
        if self.board is None:
            self._supersede(reading.t)
            start = self.start.piece_codes()
            return [self._emit(start if _colours(pieces) == _colours(start) else pieces)]
        explained = self._explain(pieces)
        if explained is not None:
            self._supersede(reading.t)
            return [self._emit(explained)]
        if self._pending is None or self._pending.pieces != pieces:
            self._supersede(reading.t)
            self._pending = HeldReading(self._since, pieces)
            self.log.append(self._pending)
        if self._run_len >= self.hold:
            self._pending.fate, self._pending.at = "released", reading.t
            self._pending = None
            self._resync(pieces)
            return [self._emit(pieces)]
        return []

    def set_position(self, fen: str, t: float) -> None:
        """The arbiter set the position (``set-position``): what is held back gives way to it."""
        if self._pending is not None:
            self._pending.fate, self._pending.at = "arbiter", t
            self._pending = None
        self.board = Board(self.v, fen)
        self.standing = {}

    # -- inside -----------------------------------------------------------------------------

    def _emit(self, pieces: dict[int, str]) -> Frame:
        self.emitted = pieces
        if self.board is None and _colours(pieces) == _colours(self.start.piece_codes()):
            self.board = self.start.copy()
        return Frame(self._since, frozenset(pieces), dict(pieces))

    def _supersede(self, t: float) -> None:
        if self._pending is not None:
            self._pending.fate, self._pending.at = "superseded", t
            self._pending = None

    def _explain(self, pieces: dict[int, str]) -> dict[int, str] | None:
        """The position to emit if the rules explain ``pieces`` from the last position (the tracked position
        follows), else None. A king cannot appear or vanish but by a promotion: the stacks are the tracked
        position's, except on a promotion's square, where the camera says whether the man was crowned."""
        assert self.board is not None
        seen = _colours(pieces)
        here = _colours(self.board.piece_codes())
        if self._fits(seen, here, _colours(self.standing)):
            self.standing = {s: c for s, c in self.standing.items() if s in seen}
            out = self.board.piece_codes() | self.standing
            if self._promoted is not None and self._promoted in pieces and self._promoted not in self._unknown:
                out[self._promoted] = pieces[self._promoted]
            return out
        before = self.board.piece_codes()
        for move in self.board.legal_moves:
            after = self.board.copy(stack=False)
            after.push(move)
            may_stand = _colours(self.standing) | {s: before[s].lower() for s in move.captured}
            if self._fits(seen, _colours(after.piece_codes()), may_stand):
                self.board = after
                self.standing = {s: c for s, c in (self.standing | {s: before[s] for s in move.captured}).items()
                                 if s in seen}
                self._promoted = move.destination if move.promotes else None
                out = after.piece_codes() | self.standing
                if move.promotes and move.destination not in self._unknown:
                    out[move.destination] = pieces[move.destination]
                return out
        return None

    def _settle(self, pieces: dict[int, str], unknown: frozenset[int]) -> dict[int, str]:
        """A reading's squares of unknown stack: the tracked piece where it has that colour (a king stays a
        king, a man a man, but by a move), else the reading's man."""
        if not unknown:
            return pieces
        known = (self.board.piece_codes() if self.board is not None else self.start.piece_codes()) | self.standing
        for s in unknown & pieces.keys():
            if known.get(s, "").lower() == pieces[s].lower():
                pieces[s] = known[s]
        return pieces

    @staticmethod
    def _fits(seen: dict[int, str], position: dict[int, str], may_stand: dict[int, str]) -> bool:
        """``seen`` is ``position`` plus some of the pieces that ``may_stand``."""
        for s, c in position.items():
            if seen.get(s) != c:
                return False
        return all(s in position or may_stand.get(s) == c for s, c in seen.items())

    def _resync(self, pieces: dict[int, str]) -> None:
        """After an irregular position is let through: follow it, the side whose pieces moved having moved."""
        if self.board is None:
            return
        before = self.board.piece_codes()
        gained = {pieces[s][0].lower() for s in pieces if before.get(s, "").lower() != pieces[s].lower()}
        turn = self.board.turn
        mover = "w" if turn else "b"
        white_next = (not turn) if gained == {mover} else turn
        b = Board(self.v)
        b.set_pieces({s: (c.lower() == "w", c.isupper()) for s, c in pieces.items()}, white_next)
        self.board = b
        self.standing = {}
