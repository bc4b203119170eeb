"""A switch that sticks closed on an empty square: the one a piece has just left, or the one a move will land
on (docs/reconstruction.md, "Failing switches").

- *After the lift* (:meth:`StuckEmpty._stuck_after_lift`): the mover lifts his piece; a moment later its square
  reads occupied again and stays so, while the piece lands on its destination. No hand can have closed that
  square: the only piece lifted is the one that landed, and no other lift gave him a piece to put there (no
  player puts a piece down from nowhere). One legal move explains every square but that one: the move is read,
  the switch is ``stuck-closed`` (masked from then on, empty as the game leaves it), and the move that later
  lands there is read from its lift (the masked-square rules). The same reading keeps the board from passing
  for a take-back: the capture ``c5xa3`` with the switch under c5 sticking after the lift shows the board as
  before ``a3-b4`` (b4 off, a3 on), but a3 closed *before* b4 was lifted (no hand puts a piece down before
  lifting it), so it is the capture (:meth:`StuckEmpty._reclosed`, unseen.py ``_stuck_capture_shown``), also
  when c5 closed only a moment before b4's lift (0.1 s in a held-out game): the order of the changes tells, not
  how long c5 has read occupied (``settled=False``). A captured piece taken off less than ``touch_s`` before the
  origin closed again was not put there (18x9, 13 off, 18 closing 50 ms later); where a switch stuck under
  another origin that never opened fits too (18-23 for 19-23), the piece lifted is the piece played
  (:meth:`StuckEmpty._stuck_lifted_origin`; touch-move), the reading left open.
- *Before the landing* (:meth:`StuckEmpty._landing_closed_before`): a legal move is read whose destination
  already read occupied when its turn began, with no piece of the game there and no change on it in the turn
  (the square closed earlier on its own and the move was read from the other squares): a piece cannot land on
  a square before it is lifted, so the switch there is ``stuck-closed`` (masked from then on, occupied as the
  move leaves it), and the move that later leaves it is read from its landing.
- *Under a captured piece, before the reply lands there* (:meth:`StuckEmpty._stuck_landing`): the switch
  under a piece the opponent's capture takes sticks closed (before its removal, or just after it: it opens and
  reads occupied again), so the capture reads as ``capture-not-removed`` (which players do; a piece lifted and
  put back reads the same; where the switch closed ``touch_s`` or more after the removal, the piece reads
  touched too: ``opponent-piece-touched`` on the same square, the same reading). The reply that lands on that
  square shows its lift and its captures only: with the piece standing no move explains it, with the square
  stuck it is exactly one legal move. The capture is read again as stuckcapture.py does (the irregularities
  dismissed, the switch named, an observation), once the mover's move is over (his press, or without a clock
  the still board): a piece kept in the hand shows the same for a moment, so it is never read while the move may
  still be under way. Without a clock, a captured piece's switch that sticks less than ``touch_s`` after its
  removal, before the capture's next removal, reads as the opponent lifting that piece and putting it back; the
  next removal of the same capture shows the mover still clearing it (:meth:`StuckEmpty._split_reclosed_removal`),
  so the capture is read with that square standing and the reply's landing there reads it again.
"""

from __future__ import annotations

from collections.abc import Iterator

from rig.board import Board
from rig.move import Move
from rig.reconstruct.chainread import OpenReading, turn_shown
from rig.reconstruct.matcher import Explanation
from rig.reconstruct.occupancy import SquareChange
from rig.reconstruct.state import Ply, Segment, snap
from rig.reconstruct.unseen import on_path

__all__ = ["reclosing", "StuckEmpty"]


def reclosing(seg: Segment, square: int) -> SquareChange | None:
    """The closing of ``square`` in the turn ``seg`` when its first change was a lift and its last a closing
    (it opened, then read occupied again); None otherwise."""
    first = last = None
    for c in seg.changes:
        if c.square == square:
            if first is None:
                first = c
            last = c
    if first is None or not first.up or last is first or last.up:
        return None
    return last


