"""A reply lifted as the capture's landing closes: that closing does not date the landing (docs/reconstruction.md,
"Failing switches"; issue 9).

Captured pieces come off once the capturing piece has landed (FPD 000 art. 3.8; CODEX 004 art. 42.J; FMJD 002
art. 4.11), and the engine dates the landing by its square's closing. Without a clock the opponent begins his reply
once he sees the move over. When his first lift comes less than ``touch_s`` after the landing's closing (white's
39x28: 33 off at 141.13, 28 closing at 141.925, black lifting 9 at 141.93), his hand was on its way before that
closing, and a closing that young is no landing yet by the engine's own measure (``_cut`` reads one the move leaves
out as a neighbour phantom). Two things give those frames: the capturer still bringing his piece down as the
opponent began (the removal early), or the piece down earlier on a switch that closed late (one dead since the
square was empty, working again under it: nothing the sensors saw marks it). The sensors cannot tell: the removal
read before that closing is an observation naming the square and why, never ``capture-removed-early``
(:func:`rig.reconstruct.detectors.early_removal_unseen`). No fault is named: nothing shows one.

A reply begun ``touch_s`` or more after the closing can be an answer to that landing: an early removal before it
stands. With a clock the mover's press ends his move and the rule is not used.

The same holds for a landing on the square the last capture took a piece off *less than* ``touch_s`` after its
own landing closed (white's 32x21 taking 27: 21 closing at 106.82, 27 read off 75 ms later; black's 16x27 then
lifting 16, 21 off, 27 closing 0.66 s after that). By the engine's own measure a change that soon after the
landing is no deliberate act of the hand that made it: a switch dying under that piece reads the same (its
removal then unseen), and the switch working again under the next landing closes late, after the removals. The
square empty since and closing once in this turn, the capture's removal read before that closing is an
observation, never ``capture-removed-early``; no fault is named (nothing shows one, and a player who took 27 off
that fast and 21 off early makes the same frames). A removal read ``touch_s`` or more after the last landing was
a deliberate one: an early removal against the next landing stands (one read before that landing is
recovery.py's ``_died_under_capture``). Without a clock only, as above.

A removal read less than ``removal_margin_s`` *before* the last capture's landing closed is the same: no early
removal by the engine's measure (an observation then: the landing's switch may have closed late), and no
deliberate act apart from the landing either (black's 22x31: 27 read off at 72.59, 31 closing 35 ms later; a
switch dying under 27's piece gives that reading). White's 36x27 then lands there, 31 off, and 27 closes 0.6 s
later: the removal read before that closing is an observation, as above.
"""

from __future__ import annotations

from rig.board import Board
from rig.move import Move
from rig.reconstruct.detectors import SquareName
from rig.reconstruct.occupancy import SquareChange
from rig.reconstruct.settings import Settings
from rig.reconstruct.state import SIDE, Ply, Segment

__all__ = ["reply_before_landing", "landing_on_quick_removal"]


def reply_before_landing(move: Move, seg: Segment, reply: SquareChange | None, board: Board, settings: Settings,
                         name: SquareName) -> str | None:
    """``move`` (a capture committed from ``seg`` on ``board``, without a clock, at the first change after it,
    ``reply``) has a captured piece read off before its landing's one closing, and ``reply`` is the opponent's
    lift of a piece of his own less than ``touch_s`` after that closing: the landing has no time (module
    docstring). Why, for the early removal's observation; None otherwise."""
    dest = move.destination
    if reply is None or not reply.up or not move.captured or move.origin == dest or reply.square in move.captured:
        return None
    final = seg.placed_at.get(dest)
    if final is None or not 0.0 <= reply.t - final < settings.touch_s \
            or [c.t for c in seg.changes if c.square == dest] != [final] \
            or not any(seg.lifted_at.get(s, final) < final for s in move.captured):
        return None
    piece = board.piece_at(reply.square)
    if piece is None or piece[0] == board.turn:
        return None
    return (f"{SIDE[not board.turn]} lifted {name(reply.square)} {(reply.t - final) * 1000:.0f} ms after "
            f"{name(dest)} closed (under {settings.touch_s * 1000:g} ms): he reached for his piece before that "
            "closing, so the capturing piece may have been down earlier on a switch that closed late (one dead and "
            "working again); the landing has no time")


def landing_on_quick_removal(move: Move, seg: Segment, last: Ply | None, settings: Settings,
                             name: SquareName) -> str | None:
    """``move`` (a capture committed from ``seg``, without a clock) lands on the square the last ply's capture
    (``last``) read taken off less than ``touch_s`` after that capture's landing closed (or less than
    ``removal_margin_s`` before it: no early removal either, the module docstring), empty since and closing
    once in this turn, after a captured piece of ``move`` read off: a switch dying under that piece reads the
    same as its removal, and one working again under this landing the same as the landing (module docstring).
    Why, for the early removal's observation; None otherwise."""
    dest = move.destination
    if last is None or last.withdrawn or last.capture_times is None or last.move is None \
            or dest not in last.move.captured or not move.captured or move.origin == dest or dest in seg.occ0 \
            or move.origin not in seg.lifted_at:
        return None
    final = seg.placed_at.get(dest)
    landed, removed = last.capture_times
    off = removed.get(dest)
    if final is None or off is None or not -settings.removal_margin_s < off - landed < settings.touch_s \
            or [c.t for c in seg.changes if c.square == dest] != [final] \
            or not any(seg.lifted_at.get(s, final) < final for s in move.captured):
        return None
    when = (f"{(off - landed) * 1000:.0f} ms after the last capture landed (under {settings.touch_s * 1000:g} ms)"
            if off >= landed else f"{(landed - off) * 1000:.0f} ms before the last capture landed (under "
            f"{settings.removal_margin_s * 1000:g} ms: no early removal)")
    return (f"{name(dest)} read its piece off {when}, then nothing until this landing closed after the removals (at "
            f"{final:.2f} s): a switch that died under that piece and came back under this one reads the same; the "
            "landing has no time")
