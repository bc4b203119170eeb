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

The stages are mixins of :class:`Reconstructor`, one module each; this module is the public front
(``feed``, ``advance``, ``finish``, and the accessors ``report``, ``record``, ``pdn``) and the event loop:

- :mod:`rig.reconstruct.segmenter`: set-up, square changes into the segment, lost positions;
- :mod:`rig.reconstruct.commit`: the commit policy (still board, opponent's start, split) and the commit;
- :mod:`rig.reconstruct.presses`: clock presses, held presses, flag falls;
- :mod:`rig.reconstruct.detectors`: pure functions, the irregularities and observations a turn shows;
- :mod:`rig.reconstruct.irregularities`: records them (indexes, journal) and keeps their status;
- :mod:`rig.reconstruct.record`: counters, the end of the game, take-backs, the PDN and the report;
- :mod:`rig.reconstruct.arbiter`: the arbiter's decisions;
- :mod:`rig.reconstruct.faults` and :mod:`rig.reconstruct.certainty`: failing switches, certain or not;
- :mod:`rig.reconstruct.state`: the phases and the state values they share.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from rig.board import Board
from rig.pdn import GameRecord
from rig.reconstruct.arbiter import ArbiterDecisions
from rig.reconstruct.certainty import Certainty
from rig.reconstruct.closedfirst import ClosedFirst
from rig.reconstruct.removalsplit import RemovalSplit
from rig.reconstruct.heldlanding import HeldLanding
from rig.reconstruct.commit import CommitPolicy
from rig.reconstruct.faults import FaultHandling, WaitingPress
from rig.reconstruct.fenwriter import FenWriter
from rig.reconstruct.irregularities import IrregularityLog
from rig.reconstruct.lastclosing import LastClosing
from rig.reconstruct.magnetwait import MagnetWait
from rig.reconstruct.youngclosing import YoungClosingWait
from rig.reconstruct.endlift import EndLift
from rig.reconstruct.law import Judge
from rig.reconstruct.matcher import Explanation, PositionIndex
from rig.reconstruct.occupancy import Debouncer
from rig.reconstruct.outputs import (
    Irregularity,
    MoveEntry,
    Note,
    Observation,
    Output,
    SensorFault,
)
from rig.reconstruct.lostposition import LostPosition
from rig.reconstruct.presses import ClockPresses
from rig.reconstruct.record import RecordBuilder, game_record, report
from rig.reconstruct.segmenter import Segmenter
from rig.reconstruct.turnside import TurnSide
from rig.reconstruct.settings import Settings
from rig.reconstruct.splitreply import SplitReply
from rig.reconstruct.state import (
    PLAY,
    SETUP,
    HeldPress,
    LastIndex,
    PendingSplit,
    Phase,
    Ply,
    Recheck,
    Segment,
    TakenBack,
    Undo,
    snap,
    start_position,
)
from rig.rulesets import DrawCounter, GameTracker
from rig.session import ArbiterEvent, ClockEvent, Frame, Header, HealthLine

__all__ = ["Reconstructor"]


class Reconstructor(Segmenter, TurnSide, CommitPolicy, ClockPresses, IrregularityLog, RecordBuilder, ArbiterDecisions,
                    FaultHandling, LastClosing, ClosedFirst, SplitReply, RemovalSplit, HeldLanding, MagnetWait, EndLift,
                    Certainty, YoungClosingWait, LostPosition):
    """Turns a board session into moves, irregularities, counters and a result.

    >>> from rig.rulesets import FPD_2026
    >>> from rig.session import Header
    >>> r = Reconstructor(Header(FPD_2026.variant, FPD_2026))
    """

    #: the engine's state as slots: an instance with more attributes than CPython 3.11 keeps in a shared-keys
    #: dict turns its dict into a plain one, and every ``self.x`` and ``self._method()`` then takes the slow
    #: generic lookup (+10% instructions per replay). The stages' mixins declare no slots, so an attribute not
    #: listed here still works (it lives in the instance's ``__dict__``); list it here when it is read per frame.
    __slots__ = (
        # public
        "header", "settings", "trace", "variant", "start_board", "board", "tracker", "judge", "moves",
        "irregularities", "observations", "sensor_faults", "result", "result_reason", "counters",
        # the engine and its stages (segmenter, commit, presses, record, certainty)
        "_reached", "_plies", "_entry_plies", "_deb", "_phase", "_seg", "_deferred", "_out", "_now", "_clock_mode",
        "_times", "_time_offset", "_running", "_await_time", "_undo", "_taken_back", "_split", "_held", "_pieces",
        "_number", "_indexes", "_fen", "_fen_of", "_indexed", "_occ", "_setup_flagged", "_lost", "_lost_target",
        "_recheck", "_batch_more", "_removal_plan", "_undo_wait", "_land_wait", "_held_off", "_hand_t", "_magnet_lift",
        "_young_lift", "_young_square",
        # failing switches (faults, ghostread, chainread)
        "_mask", "_setup_obs", "_first_t", "_ambiguous_seg", "_waited", "_ending", "_closed_once", "_held_squares",
        "_ghost_watch", "_wiring", "_no_diode", "_diode_suspects", "_scanner_holds", "_ghost_until", "_ghost_masked",
        "_raw_prev", "_raw_t", "_reread_alts", "_reread_undo", "_refuted", "_open_readings", "_freed", "_raw_on",
        "_off_early", "_raw_masked", "_stale_stuck", "_stale_dead", "_stayed_closed", "_opening", "_raw_moved",
        "_standing_on", "_standing_log",
    )

    def __init__(self, header: Header, settings: Settings | None = None, *, trace: bool = False):
        self.header = header
        self.settings = settings if settings is not None else Settings()
        self.trace = trace
        self.variant = header.variant
        self.start_board = start_position(self.variant, header.fen).copy()
        self.board = snap(self.start_board)
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
        self.counters: tuple[DrawCounter, ...] = ()
        self._reached: dict[str, DrawCounter] = {}   # draw rules that reached their limit, by rule
        self._plies: list[Ply] = []
        self._entry_plies: list[Ply] = []    # the ply of each entry of ``moves`` (set-positions have none)
        self._deb = Debouncer(self.settings.bounce_s)
        self._phase: Phase = SETUP
        self._seg = Segment(0.0, frozenset())
        self._deferred: deque[ClockEvent | ArbiterEvent | HealthLine | WaitingPress] = deque()
        self._out: list[Output] = []
        self._now = 0.0
        s = self.settings
        extra_clock = bool(header.extra.get("clock")) or "TimeControl" in header.tags
        self._clock_mode = s.use_clock if s.use_clock is not None else extra_clock
        self._times: tuple[int | None, int | None] = (None, None)
        #: the arbiter's time corrections (ms, white and black) still to add to the clock's readings
        self._time_offset: tuple[int, int] = (0, 0)
        self._running: str | None = None
        self._await_time: int | None = None
        self._undo: Undo | None = None
        self._taken_back: TakenBack | None = None
        self._split: PendingSplit | None = None
        self._held: HeldPress | None = None
        self._pieces: dict[int, str] | None = None
        self._number = 1                  # PDN number of the next move of the side to move
        self._indexes: dict[tuple, PositionIndex] = {}   # board key -> candidates of that position
        writer = FenWriter(self.variant)
        self._fen = writer.fen
        self._fen_of = writer.fen_of
        self._indexed = LastIndex()                   # the board last looked up, its index
        self._occ: frozenset[int] = frozenset()       # confirmed occupancy, change by change
        self._setup_flagged: int | None = None
        self._lost: int | None = None
        self._lost_target: Board | None = None
        self._recheck: Recheck | None = None   # a correction that the next change may show was a move
        self._batch_more = False             # the change being read has more of its frame after it
        self._removal_plan: Explanation | None = None   # _plan's reading when the lift it was given is a removal
        self._undo_wait = None               # a board put back as before the last move, maybe a take-back
        self._land_wait = None               # a standing captured piece's owner maybe landing it
        self._magnet_lift = None             # an opponent's lift a dead landing was set aside for (magnetwait.py)
        self._young_lift = None              # an opponent's lift a stuck origin was set aside for (youngclosing.py)
        self._young_square: tuple[int, float] | None = None   # that reading's closing, found by _fault_plan
        self._held_off = None                # the opponent's first lifted piece left off on a still board
        self._hand_t = float("-inf")         # the last camera frame with a hand over the board
        self._init_faults()

    # -- public API ------------------------------------------------------------------------

    def feed(self, event: Frame | ClockEvent | ArbiterEvent | HealthLine) -> list[Output]:
        """Take one event (in time order) and return what it decided."""
        if self._standing_on:             # a captured piece read standing: events kept for an undo (standingundo.py)
            return self._feed_kept(event)
        self._out = []
        t = event.t
        self._pump(t)
        if isinstance(event, Frame):
            if event.hand and self._deb.raw is not None:
                # a camera's hand over the board: the board is hidden, not still (its squares repeat the last
                # frame); without a clock a still board counts from the hand's last picture (commit.py)
                self._hand_t = self._now = t
                return self._out
            if event.pieces is not None:
                self._pieces = event.pieces
            deb = self._deb
            occupied = (event.occupied if not (self._mask.assumed or self._ghost_watch)
                        else self._masked_frame(t, event.occupied))
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
        if self._standing_on:
            return self._advance_kept(t)
        self._out = []
        self._pump(t)
        return self._out

    def finish(self, t: float | None = None) -> list[Output]:
        """End of the input: settle what is pending and commit a move that the board explains."""
        if self._standing_on:
            return self._finish_kept(t)
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
        if self._phase is PLAY:
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
                elif self._seg.changes:
                    self._end_lift(self._now)     # a last lift, nothing set down (endlift.py)
            if self._seg.changes and not self._own_lifted(self._seg):
                # the last board shows a move of the side not to move (a second move after his press,
                # CODEX 42.A): the end of the input is a still board, in clock mode too
                self._other_side_move(self._now, self._occ)
        self._held_off_settled(None, self._now)
        self._end_of_game_check(self._now)
        return self._out

    def report(self) -> dict[str, Any]:
        """The docs/session-format.md report: moves, irregularities, draw rules, result."""
        return report(self.moves, self.irregularities, self.observations, self.sensor_faults, self.counters,
                      self._reached, self.result)

    @property
    def record(self) -> GameRecord:
        """The game as PDN: each move that stands, ``/FEN/`` setups where the board went on from an
        irregular position, clock comments, the result; a withdrawn move is a comment on the move played
        instead (``{12-16 taken back}``)."""
        return game_record(self.variant, self.header, self._plies, self.result)

    def pdn(self) -> str:
        return self.record.to_pdn()

    # -- time and ordering -------------------------------------------------------------------

    def _blocked(self, t: float) -> bool:
        p = self._deb.earliest_pending()
        return p is not None and p <= t

    def _pump(self, t: float) -> None:
        """Confirm the debounced changes up to ``t`` and release deferred events, in time order."""
        deb = self._deb
        deferred = self._deferred
        if deb.pending:
            changes = deb.confirm(t)
            if len(changes) == 1:         # the usual case: one square in flight (``_batch_more`` stays False)
                c = changes[0]
                if deferred:
                    self._flush_deferred_before(c.t)
                self._check_stable(c.t)
                self._change(c)
            elif changes:
                last = len(changes) - 1
                for i, c in enumerate(changes):
                    if deferred:
                        self._flush_deferred_before(c.t)
                    self._check_stable(c.t)
                    # more changes of the same frame follow: no take-back is read from a state between them
                    self._batch_more = i < last and changes[i + 1].t == c.t
                    self._change(c)
                self._batch_more = False
        while deferred and not self._blocked(deferred[0].t) and deferred[0].t <= t:
            ev = deferred.popleft()
            self._check_stable(ev.t)
            self._now = ev.t
            self._dispatch(ev)
        # _check_stable does nothing in play while the board has not stood still for stable_s and nothing
        # waits: that is looked at here first, on every event, without the call
        if self._phase is not PLAY or self._land_wait is not None or self._undo_wait is not None:
            self._check_stable(t)
        else:
            last = self._seg.last_change
            if last is not None and last + self.settings.stable_s <= t:
                self._check_stable(t)

    def _flush_deferred_before(self, t: float) -> None:
        while self._deferred and self._deferred[0].t < t:
            ev = self._deferred.popleft()
            self._check_stable(ev.t)
            self._now = ev.t
            self._dispatch(ev)

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
        self._seg = Segment(t, occ, pieces=self._pieces)
        self._check_setup(t)

    def _note(self, t: float, text: str) -> None:
        self._out.append(Note(t, text))

    def _emit(self, item: Output) -> None:
        self._out.append(item)
