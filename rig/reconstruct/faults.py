"""Failing switches: found from the frames, then masked before the debouncer (docs/reconstruction.md).

A reed switch fails three ways: stuck closed (reads occupied for good), dead (never closes), or
ghosting (a missing diode lets an empty square read occupied while three pieces stand on the other
corners of its matrix rectangle; the scanner's health monitor holds such readings, sensors/health.py).
The engine finds a stuck or dead switch from the frames themselves:

- at the set-up: the board differs from the start position on exactly one square, and the game begins
  (a starting piece is lifted) with that square as it was. A set-up error is put right before the first
  move (FPD 000 art. 7.2; CODEX 004 art. 44); a square that contradicts the start and the first move is
  the switch: ``dead`` under a starting piece, ``stuck-closed`` on an empty square;
- during the game: the mover's move is over (his press, his opponent's start, the end of the input), no
  move explains the board, but a legal move explains every square but one, and that square did not change
  during the turn: its destination reads empty (``dead``, or a switch the scanner masked) or its origin
  still reads occupied (``stuck-closed``). A captured piece still reading occupied is never taken for a
  switch: that is ``capture-not-removed``, which players do.

From then on the square is *masked*: :class:`SwitchMask` replaces its reading in every frame by the state
the game gives it (the engine's board after each commit), and the matcher tries both states of a masked
square, so a move onto or off it is read from the other squares and the rules. ``rig run`` also writes the
scanner's health findings into the session (``{"type": "health", ...}``): a switch the scanner masked is
masked here from that line on, a missing diode is reported as ``ghost``. The missing diode's ghosts are
found and masked frame by frame in :mod:`rig.reconstruct.ghostread`; a board with masked squares is read by
:func:`rig.reconstruct.maskread.explain_masked`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from rig.board import Board
from rig.move import Move
from rig.reconstruct.chainread import ChainReread
from rig.reconstruct.deadmoved import StaleDead
from rig.reconstruct.deadremoval import DeadRemoval
from rig.reconstruct.deadtwin import DeadTwin
from rig.reconstruct.earlylift import EarlyLift
from rig.reconstruct.ghostread import GhostHandling
from rig.reconstruct.ghostsplit import GhostSplit
from rig.reconstruct.ghosts import Wiring
from rig.reconstruct.interleave import InterleavedTurns
from rig.reconstruct.landedcapture import LandedCapture
from rig.reconstruct.maskread import explain_masked
from rig.reconstruct.matcher import Explanation, PositionIndex, explain
from rig.reconstruct.ownlift import OwnLift
from rig.reconstruct.recovery import SwitchRecovery
from rig.reconstruct.setupfault import SetupFaults, setup_suspect
from rig.reconstruct.stuckempty import StuckEmpty
from rig.reconstruct.state import PLAY
from rig.reconstruct.stuckcapture import StandingReread
from rig.reconstruct.standingundo import StandingUndo
from rig.reconstruct.stuckpair import StuckPair
from rig.reconstruct.unseen import UnseenReplies

__all__ = ["SENSOR_FAULT_KINDS", "SwitchMask", "WaitingPress", "setup_suspect", "one_square_off", "explain_masked"]

#: the ``kind`` of a ``sensor_faults`` item
SENSOR_FAULT_KINDS = ("stuck-closed", "dead", "ghost")



@dataclass(slots=True)
class SwitchMask:
    """The masked squares and the state the game gives each (True: a piece stands there)."""

    assumed: dict[int, bool] = field(default_factory=dict)
    squares: frozenset[int] = frozenset()
    on: frozenset[int] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.assumed)

    def __contains__(self, square: int) -> bool:
        return square in self.assumed

    def filter(self, occupied: frozenset[int]) -> frozenset[int]:
        """A frame's occupied squares with every masked square's reading replaced by its assumed state."""
        return (occupied - self.squares) | self.on

    def set(self, square: int, occupied: bool) -> None:
        self.assumed[square] = occupied
        self._refresh()

    def remove(self, square: int) -> None:
        self.assumed.pop(square, None)
        self._refresh()

    def _refresh(self) -> None:
        self.squares = frozenset(self.assumed)
        self.on = frozenset(s for s, v in self.assumed.items() if v)


@dataclass(frozen=True)
class WaitingPress:
    """A clock press that found the lifted piece's destination still open, waiting ``magnet_s`` for a slow
    magnet (``t``: when it is looked at again; ``event``: the press, with its own time)."""

    t: float
    event: Any


def one_square_off(index: PositionIndex, occ0: frozenset[int], occ: frozenset[int],
                   quiet: Iterable[int] | frozenset[int]) -> list[tuple[Move, int, str]]:
    """The legal moves of ``index``'s position that explain ``occ`` on every square but one, that one in
    ``quiet`` (no change during the turn): ``(move, square, kind)`` with kind ``dead`` when the move's
    destination reads empty, ``stuck-closed`` when its origin still reads occupied. A captured square
    still occupied does not count (``capture-not-removed``); neither does a move ending where it began."""
    out: list[tuple[Move, int, str]] = []
    seen: set[tuple] = set()
    for m in index.moves:
        origin, dest = m.origin, m.destination
        if origin == dest:
            continue
        after = (occ0 - {origin}).difference(m.captured) | {dest}
        diff = after ^ occ
        if len(diff) != 1:
            continue
        (square,) = diff
        if square not in quiet:
            continue
        if square == dest and square not in occ:
            kind = "dead"
        elif square == origin and square in occ:
            kind = "stuck-closed"
        else:
            continue
        key = (origin, dest, frozenset(m.captured), square)
        if key not in seen:
            seen.add(key)
            out.append((m, square, kind))
    return out


class FaultHandling(GhostHandling, GhostSplit, ChainReread, UnseenReplies, InterleavedTurns, StandingReread,
                    StandingUndo, EarlyLift, StuckEmpty, DeadRemoval, OwnLift, StuckPair, LandedCapture, SwitchRecovery,
                    DeadTwin, StaleDead, SetupFaults):
    """The engine's side of failing switches, mixed into :class:`rig.reconstruct.Reconstructor` (it uses the
    engine's board, segment, debouncer and outputs; see the module docstring for the rules)."""

    def _init_faults(self) -> None:
        self._mask = SwitchMask()
        self._setup_obs: int | None = None        # the observation of a one-square set-up difference
        self._first_t: float | None = None        # the first frame's time (a set-up fault is there since)
        self._ambiguous_seg = None                # the segment whose masked reading was already observed
        self._waited: set[int] = set()            # presses that already waited for a slow magnet (ids)
        self._ending = False                      # finish() is settling the end of the input
        self._closed_once: dict[int, float] = {}   # squares whose switch has closed during the session: the last time
        self._off_early: set[int] = set()          # squares read off early, the piece played later (interleave.py)
        self._held_squares: dict[int, bool] = {}        # masked while the scanner may hold them: reading then
        self._raw_masked: dict[int, bool] = {}          # each masked square's last raw reading (closed: True)
        self._stayed_closed: set[int] = set()     # squares whose switch read closed after their piece left
        self._init_ghosts()
        self._init_chainread()
        self._init_recovery()
        self._init_deadtwin()
        self._init_stale_dead()
        self._init_standing_undo()
        self._raw_on: list[tuple[float, int]] = []    # squares that closed in the last GHOST_WINDOW_S

    # -- masking ---------------------------------------------------------------------------------

    def _mask_square(self, square: int, occupied: bool) -> None:
        """Mask ``square`` with the state the game gives it; the debouncer and the confirmed occupancy
        take that state at once (no change is ever read on the square again)."""
        self._mask.set(square, occupied)
        self._set_reading(square, occupied)

    def _set_reading(self, square: int, occupied: bool) -> None:
        """The debouncer and the confirmed occupancy take ``occupied`` on ``square`` at once, with no change read
        (a square masked, or freed when its fault moved to another square: its next frame then reads as a change
        only where the switch says otherwise)."""
        deb = self._deb
        deb.pending.pop(square, None)
        if deb.raw is not None:
            deb.raw = deb.raw | {square} if occupied else deb.raw - {square}
        if occupied:
            deb.stable.add(square)
            self._occ = self._occ | {square}
        else:
            deb.stable.discard(square)
            self._occ = self._occ - {square}

    def _masked_frame(self, t: float, occupied: frozenset[int]) -> frozenset[int]:
        """A frame through the mask. A ``dead`` switch that closes under the piece the game puts there works
        again: a delayed reading (a cell the scanner held for a ghost until its rectangle broke) or a switch
        that recovered (recovery.py). It is unmasked, with no change read on it. (A switch the scanner masks reads
        open whatever stands on it; the scanner says when it recovers.) A ``stuck-closed`` switch that opens (a
        stuck one never does) recovered, or re-reads the open reading that named it (recovery.py)."""
        if self._ghost_watch:
            self._ghost_stage(t, occupied)
        mask = self._mask
        if self._opening is not None:
            self._settle_opening(t, occupied)       # recovery.py: a lift or a recovery
        if self._opening is None and self._open_readings:
            self._twin_opened(t, occupied)          # recovery.py: the other square of a stuck reading opened
        if self._opening is None and self._open_readings:
            self._dead_twin_closed()                # deadtwin.py: the other square of a dead reading closed
        for square, on in list(mask.assumed.items()):
            if square in self._ghost_masked:
                continue
            reads = square in occupied
            prev = self._raw_masked.get(square)
            was = True if prev is None else prev
            if prev != reads:                   # (and when the reading was last seen to change: recovery.py)
                self._raw_masked[square], self._raw_moved[square] = reads, t
            if was and not reads and self._fault_kind(square) == "stuck-closed":   # a stuck one never opens:
                self._stuck_lifted(t, square) if on else self._stuck_opened(t, square, occupied, prev is not None)
                continue                                            # (earlylift.py, recovery.py)
            if reads and on and self._landing_after_vacated(t, square):
                continue                        # recovery.py: the pending move left it, a piece lands there
            if reads == on and (on and self._fault_kind(square) == "dead" and not self._their_landing(square)
                                or self._held_squares.get(square, reads) != reads):
                mask.remove(square)
                self._held_squares.pop(square, None)
                self._note(t, f"square {self.variant.square_name(square)}: its switch reads again; no longer masked")
                if on:
                    self._late_landing(square, self._raw_moved.get(square, t))      # earlylift.py
                    if self._fault_kind(square) == "dead":
                        self._switch_works(t, square)   # earlylift.py: an earlier ply read the other way
                    if self._fault_kind(square) == "dead" and square not in mask:
                        self._recovered(t, square, None)      # recovery.py: the note above says it
        return mask.filter(occupied) if mask else occupied

    def _masked_move_shows(self, occ: frozenset[int]) -> bool:
        """The board is exactly a legal move of the side to move from a masked square (its lift unseen): not
        the last move taken back, which it can look like (a capture from the masked square onto the square the
        last move left)."""
        expl = self._explain(occ)
        return expl is not None and expl.legal and expl.exact and expl.move.origin in self._mask

    def _masked_move_unseen(self, occ: frozenset[int]) -> bool:
        """The board reads as at the turn's start, yet a legal move between masked squares explains it (a
        missing diode's rectangle hid both its lift and its landing): the press ends that move."""
        expl = self._explain(occ)
        return expl is not None and expl.legal and expl.exact and (
            expl.move.origin in self._mask or expl.move.destination in self._mask)

    def _fault_kind(self, square: int) -> str | None:
        for f in reversed(self.sensor_faults):
            if f.square == square and f.current:
                return f.kind
        return None

    def _mask_sync(self) -> None:
        """After a commit, a withdrawal or a restored position: each masked square takes the state of the
        engine's board, and the new turn starts from it. A square masked for a ghost keeps the state last read
        unless the last move went onto or off it (a lift read there before the mask is the next move's)."""
        mask = self._mask
        if not mask:
            return
        board = self.board
        ghosts = self._ghost_masked
        touched: frozenset[int] = frozenset()
        if ghosts and self._plies and (move := self._plies[-1].move) is not None:
            touched = frozenset(move.path) | frozenset(move.captured)
        for square in list(mask.assumed):
            if square in ghosts and square not in touched and self._fault_kind(square) is None:
                continue
            self._mask_square(square, board.piece_at(square) is not None)
        seg = self._seg
        seg.occ0 = mask.filter(seg.occ0)

    def _fault(self, square: int, kind: str, since: float, detail: str, occupied: bool) -> None:
        self._sensor_fault(square, kind, since, detail)
        self._mask_square(square, occupied)
        self._note(since, f"square {self.variant.square_name(square)}: switch {kind}, masked from now on "
                          "(its state is read from the rules and the other squares)")
        if kind == "dead":
            self._dead_removal(square, since)            # deadremoval.py

    # -- during the game ----------------------------------------------------------------------------

    def _magnet_wait(self, ev) -> bool:
        """A press that nothing on the board explains, one square short of a legal move (its destination
        still open, or its origin still closed): a slow magnet closes up to a quarter of a second late,
        possibly after the press. The press is looked at again ``magnet_s`` later (frames first), once;
        True when it waits."""
        if id(ev) in self._waited:
            return False
        seg = self._seg
        occ = self._occ
        changed = {c.square for c in seg.changes}
        quiet = frozenset(range(1, self.variant.squares + 1)) - changed - self._mask.squares
        if not one_square_off(self._index(), seg.occ0, occ, quiet):
            return False                  # waiting also gives a switch under the origin time to show it stuck
        self._wait(ev)
        return True

    def _landing_wait(self, ev) -> bool:
        """A press that comes less than ``touch_s`` after the square it would end on closed: a magnet passing
        close by (a neighbour phantom) or a flickering slow magnet may be what closed it, and the real landing
        may still come. The press is looked at again ``magnet_s`` later, once; True when it waits."""
        seg = self._seg
        if id(ev) in self._waited or not seg.changes:
            return False
        last = seg.changes[-1]
        if last.up or ev.t - last.t >= self.settings.touch_s:
            return False
        self._wait(ev)
        return True

    def _air_wait(self, ev, white: bool) -> bool:
        """A press of the side not to move (his move after a pass, or a second move) whose piece is still in
        the air on the board's reading, or whose last change is a closing less than ``touch_s`` before the press
        (a neighbour phantom beside the path, as :meth:`_landing_wait`): a slow magnet may close its landing
        after the press. Looked at again ``magnet_s`` later, once; True when it waits."""
        if id(ev) in self._waited or self._shows_move_of(white):
            return False
        self._wait(ev)
        return True

    def _wait(self, ev) -> None:
        self._waited.add(id(ev))
        waiting = WaitingPress(ev.t + self.settings.magnet_s, ev)
        deferred = self._deferred
        i = len(deferred)
        while i and deferred[i - 1].t > waiting.t:
            i -= 1
        deferred.insert(i, waiting)

    def _fault_plan(self, occ: frozenset[int], lifted: int | None, young_wait: bool = False) -> Explanation | None:
        """The mover's move is over and no move explains the board: a legal move that explains every square
        but one unchanged square finds a faulty switch there (masked from now on); its explanation. None where
        a square read dead has its closing confirmed by the debouncer, not yet read (a change of the same batch),
        less than ``stable_s`` after the turn's last change: the mover's landing a moment after the opponent's
        lift (or a switch dying under his piece), his piece still in the hand; the switch closed, so it is no
        dead one, and the turn is read with that closing. Later, no piece stays in the hand that long: the piece
        came down unseen and the closing is the switch working again (named here, recovered at that closing)."""
        if self._phase != PLAY or self._ending:
            return None
        seg = self._seg
        changed = {c.square for c in seg.changes}
        quiet = frozenset(range(1, self.variant.squares + 1)) - changed - self._mask.squares
        board = self.board
        index = self._index()
        found = one_square_off(index, seg.occ0, occ, quiet)
        held = self._now - (seg.last_change if seg.last_change is not None else seg.t0)
        if found and held < self.settings.magnet_s:
            found = [f for f in found if f[2] != "dead"]      # a slow magnet may still close the destination
        if held < self.settings.stable_s and any(kind == "dead" and sq in self._deb.stable for _, sq, kind in found):
            return None           # its closing is confirmed, read next: the landing came as the opponent lifted
        if not found:
            return self._stuck_on_empty(occ, lifted) or self._stuck_after_lift(occ, lifted)   # unseen, stuckempty
        if (lifted_origin := self._stuck_lifted_origin(found, occ, lifted)) is not None:
            return lifted_origin          # the piece lifted is the one played (stuckempty.py)
        if self._ghost_watch and not self._no_diode:
            ghostly = self._ghost_origin(found, occ, lifted)
            if ghostly is not None:
                return ghostly
        ghosts = {f.square for f in self.sensor_faults if f.kind == "ghost" and not f.withdrawn}
        # a square the scanner may hold (missing diode) first, then one that read its piece off before it was
        # played (interleave.py ``_interleaved``: a switch dying under it), then one whose switch read closed after
        # its piece left before (the same switch showing the same again), then one whose switch never closed,
        # then the lowest; when two stay possible an observation says so
        closed, stayed = self._closed_once, self._stayed_closed
        rank = {sq: (sq not in ghosts, sq not in self._off_early, sq not in stayed, sq in closed)
                for _, sq, _ in found}
        squares = sorted(rank, key=lambda sq: (rank[sq], sq))
        move, square, kind = next(f for f in found if f[1] == squares[0])
        expl = explain(board, seg.occ0, occ ^ {square}, frozenset(seg.landings), tuple(seg.lift_order), seg.hints,
                       index)
        if expl is None or not expl.legal or not expl.exact:
            return None
        if lifted is not None and (lifted in expl.standing or lifted in expl.move.captured):
            return None
        if young_wait and kind == "stuck-closed" and self._closing_young(expl.move.destination):
            return None                   # a closing younger than touch_s: the next change tells (youngclosing.py)
        name = self.variant.square_name
        t = seg.last_change if seg.last_change is not None else seg.t0
        if any(f.kind == "ghost" and not f.withdrawn for f in self.sensor_faults):
            # a missing diode: the scanner holds a cell's reading while its rectangle is closed, so a square
            # may read as it was for a while; masked until it reads what the game says, not a fault
            self._held_squares[square] = square in seg.occ0
            self._mask_square(square, square in seg.occ0)
            self._note(t, f"square {name(square)} reads as it was (held by the scanner for a missing diode?): "
                          "masked until it reads what the game says")
            return expl
        if kind == "dead":
            detail = (f"{name(expl.move.origin)} left and nothing came down: only {name(square)} explains the "
                      f"move, and its switch did not close")
        else:
            detail = (f"a piece came to {name(expl.move.destination)} with nothing lifted: only "
                      f"{name(square)} explains it, and its switch did not open")
        self._fault(square, kind, t, detail, square in seg.occ0)
        if len(squares) > 1:
            # the moves after it may show which (chainread.py)
            self._open_reading([Explanation(m, True, None) for m, sq, k in found if sq in squares and k == kind],
                               seg.occ0, fault=kind)
            self._observe("illegal-move", t, tuple(squares), f"read as {board.move_text(expl.move, index.moves)}",
                          board.turn, self._number,
                          "a faulty switch on any of " + ", ".join(name(s) for s in squares) + " explains the "
                          f"board: {name(square)} is assumed (a switch never seen closing first); the sensors "
                          "cannot tell which")
        return expl

    def _explain_masked(self, board: Board, occ: frozenset[int], first: Explanation | None) -> Explanation | None:
        """:func:`explain_masked` on the segment; an unsettled choice between two moves is an observation."""
        seg = self._seg
        fits = self._fits_frame if self._no_diode or self._diode_suspects else None
        alts: list[Explanation] = []
        expl, settled = explain_masked(board, seg.occ0, occ, self._mask.squares, frozenset(seg.landings),
                                       tuple(seg.lift_order), seg.hints, self._index(board), first, fits, alts)
        if not settled:
            self._reread_alts = (len(self._plies), alts)     # the ply this segment's commit will write
        if len({e.move.key for e in alts}) > 1:
            self._open_reading(alts, seg.occ0)     # the moves after it may tell (chainread.py)
        if not settled and self._ambiguous_seg is not seg and expl is not None:
            self._ambiguous_seg = seg
            name = self.variant.square_name
            self._observe("illegal-move", seg.last_change or seg.t0, (expl.move.origin, expl.move.destination),
                          f"read as {expl.move.text(name=name)}", board.turn, self._number,
                          "a masked switch leaves two legal moves possible and the lifts do not tell which")
        return expl

    # -- the scanner's findings (session ``health`` lines) --------------------------------------------

    def _health_line(self, ev) -> None:
        """A ``{"type": "health", ...}`` line: a switch the scanner masked (``stuck-closed`` with
        ``masked``, or ``dead``) is masked here too; a missing diode is a ``ghost`` fault (the scanner holds
        its ghost readings); ``recovered`` unmasks. Others (chattering, held ghosts) are notes."""
        square, kind = ev.square, ev.kind
        message = ev.message or kind
        if kind == "stuck-closed" and ev.masked:
            # the scanner keeps the square out of the frames: it reads empty, whatever stands there
            occupied = self.board.piece_at(square) is not None
            self._fault(square, "stuck-closed", ev.t, message, occupied)
        elif kind == "missing-diode":
            self._sensor_fault(square, "ghost", ev.t, message)
            wiring = Wiring.parse(ev.extra.get("wiring"), self.variant.squares) if "wiring" in ev.extra else None
            if wiring is not None:
                self._wiring = wiring
            self._ghost_watch = True
            self._scanner_holds = True
            self._no_diode.add(square)
            self._diode_suspects = frozenset()
        elif kind == "recovered" and square in self._mask:
            self._mask.remove(square)
            self._note(ev.t, f"square {self.variant.square_name(square)}: {message}")
            self._recovered(ev.t, square, None)         # recovery.py: its fault ends there
        else:
            self._note(ev.t, f"switch {kind}: {message}")

    def _split_to_masked(self) -> bool:
        """The opponent's first lifted piece is still off and can go to a masked empty square: his move may be
        over (its landing unseen); the mover's next lift is then the reply, not the mover still at work."""
        split = self._split
        plan = split.plan
        if not isinstance(plan, Explanation) or split.square in self._occ or not self._plan_fits_board(plan):
            return False
        after = self._physical_after(plan, split.occ)
        mask = self._mask
        return any(m.origin == split.square and m.destination in mask and not mask.assumed[m.destination]
                   for m in self._index(after).moves)

    def _split_took_capture(self) -> bool:
        """The opponent's piece lifted last is one the mover's capture took (his removal, not a reply)."""
        split = self._split
        return split is not None and isinstance(split.plan, Explanation) and split.square in split.plan.move.captured
