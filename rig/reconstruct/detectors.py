"""Irregularity detectors: pure functions from the facts of a turn to the findings it shows.

Each detector takes values (the position before the move, the move's :class:`Explanation`, the turn's
:class:`Segment`, the rule book in force, the thresholds of :class:`Settings`, times) and returns typed
findings: :class:`Irregularity` where the frames prove it, :class:`Observation` where the sensors cannot
settle it (docs/reconstruction.md, "Certain or not"), nothing where the book makes it no fault. They read no
engine state and record nothing: the engine's commit policy records what they return (its index, the
status, the journal; :mod:`rig.reconstruct.irregularities`).

What the move shows (:func:`move_findings`: CODEX 004 art. 42.B, F-N; FPD 000 3.3-4.13; FMJD 002 4.1-4.13),
what the turn's trail shows (:func:`trail_findings`: touch-move FPD 000 4.3-4.5, 001 5.1.1, FMJD 002 3.11,
CODEX 004 42.C; release FPD 000 4.6, FMJD 002 3.12; early and out-of-order removal FPD 000 3.8, CODEX 004
42.J, 89, FMJD 002 4.5, 4.6, 4.11; the uncrowned king CODEX 004 42.O), and the findings the other stages
decide (a second move, a press without a move, a board no move explains, a take-back, a wrong set-up, a lost
position). The article each finding cites is the book's in force (:func:`cite`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from rig.board import Board, Piece
from rig.law import Book, TouchMove
from rig.move import Move
from rig.reconstruct.matcher import Explanation, PositionIndex
from rig.reconstruct.outputs import OPEN, RULES, Irregularity, Observation
from rig.reconstruct.settings import Settings
from rig.reconstruct.state import SIDE, Segment, snap
from rig.variants import Variant

__all__ = ["Finding", "Context", "cite", "move_findings", "trail_findings", "release_findings",
           "early_removal_findings", "early_removal_unseen", "touched_not_moved", "removal_out_of_order", "two_moves",
           "clock_without_move",
           "unexplained_change", "move_taken_back", "position_lost", "wrong_setup", "turned_start",
           "held_off_observation"]

#: what a detector returns: an irregularity the frames prove, or an observation for the arbiter's review
Finding = Irregularity | Observation

#: a square's name in the variant's notation (``Variant.square_name``)
SquareName = Callable[[int], str]


def cite(book: Book, kind: str) -> str:
    """The article ``kind`` cites: the book's in force, else every book's (:data:`RULES`)."""
    law = book.law(kind)
    return (law.article if law is not None else "") or RULES.get(kind, "")


@dataclass(slots=True)
class Context:
    """Who and when a finding is about: the rule book in force, the time, the side (``white``) and the PDN
    move number. A value, never changed once made (not frozen: the engine makes one per commit, and a
    frozen dataclass costs four times as much to make)."""

    book: Book
    t: float
    white: bool
    number: int

    def irregularity(self, kind: str, squares: Iterable[int], detail: str) -> Irregularity:
        return Irregularity(kind, self.number, SIDE[self.white], self.t, tuple(squares), cite(self.book, kind), OPEN,
                            detail)

    def observation(self, kind: str, squares: Iterable[int], detail: str, why: str) -> Observation:
        """``kind``: an irregularity id whose facts the sensors cannot prove (``why`` says what is missing)."""
        return Observation(kind, self.number, SIDE[self.white], self.t, tuple(squares), cite(self.book, kind), why,
                           OPEN, detail)

    def flag(self, kind: str, squares: Iterable[int], detail: str, why: str = "") -> list[Finding]:
        """``kind`` as the book says: an irregularity, an observation for review (``why``: what the sensors
        cannot settle), or nothing where the book makes it no fault."""
        law = self.book.law(kind)
        if law is None:
            return []
        if law.observation:
            return [self.observation(kind, squares, detail, why or f"{law.text}: for the arbiter")]
        return [self.irregularity(kind, squares, detail)]


# -- the move ---------------------------------------------------------------------------------------------

def move_findings(ctx: Context, board: Board, index: PositionIndex, expl: Explanation, text: str
                  ) -> list[Finding]:
    """What the move itself shows on ``board`` (the position it was played from; ``index`` its candidates;
    ``text`` the move as written): a capture not taken or not by the law's choice, a capture stopped short, a
    move the rules do not allow (CODEX 004 art. 42.B, F, H, I; FPD 000 3.3a, 3.7, 4.9, 4.12; FMJD 002 4.1, 4.10,
    4.13), captured pieces left standing (CODEX 004 42.K; FPD 000 3.4c), pieces wrongly removed (CODEX 004
    42.G, 42.N; FPD 000 4.12, 4.13)."""
    move = expl.move
    mover = board.turn
    name = board.variant.square_name
    found: list[Finding] = []
    if expl.kind is not None:
        due = ", ".join(board.move_text(m, index.moves) for m in index.legal_moves[:6])
        detail = {"capture-not-taken": f"{text} played; a capture was compulsory ({due})",
                  "capture-rule-violated": f"{text} took {len(move.captured)}; the law requires one of {due}",
                  "capture-incomplete": f"{text} stopped before the end of the capture",
                  "illegal-move": f"{text} is not a move the rules allow"}[expl.kind]
        found.append(ctx.irregularity(expl.kind, move.path, detail))
    if expl.standing:
        found.append(ctx.irregularity("capture-not-removed", sorted(expl.standing),
                                      "captured pieces still on the board: "
                                      + ", ".join(name(s) for s in sorted(expl.standing))))
    if expl.missing:
        # a square read occupied at the turn's start where the position has no piece (a stuck switch working
        # again) is no piece removed
        white = {s: p.white for s in expl.missing if (p := board.piece_at(s)) is not None}
        opp_missing = sorted(s for s, w in white.items() if w != mover)
        own_missing = sorted(s for s, w in white.items() if w == mover)
        if opp_missing:
            found.append(ctx.irregularity("wrong-piece-removed", opp_missing,
                                          "not captured, removed: " + ", ".join(name(s) for s in opp_missing)))
        if own_missing:
            found.append(ctx.irregularity("own-piece-removed", own_missing,
                                          "own pieces removed: " + ", ".join(name(s) for s in own_missing)))
    return found


def two_moves(ctx: Context, move: Move, text: str) -> Irregularity:
    """A second move of the same side in one turn (CODEX 004 art. 42.A)."""
    return ctx.irregularity("two-moves", (move.origin, move.destination), f"{SIDE[ctx.white]} moved again: {text}")


# -- the turn's trail -------------------------------------------------------------------------------------

def trail_findings(ctx: Context, board: Board, index: PositionIndex, expl: Explanation, seg: Segment,
                   settings: Settings, unseen: frozenset[int] = frozenset(), unseen_why: str = "") -> list[Finding]:
    """Touch-move, release, early and out-of-order removal and crowning, from the turn's evidence ``seg`` of
    the move ``expl`` played from ``board``, each judged by the book (FPD 000 4.3-4.6, 001 5.1.1, FMJD 002 3.11,
    4.11, CODEX 004 42.C): an irregularity, an observation, or nothing. ``unseen``: squares whose switch was
    masked during the turn (a faulty switch, docs/reconstruction.md "Failing switches"): a landing there has
    no time, and no removal is proved early against it (``unseen_why``: why, when not a missing diode's ghost)."""
    mover = board.turn
    move = expl.move
    found: list[Finding] = []
    name = board.variant.square_name
    touches = seg.touches
    if touches:
        first_lift = min((c.t for c in seg.changes if c.up and c.square == move.origin), default=None)
        sq = touched_not_moved(ctx.book, index, move, touches, first_lift)
        if sq:
            found += ctx.flag("touched-piece-not-moved", sq, f"touched {', '.join(name(s) for s in sq)}"
                              f"{' first' if len(sq) == 1 and len(touches) > 1 else ''}, played {name(move.origin)}")
        touched_opp = sorted({s for s, _, _ in touches if (p := board.piece_at(s)) is not None and p.white != mover})
        if touched_opp:
            found += ctx.flag("opponent-piece-touched", touched_opp,
                              "lifted and put back: " + ", ".join(name(s) for s in touched_opp))
    # a piece cannot be set down where one stands: a closing there is its switch (one that works again, read
    # before an earlier move was re-read onto that square), never a release
    stray = sorted(s for s in seg.landings if s not in move.path and board.piece_at(s) is None) \
        if seg.landings else ()
    if stray:
        found += release_findings(ctx, seg, stray, move, max(settings.release_s, settings.touch_s), name)
    if move.captured:
        final = seg.placed_at.get(move.destination)
        if final is None and move.origin == move.destination:
            final = max((c.t for c in seg.changes if c.square == move.origin and not c.up), default=None)
        early = sorted(s for s in move.captured
                       if s in seg.lifted_at and final is not None and seg.lifted_at[s] < final)
        if early and move.destination in unseen:
            found += early_removal_unseen(ctx, early, move, name, unseen_why)
        elif early:
            assert final is not None
            found += early_removal_findings(ctx, seg, early, move, final, settings.removal_margin_s, name)
        order = removal_out_of_order(ctx.book, move, seg.lifted_at, settings.bounce_s)
        if order is not None:
            found += ctx.flag("capture-removed-out-of-order", order,
                              f"removed {', '.join(name(s) for s in order)}; jumped "
                              f"{', '.join(name(s) for s in move.captured)}",
                              "disorder is rectified only at the opponent's request, which the sensors cannot hear")
    if seg.pieces is not None:
        piece = board.piece_at(move.origin)
        seen = seg.pieces.get(move.origin)
        if piece is not None and piece[1] and seen in ("w", "b"):
            as_man = snap(board)
            pieces = as_man.pieces()
            pieces[move.origin] = Piece(piece.white, False)
            as_man.set_pieces(pieces, board.turn)
            if not any(m.key == move.key for m in as_man.legal_moves):
                found += ctx.flag("uncrowned-king-moved", (move.origin,),
                                  f"the man on {name(move.origin)} was not crowned yet",
                                  "the book makes the piece a king on the base; whose the missing crown is, the "
                                  "sensors cannot tell")
    return found


def release_findings(ctx: Context, seg: Segment, stray: Sequence[int], move: Move, limit: float,
                     name: SquareName) -> list[Finding]:
    """FPD 4.6 / FMJD 002 art. 3.12: pieces set down off the path (``stray``, dwell in ``seg.landings``) and moved
    on. Certain when it stayed down ``limit`` or longer (a hand does not rest a held piece that long); shorter,
    the set-down may have been a change of mind with the piece still in hand: an observation."""
    long = [s for s in stray if seg.landings[s] >= limit]
    short = [s for s in stray if seg.landings[s] < limit]
    text = f", then moved on to {name(move.destination)}"
    found: list[Finding] = []
    if short and ctx.book.law("piece-moved-after-release") is not None:
        dwell = max(seg.landings[s] for s in short)
        found.append(ctx.observation(
            "piece-moved-after-release", short, "set down on " + ", ".join(name(s) for s in short) + text,
            f"set down {dwell:.2f} s (under {limit:g} s): a reed switch cannot tell a release from a "
            "hand that kept hold of the piece (a piece is played when released)"))
    if long:
        found += ctx.flag("piece-moved-after-release", long, "set down on " + ", ".join(name(s) for s in long) + text)
    return found


def early_removal_findings(ctx: Context, seg: Segment, early: Sequence[int], move: Move, final: float, margin: float,
                           name: SquareName) -> list[Finding]:
    """FPD 3.8; CODEX 004 art. 42.J: captured pieces (``early``) taken off before the capturing piece's landing
    was read (at ``final``). Certain when the removal came ``margin`` or more before it; closer, the landing's
    switch may have closed late (a slow magnet) after the piece was released: an observation."""
    sure = [s for s in early if final - seg.lifted_at[s] >= margin]
    close = [s for s in early if s not in sure]
    text = f"removed before the capturing piece reached {name(move.destination)}: "
    found: list[Finding] = []
    if close and ctx.book.law("capture-removed-early") is not None:
        gap = min(final - seg.lifted_at[s] for s in close)
        found.append(ctx.observation(
            "capture-removed-early", close, text + ", ".join(name(s) for s in close),
            f"taken off {gap * 1000:.0f} ms before the landing was read (under {margin * 1000:g} ms): "
            "the landing's switch may have closed late, after the piece was released"))
    if sure:
        found += ctx.flag("capture-removed-early", sure, text + ", ".join(name(s) for s in sure))
    return found


def early_removal_unseen(ctx: Context, early: Sequence[int], move: Move, name: SquareName,
                         why: str = "") -> list[Finding]:
    """Captured pieces read off before the capturing piece's landing on a square whose switch was masked
    during the move (a missing diode's ghost; or, ``why`` says, a dead switch that came back): when it landed is
    unknown, so nothing proves the removal early (FPD 3.8; CODEX 004 art. 42.J): an observation, where the book
    makes early removal irregular."""
    if ctx.book.law("capture-removed-early") is None:
        return []
    dest = name(move.destination)
    return [ctx.observation("capture-removed-early", early, f"removed before the capturing piece was read on {dest}: "
                            + ", ".join(name(s) for s in early),
                            why or f"{dest} was masked (a missing diode's ghost) during the move: its landing was "
                            "not seen")]


def touched_not_moved(book: Book, index: PositionIndex, move: Move, touches: Sequence[tuple[int, float, float]],
                      first_lift: float | None) -> tuple[int, ...]:
    """The touched pieces the mover had to play and did not, per the book's touch-move (``touches``: own and
    other squares lifted and put back, (square, up, down); ``first_lift``: when the played piece was first
    lifted). Only a piece with a legal move binds (FPD 000 4.3, 4.5; FMJD 002 3.11 "peças jogáveis"; CODEX 004
    42.C).

    - FPD 000 4.4, 001 5.1.1: the *first* touched piece that can move must be played;
    - FMJD 002 3.11: every touched playable piece must be moved, capture due or not;
    - CODEX 004 42.C: likewise, except when the move played is a compulsory capture."""
    origins = index.origins
    playable = [(up, s) for s, up, _ in touches if s in origins]
    if not playable:
        return ()
    style = book.touch_move
    if style is TouchMove.FIRST_TOUCHED:
        first_t, first = min(playable)
        if first == move.origin or first_lift is not None and first_lift < first_t:
            return ()
        return (first,)
    if style is TouchMove.EXCEPT_CAPTURE and move.is_capture and index.due:
        return ()
    return tuple(sorted({s for _, s in playable if s != move.origin}))


def removal_out_of_order(book: Book, move: Move, lifted_at: dict[int, float],
                         within: float = 0.0) -> tuple[int, ...] | None:
    """The order the captured pieces were seen removed, when it is neither the order they were jumped nor its
    reverse (FMJD 002 4.5, 4.6, 4.11; CODEX 004 art. 89); None when in order, when the book asks no order (the
    FPD's), or when fewer than three were removed. Pieces lifted in one frame (the same time), or less than
    ``within`` apart (the debounce window: two pieces taken off together are dated at the end of their
    switches' bounce, which can put either first), are in order either way: the switches do not show it."""
    if len(move.captured) < 3 or "capture-removed-out-of-order" not in book.laws:
        return None
    times = [lifted_at[s] for s in move.captured if s in lifted_at]
    if len(times) < 3 or _monotonic(times, within) or _monotonic([-x for x in times], within):
        return None
    seen = sorted((s for s in move.captured if s in lifted_at), key=lambda s: lifted_at[s])
    return tuple(seen)


def _monotonic(values: Iterable[float], within: float = 0.0) -> bool:
    """Non-decreasing, a value less than ``within`` below the highest before it counting as equal."""
    top: float | None = None
    for v in values:
        if top is not None and v < top - within:
            return False
        top = v if top is None else max(top, v)
    return True


# -- what the other stages decide -------------------------------------------------------------------------

def clock_without_move(ctx: Context) -> Irregularity:
    """The side to move pressed the clock with no move on the board (FPD 000 art. 7.5b)."""
    return ctx.irregularity("clock-without-move", (), "the clock was pressed with no move on the board")


def unexplained_change(ctx: Context, squares: Iterable[int]) -> Irregularity:
    """The board changed on ``squares`` in a way no single move explains: an illegal move (FPD 000 4.12;
    CODEX 004 art. 42.B)."""
    return ctx.irregularity("illegal-move", sorted(squares), "the board changed in a way no single move explains")


def move_taken_back(ctx: Context, move: Move, text: str) -> Irregularity:
    """A move put back on the board before the opponent moved (FPD 000 4.8; CODEX 004 art. 42.D)."""
    return ctx.irregularity("move-taken-back", (move.origin, move.destination), f"{text} was taken back")


def position_lost(ctx: Context, squares: Sequence[int]) -> Irregularity:
    """``squares`` changed with no move to explain them (FPD 000 art. 7.4; CODEX 004 art. 46-48)."""
    return ctx.irregularity("position-lost", squares, f"{len(squares)} squares changed with no move to explain them")


def wrong_setup(ctx: Context, occ: frozenset[int], target: frozenset[int], colours_ok: bool,
                turned: frozenset[int] | None) -> Irregularity:
    """The board set up as ``occ`` instead of ``target`` (FPD 000 art. 7.2; CODEX 004 art. 44): the colours
    swapped (``colours_ok`` false: the board turned round), the board turned a quarter (``occ`` is ``turned``,
    the start position turned; None for a set position), or squares missing and extra."""
    if not colours_ok:
        detail = "the colours are on the wrong sides: the board is turned round (180 degrees)"
        squares: tuple[int, ...] = ()
    elif turned is not None and occ == turned:
        detail = "the board is turned a quarter: the double corner is on the wrong side"
        squares = tuple(sorted(occ ^ target))
    else:
        squares = tuple(sorted(occ ^ target))
        missing = sorted(target - occ)
        extra = sorted(occ - target)
        detail = f"start position differs: missing {missing}, extra {extra}"
    return ctx.irregularity("wrong-setup", squares, detail)


def turned_start(variant: Variant) -> frozenset[int]:
    """The squares the start position occupies on a board turned a quarter (the double corner on the wrong
    side): the rows of both sides' men, every square of them."""
    rows = len(variant.white_start) // variant.half
    return frozenset(s for s in range(1, variant.squares + 1)
                     if variant.coords(s)[0] < rows or variant.coords(s)[0] >= variant.size - rows)


def held_off_observation(ctx: Context, square: int, stable_s: float, name: SquareName) -> Observation:
    """Without a clock, the opponent's first lifted piece (``square``) stays off on a still board: his hand may
    hold it while he thinks (a long hold is regular), or the mover took it off (``wrong-piece-removed``, CODEX
    004 art. 42.G), and his move was not played with it (had it been, nothing would stand for the arbiter
    whichever hand held it: the engine does not ask). Read as his turn begun; an observation."""
    return ctx.observation("wrong-piece-removed", (square,), f"{name(square)} off the board after the move",
                           f"without a clock a piece off the board for {stable_s:g} s may be in its owner's "
                           "hand (he began his turn) or taken off by the mover, and his move was not played with "
                           "it: read as his turn begun")
