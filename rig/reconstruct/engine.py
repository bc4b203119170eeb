"""The reconstruction engine: a state machine fed one session event at a time.

docs/reconstruction.md describes how it decides; in short:

- raw frames go through a per-square debounce (:mod:`rig.reconstruct.occupancy`);
- the confirmed lift/place events of one turn form a *segment*: it starts at
  the last commit with the occupancy the board then had, and collects the
  evidence (touches, touch-downs, removals, in time order);
- a segment is committed as a move at the mover's clock press, or when the
  opponent lifts one of his own pieces (his move starts), or, without a clock,
  when the board has been stable for ``stable_s`` with a legal move on it, or
  at :meth:`Reconstructor.finish`; :func:`rig.reconstruct.matcher.explain`
  says which move (legal or not) the segment shows;
- the board always holds the position as it stands, colours from the history;
  an irregular position is *open* until the opponent's next move accepts it
  where the rule set's book says so (CODEX art. 43, 50; FMJD 5.7; under the FPD it
  stays open, 000 7.5a: :mod:`rig.reconstruct.law`) or the board is put right before
  that (*corrected*: the move is then read again).

Pure: no I/O, no wall clock; time comes in the events, so the same input gives
the same output, live or replayed.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from typing import Any, Callable

from rig.board import Board
from rig.move import Move
from rig.pdn import ClockStamp, GameRecord, result_text
from rig.reconstruct.certainty import Certainty
from rig.reconstruct.faults import FaultHandling, WaitingPress
from rig.reconstruct.fenwriter import FenWriter
from rig.reconstruct.law import Judge
from rig.reconstruct.matcher import Explanation, PositionIndex, explain
from rig.reconstruct.occupancy import Debouncer, SquareChange
from rig.reconstruct.outputs import (ACCEPTED, CORRECTED, DISMISSED, OPEN, RULES, ClockUpdate, CounterUpdate, GameEnd,
                                     Irregularity, IrregularityUpdate, MoveEntry, MoveWithdrawn, Note, Observation,
                                     Output, PositionLost, PositionRestored, SensorFault)
from rig.reconstruct.settings import Settings
from rig.rulesets import GameTracker
from rig.session import ArbiterEvent, ClockEvent, Frame, Header, HealthLine
from rig.variants import Variant, get_variant

__all__ = ["Reconstructor"]

SETUP = "setup"
PLAY = "play"
LOST = "lost"
OVER = "over"

_SIDE = {True: "white", False: "black"}


def _snap(board: Board) -> Board:
    """A copy of the position without its history (cheap: no FEN is computed)."""
    b = board.copy()
    b.move_stack.clear()
    b._stack.clear()
    return b


@lru_cache(maxsize=64)
def _start_board(variant: Variant, fen: str | None) -> Board:
    """The session's start position, parsed once per header position (copy it before use)."""
    return Board(variant, fen)


@dataclass(slots=True)
class _Ply:
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

    @property
    def fen_after(self) -> str:
        fen = self.fen
        if not isinstance(fen, str):
            fen = self.fen = fen()
        return fen

    @fen_after.setter
    def fen_after(self, fen: str) -> None:
        self.fen = fen


@dataclass(slots=True)
class _Segment:
    """The evidence of one turn since the last commit."""

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


@dataclass(frozen=True)
class _HeldPress:
    """The mover's press while the opponent holds a piece he just lifted: whether that lift began the
    opponent's move (the press came late) or was the mover taking a piece off before pressing is told by
    what follows (docs/reconstruction.md, Commit)."""

    event: ClockEvent
    at: float                          # when it was pressed (``clock_t`` of a line that arrived late)
    occ: frozenset[int]                # the confirmed occupancy at the press
    index: int                         # the segment's changes before the press
    times: tuple[int, int] | None = None   # the time line that came with the press


@dataclass(slots=True)
class _Undo:
    """What the last commit can be put back to before the opponent moves."""

    ply: int
    occ_before: frozenset[int]
    board_before: Board
    legal_after: Board | None = None   # the legal result, when the board shows something else


