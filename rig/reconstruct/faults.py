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
masked here from that line on, a missing diode is reported as ``ghost``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from rig.board import Board
from rig.move import Move
from rig.reconstruct.ghosts import Wiring, ghost_squares
from rig.reconstruct.matcher import Explanation, PositionIndex, explain
from rig.reconstruct.state import PLAY, PendingSplit

__all__ = ["SENSOR_FAULT_KINDS", "SwitchMask", "WaitingPress", "setup_suspect", "one_square_off", "explain_masked"]

#: the ``kind`` of a ``sensor_faults`` item
SENSOR_FAULT_KINDS = ("stuck-closed", "dead", "ghost")
SIDE_NAMES = {True: "white", False: "black"}

#: a ghost closes with the corner that completes its rectangle: in the same frame, or a scan or two apart
#: when the two contacts bounce differently (the scanner debounces each cell on its own)
GHOST_WINDOW_S = 0.025


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


def setup_suspect(occ: frozenset[int], start: frozenset[int]) -> tuple[int, str] | None:
    """The one square where the board differs from the start position, and the fault it would be:
    ``dead`` (empty where a starting piece stands) or ``stuck-closed`` (occupied where none does)."""
    diff = occ ^ start
    if len(diff) != 1:
        return None
    (square,) = diff
    return square, "dead" if square in start else "stuck-closed"


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


def explain_masked(board: Board, occ0: frozenset[int], occ: frozenset[int], masked: frozenset[int],
                   landings: frozenset[int], lift_order: tuple[int, ...], hints: dict[int, int] | None,
                   index: PositionIndex, first: Explanation | None,
                   fits: Callable[[Explanation], bool] | None = None,
                   alternatives: list[Explanation] | None = None) -> tuple[Explanation | None, bool]:
    """The best reading of ``occ`` when the masked squares may be either way (their reading is the state
    the game gave them at the turn's start: a move onto or off one is not seen there). ``first``: the
    reading with the masked squares as they are. Returns (explanation, settled): ``settled`` is False when
    two different legal moves explain the board exactly and neither ``fits`` (the frame as the switches and
    diodes would read it after the move) nor the lifts tell which was played."""
    best = first
    exact = [first] if first is not None and first.legal and first.exact else []
    for flips in _flip_sets(index, occ0, occ, masked):
        expl = explain(board, occ0, occ ^ flips, landings, lift_order, hints, index)
        if expl is None:
            continue
        if expl.legal and expl.exact:
            exact.append(expl)
        if best is None or _rank(expl) < _rank(best):
            best = expl
    if len(exact) > 1 and len({e.move.key for e in exact}) > 1:
        if fits is not None:
            fitting = [e for e in exact if fits(e)]
            if fitting and len({e.move.key for e in fitting}) == 1:
                return fitting[0], True
            exact = fitting or exact
        lifted = [e for e in exact if e.move.origin in lift_order]
        if len(lifted) == 1:
            return lifted[0], True
        if alternatives is not None:
            alternatives.extend(lifted or exact)
        return (lifted or exact)[0], False
    return best, True


def _flip_sets(index: PositionIndex, occ0: frozenset[int], occ: frozenset[int],
               masked: frozenset[int]) -> list[frozenset[int]]:
    """The masked squares to read the other way: for each legal move, the masked squares where the board
    after it differs from ``occ`` (all of them, and each alone: the move still under way). Linear in the
    moves, where every subset of the masked squares would be exponential (a missing diode masks many)."""
    out: set[frozenset[int]] = set()
    for m in index.moves:
        after = (occ0 - {m.origin}).difference(m.captured) | {m.destination}
        flips = (after ^ occ) & masked
        if flips:
            out.add(frozenset(flips))
            if len(flips) > 1:
                out.update(frozenset((s,)) for s in flips)
    return sorted(out, key=lambda f: (len(f), sorted(f)))


def _on_path(variant: Any, move: Move, square: int) -> bool:
    """``square`` is a landing of ``move`` or a square its piece passes over on the way (a king slides along
    the diagonal before it jumps; FMJD 002 art. 3.9)."""
    path = move.path
    if square in path[1:]:
        return True
    fx, rx = variant.coords(square)
    for a, b in zip(path, path[1:]):
        (fa, ra), (fb, rb) = variant.coords(a), variant.coords(b)
        df, dr = fb - fa, rb - ra
        if abs(df) == abs(dr) and df and abs(fx - fa) == abs(rx - ra) and (fx - fa) * df > 0 \
                and (rx - ra) * dr > 0 and abs(fx - fa) < abs(df):
            return True
    return False