class StuckEmpty:
    """The engine's side of a switch stuck closed on an empty square (module docstring); mixed into
    :class:`rig.reconstruct.faults.FaultHandling`."""

    def _reclosed(self, square: int, settled: bool = True) -> bool:
        """``square`` opened in the turn and closed again (``touch_s`` or more ago with ``settled``), and no piece
        but its own was lifted before it closed (nothing the hand could put there: no player puts a piece down
        from nowhere), but for an opponent's piece taken off less than ``touch_s`` before it closed."""
        seg = self._seg
        close = reclosing(seg, square)
        if close is None or settled and self._now - close.t < self.settings.touch_s:
            return False
        # an opponent's piece taken off (a capture cleared) less than ``touch_s`` before the closing is no piece
        # the hand put there: a lift that short is no deliberate move of it (Settings.touch_s)
        board, mover, touch = self.board, self.board.turn, self.settings.touch_s
        lifted = {c.square for c in seg.changes if c.up and c.t <= close.t}
        brief = {c.square for c in seg.changes if c.up and 0 <= close.t - c.t < touch and c.square != square
                 and (piece := board.piece_at(c.square)) is not None and piece[0] != mover}
        return lifted - brief == {square}

    def _split_reclosed_removal(self, c: SquareChange) -> bool:
        """The opponent's first lifted piece (``_split``) is a captured piece still standing whose square closed
        again less than ``touch_s`` after the lift (no hand puts a piece back that fast: its switch sticking, or a
        phantom), and ``c`` lifts another piece the same capture took: the mover is clearing his capture (FMJD 002
        art. 3.8: he removes the pieces), the first lift was his removal too, not the opponent beginning. The
        square still reading closed is read later (:meth:`_stuck_landing`)."""
        split = self._split
        at = self._seg.placed_at.get(split.square)
        return c.up and at is not None and 0 <= at - split.t < self.settings.touch_s \
            and self._split_is_removal(c.square)

    def _stuck_after_lift(self, occ: frozenset[int], lifted: int | None) -> Explanation | None:
        """The mover's move is over and no move explains the board (``occ``), but one legal move explains every
        square but its origin, which opened, closed again with no other piece lifted (:meth:`_reclosed`) and
        reads occupied: its switch stuck closed after the piece left (FMJD 002 art. 3.5, FPD 000 art. 3.1: the
        piece moves to the square it lands on; the square it left is empty). The fault is named and masked
        (empty); the move's explanation, or None."""
        seg = self._seg
        if self._diode_trouble() or not seg.changes:
            return None                   # a missing diode's ghosts close squares too (ghostread.py)
        found = []
        occ0, mask = seg.occ0, self._mask
        # (a square occupied at the turn's start that reads closed again was placed on last: ``placed_at``)
        for x in sorted(s for s in seg.placed_at if s in occ0 and s in occ and s not in mask):
            if not self._reclosed(x):
                continue
            expl = self._explain(occ - {x})
            if expl is None or not expl.legal or not expl.exact or expl.move.origin != x \
                    or on_path(self.variant, expl.move, x):
                continue
            if lifted is not None and (lifted in expl.standing or lifted in expl.move.captured):
                continue
            found.append((x, expl))
        if len(found) != 1:
            return None
        x, expl = found[0]
        name = self.variant.square_name
        t_x = reclosing(seg, x).t
        self._fault(x, "stuck-closed", t_x, f"{name(x)} read occupied again after its piece left, with no other "
                                            f"piece lifted, and the piece came down on "
                                            f"{name(expl.move.destination)}: its switch is stuck closed", False)
        return expl

    def _stuck_lifted_origin(self, found: list[tuple[Move, int, str]], occ: frozenset[int],
                             lifted: int | None) -> Explanation | None:
        """The board is a legal move with a switch stuck under its origin (``found``: each origin never opened,
        :func:`one_square_off`), and also (:meth:`_stuck_after_lift`) the move of the one piece the mover lifted,
        its square closed again after the lift: the piece he lifted is the one he played (touch-move:
        FMJD 002 art. 3.11, CODEX 004 art. 42.C). That reading needs the switch alone, the other a
        touched piece not played besides: the lifted piece's move is read, its origin named ``stuck-closed``,
        and the reading stays open with the others (chainread.py: the moves after it may tell)."""
        if any(kind != "stuck-closed" for _, _, kind in found):
            return None
        expl = self._stuck_after_lift(occ, lifted)
        if expl is None:
            return None
        self._open_reading([expl, *(Explanation(m, True, None) for m, _, _ in found)], self._seg.occ0,
                           fault="stuck-closed")
        return expl

    def _landing_closed_before(self, expl: Explanation, board: Board) -> None:
        """``expl``, about to be committed from ``board``, is a legal move whose destination, empty in the game,
        shows no closing in its turn: the square read occupied before the turn began (it closed on its own, and
        the move was read from the other squares; a piece lands after it is lifted). Its switch is named
        ``stuck-closed`` and masked (occupied, as the move leaves it)."""
        seg = self._seg
        if not (expl.legal and expl.exact) or not seg.changes:
            return
        dest = expl.move.destination
        # (a square reading closed that changed in the turn was placed on last: ``placed_at``)
        if dest in seg.placed_at or dest not in self._occ or board.piece_at(dest) is not None \
                or dest in self._mask or self._diode_trouble():
            return
        name = self.variant.square_name
        self._fault(dest, "stuck-closed", seg.t0, f"{name(dest)} read occupied before {expl.move.text(name=name)} "
                                                  "was begun, with no piece there, and did not change as the piece "
                                                  "came: its switch is stuck closed", True)

    def _reclosed_suspect(self, squares: tuple[int, ...]) -> None:
        """A capture about to be committed leaves ``squares`` standing, each of which opened in the turn and reads
        closed again (:func:`reclosing`): a piece lifted and put back, or its switch stuck closed after the
        removal, read the same. Kept open (``OpenReading.standing``) for the reply to tell
        (:meth:`_stuck_landing`); a square that never changed is stuckcapture.py's ``_standing_suspect``."""
        seg = self._seg
        if any(s in self._mask or reclosing(seg, s) is None for s in squares):
            return
        self._open_readings.append(OpenReading(len(self._plies), (), seg.occ0, None, tuple(squares),
                                               reclosed=True))

    def _standing_captures(self, occ: frozenset[int]) -> Iterator[tuple[OpenReading, Ply, Move, frozenset[int]]]:
        """The open readings of the last ply that read a legal capture with pieces left standing (``standing``),
        those pieces still read on the board ``occ``: (reading, the ply, its capture, the squares left standing).
        The rules that read such a capture again (here, landedcapture.py) start from them."""
        plies = self._plies
        for r in [r for r in self._open_readings if r.standing and not r.gone and r.ply == len(plies) - 1]:
            capture = plies[r.ply]
            move, squares = capture.move, frozenset(r.standing)
            if capture.withdrawn or move is None or not capture.legal or not squares <= occ \
                    or not squares <= set(move.captured):
                continue
            yield r, capture, move, squares

    def _standing_opens(self, square: int) -> bool:
        """``square``, opening while the opponent's first lift is pending (that piece still off), holds the piece
        a capture was read to leave standing (an open ``standing`` reading: ``capture-not-removed``, which a switch
        stuck under it since reads the same), the game's piece still there. A stuck switch freeing itself opens
        with no hand near: no sign that the first piece stayed off (the mover taking it off, this lift beginning
        the reply). The lift stays pending and the opening stays in the turn, whose commit reads it (recovery.py
        ``_standing_recovered``: the capture read again, the switch recovered) or as a lift. Not where the pending
        lift took a piece the mover's capture just took (its plan leaves that piece standing): that lift is his
        last removal as plainly, and the opponent's piece opening after it begins the reply (the piece a capture
        long ago left standing, played on by the arbiter's decision, is his like any other)."""
        split, plies = self._split, self._plies
        plan = None if split is None else split.plan
        if isinstance(plan, Explanation) and split.square in plan.standing:
            return False
        return self.board.piece_at(square) is not None and any(
            square in r.standing and not r.gone and r.ply < len(plies) and not plies[r.ply].withdrawn
            for r in self._open_readings)

    def _standing_only(self, found: list[int], squares: frozenset[int]) -> bool:
        """The irregularities ``found`` (indexes) at a capture are the pieces on ``squares`` left standing
        (``capture-not-removed``, naming them all) and nothing else but those squares read lifted and put back
        (``opponent-piece-touched`` on them alone): a removal and a switch closing again ``touch_s`` or more
        after it read as a touch, so both come from the same reading of those squares."""
        kinds = [self.irregularities[i] for i in found]
        return any(x.type == "capture-not-removed" and squares <= set(x.squares) for x in kinds) and all(
            x.type == "capture-not-removed" or x.type == "opponent-piece-touched" and set(x.squares) <= squares
            for x in kinds)

    def _stuck_landing(self, t: float, occ: frozenset[int], lifted: int | None) -> tuple[Explanation,
                                                                                        frozenset[int]] | None:
        """The turn shows no legal move, right after a capture read with pieces left standing (an open
        ``standing`` reading of the last ply, ``capture-not-removed`` its only irregularity but a touch of those
        squares, :meth:`_standing_only`); read with those pieces removed and their squares masked, it is exactly
        one legal move that lands on one of them, which
        did not change: the mover's piece came down there and its switch showed nothing, as a switch stuck
        closed since the capture reads (FMJD 002 art. 4.4; CODEX 004 art. 42.K: a piece left standing would
        bar the landing). The capture is read again (stuckcapture.py ``_rewrite_standing``: the irregularity
        dismissed, the switch named, an observation) and the turn's move and occupancy after it are returned.
        None otherwise, also while a piece the move captures still stands (the move may be under way). Called
        (chainread.py ``_reread_turn``) where the mover's move is taken as over: his press, the opponent's
        lift, or without a clock the still board."""
        seg = self._seg
        changed = {c.square for c in seg.changes}
        for r, capture, move, squares in self._standing_captures(occ):
            if squares & changed or not self._standing_only(capture.irregularities, squares):
                continue
            board = snap(capture.board_before)
            board.push(move)
            board = snap(board)
            cur = (r.occ0 - {move.origin}).difference(move.captured) | {move.destination}
            masked = self._mask.squares | squares
            current = turn_shown(seg, occ, masked, self._index, lifted)(board, cur)
            if current is None or not current.exact or current.standing or current.move.destination not in squares:
                continue
            held, split = self._held, self._split
            self._held = self._split = None
            self._rewrite_standing(t, r, [(move, cur)], cur)
            self._held, self._split = held, split
            reply = current.move
            return current, (occ - masked) | (((cur - {reply.origin}).difference(reply.captured) | {reply.destination})
                                              & masked)
        return None