class Reconstructor(FaultHandling, Certainty):
    """Turns a board session into moves, irregularities, counters and a result.

    >>> from rig.session import Header, Frame
    >>> r = Reconstructor(Header("portuguese", "fpd-2026"))
    """

    def __init__(self, header: Header, settings: Settings | None = None, *, trace: bool = False):
        self.header = header
        self.settings = settings if settings is not None else Settings()
        self.trace = trace
        self.variant = get_variant(header.variant)
        self.start_board = _start_board(self.variant, header.fen).copy()
        self.board = _snap(self.start_board)
        self.tracker = GameTracker(header.ruleset, self.start_board.copy())
        #: the rule set's law on irregularities (rig.law): articles, consequences, touch-move, removal order
        self.judge = Judge(header.ruleset)
        self.moves: list[MoveEntry] = []
        self.irregularities: list[Irregularity] = []
        #: what the sensors cannot settle, for the arbiter's review (never an alarm)
        self.observations: list[Observation] = []
        #: switches found faulty from the frames, masked from then on
        self.sensor_faults: list[SensorFault] = []
        self.result = "*"
        self.result_reason = ""
        self.counters: tuple[Any, ...] = ()
        self._reached: dict[str, Any] = {}
        self._plies: list[_Ply] = []
        self._entry_plies: list[_Ply] = []    # the ply of each entry of ``moves`` (set-positions have none)
        self._deb = Debouncer(self.settings.bounce_s)
        self._phase = SETUP
        self._seg = _Segment(0.0, frozenset())
        self._deferred: deque = deque()
        self._out: list[Output] = []
        self._now = 0.0
        s = self.settings
        extra_clock = bool(header.extra.get("clock")) or "TimeControl" in header.tags
        self._clock_mode = s.use_clock if s.use_clock is not None else extra_clock
        self._times: tuple[int | None, int | None] = (None, None)
        self._running: str | None = None
        self._await_time: int | None = None
        self._undo: _Undo | None = None
        self._taken_back: tuple[tuple, int] | None = None   # (move key, irregularity index)
        self._split: tuple[int, float, Any, frozenset[int], int] | None = None
        self._held: _HeldPress | None = None
        self._pieces: dict[int, str] | None = None
        self._number = 1                  # PDN number of the next move of the side to move
        self._indexes: dict[tuple, PositionIndex] = {}   # board key -> candidates of that position
        writer = FenWriter(self.variant)
        self._fen = writer.fen
        self._fen_of = writer.fen_of
        self._indexed: tuple[Board | None, Any] = (None, None)   # the board last looked up, its index
        self._occ: frozenset[int] = frozenset()       # confirmed occupancy, change by change
        self._setup_flagged: int | None = None
        self._lost: int | None = None
        self._lost_target: Board | None = None
        self._recheck: tuple | None = None   # a correction that the next change may show was a move
        self._batch_more = False             # the change being read has more of its frame after it
        self._removal_plan: Explanation | None = None   # _plan's reading when the lift it was given is a removal
        self._init_faults()

    # -- public API ------------------------------------------------------------------------

    def feed(self, event: Frame | ClockEvent | ArbiterEvent | HealthLine) -> list[Output]:
        """Take one event (in time order) and return what it decided."""
        self._out = []
        t = event.t
        self._pump(t)
        if isinstance(event, Frame):
            if event.pieces is not None:
                self._pieces = event.pieces
            deb = self._deb
            occupied = event.occupied if not self._mask.assumed else self._masked_frame(t, event.occupied)
            if deb.raw is None:
                deb.frame(t, occupied)
                self._now = t
                self._first_t = t
                self._on_first_frame(t)
            else:
                deb.take(t, occupied)     # _pump has confirmed the changes up to t
                self._now = t
        else:
            if self._deferred or self._blocked(t):
                self._deferred.append(event)
            else:
                self._now = t
                self._dispatch(event)
        return self._out

    def advance(self, t: float) -> list[Output]:
        """Let time pass to ``t`` with no event (a live source calls this between frames, so the
        debounce and the stability timer decide without waiting for the next frame)."""
        self._out = []
        self._pump(t)
        return self._out

    def finish(self, t: float | None = None) -> list[Output]:
        """End of the input: settle what is pending and commit a move that the board explains."""
        self._out = []
        self._ending = True               # no faulty switch is inferred from a piece still in hand at the end
        end = t if t is not None else self._now
        for c in self._deb.settle():
            self._flush_deferred_before(c.t)
            self._change(c)
        while self._deferred:
            ev = self._deferred.popleft()
            self._now = ev.t
            self._dispatch(ev)
        self._check_stable(end + self.settings.stable_s)
        self._now = max(self._now, end)
        if self._phase == PLAY:
            if self._held is not None:
                self._commit_held("end of the session")
            elif self._split is not None:
                plan = self._plan(self._occ)
                if plan is not None:
                    self._split = None
                    self._commit_plan(plan, self._now, "end of the session")
                else:
                    self._resolve_split()
            if self._seg.changes:
                plan = self._plan(self._occ)
                if plan is not None and not (isinstance(plan, Explanation) and plan.legal and plan.exact) \
                        and self._own_lifts_off(self._seg, self._occ) and self._other_side_move(self._now, self._occ):
                    plan = None       # a legal move of the side not to move explains it exactly: that one
                if plan is not None:
                    self._commit_plan(plan, self._now, "end of the session")
            if self._seg.changes and not self._own_lifted(self._seg):
                # the last board shows a move of the side not to move (a second move after his press,
                # CODEX 42.A): the end of the input is a still board, in clock mode too
                self._other_side_move(self._now, self._occ)
        self._end_of_game_check(self._now)
        return self._out

    def report(self) -> dict[str, Any]:
        """The docs/session-format.md report: moves, irregularities, draw rules, result."""
        draw = {c.rule: c for c in self.counters}
        for rule, c in self._reached.items():
            draw.setdefault(rule, c)
        return {
            "moves": [m.report() for m in self.moves],
            "irregularities": [i.report() for i in self.irregularities],
            "observations": [o.report() for o in self.observations],
            "sensor_faults": [f.report() for f in self.sensor_faults],
            "draw_rules": [{"rule": c.rule, "from_number": c.from_number, "count": c.count, "limit": c.limit,
                            "reached": c.reached} for c in draw.values()],
            "result": self.result,
        }

    @property
    def record(self) -> GameRecord:
        """The game as PDN: each move that stands, ``/FEN/`` setups where the board went on from an
        irregular position, clock comments, the result; a withdrawn move is a comment on the move played
        instead (``{12-16 taken back}``)."""
        tags = dict(self.header.tags)
        record = GameRecord(self.variant, tags, self.header.fen)
        undone: list[str] = []
        for ply in self._plies:
            if ply.withdrawn:
                undone.append(ply.text)
                continue
            comment = ply.comment
            if undone and not ply.setup_only:
                comment = "; ".join([f"{', '.join(undone)} taken back"] + ([comment] if comment else []))
                undone = []
            if ply.setup_before is not None:
                record.add_setup(ply.setup_before)
            if ply.setup_only:
                record.add_setup(ply.fen_after, comment)
            elif ply.legal and ply.move is not None:
                record.add_move(ply.board_before, ply.move, None if ply.needs_setup else comment,
                                None if ply.needs_setup else ply.clock)
                if ply.needs_setup:
                    record.add_setup(ply.fen_after, comment, ply.clock)
            else:
                record.add_setup(ply.fen_after, comment, ply.clock)
        record.set_result(self.result)
        return record

    def pdn(self) -> str:
        return self.record.to_pdn()

    # -- time and ordering -------------------------------------------------------------------

    def _blocked(self, t: float) -> bool:
        p = self._deb.earliest_pending()
        return p is not None and p <= t

    def _pump(self, t: float) -> None:
        """Confirm the debounced changes up to ``t`` and release deferred events, in time order."""
        deb = self._deb
        if deb.pending:
            changes = deb.confirm(t)
            last = len(changes) - 1
            for i, c in enumerate(changes):
                if self._deferred:
                    self._flush_deferred_before(c.t)
                self._check_stable(c.t)
                # more changes of the same frame follow: no take-back is read from a state between them
                self._batch_more = i < last and changes[i + 1].t == c.t
                self._change(c)
            self._batch_more = False
        while self._deferred and not self._blocked(self._deferred[0].t) and self._deferred[0].t <= t:
            ev = self._deferred.popleft()
            self._check_stable(ev.t)
            self._now = ev.t
            self._dispatch(ev)
        self._check_stable(t)

    def _flush_deferred_before(self, t: float) -> None:
        while self._deferred and self._deferred[0].t < t:
            ev = self._deferred.popleft()
            self._check_stable(ev.t)
            self._now = ev.t
            self._dispatch(ev)

    def _check_stable(self, t: float) -> None:
        """Without a clock: a board unchanged for ``stable_s`` that shows a legal move commits it."""
        phase = self._phase
        seg = self._seg
        if phase == PLAY:
            last = seg.last_change
            if last is None or last + self.settings.stable_s > t or not seg.changes:
                return
        else:
            if phase == SETUP:
                self._check_setup(t)
            return
        deadline = seg.last_change + self.settings.stable_s
        p = self._deb.earliest_pending()
        if p is not None and p <= deadline:
            return
        seg.last_change = None      # decided: nothing more until the board changes again
        # (without a clock, a piece the opponent lifted after the mover's move accounts for its colour gone)
        if (self._split is None or self._clock_mode) and self._unplayable(self._occ):
            # a capture by the side not to move (a second move, CODEX 42.A) takes a piece of the
            # side to move: both colours gone, yet one move explains it
            if not self._other_side_move(deadline, self._occ):
                self._lose(deadline, self._occ)
            return
        if self._clock_mode:
            return
        if self._split is not None:
            if self._split[4] in self._occ:
                self._resolve_split()     # the opponent's piece is back: he touched it, his turn began
                return
            plan = self._split[2]
            if isinstance(plan, Explanation) and self._split[4] in plan.standing:
                self._split = None        # a captured piece taken off and left off: the mover removed it
                plan = self._plan(self._occ)
                if plan is not None:
                    self._commit_plan(plan, deadline, f"board stable for {self.settings.stable_s:g} s")
                return
            # it stayed off: in its owner's hand (he thinks with it) or taken off by the mover; without a
            # clock the sensors cannot tell: his turn began, and an observation says what may have happened
            self._held_off_observation(deadline)
            self._resolve_split()
            return
        expl = self._explain()
        if expl is not None and expl.legal and expl.exact:
            self._commit(expl, deadline, f"board stable for {self.settings.stable_s:g} s")
        elif not self._own_lifted(seg) or self._own_lifts_off(seg, self._occ):
            # his pieces gone may be the ones a second move of the opponent captured (CODEX 42.A)
            self._other_side_move(deadline, self._occ)

    def _unplayable(self, occ: frozenset[int]) -> bool:
        """A still board no move (or move in progress) accounts for: pieces of both colours gone
        that no capture takes, or more changed squares than any move makes (FPD 7.4; CODEX 46-48)."""
        seg = self._seg
        changed = occ ^ seg.occ0
        if len(changed) >= self._lost_limit():
            return True
        removed = seg.occ0 - occ
        board = self.board
        colours = {p[0] for p in map(board.piece_at, removed) if p is not None}
        if len(removed) < 2 or len(colours) < 2:
            return False
        expl = self._explain(occ)
        if expl is not None and expl.kind != "illegal-move":
            return False
        own = [s for s in removed if (board.piece_at(s) or (None,))[0] == board.turn]
        if len(own) == 1:
            theirs = removed - {own[0]}
            added = occ - seg.occ0
            for m, _ in self._index().sequences:
                if m.origin == own[0] and theirs <= set(m.captured) and added <= set(m.path):
                    return False
        return True

    # -- events ------------------------------------------------------------------------------

    def _dispatch(self, ev: ClockEvent | ArbiterEvent) -> None:
        if isinstance(ev, ClockEvent):
            self._clock(ev)
        elif isinstance(ev, WaitingPress):
            self._clock(ev.event)
            self._waited.discard(id(ev.event))
        elif isinstance(ev, HealthLine):
            self._health_line(ev)
        else:
            self._arbiter(ev)

    def _on_first_frame(self, t: float) -> None:
        occ = self._occ = frozenset(self._deb.stable)
        if self.trace:
            self._note(t, f"first frame: {len(occ)} squares occupied")
        self._seg = _Segment(t, occ, pieces=self._pieces)
        self._check_setup(t)

    def _note(self, t: float, text: str) -> None:
        self._out.append(Note(t, text))

    def _emit(self, item: Output) -> None:
        self._out.append(item)

    # -- setup -------------------------------------------------------------------------------

    def _start_occupancy(self) -> frozenset[int]:
        return self.board.occupied()

    def _check_setup(self, t: float) -> None:
        if not self._deb.started or self._phase != SETUP:
            return
        occ = self._occ
        target = self._start_occupancy()
        colours_ok = True
        if occ == target and self._pieces is not None and set(self._pieces) == set(occ):
            want = self.board.piece_codes()
            colours_ok = all(self._pieces[s].lower() == want[s].lower() for s in occ)
        if occ == target and colours_ok and not self._deb.pending:
            self._phase = PLAY
            self._seg = _Segment(t, occ, pieces=self._pieces)
            if self._setup_flagged is not None:
                self._set_status(self._setup_flagged, CORRECTED, t, "the board was set up right")
                self._setup_flagged = None
            self._setup_put_right(t)
            if self.trace:
                self._note(t, "board set up: the game starts")
            return
        last = self._seg.last_change if self._seg.last_change is not None else self._seg.t0
        if self._setup_flagged is None and not self._deb.pending and t - last >= self.settings.stable_s:
            self._flag_setup(occ, colours_ok, max(t, last))

    def _flag_setup(self, occ: frozenset[int], colours_ok: bool, t: float) -> None:
        if colours_ok and self._setup_single(occ, t):
            return                        # one square off: an observation until the first move tells
        target = self._start_occupancy()
        v = self.variant
        if not colours_ok:
            detail = "the colours are on the wrong sides: the board is turned round (180 degrees)"
            squares: tuple[int, ...] = ()
        elif self.header.fen is None and occ == self._turned_start():
            detail = "the board is turned a quarter: the double corner is on the wrong side"
            squares = tuple(sorted(occ ^ target))
        else:
            squares = tuple(sorted(occ ^ target))
            missing = sorted(target - occ)
            extra = sorted(occ - target)
            detail = f"start position differs: missing {missing}, extra {extra}"
        self._setup_flagged = self._irregular("wrong-setup", t, squares, detail, white=self.board.turn,
                                              number=self._number)
        del v

    def _turned_start(self) -> frozenset[int]:
        v = self.variant
        rows = len(v.white_start) // v.half
        return frozenset(s for s in range(1, v.squares + 1)
                         if v.coords(s)[0] < rows or v.coords(s)[0] >= v.size - rows)

    # -- square changes ----------------------------------------------------------------------

    def _change(self, c: SquareChange) -> None:
        if c.up:
            self._occ = self._occ - {c.square}
        else:
            self._occ = self._occ | {c.square}
            self._closed_once.add(c.square)   # the switch works (a faulty one is looked for elsewhere first)
        if self.trace:
            self._note(c.t, f"{'lift' if c.up else 'place'} {self.variant.square_name(c.square)}")
        if self._phase == SETUP:
            self._seg.last_change = c.t
            if self._setup_fault(c):
                return
            self._check_setup(c.t)
            return
        if self._phase == OVER:
            return
        if self._phase == LOST:
            self._lost_check(c.t)
            return
        if self._recheck is not None:
            self._recheck_correction(c)
        occ = self._occ
        seg = self._seg
        mover = self.board.turn
        piece = self.board.piece_at(c.square) if c.up and c.square in seg.occ0 else None
        if piece is not None:
            occ_before = occ | {c.square}     # the square was occupied before this lift
        if self._mask.assumed and self._split is None and seg.changes and self._masked_reply(c, occ):
            seg = self._seg                   # the opponent's move from a masked square began
            piece = None
        if piece is not None and piece[0] != mover and seg.changes:
            # an opponent's piece leaves the board: a capture being cleared, a wrong removal, or his move
            if self._split is None:
                self._removal_plan = None
                plan = self._plan(occ_before, c.square)
                if plan is not None:
                    self._split = (len(seg.changes), c.t, plan, occ_before, c.square)
                elif seg.placed_at and (split := self._phantom_free_split(seg, c, occ_before)) is not None:
                    self._split = split
                elif not self._clock_mode and not self._batch_more:
                    self._split = self._standing_split(seg, c, occ_before)
            elif self._split[4] not in occ_before and self._held is not None:
                # the first piece stayed off: the mover took it off before pressing; this lift starts the reply
                self._commit_held(f"{_SIDE[not mover]} lifted {self.variant.square_name(c.square)}: his move starts")
                seg = self._seg
            elif self._split[4] not in occ_before:
                self._removal_plan = None
                plan = self._plan(occ_before, c.square)
                if plan is None and seg.placed_at and (split := self._phantom_free_split(seg, c, occ_before)):
                    plan, occ_before = split[2], split[3]
                if plan is not None:
                    # the first piece stayed off: the mover took it off; this lift starts the reply
                    self._split = None
                    self._commit_plan(plan, c.t, f"{_SIDE[not mover]} lifted {self.variant.square_name(c.square)}:"
                                                 " his move starts", occ_before)
                    seg = self._seg
                elif self._removal_plan is not None and self._split_is_removal(c.square):
                    self._split = None    # another captured piece taken off: the first was the mover's removal too
        elif piece is not None and piece[0] == mover:
            if self._held is not None:
                self._commit_held(f"{_SIDE[mover]} lifted {self.variant.square_name(c.square)} after his press")
                seg = self._seg
            elif self._split is not None:
                if self._split_captures(c.square):
                    self._resolve_split()     # the lifted piece is one the opponent's capture took
                    seg = self._seg
                elif self._mask.assumed and self._split_to_masked():
                    # the opponent's piece went to a masked square, unseen: his move is read as it stands,
                    # and this lift begins the reply (tentative, like any first lift of the side not to move)
                    self._resolve_split()
                    seg = self._seg
                    plan = self._plan(occ_before, c.square)
                    if plan is not None:
                        self._split = (len(seg.changes), c.t, plan, occ_before, c.square)
                else:
                    self._split = None      # the mover is still at work
            elif seg.changes and occ_before != seg.occ0 and (not self._own_lifted(seg)
                                                             or self._own_lifts_off(seg, occ_before)):
                # the mover begins while the board shows a move of his opponent: a second move
                # in one turn (CODEX 42.A), or the reply to a press without a move (FPD 7.5b); his
                # pieces already off may be the ones that move captured (the move then shows exactly)
                if self._other_side_move(c.t, occ_before):
                    seg = self._seg
        elif c.up and self._split is not None and self._split_captures(c.square):
            self._resolve_split()       # the piece the mover just played is taken by the opponent's capture
            seg = self._seg
        self._record_change(seg, c)
        split = self._split
        if split is not None and not c.up:
            if c.square not in split[3] and self._split_lands(split, c.square):
                self._resolve_split()
                return
            if self._held is not None and c.square == split[4]:
                # the piece is back where it stood: the mover had taken it off before his press
                self._commit_held(f"{self.variant.square_name(c.square)} put back after the press")
                seg = self._seg
        if self._undo is not None and not self._batch_more and self._try_undo(c.t, occ):
            return
        if len(occ ^ seg.occ0) >= self._lost_limit():
            self._lose(c.t, occ)

    def _record_change(self, seg: _Segment, c: SquareChange) -> None:
        s = c.square
        seg.changes.append(c)
        seg.last_change = c.t
        if c.up and s in seg.occ0:
            piece = self.board.piece_at(s)
            if piece is not None and piece[0] == self.board.turn:
                seg.last_own_lift = s
        elif not c.up and s not in seg.occ0 and seg.last_own_lift is not None:
            seg.hints[s] = seg.last_own_lift
        if c.up:
            if s in seg.occ0 and s not in seg.placed_at:
                seg.lifted_at[s] = c.t
                if seg.pieces is None and self._pieces is not None and not seg.lift_order:
                    seg.pieces = self._pieces
                seg.lift_order.append(s)
            elif s in seg.placed_at:
                down = seg.placed_at.pop(s)
                if s not in seg.occ0 and c.t - down >= self.settings.touch_s:
                    seg.landings[s] = c.t - down
                if s in seg.occ0:
                    seg.lifted_at[s] = c.t
                    seg.lift_order.append(s)
        else:
            if s in seg.occ0 and s in seg.lifted_at:
                up = seg.lifted_at.pop(s)
                if c.t - up >= self.settings.touch_s:
                    seg.touches.append((s, up, c.t))
            seg.placed_at[s] = c.t

    def _index(self, board: Board | None = None) -> PositionIndex:
        """The candidates of ``board`` (default: the engine's board), built once per position."""
        board = self.board if board is None else board
        if board is self._indexed[0]:
            return self._indexed[1]       # boards are never changed once looked up: one per position
        key = board.key()
        index = self._indexes.get(key)
        if index is None:
            if len(self._indexes) >= 16:
                self._indexes.clear()     # positions of past turns are not looked up again
            index = self._indexes[key] = PositionIndex(board, shared=True)
        self._indexed = (board, index)
        return index

    def _lost_limit(self) -> int:
        board, index = self._indexed
        if board is not self.board:
            index = self._index()
        return index.longest + 2 + self.settings.lost_squares

    # -- explaining and committing -----------------------------------------------------------

    def _explain(self, occ: frozenset[int] | None = None, board: Board | None = None) -> Explanation | None:
        seg = self._seg
        occ = self._occ if occ is None else occ
        board = self.board if board is None else board
        expl = explain(board, seg.occ0, occ, frozenset(seg.landings), tuple(seg.lift_order), seg.hints,
                       self._index(board))
        if self._mask.assumed and (expl is None or not (expl.legal and expl.exact)):
            expl = self._explain_masked(board, occ, expl)
        return expl

    def _two_moves(self, occ: frozenset[int] | None = None, reuse: bool = False
                   ) -> tuple[Explanation, frozenset[int], float, Explanation] | None:
        """The segment read as two moves of the mover (CODEX 42.A): the first point where the board
        showed a complete legal move, and a second move from there. ``reuse``: also when the second
        move may have ended on the square the first left (fewer changed squares than two moves)."""
        seg = self._seg
        occ = self._occ if occ is None else occ
        if not reuse and len(occ - seg.occ0) < 2 and len(seg.occ0 - occ) < 2:
            return None
        cur = seg.occ0
        for c in seg.changes:
            cur = cur - {c.square} if c.up else cur | {c.square}
            if c.up or cur == occ:
                continue
            first = explain(self.board, seg.occ0, cur, index=self._index())
            if first is None or not first.legal or not first.exact:
                continue
            mid = _snap(self.board)
            mid.push(first.move)
            mid = _snap(mid)
            mid.turn = self.board.turn
            second = explain(mid, cur, occ, index=self._index(mid))
            if second is not None:
                return first, cur, c.t, second
        return None

    def _own_lifted(self, seg: _Segment) -> bool:
        turn = self.board.turn
        return any(self.board.piece_at(x) is not None and self.board.piece_at(x)[0] == turn
                   for x in seg.lift_order)

    def _own_lifts_off(self, seg: _Segment, occ: frozenset[int]) -> bool:
        """Every piece of the side to move lifted in the segment is still off the board at ``occ``."""
        turn = self.board.turn
        return all(x not in occ for x in seg.lift_order
                   if self.board.piece_at(x) is not None and self.board.piece_at(x)[0] == turn)

    def _other_side_move(self, t: float, occ: frozenset[int]) -> bool:
        """Commit the segment as a legal move of the side NOT to move, if it is one exactly."""
        seg = self._seg
        other = _snap(self.board)
        other.turn = not other.turn
        expl = explain(other, seg.occ0, occ, frozenset(seg.landings), tuple(seg.lift_order), index=self._index(other))
        if expl is None or not expl.legal or not expl.exact:
            return False
        passed = self._passes(t, _SIDE[other.turn])
        self._commit(expl, t, "a move of the side not to move", occ_after=occ, other_side=True,
                     pass_accepted=passed)
        return True

    def _plan(self, occ: frozenset[int], lifted: int | None = None, faults: bool = True):
        """The mover's move(s) the board shows at ``occ``: an explanation, a two-move pair, or None.
        With ``lifted`` (an opponent's square just lifted) None also when that lift is a removal (the
        explanation is then kept in ``_removal_plan``). ``faults``: try a faulty switch when nothing else
        explains the board."""
        expl = self._explain(occ)
        if expl is not None:
            if lifted is not None and (lifted in expl.standing or lifted in expl.move.captured):
                self._removal_plan = expl
                return None
            if expl.kind == "illegal-move":
                # two legal moves, the second onto the square the first left (7-10 then 3-7), show the
                # same squares as one illegal move (3-10): the order of the changes tells (CODEX 42.A)
                two = self._two_moves(occ, reuse=True)
                if two is not None and two[0].legal and two[3].legal and two[3].exact:
                    return two
            return expl
        two = self._two_moves(occ)
        return two if two is not None or not faults else self._fault_plan(occ, lifted)

    def _commit_plan(self, plan, t: float, reason: str, occ_after: frozenset[int] | None = None) -> None:
        if isinstance(plan, Explanation):
            self._commit(plan, t, reason, occ_after=occ_after)
        else:
            first, mid, t_mid, second = plan
            rest = self._occ if occ_after is None else occ_after
            self._commit(first, t_mid, reason, occ_after=mid)
            self._commit(second, t, "a second move in the same turn (CODEX 42.A)", occ_after=rest,
                         other_side=True)

    def _resolve_split(self) -> None:
        """The opponent's move has begun (his lifted piece came down elsewhere, or he pressed) although
        the mover never pressed: commit the mover's move as it stood at the opponent's first lift, and
        read the rest as the opponent's turn."""
        assert self._split is not None
        index, t, plan, occ_at, _sq = self._split
        self._split = None
        self._cut(index, t, plan, occ_at, f"{_SIDE[not self.board.turn]} began his move before a clock press")

    def _cut(self, index: int, t: float, plan, occ_at: frozenset[int], reason: str) -> None:
        """Commit ``plan`` from the segment's first ``index`` changes (the board then showed ``occ_at``)
        and start the next turn with the changes after them."""
        old = self._seg
        rest = old.changes[index:]
        self._seg = _Segment(old.t0, old.occ0, pieces=old.pieces)
        for c in old.changes[:index]:
            self._record_change(self._seg, c)
        self._commit_plan(plan, t, reason, occ_at)
        seg = self._seg
        for c in rest:
            self._record_change(seg, c)

    def _physical_after(self, expl: Explanation, occ: frozenset[int]) -> Board:
        """The position as it stands after ``expl``'s move: captured pieces still standing keep
        their colour, pieces missing are gone; the opponent is to move."""
        before = self.board
        after = _snap(before)
        if expl.legal:
            after.push(expl.move)
            after.move_stack.clear()
            after._stack.clear()
        else:
            pieces = before.pieces()
            piece = pieces.pop(expl.move.origin)
            for s in expl.move.captured:
                pieces.pop(s, None)
            pieces[expl.move.destination] = (piece[0], piece[1] or expl.move.promotes)
            after.set_pieces(pieces, not before.turn)
        if expl.standing or expl.missing:
            pieces = after.pieces()
            old = before.pieces()
            for s in expl.standing:
                pieces[s] = old[s]
            for s in expl.missing:
                pieces.pop(s, None)
            after.set_pieces(pieces, after.turn)
        return after

    def _irregular(self, kind: str, t: float, squares, detail: str, white: bool, number: int,
                   before: Board | None = None) -> int:
        """Record an irregularity, cited by the rule set in force; ``before``: the position it was committed
        from (default the engine's board), what an arbiter's ``rectify`` restores where the book says so."""
        rule = self.judge.rule(kind) or RULES.get(kind, "")
        irr = Irregularity(kind, number, _SIDE[white], t, tuple(squares), rule, OPEN, detail)
        self.irregularities.append(irr)
        self._emit(irr)
        index = len(self.irregularities) - 1
        self.judge.remember(index, self.board if before is None else before)
        return index

    def _observe(self, kind: str, t: float, squares, detail: str, white: bool, number: int, why: str) -> int:
        """Record an observation for review: ``kind`` an irregularity id whose facts the sensors cannot prove
        (``why`` says what is missing). Never changes the game or its status."""
        rule = self.judge.rule(kind) or RULES.get(kind, "")
        obs = Observation(kind, number, _SIDE[white], t, tuple(squares), rule, why, OPEN, detail)
        self.observations.append(obs)
        self._emit(obs)
        return len(self.observations) - 1

    def _sensor_fault(self, square: int, kind: str, since: float, detail: str = "") -> None:
        """Report a faulty switch once (by square and kind)."""
        if any(f.square == square and f.kind == kind for f in self.sensor_faults):
            return
        fault = SensorFault(square, kind, since, detail)
        self.sensor_faults.append(fault)
        self._emit(fault)

    def _set_status(self, index: int, status: str, t: float, reason: str) -> None:
        irr = self.irregularities[index]
        if irr.status == status:
            return
        self.irregularities[index] = replace(irr, status=status)
        self._emit(IrregularityUpdate(index, status, t, reason))

    def _accept_open(self, mover: bool, t: float) -> list[int]:
        """The mover plays on: his move accepts every open irregularity of his opponent where the book says
        so (CODEX art. 43, 50; FMJD 5.7); under the FPD (000 7.5a, 001 5.1.3) they stay open for the arbiter
        and the move is played from an irregular position: the indexes of those he now plays on from."""
        side = _SIDE[not mover]
        judge = self.judge
        still: list[int] = []
        for i, irr in enumerate(self.irregularities):
            if irr.status == OPEN and irr.side == side and irr.type not in ("position-lost", "wrong-setup"):
                if judge.accepts(irr.type):
                    self._set_status(i, ACCEPTED, t, f"{_SIDE[mover]} played on")
                elif i not in judge.replied:
                    judge.replied.add(i)
                    still.append(i)
        if still:
            self._note(t, f"{_SIDE[mover]} played on from an irregular position: "
                          f"{self._irregular_position(still)}; open for the arbiter")
        return still

    def _passes(self, t: float, by: str) -> bool:
        """The side to move pressed without a move (FPD 7.5b) and ``by``, his opponent, now moved: the turn
        passed. Accepted where the book says so; otherwise the reply's commit (``_accept_open``) leaves it open
        for the arbiter and marks the reply as played from an irregular position."""
        judge = self.judge
        passed = [i for i, irr in enumerate(self.irregularities)
                  if irr.type == "clock-without-move" and irr.status == OPEN and irr.side == _SIDE[self.board.turn]
                  and i not in judge.replied]
        if passed and judge.accepts("clock-without-move"):
            for i in passed:
                self._set_status(i, ACCEPTED, t, f"{by} played on")
        return bool(passed)

    def _commit(self, expl: Explanation, t: float, reason: str, *, occ_after: frozenset[int] | None = None,
                other_side: bool = False, pass_accepted: bool = False) -> None:
        """Write the segment's move: the entry, its irregularities, the record, the tracker; the board
        becomes the position as it stands and the opponent's turn begins."""
        seg = self._seg
        occ = self._occ if occ_after is None else occ_after
        setup_before = None
        in_turn = self.board              # the position with the side whose turn it was to move
        if other_side:
            flipped = _snap(self.board)
            flipped.turn = not flipped.turn
            self.board = flipped
            setup_before = self._fen(flipped)
        board_before = self.board         # never changed in place: the board is replaced below
        mover = board_before.turn
        held = self._held
        if held is not None:
            self._held = None
            if (held.event.side == "white") != mover:
                held = None
            else:
                t = min(t, held.at)
        two_moves = other_side and not pass_accepted
        if pass_accepted and mover:
            self._number += 1         # black's turn passed (FPD 7.5b): white's reply opens the next number
        number = self._number - (1 if two_moves and not mover else 0)
        if not mover and not two_moves:
            self._number += 1
        move = expl.move
        name = self.variant.square_name
        index = self._index(board_before)
        text = board_before.move_text(move, index.to(move.destination)) if expl.legal else move.text(name=name)
        after = self._physical_after(expl, occ)
        from_irregular = self._accept_open(mover, t)
        found: list[int] = []
        if two_moves:
            found.append(self._irregular("two-moves", t, (move.origin, move.destination),
                                         f"{_SIDE[mover]} moved again: {text}", mover, number, before=in_turn))
        if expl.kind is not None:
            due = ", ".join(board_before.move_text(m, index.moves) for m in index.legal_moves[:6])
            detail = {"capture-not-taken": f"{text} played; a capture was compulsory ({due})",
                      "capture-rule-violated": f"{text} took {len(move.captured)}; the law requires one of {due}",
                      "capture-incomplete": f"{text} stopped before the end of the capture",
                      "illegal-move": f"{text} is not a move the rules allow"}[expl.kind]
            found.append(self._irregular(expl.kind, t, move.path, detail, mover, number))
        if expl.standing:
            found.append(self._irregular("capture-not-removed", t, sorted(expl.standing),
                                         "captured pieces still on the board: "
                                         + ", ".join(name(s) for s in sorted(expl.standing)), mover, number))
        opp_missing = own_missing = ()
        if expl.missing:
            opp_missing = sorted(s for s in expl.missing if board_before.piece_at(s)[0] != mover)
            own_missing = sorted(s for s in expl.missing if board_before.piece_at(s)[0] == mover)
        if opp_missing:
            found.append(self._irregular("wrong-piece-removed", t, opp_missing,
                                         "not captured, removed: " + ", ".join(name(s) for s in opp_missing),
                                         mover, number))
        if own_missing:
            found.append(self._irregular("own-piece-removed", t, own_missing,
                                         "own pieces removed: " + ", ".join(name(s) for s in own_missing),
                                         mover, number))
        found.extend(self._trail_irregularities(board_before, index, expl, t, number))
        legal_in_record = expl.legal
        fen_after = partial(self._fen_of, after.wm, after.wk, after.bm, after.bk, after.turn)
        entry = MoveEntry.lazy(number, _SIDE[mover], text, t, None, move, expl.legal and not two_moves, fen_after)
        needs_setup = legal_in_record and (bool(expl.standing) or bool(expl.missing))
        comment = None
        if found:
            comment = "; ".join(self.irregularities[i].type for i in found)
            if not legal_in_record:
                comment = f"{_SIDE[mover]} {text}: {comment}"
        if from_irregular:
            comment = "; ".join(([comment] if comment else []) + [self._irregular_position(from_irregular)])
        ply = _Ply(board_before, move, legal_in_record, fen_after, setup_before, needs_setup, None, comment,
                   found, start=seg.t0, text=text)
        self._plies.append(ply)
        self.moves.append(entry)
        self._entry_plies.append(ply)
        self._emit(entry)
        if self.trace or found:
            self._note(t, f"commit {_SIDE[mover]} {text} ({reason})")
        # the tracker follows the record
        if setup_before is not None:
            self.tracker.set_position(setup_before)
        if legal_in_record:
            self.tracker.push(move)
            if needs_setup:
                self.tracker.set_position(ply.fen_after)
        else:
            self.tracker.set_position(ply.fen_after)
        legal_after = None
        if needs_setup:
            legal_after = _snap(board_before)
            legal_after.push(move)
            legal_after = _snap(legal_after)
        self._undo = _Undo(len(self._plies) - 1, seg.occ0, board_before, legal_after)
        if self._taken_back is not None:
            key, idx = self._taken_back
            if key == move.key and board_before.key() == self._undo.board_before.key():
                self._set_status(idx, CORRECTED, t, "the same move was played again")
            self._taken_back = None
        self.board = after
        self._await_time = None
        if held is not None:
            self._pressed(len(self.moves) - 1, held.event, held.times)
        self._seg = _Segment(t, occ, pieces=self._pieces)
        self._split = None
        if self._mask.assumed:
            self._mask_sync()
        self._counters(t)
        if legal_after is None:
            # with the board short of the legal result (a piece wrongly taken off) the game is not over
            # yet: the correction may give the opponent his move back; it ends at the correction or finish()
            self._end_of_game_check(t)

    def _trail_irregularities(self, board: Board, index: PositionIndex, expl: Explanation, t: float,
                              number: int) -> list[int]:
        """Touch-move, release, early and out-of-order removal and crowning, from the turn's evidence, each
        judged by the rule set's book (``self.judge``: FPD 000 4.3-4.6, 001 5.1.1, FMJD 002 3.11, 4.11,
        CODEX 004 42.C): reported, reported as an observation, or not at all."""
        seg = self._seg
        mover = board.turn
        move = expl.move
        found: list[int] = []
        name = self.variant.square_name
        judge = self.judge
        flag = partial(self._flag, found, t, mover, number)
        touches = seg.touches
        if touches:
            first_lift = min((c.t for c in seg.changes if c.up and c.square == move.origin), default=None)
            sq = judge.touched_not_moved(index, move, touches, first_lift)
            if sq:
                flag("touched-piece-not-moved", sq, f"touched {', '.join(name(s) for s in sq)}"
                     f"{' first' if len(sq) == 1 and len(touches) > 1 else ''}, played {name(move.origin)}")
            touched_opp = sorted({s for s, _, _ in touches
                                  if board.piece_at(s) is not None and board.piece_at(s)[0] != mover})
            if touched_opp:
                flag("opponent-piece-touched", touched_opp,
                     "lifted and put back: " + ", ".join(name(s) for s in touched_opp))
        stray = sorted(s for s in seg.landings if s not in move.path) if seg.landings else ()
        if stray:
            found.extend(self._release_findings(stray, move, t, number))
        if move.captured:
            final = seg.placed_at.get(move.destination)
            if final is None and move.origin == move.destination:
                final = max((c.t for c in seg.changes if c.square == move.origin and not c.up), default=None)
            early = sorted(s for s in move.captured
                           if s in seg.lifted_at and final is not None and seg.lifted_at[s] < final)
            if early:
                found.extend(self._early_removal_findings(early, move, final, t, number))
            order = judge.removal_out_of_order(move, seg.lifted_at)
            if order is not None:
                flag("capture-removed-out-of-order", order,
                     f"removed {', '.join(name(s) for s in order)}; jumped "
                     f"{', '.join(name(s) for s in move.captured)}",
                     "disorder is rectified only at the opponent's request, which the sensors cannot hear")
        if seg.pieces is not None:
            piece = board.piece_at(move.origin)
            seen = seg.pieces.get(move.origin)
            if piece is not None and piece[1] and seen in ("w", "b"):
                as_man = _snap(board)
                pieces = as_man.pieces()
                pieces[move.origin] = (piece[0], False)
                as_man.set_pieces(pieces, board.turn)
                if not any(m.key == move.key for m in as_man.legal_moves):
                    flag("uncrowned-king-moved", (move.origin,),
                         f"the man on {name(move.origin)} was not crowned yet",
                         "the book makes the piece a king on the base; whose the missing crown is, the sensors "
                         "cannot tell")
        return found

    def _counters(self, t: float) -> None:
        counters = tuple(self.tracker.counters())
        if counters != self.counters:
            self.counters = counters
            self._emit(CounterUpdate(t, counters))
        for c in counters:
            if c.reached:
                self._reached[c.rule] = c

    def _end_of_game_check(self, t: float) -> None:
        if self._phase != PLAY or self._index().has_moves:
            return
        outcome = self.tracker.outcome()
        if outcome is not None and self.result == "*":
            self._end(t, result_text(self.variant, outcome),
                      f"{_SIDE[self.tracker.board.turn]} has no move (FPD 5.2; FMJD 7.2; CODEX 57.A)")

    def _end(self, t: float, result: str, reason: str) -> None:
        self.result = result
        self.result_reason = reason
        self._phase = OVER
        self._emit(GameEnd(t, result, reason))

    # -- corrections and take-backs ----------------------------------------------------------

    def _try_undo(self, t: float, occ: frozenset[int]) -> bool:
        undo = self._undo
        assert undo is not None
        if undo.ply != len(self._plies) - 1:
            self._undo = None
            return False
        ply = self._plies[undo.ply]
        if not ply.irregularities and undo.legal_after is None and occ != undo.occ_before:
            return False                  # nothing to correct, and not put back: the usual change
        open_irr = [i for i in ply.irregularities if self.irregularities[i].status == OPEN]
        if occ == undo.occ_before and occ != self._seg.occ0 and not (self._mask.assumed
                                                                     and self._masked_move_shows(occ)):
            entry = self._withdraw(t, undo)
            if open_irr:
                for i in open_irr:
                    self._set_status(i, CORRECTED, t, "the board was put back before the opponent moved")
            elif ply.move is not None:
                idx = self._irregular("move-taken-back", t, (ply.move.origin, ply.move.destination),
                                      f"{entry.move_text} was taken back", ply.board_before.turn, entry.number,
                                      before=Board(self.variant, ply.fen_after))
                self._taken_back = (ply.move.key, idx)
            return True
        if undo.legal_after is not None and occ == undo.legal_after.occupied():
            lifted = self._seg.occ0 - occ
            if len(lifted) == 1 and not occ - self._seg.occ0:
                # a standing captured piece lifted by its owner (now to move): taken off, or his move with it;
                # kept to check against the next change (CODEX 004 art. 42.K)
                i = self._entry_of(ply)
                self._recheck = (next(iter(lifted)), self.board, self._seg, ply, i, self.moves[i], undo,
                                 undo.legal_after, [(k, self.irregularities[k].status) for k in open_irr])
            for i in open_irr:
                if self.irregularities[i].type in ("capture-not-removed", "wrong-piece-removed",
                                                   "own-piece-removed"):
                    self._set_status(i, CORRECTED, t, "the board was put right before the opponent moved")
            ply.needs_setup = False
            ply.fen_after = self._fen(undo.legal_after)
            i = self._entry_of(ply)
            self.moves[i] = self.moves[i].evolve(fen_after=ply.fen_after)
            self.board = _snap(undo.legal_after)
            self._rebuild_tracker()
            self._seg = _Segment(t, occ, pieces=self._pieces)
            if self._mask.assumed:
                self._mask_sync()
            undo.legal_after = None
            self._end_of_game_check(t)
            return True
        if open_irr and not ply.legal or any(self.irregularities[i].type == "capture-incomplete" for i in open_irr):
            expl = explain(undo.board_before, undo.occ_before, occ, index=self._index(undo.board_before))
            if expl is not None and expl.legal and expl.exact:
                self._withdraw(t, undo)
                for i in open_irr:
                    self._set_status(i, CORRECTED, t, "the move was put right before the opponent moved")
                self._commit(expl, t, "the move read again after the correction")
                return True
        return False

    def _withdraw(self, t: float, undo: _Undo) -> MoveEntry:
        """Withdraw the last move (docs/engine-contract.md): it stays in ``moves``, marked, and leaves the
        record; the board is back where it was before it, and the move is read again."""
        ply = self._plies[undo.ply]
        ply.withdrawn = True
        index = self._entry_of(ply)
        entry = self.moves[index] = self.moves[index].evolve(withdrawn=True)
        self._number = entry.number
        self._emit(MoveWithdrawn(t, index, entry.move_text))
        self.board = _snap(undo.board_before)
        self._undo = None
        self._await_time = None
        self._rebuild_tracker()
        self._seg = _Segment(t, undo.occ_before, pieces=self._pieces)
        self._split = None                # its changes were of the segment just undone
        if self._mask.assumed:
            self._mask_sync()
        return entry

    def _rebuild_tracker(self) -> None:
        tracker = GameTracker(self.header.ruleset, _snap(self.start_board))
        for ply in self._plies:
            if ply.withdrawn:
                continue
            if ply.setup_before is not None:
                tracker.set_position(ply.setup_before)
            if ply.setup_only:
                tracker.set_position(ply.fen_after)
            elif ply.legal and ply.move is not None:
                tracker.push(ply.move)
                if ply.needs_setup:
                    tracker.set_position(ply.fen_after)
            else:
                tracker.set_position(ply.fen_after)
        for white in self.tracker.flags:
            tracker.flag(white)
        self.tracker = tracker
        self.counters = tuple(tracker.counters())

    # -- lost positions ----------------------------------------------------------------------

    def _lose(self, t: float, occ: frozenset[int]) -> None:
        squares = tuple(sorted(occ ^ self._seg.occ0))
        self._phase = LOST
        self._split = None
        self._held = None
        self._lost_target = _snap(self.board)
        self._lost = self._irregular("position-lost", t, squares,
                                     f"{len(squares)} squares changed with no move to explain them",
                                     self.board.turn, self._number)
        self._emit(PositionLost(t, squares))

    def _lost_check(self, t: float) -> None:
        target = self._lost_target
        if target is None or self._occ != target.occupied():
            return
        self._phase = PLAY
        self.board = _snap(target)
        self._seg = _Segment(t, target.occupied(), pieces=self._pieces)
        if self._mask.assumed:
            self._mask_sync()
        self._undo = None
        if self._lost is not None:
            self._set_status(self._lost, CORRECTED, t, "the position was restored")
        self._lost = None
        self._emit(PositionRestored(t, self._fen(target)))

    # -- clock -------------------------------------------------------------------------------

    def _clock(self, ev: ClockEvent) -> None:
        t = ev.t
        if self.settings.use_clock is None and not self._clock_mode:
            self._clock_mode = True
        if ev.event == "press":
            self._press(ev)
        elif ev.event == "time":
            self._times = (ev.white_ms, ev.black_ms)
            held = self._held
            if held is not None and held.times is None and ev.t == held.event.t:
                self._held = replace(held, times=(ev.white_ms, ev.black_ms))
            elif self._await_time is not None and self._await_time < len(self.moves):
                self._stamp(self._await_time, ev.white_ms, ev.black_ms)
                self._await_time = None
            self._emit(ClockUpdate(t, ev.white_ms, ev.black_ms, self._running))
        elif ev.event == "flag":
            white = ev.side == "white"
            self.tracker.flag(white)
            if self._phase == OVER:
                self._note(t, f"{ev.side}'s flag fell after the end of the game")
                return
            outcome = self.tracker.flag_outcome()
            if outcome == "draw":
                self._end(t, result_text(self.variant, "draw"), "both flags fell (CODEX art. 59.A, 60.A)")
            elif outcome is not None and len(self.tracker.flags) == 1:
                self._end(t, result_text(self.variant, outcome),
                          f"{ev.side}'s flag fell (CODEX art. 29, 57.C; FPD 5.4): the arbiter confirms "
                          "whether the opponent could still win")
        elif ev.event in ("pause", "resume"):
            self._running = None if ev.event == "pause" else self._running
            self._note(t, f"clock {ev.event}")
        else:
            self._note(t, f"clock {ev.event}: a gap in the clock record, not an irregularity")

    def _press(self, ev: ClockEvent) -> None:
        t = ev.t
        white = ev.side == "white"
        self._running = _SIDE[not white]
        if self._phase == SETUP:
            self._check_setup(t)
            if self._phase == SETUP:
                occ = self._occ
                if self._setup_flagged is None:
                    self._flag_setup(occ, True, t)
                self._note(t, f"{ev.side} pressed the clock before the board was set up")
                return
        if self._phase in (LOST, OVER) or self._clock_mode is False and self.settings.use_clock is False:
            self._note(t, f"{ev.side} pressed the clock ({self._phase}): ignored")
            return
        at, after = self._press_time(ev)
        n = len(self.moves)
        split = self._split
        if white != self.board.turn and split is not None and (not after or at >= split[1]):
            self._resolve_split()       # the opponent pressed: the piece he lifted began his move
        seg = self._seg
        if white != self.board.turn or after and at < seg.t0:
            # the press ends a move of his that was read before it came (his opponent began)
            last = self._last_standing(ev.side, at if after else None)
            if last is not None and (after or last == self._last_standing()) and not self._entry_plies[last].pressed \
                    and (after or not self._shows_move_of(white)):
                entry = self.moves[last]
                self._note(t, f"{ev.side}'s press ends {entry.number}. {entry.move_text}, read when his "
                              "opponent began")
                if at < entry.t:
                    self.moves[last] = entry.evolve(t=at)
                self._pressed(last, ev)
                return
            if after or not seg.changes or self._occ == seg.occ0:
                self._note(t, f"{ev.side} pressed the clock after his move was read")
                return
            if seg.changes[-1].up and self._air_wait(ev, white):
                return
            self._other_side_commit(t, white)
        elif split is not None and at < split[1]:
            # pressed before the opponent's first lift: the move stood as it was then
            self._held = _HeldPress(ev, at, split[3], split[0])
            self._resolve_split()
            return
        elif split is not None:
            self._held = _HeldPress(ev, at, self._occ, len(seg.changes))
            self._note(t, f"{ev.side} pressed the clock while {_SIDE[not white]}'s piece "
                          f"{self.variant.square_name(split[4])} is off the board: what follows tells "
                          "whether it began his move")
            return
        elif self._occ == seg.occ0:
            if after:
                self._note(t, f"{ev.side}'s press matches no move on the board: no clock-without-move is read "
                              "from a press that came late")
                return
            self._irregular("clock-without-move", t, (), "the clock was pressed with no move on the board",
                            white, self._number)
            return
        else:
            plan = self._plan(self._occ, faults=False)
            if plan is None:
                if not after and self._magnet_wait(ev):
                    return
                plan = self._fault_plan(self._occ, None)
            elif not after and self._landing_wait(ev):
                return
            if plan is not None:
                self._commit_plan(plan, at, f"{ev.side} pressed the clock")
            elif after:
                self._note(t, f"{ev.side}'s press came late and the board shows no move of his: left to what "
                              "follows")
                return
            else:
                self._other_side_commit(t, not white, fallback_for=white)
        if len(self.moves) > n:
            self._pressed(len(self.moves) - 1, ev)

    def _press_time(self, ev: ClockEvent) -> tuple[float, bool]:
        """When the press was made (``clock_t`` of a line that arrived late: replayed after a reconnection,
        docs/clock.md), and whether it is known only after the fact (replayed, inferred from the lever of
        a DGT clock, or later than the debounce window: until then the engine has decided nothing the
        press could have changed); a late arrival is noted in the timeline."""
        extra = ev.extra
        if not extra:
            return ev.t, False
        at = extra.get("clock_t")
        at = ev.t if not isinstance(at, (int, float)) else min(float(at), ev.t)
        flags = [k for k in ("replayed", "inferred") if extra.get(k)]
        after = bool(flags) or at < ev.t - self.settings.bounce_s
        if after:
            when = f"made at {at:.3f}, {ev.t - at:.3f} s before it arrived" if at < ev.t else "time unknown"
            self._note(ev.t, f"{ev.side}'s press came after the fact ({', '.join(flags) or 'late'}; {when})")
        return at, after

    def _last_standing(self, side: str | None = None, at: float | None = None) -> int | None:
        """The index in ``moves`` of the last move (of ``side``) that stands (not withdrawn); with ``at``,
        the last whose turn had begun by then (the move a press made at ``at`` ended)."""
        plies = self._entry_plies
        for i in range(len(plies) - 1, -1, -1):
            ply = plies[i]
            if not ply.withdrawn and (side is None or self.moves[i].side == side) and (at is None or ply.start <= at):
                return i
        return None

    def _entry_of(self, ply: _Ply) -> int:
        plies = self._entry_plies
        return next(i for i in range(len(plies) - 1, -1, -1) if plies[i] is ply)

    def _shows_move_of(self, white: bool) -> bool:
        """The turn's board shows exactly a legal move of ``white`` (the side not to move)."""
        seg = self._seg
        if not seg.changes or self._occ == seg.occ0:
            return False
        other = _snap(self.board)
        other.turn = white
        expl = explain(other, seg.occ0, self._occ, frozenset(seg.landings), tuple(seg.lift_order),
                       index=self._index(other))
        return expl is not None and expl.legal and expl.exact

    def _pressed(self, index: int, ev: ClockEvent, times: tuple[int, int] | None = None) -> None:
        """The mover's press ended move ``index``: the clock times with the press (or the time line that
        follows it) are that move's."""
        self._entry_plies[index].pressed = True
        if times is None and ev.white_ms is not None and ev.black_ms is not None:
            times = (ev.white_ms, ev.black_ms)
        if times is not None:
            self._stamp(index, *times)
            self._await_time = None
        else:
            self._await_time = index

    def _stamp(self, index: int, white_ms: int | None, black_ms: int | None) -> None:
        entry = self.moves[index]
        ms = white_ms if entry.side == "white" else black_ms
        self.moves[index] = entry.evolve(clock_ms=ms)
        self._entry_plies[index].clock = ClockStamp(white_ms, black_ms, entry.side == "black")

    def _commit_held(self, reason: str) -> None:
        """The held press stands as it was made: the mover's move is what the board showed at the press
        (the opponent's piece he had lifted was taken off by the mover); later changes are the opponent's."""
        held = self._held
        assert held is not None
        plan = self._plan(held.occ)
        if plan is None:
            if self._split is not None:
                self._resolve_split()
            else:
                self._held = None         # nothing left to stamp: the press stands as a note
                self._note(held.event.t, f"{held.event.side}'s press matches no move on the board")
            return
        self._split = None
        self._cut(held.index, held.at, plan, held.occ, reason)

    def _other_side_commit(self, t: float, white: bool, fallback_for: bool | None = None) -> None:
        """The board shows a move of the side NOT to move: a second move in one turn (CODEX 42.A), or
        the reply after the mover pressed without moving (FPD 7.5b)."""
        seg = self._seg
        other = _snap(self.board)
        other.turn = not other.turn
        expl = explain(other, seg.occ0, self._occ, frozenset(seg.landings),
                       tuple(seg.lift_order), index=self._index(other))
        if expl is not None and (expl.legal or fallback_for is not None):
            passed = self._passes(t, _SIDE[other.turn])
            self._commit(expl, t, "a move of the side not to move", other_side=True, pass_accepted=passed)
            return
        occ = self._occ
        squares = occ ^ seg.occ0
        if len(squares) >= self.settings.lost_squares:
            self._lose(t, occ)
            return
        mover = self.board.turn
        text = "?(" + " ".join(("+" if s in occ else "-") + self.variant.square_name(s) for s in sorted(squares)) + ")"
        after = self._assign(occ)
        idx = self._irregular("illegal-move", t, sorted(squares),
                              "the board changed in a way no single move explains", mover,
                              self._number)
        from_irregular = self._accept_open(mover, t)
        entry = MoveEntry(self._number, _SIDE[mover], text, t, None, None, False, self._fen(after))
        if not mover:
            self._number += 1
        comment = f"{_SIDE[mover]} {text}: illegal-move"
        if from_irregular:
            comment = f"{comment}; {self._irregular_position(from_irregular)}"
        ply = _Ply(_snap(self.board), None, False, self._fen(after), None, False, None, comment, [idx],
                   start=seg.t0, text=text)
        self._plies.append(ply)
        self.moves.append(entry)
        self._entry_plies.append(ply)
        self._emit(entry)
        self._undo = _Undo(len(self._plies) - 1, seg.occ0, _snap(self.board))
        self.tracker.set_position(self._fen(after))
        self.board = after
        self._seg = _Segment(t, occ, pieces=self._pieces)
        if self._mask.assumed:
            self._mask_sync()
        self._counters(t)

    def _assign(self, occ: frozenset[int]) -> Board:
        """Colours for a board no move explains: pieces that stayed keep theirs; a new square takes
        the nearest piece that left (the mover's first); anything else is flagged as the mover's man."""
        before = self.board.pieces()
        mover = self.board.turn
        kept = {s: p for s, p in before.items() if s in occ}
        left = sorted((s for s in before if s not in occ), key=lambda s: (before[s][0] != mover, s))
        v = self.variant
        for s in sorted(occ - set(before)):
            if left:
                fs, rs = v.coords(s)
                src = min(left, key=lambda x: (before[x][0] != mover,
                                               max(abs(v.coords(x)[0] - fs), abs(v.coords(x)[1] - rs))))
                left.remove(src)
                kept[s] = before[src]
            else:
                kept[s] = (mover, False)
        b = Board(v)
        b.set_pieces(kept, not mover)
        return b

    # -- arbiter -----------------------------------------------------------------------------

    def _arbiter(self, ev: ArbiterEvent) -> None:
        t = ev.t
        if ev.action in ("accept", "rectify", "dismiss"):
            if ev.ref is None or not 0 <= ev.ref < len(self.irregularities):
                self._note(t, f"arbiter {ev.action}: no irregularity {ev.ref}")
                return
            status = {"accept": ACCEPTED, "rectify": CORRECTED, "dismiss": DISMISSED}[ev.action]
            irr = self.irregularities[ev.ref]
            target = self.judge.restore_target(ev.ref, irr.type) \
                if ev.action == "rectify" and irr.status == OPEN else None
            self._set_status(ev.ref, status, t, f"arbiter decision{': ' + ev.note if ev.note else ''}")
            if target is not None:
                # FPD 000 7.5a, 001 5.1.3: the position just before the irregularity is restored; the record
                # goes on from it (a setup), the board is read again once it stands so
                self._set_position(t, _snap(target), f"position before irregularity {ev.ref} ({irr.type}) "
                                                     f"restored by the arbiter ({irr.rule})")
        elif ev.action == "draw-claim":
            what = f"arbiter: {ev.side}'s draw claim {'upheld' if ev.upheld else 'rejected'}" \
                   f"{': ' + ev.note if ev.note else ''}"
            if ev.upheld and self.result == "*":
                self._end(t, result_text(self.variant, "draw"), what)
            else:
                self._note(t, what)
        elif ev.action == "time":
            ms = ev.delta_ms or 0
            self._note(t, f"arbiter: {abs(ms) / 1000:g} s {'added to' if ms >= 0 else 'taken from'} "
                          f"{ev.side}'s clock{': ' + ev.note if ev.note else ''}")
        elif ev.action == "set-position":
            try:
                board = Board(self.variant, ev.fen)
            except ValueError as exc:
                self._note(t, f"arbiter set-position ignored: {exc}")
                return
            self._set_position(t, board, "position set by the arbiter")
        elif ev.action == "result":
            if ev.result:
                try:
                    self.record.set_result(ev.result)
                except ValueError as exc:
                    self._note(t, f"arbiter result ignored: {exc}")
                    return
                self._end(t, GameRecord(self.variant, result=ev.result).result,
                          f"arbiter{': ' + ev.note if ev.note else ''}")

    def _flag(self, found: list[int], t: float, white: bool, number: int, kind: str, squares, detail: str,
              why: str = "") -> None:
        """Report ``kind`` as the book says: an irregularity (its index appended to ``found``), an observation
        for review (``why``: what the sensors cannot settle), or nothing where the book makes it no fault."""
        judge = self.judge
        if not judge.reported(kind):
            return
        if judge.observed(kind):
            self._observe(kind, t, squares, detail, white, number, why or f"{judge.law(kind).text}: for the arbiter")
        else:
            found.append(self._irregular(kind, t, squares, detail, white, number))

    def _irregular_position(self, indexes: list[int]) -> str:
        """The record's mark on a move played on from open irregularities (FPD 000 7.5a, 001 5.1.3)."""
        return "played from an irregular position (" + "; ".join(
            f"{self.irregularities[i].type} {self.irregularities[i].rule}" for i in indexes) + ")"

    def _set_position(self, t: float, board: Board, comment: str) -> None:
        """The record goes on from ``board`` (a setup); the engine reads the board from there once the
        squares match it (until then it waits as for a lost position)."""
        self._plies.append(_Ply(_snap(self.board), None, False, self._fen(board), None, False, None,
                                comment, [], True))
        self.tracker.set_position(self._fen(board))
        self._undo = None
        self._split = None
        self._held = None
        if self._phase in (LOST, SETUP):
            self._lost_target = board
            self.board = _snap(board)
            if self._phase == SETUP:
                self.start_board = _snap(board)
                self._check_setup(t)
            else:
                self._lost_check(t)
        else:
            self.board = _snap(board)
            self._seg = _Segment(t, self._occ, pieces=self._pieces)
            if self._occ != board.occupied():
                # the board does not show the position set: lost until it does (FPD 7.4; CODEX art. 46-48)
                self._lost_target = board
                self._phase = LOST
                self._emit(PositionLost(t, tuple(sorted(self._occ ^ board.occupied()))))
        self._note(t, f"arbiter set the position {self._fen(board)}")