def _rank(expl: Explanation) -> tuple[int, int, int]:
    return (0 if expl.legal else 1, len(expl.standing) + len(expl.missing), 0 if expl.kind is None else 1)


class FaultHandling:
    """The engine's side of failing switches, mixed into :class:`rig.reconstruct.Reconstructor` (it uses the
    engine's board, segment, debouncer and outputs; see the module docstring for the rules)."""

    def _init_faults(self) -> None:
        self._mask = SwitchMask()
        self._setup_obs: int | None = None        # the observation of a one-square set-up difference
        self._first_t: float | None = None        # the first frame's time (a set-up fault is there since)
        self._ambiguous_seg = None                # the segment whose masked reading was already observed
        self._waited: set[int] = set()            # presses that already waited for a slow magnet (ids)
        self._ending = False                      # finish() is settling the end of the input
        self._closed_once: set[int] = set()        # squares whose switch has closed during the session
        self._held_squares: dict[int, bool] = {}        # masked while the scanner may hold them: reading then
        extra = self.header.extra
        sim = extra.get("simulator")
        #: a matrix session: ghosts of a missing diode are looked for in the frames (ghosts.py)
        self._ghost_watch = extra.get("source") == "matrix" or (isinstance(sim, dict) and bool(sim.get("matrix")))
        self._wiring: Wiring | None = None
        self._no_diode: set[int] = set()              # diode-less squares: the scanner's finding or the frames'
        self._diode_suspects: frozenset[int] = frozenset()   # the frames' candidates while two or more remain
        self._scanner_holds = False                   # the scanner holds ghost readings (its diode check)
        self._ghost_until: dict[int, float] = {}      # when a square's ghost mask was last lifted
        self._ghost_masked: set[int] = set()          # squares masked now because a sneak path may close them
        self._raw_prev: frozenset[int] = frozenset()  # the last frame as read
        self._raw_t = 0.0                             # its time
        self._reread_alts: tuple[int, list[Explanation]] | None = None   # an unsettled reading, to re-read
        self._refuted: set[int] = set()               # squares whose diode a settled frame shows in place
        self._raw_on: list[tuple[float, int]] = []    # squares that closed in the last GHOST_WINDOW_S

    # -- masking ---------------------------------------------------------------------------------

    def _mask_square(self, square: int, occupied: bool) -> None:
        """Mask ``square`` with the state the game gives it; the debouncer and the confirmed occupancy
        take that state at once (no change is ever read on the square again)."""
        self._mask.set(square, occupied)
        deb = self._deb
        deb.pending.pop(square, None)
        if deb.raw is not None:
            deb.raw = self._mask.filter(deb.raw)
        if occupied:
            deb.stable.add(square)
            self._occ = self._occ | {square}
        else:
            deb.stable.discard(square)
            self._occ = self._occ - {square}

    def _masked_frame(self, t: float, occupied: frozenset[int]) -> frozenset[int]:
        """A frame through the mask. A ``dead`` switch that closes under the piece the game puts there works
        again: a delayed reading (a cell the scanner held for a ghost until its rectangle broke) or a switch
        that recovered. It is unmasked, with no change read on it. (A switch the scanner masks reads open
        whatever stands on it; the scanner says when it recovers.)"""
        if self._ghost_watch:
            self._ghost_stage(t, occupied)
        mask = self._mask
        for square, on in list(mask.assumed.items()):
            if square in self._ghost_masked:
                continue
            reads = square in occupied
            if reads == on and (on and self._fault_kind(square) == "dead"
                                or self._held_squares.get(square, reads) != reads):
                mask.remove(square)
                self._held_squares.pop(square, None)
                self._note(t, f"square {self.variant.square_name(square)}: its switch reads again; no longer masked")
        return mask.filter(occupied) if mask else occupied

    def _ghost_stage(self, t: float, occupied: frozenset[int]) -> None:
        """Ghosts of a missing diode (ghosts.py): a square that closes together with a corner of a rectangle
        whose other corners read closed, where the game has no piece, names the diode-less corner (once one
        candidate is left: a ``ghost`` fault); while a known (or candidate) diode-less square and two corners
        read closed, the fourth corner's reading is masked (its state is the game's)."""
        wiring = self._wiring
        if wiring is None:
            wiring = self._wiring = Wiring.standard(self.variant)
        on = occupied - self._raw_prev
        if not self._no_diode and self._raw_prev and t - self._raw_t >= GHOST_WINDOW_S:
            self._refute_diodes(wiring, self._raw_prev)
        self._raw_prev = occupied
        self._raw_t = t
        if on and not self._no_diode and self._deb.raw is not None:
            recent = [(tt, s) for tt, s in self._raw_on if t - tt <= GHOST_WINDOW_S and s in occupied]
            recent += [(t, s) for s in on]
            self._raw_on = recent
            if len(recent) > 1:
                self._ghost_search(t, occupied, on, [s for _, s in recent])
        diodes = self._no_diode | self._diode_suspects
        if not diodes:
            return
        ghosts = ghost_squares(wiring, diodes, occupied)
        masked = self._ghost_masked
        freed = masked - ghosts
        if freed and self._reread_alts is not None:
            self._reread(t, occupied, freed)
        for square in freed:
            masked.discard(square)
            self._ghost_until[square] = t
            if self._fault_kind(square) is None and square not in self._held_squares:
                self._mask.remove(square)
        for square in ghosts - masked:
            if square in self._mask:
                continue
            masked.add(square)
            self._mask_square(square, square in self._occ)

    def _reread(self, t: float, occupied: frozenset[int], freed: frozenset[int]) -> None:
        """A missing diode's rectangle broke and its squares read again: when the last move was read from two
        that fitted the masked board (an observation) and what the freed squares read contradicts it but fits
        the other, the last move is re-read (withdrawn from the record without a take-back, the other one
        committed), before the opponent's change in this frame is read."""
        ply, alts = self._reread_alts or (-1, [])
        undo = self._undo
        if undo is None or undo.ply != ply or self._seg.changes or self._split is not None or self._held is not None:
            if undo is None or undo.ply != ply:
                self._reread_alts = None
            return
        board = self.board

        def shows(squares_after: frozenset[int]) -> bool:
            return all((s in occupied) == (s in squares_after) for s in freed)

        now = frozenset(s for s in range(1, self.variant.squares + 1) if board.piece_at(s) is not None)
        if shows(now):
            return
        occ0 = undo.occ_before
        fitting = []
        for e in alts:
            after = (occ0 - {e.move.origin}).difference(e.move.captured) | {e.move.destination}
            if shows(after):
                fitting.append((e, after))
        if len({e.move.key for e, _ in fitting}) != 1:
            return
        expl, after = fitting[0]
        self._reread_alts = None
        entry = self.moves[-1]
        name = self.variant.square_name
        self._withdraw(t, undo)
        self._plies.pop()                 # a misreading, not a move taken back: out of the record
        self._commit(expl, entry.t, "re-read once the missing diode's rectangle broke", occ_after=after)
        self._observe("illegal-move", t, tuple(sorted(freed)), f"{entry.move_text} re-read as "
                      f"{expl.move.text(name=name)}", entry.side == "white", entry.number,
                      "a missing diode's rectangle masked both readings; the squares it freed show which")

    def _refute_diodes(self, wiring: Wiring, frame: frozenset[int]) -> None:
        """A frame that stood ``GHOST_WINDOW_S`` (every cell settled): a square reading closed whose missing
        diode would close a square that reads open has its diode (a ghost never acts as a corner of its own
        culprit's rectangles, so the test is exact)."""
        refuted = self._refuted
        for x in frame:
            if x not in refuted and not ghost_squares(wiring, (x,), frame) <= frame:
                refuted.add(x)
        if self._diode_suspects & refuted:
            self._diode_suspects -= refuted

    def _ghost_search(self, t: float, occupied: frozenset[int], on: frozenset[int], recent: list[int]) -> None:
        """Squares that closed within ``GHOST_WINDOW_S`` of each other (a hand puts down one piece at a time):
        the diode-less squares X whose ghosts explain every one of them that was empty but one (the piece put
        down) and leave one that really closed (the corner that completed the rectangle)."""
        wiring = self._wiring
        assert wiring is not None
        board = self.board
        new = frozenset(s for s in recent if s not in self._occ)     # empty, or a piece lifted this turn
        if not new:
            return
        scored: dict[int, int] = {}
        for x in occupied - self._refuted:
            ghosts = ghost_squares(wiring, (x,), occupied)
            ghosts = ghost_squares(wiring, (x,), occupied - (ghosts & new))
            if not ghosts <= occupied:
                continue            # X would close other squares too, and they read open
            ghosts &= new
            rest = new - ghosts
            if not ghosts or len(rest) > 1 or not set(recent) - ghosts:
                continue
            if x in new and rest != {x} or x not in new and board.piece_at(x) is None and x not in self._occ:
                continue
            scored[x] = len(ghosts)
        if not scored:
            return
        top = max(scored.values())
        found = frozenset(x for x, n in scored.items() if n == top)
        suspects = self._diode_suspects
        both = suspects & found
        self._diode_suspects = suspects = both if both else suspects | found
        if len(suspects) == 1:
            (x,) = suspects
            self._diode_suspects = frozenset()
            self._no_diode.add(x)
            name = self.variant.square_name(x)
            self._sensor_fault(x, "ghost", t, f"squares the game says are empty read occupied exactly while "
                                              f"{name} and two corners of a matrix rectangle with it do: "
                                              f"{name}'s diode is missing (or shorted)")
            self._note(t, f"square {name}: missing diode, its ghosts masked from now on (check its diode)")

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
            if f.square == square:
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

    # -- at the set-up ----------------------------------------------------------------------------

    def _setup_single(self, occ: frozenset[int], t: float) -> bool:
        """A still board one square off the start position: a piece missing (or one too many) or a switch
        that does not read; the sensors cannot tell which until the first move (FPD 000 art. 7.2; CODEX 004
        art. 44): an observation, not yet ``wrong-setup``."""
        suspect = setup_suspect(occ, self._start_occupancy())
        if suspect is None:
            return False
        if self._setup_obs is None:
            square, kind = suspect
            name = self.variant.square_name(square)
            what = "empty where a starting piece stands" if kind == "dead" else "occupied where no piece starts"
            self._setup_obs = self._observe(
                "wrong-setup", t, (square,), f"square {name} reads {what}", self.board.turn, self._number,
                f"one square only: a piece {'missing' if kind == 'dead' else 'too many'} or a switch that "
                f"{'does not close' if kind == 'dead' else 'is stuck closed'}; put right before the first move "
                "it is wrong-setup, the game begun with it is a faulty switch")
        return True

    def _setup_put_right(self, t: float) -> None:
        """The board was put right after a one-square observation: it was a set-up error (the switch
        closed or opened as the piece came or went): ``wrong-setup``, corrected."""
        obs_index = self._setup_obs
        if obs_index is None:
            return
        self._setup_obs = None
        obs = self.observations[obs_index]
        idx = self._irregular("wrong-setup", obs.t, obs.squares, f"start position differs: {obs.detail}",
                              self.board.turn, obs.number)
        self._set_status(idx, "corrected", t, "the board was set up right")

    def _setup_fault(self, c) -> bool:
        """The game begins (a starting piece is lifted) with the board one square off the start: that
        square's switch is faulty. Masks it, starts the game and reads the lift as its first change."""
        if not c.up:
            return False
        target = self._start_occupancy()
        if c.square not in target or self._pieces is not None:
            return False
        before = self._occ | {c.square}
        suspect = setup_suspect(before, target)
        if suspect is None or suspect[0] == c.square:
            return False
        square, kind = suspect
        since = self._first_t if self._first_t is not None else c.t
        name = self.variant.square_name(square)
        detail = (f"square {name} never closed under its starting piece" if kind == "dead"
                  else f"square {name} reads occupied though no piece starts there")
        self._fault(square, kind, since, detail + "; the game began with it: check the switch", kind == "dead")
        self._setup_obs = None
        self._occ = target
        self._phase = PLAY
        self._seg = type(self._seg)(c.t, target, pieces=self._pieces)
        self._change(c)
        return True

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
        the air on the board's reading: a slow magnet may close its landing after the press. Looked at again
        ``magnet_s`` later, once; True when it waits."""
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

    def _fault_plan(self, occ: frozenset[int], lifted: int | None) -> Explanation | None:
        """The mover's move is over and no move explains the board: a legal move that explains every square
        but one unchanged square finds a faulty switch there (masked from now on); its explanation."""
        if self._phase != PLAY or self._ending:
            return None
        seg = self._seg
        changed = {c.square for c in seg.changes}
        quiet = frozenset(range(1, self.variant.squares + 1)) - changed - self._mask.squares
        board = self.board
        index = self._index()
        found = one_square_off(index, seg.occ0, occ, quiet)
        if found and self._now - (seg.last_change if seg.last_change is not None else seg.t0) < self.settings.magnet_s:
            found = [f for f in found if f[2] != "dead"]      # a slow magnet may still close the destination
        if not found:
            return None
        if self._ghost_watch and not self._no_diode:
            ghostly = self._ghost_origin(found, occ, lifted)
            if ghostly is not None:
                return ghostly
        ghosts = {f.square for f in self.sensor_faults if f.kind == "ghost"}
        # a square the scanner may hold (missing diode) first, then one whose switch never closed, then the
        # lowest; when two stay possible an observation says so
        closed = self._closed_once
        rank = {sq: (sq not in ghosts, sq in closed) for _, sq, _ in found}
        squares = sorted(rank, key=lambda sq: (rank[sq], sq))
        move, square, kind = next(f for f in found if f[1] == squares[0])
        expl = explain(board, seg.occ0, occ ^ {square}, frozenset(seg.landings), tuple(seg.lift_order), seg.hints,
                       index)
        if expl is None or not expl.legal or not expl.exact:
            return None
        if lifted is not None and (lifted in expl.standing or lifted in expl.move.captured):
            return None
        name = self.variant.square_name
        t = seg.last_change if seg.last_change is not None else seg.t0
        if any(f.kind == "ghost" for f in self.sensor_faults):
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
            self._observe("illegal-move", t, tuple(squares), f"read as {board.move_text(expl.move, index.moves)}",
                          board.turn, self._number,
                          "a faulty switch on any of " + ", ".join(name(s) for s in squares) + " explains the "
                          f"board: {name(square)} is assumed (a switch never seen closing first); the sensors "
                          "cannot tell which")
        return expl

    def _hidden_reply(self, c, occ_before: frozenset[int]) -> bool:
        """Without a clock, the mover lifts another piece while the board shows his move exactly, and his
        opponent has a legal reply between squares a missing diode's rectangles mask (its lift and landing
        unseen): that reply was played. Both moves are committed, ``c`` begins the mover's next move; two
        such replies are an observation. (Else it would read as two moves in one turn, which the sensors
        do not prove.)"""
        seg = self._seg
        if not self._ghost_masked or self._clock_mode or not seg.changes or self._split is not None:
            return False
        plan = self._explain(occ_before)
        if plan is None or not plan.legal or not plan.exact or c.square == plan.move.destination:
            return False
        after = self._physical_after(plan, occ_before)
        masked = self._mask.squares
        occ0 = self._mask.filter(occ_before)
        index = self._index(after)
        if not any({m.origin, m.destination} | set(m.captured) <= masked for m in index.moves):
            return False
        reply, settled = explain_masked(after, occ0, occ0, masked, frozenset(), (), None, index, None,
                                        lambda e: self._fits_frame(e, occ0))
        if reply is None or not reply.legal or not reply.exact:
            return False
        name = self.variant.square_name
        self._commit_plan(plan, c.t, f"{SIDE_NAMES[not after.turn]} lifted {name(c.square)} after his move",
                          occ_before)
        self._commit_plan(reply, c.t, "a reply unseen under a missing diode's rectangle", occ0)
        if not settled:
            self._observe("illegal-move", c.t, (reply.move.origin, reply.move.destination),
                          f"read as {reply.move.text(name=name)}", after.turn, self._number - (0 if after.turn else 1),
                          "a missing diode's rectangle hid the reply; two legal replies fit the board")
        return True

    def _fits_frame(self, expl: Explanation, occ0: frozenset[int] | None = None) -> bool:
        """The last frame is what the matrix reads with the pieces where ``expl`` puts them: each ghost of a
        diode-less square reads closed (or, when the scanner holds them, may read anything), every other
        square as its piece; a square masked for a stuck or dead switch is left out."""
        start = self._seg.occ0 if occ0 is None else occ0
        real = (start - {expl.move.origin}).difference(expl.move.captured) | {expl.move.destination}
        wiring = self._wiring
        assert wiring is not None
        ghosts = ghost_squares(wiring, self._no_diode | self._diode_suspects, real)
        frame = self._raw_prev
        faulty = frozenset(s for s in self._mask.squares if self._fault_kind(s) is not None)
        if self._scanner_holds:
            return not ((frame ^ real) - ghosts - faulty)
        return not ((frame ^ (real | ghosts)) - faulty)

    def _ghost_origin(self, found: list[tuple[Move, int, str]], occ: frozenset[int],
                      lifted: int | None) -> Explanation | None:
        """Frames alone: a move whose origin still reads closed, where that origin is a ghost of a square X
        whose missing diode would close it now (X, a corner in X's row and one in X's column read closed)
        and close nothing that reads open: the lift was hidden by the ghost, not a stuck switch. X joins the
        diode-less candidates (named once one is left), the origin is masked, and the move is read."""
        wiring = self._wiring
        if wiring is None:
            return None
        seg = self._seg
        best: tuple[Move, int, frozenset[int]] | None = None
        for move, square, kind in found:
            if kind != "stuck-closed":
                continue
            xs = frozenset(x for x in occ - self._refuted if x != square
                           and square in (g := ghost_squares(wiring, (x,), occ)) and g <= occ)
            if xs and (best is None or len(xs) < len(best[2])):
                best = (move, square, xs)
        if best is None:
            return None
        move, square, xs = best
        expl = explain(self.board, seg.occ0, occ - {square}, frozenset(seg.landings), tuple(seg.lift_order),
                       seg.hints, self._index())
        if expl is None or not expl.legal or not expl.exact or lifted is not None and (
                lifted in expl.standing or lifted in expl.move.captured):
            return None
        both = self._diode_suspects & xs
        self._diode_suspects = both if both else self._diode_suspects | xs
        t = seg.last_change if seg.last_change is not None else seg.t0
        self._note(t, f"square {self.variant.square_name(square)} still reads closed after its piece left: a "
                      "missing diode's ghost (its rectangle reads closed), masked while it stands")
        self._ghost_masked.add(square)
        self._mask_square(square, False)
        if len(self._diode_suspects) == 1:
            (x,) = self._diode_suspects
            self._diode_suspects = frozenset()
            self._no_diode.add(x)
            name = self.variant.square_name(x)
            self._sensor_fault(x, "ghost", t, f"a square a piece left kept reading closed while {name} and two "
                                              f"corners of a matrix rectangle with it did: {name}'s diode is "
                                              "missing (or shorted)")
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

    def _landing_hidden(self, early: list[int], move: Move, t: float, number: int) -> bool:
        """The capturing piece landed on a square a missing diode's rectangle masked during the turn: when it
        landed is unknown, so a removal read before the landing proves nothing (an observation, not
        ``capture-removed-early``)."""
        dest = move.destination
        if dest not in self._ghost_masked and self._ghost_until.get(dest, float("-inf")) < self._seg.t0:
            return False
        name = self.variant.square_name
        self._observe("capture-removed-early", t, tuple(early), f"removed before the capturing piece was read on "
                      f"{name(dest)}: " + ", ".join(name(s) for s in early), self.board.turn, number,
                      f"{name(dest)} was masked (a missing diode's ghost) during the move: its landing was not seen")
        return True

    def _split_took_capture(self) -> bool:
        """The opponent's piece lifted last is one the mover's capture took (his removal, not a reply)."""
        split = self._split
        return split is not None and isinstance(split.plan, Explanation) and split.square in split.plan.move.captured

    def _masked_reply(self, c, occ: frozenset[int]) -> bool:
        """The opponent's move from a masked square shows no lift: his first change is a capture's removal
        or his landing. When the board showed the mover's move exactly just before ``c`` and ``c`` fits a
        move of the opponent from a masked square, the mover's move is committed as it stood and ``c`` begins
        the opponent's turn. Not within ``touch_s`` of the mover's last change: a king sliding over the
        squares of its path shows them closed for a moment, and the piece is still in his hand."""
        prev = occ ^ {c.square}
        seg = self._seg
        if prev == seg.occ0 or seg.changes and c.t - seg.changes[-1].t < self.settings.touch_s:
            return False
        own = explain(self.board, seg.occ0, occ, frozenset(seg.landings), tuple(seg.lift_order), seg.hints,
                      self._index())
        if own is not None and own.legal and own.exact:
            return False                  # ``c`` completes a move of the mover, read with every square as it is
        plan = self._explain(prev)
        if plan is None or not plan.legal or not plan.exact:
            return False
        after = self._physical_after(plan, prev)
        for m in self._index(after).moves:
            if m.origin in self._mask and after.piece_at(m.origin) is not None and (
                    c.square in m.captured if c.up else _on_path(self.variant, m, c.square)):
                self._split = PendingSplit(len(self._seg.changes), c.t, plan, prev, m.origin)
                self._resolve_split()
                return True
        return False
