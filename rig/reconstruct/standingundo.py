"""Undoing a standing re-read that the game refutes later (docs/reconstruction.md, "Failing switches").

A captured piece left standing (``capture-not-removed``) followed by an irregularity that only that piece makes
(its capture not taken, a capture stopped short of it) reads, at that turn, the same as a switch stuck closed
under a removed piece; stuckcapture.py takes the switch (no player irregularity from a faulty switch). The game
may tell them apart later: the piece is captured, its square opening as that capture's removal (or its owner
plays it, the square opening as his lift). Read with the piece standing, that turn is exactly one legal move
capturing it (or of it); read with the switch stuck, it is no legal move (a switch freeing at that moment, and an
irregular move). That turn refutes the switch: the re-read is undone.

The engine is pure (the same input gives the same output), so the undo is the engine's own reading without that
re-read: when a capture leaves a piece read standing, the engine keeps a copy of itself at the next event, and
the events since. When a switch a re-read named opens and a turn is committed, the copy is fed those events again
with that one re-read forbidden (a *shadow* reading). The shadow replaces the engine when its turn is one legal
move capturing the piece (or played from its square), with no irregularity from the re-read's turn to it, while
the engine's own reading of the turns since has one. Then the dismissed irregularities stand again as the rules
left them (``capture-not-removed`` open), the finding of the re-read's turn (``capture-not-taken``,
``capture-incomplete``) is raised, the report's moves are the game's (the re-read's entries go with it; a live
consumer gets a note, the moves read again at their indexes, ``MoveWithdrawn`` for indexes beyond the new list),
and the fault is kept in ``sensor_faults``, marked withdrawn with the reason: the history is there. The re-read's
observation goes: it asked the arbiter which of the two it was, and the game answered.

The opposite case reads differently: a switch really stuck under a removed piece that frees itself in a later
turn leaves that turn a legal move read with the switch masked (recovery.py), and the turns since without an
irregularity. When the shadow reads the same turns as a legal move capturing (or of) the piece, with no
irregularity either (the same frames), the re-read stands and an observation names the square: the sensors
cannot tell the two apart, and the engine never flips either way silently.

:class:`StandingUndo` is mixed into :class:`rig.reconstruct.faults.FaultHandling`.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from typing import Any

from rig.reconstruct.chainread import REREAD_FAULT_PLIES
from rig.reconstruct.outputs import MoveWithdrawn, Note, Output

__all__ = ["StandingUndo", "StandingLog"]

#: turns committed after the stuck switch opened in which the refuting capture is looked for
REFUTE_TURNS = 2


@dataclass
class KeptCopy:
    """The engine as it was at the first event after a capture left ``squares`` standing (ply ``ply``), and the
    index in :attr:`StandingLog.events` of that event."""

    ply: int
    squares: tuple[int, ...]
    engine: Any
    start: int


@dataclass
class StandingRead:
    """A standing re-read made: the kept copy it can be undone from, the ply of the turn that made it, the
    indexes in ``sensor_faults`` of the switches it named, the plies committed when last looked at, and the
    looks made since the switch opened."""

    kept: KeptCopy
    turn: int
    faults: tuple[int, ...]
    seen: int
    looks: int = 0


@dataclass
class StandingLog:
    """The events fed since the oldest kept copy (``("advance", t)`` for :meth:`advance`), the copies, the
    readings waiting for a copy, the re-reads made."""

    events: list = field(default_factory=list)
    kept: list[KeptCopy] = field(default_factory=list)
    pending: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    rereads: list[StandingRead] = field(default_factory=list)


class StandingUndo:
    """The engine's side of an undo of a standing re-read (see the module docstring)."""

    def _init_standing_undo(self) -> None:
        self._standing_on = False                 # events are kept (feed goes through _feed_kept)
        self._standing_log: StandingLog | None = None
        self._standing_refuted: frozenset[tuple[int, tuple[int, ...]]] = frozenset()   # re-reads undone

    def _standing_keep(self, ply: int, squares: tuple[int, ...]) -> None:
        """A capture (ply ``ply``) leaves ``squares`` standing: keep a copy of the engine at the next event."""
        if self._standing_log is None:
            self._standing_log = StandingLog()
        self._standing_log.pending.append((ply, tuple(squares)))
        self._standing_on = True

    def _standing_copy(self) -> Any:
        """A deep copy of the engine, sharing what never changes (header, settings, rule book, caches), without
        the log."""
        memo: dict[int, Any] = {id(x): x for x in (self.header, self.settings, self.variant, self.header.ruleset,
                                                   self.judge.book, self._indexes, self._fen, self._fen_of)}
        memo[id(self._standing_log)] = None
        other = copy.deepcopy(self, memo)
        other._standing_on = False
        return other

    def _standing_kept(self, event: Any) -> StandingLog:
        """Before an event is fed: the copies asked for, the event kept."""
        log = self._standing_log
        assert log is not None
        if log.pending:
            engine = self._standing_copy()
            start = len(log.events)
            log.kept.extend(KeptCopy(ply, squares, engine, start) for ply, squares in log.pending)
            log.pending.clear()
        log.events.append(event)
        self._standing_on = False
        return log

    def _feed_kept(self, event: Any) -> list[Output]:
        self._standing_kept(event)
        self.feed(event)  # type: ignore[attr-defined]
        return self._standing_after(None)

    def _advance_kept(self, t: float) -> list[Output]:
        self._standing_kept(("advance", t))
        self.advance(t)  # type: ignore[attr-defined]
        return self._standing_after(None)

    def _finish_kept(self, t: float | None) -> list[Output]:
        self._standing_on = False
        self.finish(t)  # type: ignore[attr-defined]
        return self._standing_after(("finish", t))

    def _standing_reread_made(self, ply: int, squares: tuple[int, ...], faults: tuple[int, ...]) -> None:
        """A standing re-read of the capture of ply ``ply`` named ``faults``; kept for an undo when its copy is."""
        log = self._standing_log
        if log is None:
            return
        kept = next((k for k in log.kept if k.ply == ply and k.squares == tuple(squares)), None)
        if kept is not None:
            log.rereads = [rec for rec in log.rereads if rec.kept is not kept]     # read again: the latest counts
            log.rereads.append(StandingRead(kept, len(self._plies), faults, len(self._plies)))

    def _standing_after(self, ending: tuple | None) -> list[Output]:
        """After an event: look at each re-read whose switch opened, drop what can no longer be undone."""
        log = self._standing_log
        self._standing_on = True
        if log is None:
            self._standing_on = False
            return self._out
        n = len(self._plies)
        for rec in list(log.rereads):
            if n - rec.turn > REREAD_FAULT_PLIES or n < rec.turn:
                log.rereads.remove(rec)
                continue
            if all(self.sensor_faults[i].current for i in rec.faults):
                rec.seen = n
                continue
            if n <= rec.seen and ending is None:
                continue
            rec.seen = n
            rec.looks += 1
            if self._standing_look(log, rec, ending):
                return self._out
            if rec.looks >= REFUTE_TURNS or ending is not None:
                log.rereads.remove(rec)
        used = {id(rec.kept) for rec in log.rereads}
        open_keys = {(r.ply, tuple(r.standing)) for r in self._open_readings if r.standing and not r.gone}
        log.kept = [k for k in log.kept if id(k) in used or (k.ply, k.squares) in open_keys and k.ply < n]
        if log.kept:
            first = min(k.start for k in log.kept)
            if first:
                del log.events[:first]
                for k in log.kept:
                    k.start -= first
        else:
            log.events.clear()
        if not log.kept and not log.pending and not log.rereads:
            self._standing_log = None
            self._standing_on = False
        return self._out

    def _standing_shadow(self, log: StandingLog, rec: StandingRead, ending: tuple | None) -> tuple[Any, list]:
        """The engine's reading without the re-read of ``rec``: its kept copy fed the events since again."""
        shadow = rec.kept.engine._standing_copy()
        shadow._standing_refuted = shadow._standing_refuted | {(rec.kept.ply, rec.kept.squares)}
        outs: list = []
        for ev in log.events[rec.kept.start:]:
            outs += shadow.advance(ev[1]) if isinstance(ev, tuple) else shadow.feed(ev)
        if ending is not None:
            outs += shadow.finish(ending[1])
        return shadow, outs

    def _standing_look(self, log: StandingLog, rec: StandingRead, ending: tuple | None) -> bool:
        """The switch the re-read of ``rec`` named opened and a turn was committed: read the turns again with
        the piece standing; True when that reading replaced the engine's (the capture refutes the switch)."""
        squares = set(rec.kept.squares)
        plies = self._plies
        shadow, outs = self._standing_shadow(log, rec, ending)
        theirs = shadow._plies
        k = next((i for i in range(rec.turn + 1, len(theirs)) if theirs[i].move is not None and not theirs[i].withdrawn
                  and squares & {theirs[i].move.origin, *theirs[i].move.captured}), None)
        if k is None or not theirs[k].legal or theirs[k].irregularities:
            return False                  # no capture of the piece read standing: nothing refutes the switch
        if any(theirs[i].irregularities for i in range(rec.turn + 1, k)):
            return False                  # the standing reading needs another irregularity on the way
        names = ", ".join(self.variant.square_name(s) for s in sorted(squares))
        text = theirs[k].text
        if k >= len(plies):
            return False                  # the engine has not read that turn yet
        if all(p.legal and not p.irregularities for p in plies[rec.turn + 1:k + 1]):
            entry = self.moves[self._entry_of(plies[k])]
            self._observe("capture-not-removed", entry.t, tuple(sorted(squares)),
                          f"{names} opened in {entry.move_text}: read as its switch freeing",
                          entry.side == "white", entry.number,
                          f"a switch stuck closed freeing there and the piece on {names} left standing, captured by "
                          f"{text}, read the same: the re-read as the switch stands")
            return False
        faults = [self.sensor_faults[i] for i in rec.faults]
        erased = self.moves
        self._standing_adopt(shadow)
        reason = (f"the piece on {names} was captured later ({text}), its square opening as the removal: it stood "
                  "there, the switch worked")
        out: list = [Note(self._now, f"re-read undone: {names} read standing again from the capture on ({reason})")]
        out += outs
        out += [MoveWithdrawn(self._now, i, erased[i].move_text) for i in range(len(self.moves), len(erased))]
        for f in faults:
            f = replace(f, withdrawn=reason)
            self.sensor_faults.append(f)
            out.append(f)
        self._out = out
        return True

    def _standing_adopt(self, shadow: Any) -> None:
        """The engine takes the state of ``shadow`` (every slot and attribute)."""
        for name in type(self).__slots__:  # type: ignore[attr-defined]
            if hasattr(shadow, name):
                setattr(self, name, getattr(shadow, name))
        self.__dict__.clear()
        self.__dict__.update(shadow.__dict__)
