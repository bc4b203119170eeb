"""The rule set's law as the reconstruction engine applies it (the table is :mod:`rig.law`).

:class:`Judge` answers the engine's questions about an irregularity under the rule set in force: which
article to cite, whether it is reported at all or only as an observation, whether the opponent's next move
accepts it, and what position an arbiter's ``rectify`` restores. It also reads touch-move and the removal
order of a capture from a turn's evidence, each book its own way. docs/reconstruction.md ("Law") says how.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from rig.board import Board
from rig.law import Book, Consequence, Law, TouchMove, book_for
from rig.move import Move
from rig.reconstruct.matcher import PositionIndex

__all__ = ["Judge"]


class Judge:
    """The law of ``ruleset`` for one game, with what the engine keeps about each irregularity: the position
    before it (``before``, by index, what ``rectify`` restores where the book restores) and which ones the
    opponent has already played on from (``replied``)."""

    __slots__ = ("ruleset", "book", "before", "replied")

    def __init__(self, ruleset: str):
        self.ruleset = ruleset
        self.book: Book = book_for(ruleset)
        self.before: dict[int, Board] = {}
        self.replied: set[int] = set()

    def __repr__(self) -> str:
        return f"<Judge {self.ruleset} ({self.book.title}): {len(self.replied)} played on>"

    def law(self, kind: str) -> Law | None:
        return self.book.law(kind)

    def rule(self, kind: str) -> str:
        """The article to cite for ``kind`` ("" when the book has none: the caller does not report it)."""
        law = self.book.law(kind)
        return law.article if law is not None else ""

    def reported(self, kind: str) -> bool:
        """The book makes ``kind`` irregular (else the engine reports nothing: e.g. FPD 001 2.2.7)."""
        return kind in self.book.laws

    def observed(self, kind: str) -> bool:
        """The book's ``kind`` is an observation for review, not an alarm."""
        law = self.book.law(kind)
        return law is not None and law.observation

    def accepts(self, kind: str) -> bool:
        """The opponent's next move accepts ``kind`` (CODEX 004 art. 50; FMJD 002 5.7)."""
        law = self.book.law(kind)
        return law is None or law.consequence is Consequence.ACCEPTED

    def restores(self, kind: str) -> bool:
        """The arbiter's ``rectify`` restores the position before ``kind`` (FPD 000 7.5a; 001 5.1.3)."""
        law = self.book.law(kind)
        return law is not None and law.consequence is Consequence.RESTORE

    def restore_target(self, index: int, kind: str) -> Board | None:
        """The position an arbiter's ``rectify`` of irregularity ``index`` restores (FPD 000 7.5a, 001 5.1.3:
        the one just before it), or None where the book does not restore ``kind`` or there is nothing to
        restore: a press without a move that the opponent has not answered left the position as it was."""
        if not self.restores(kind) or kind == "clock-without-move" and index not in self.replied:
            return None
        return self.before.get(index)

    def remember(self, index: int, before: Board) -> None:
        """Irregularity ``index`` happened from position ``before`` (kept where ``rectify`` may restore it)."""
        self.before[index] = before

    # -- touch-move ----------------------------------------------------------------------------------

    def touched_not_moved(self, index: PositionIndex, move: Move,
                          touches: Sequence[tuple[int, float, float]], first_lift: float | None) -> tuple[int, ...]:
        """The touched pieces the mover had to play and did not, per the book's touch-move
        (``touches``: own and other squares lifted and put back, (square, up, down); ``first_lift``: when
        the played piece was first lifted). Only a piece with a legal move binds (FPD 000 4.3, 4.5; FMJD 002
        3.11 "peças jogáveis"; CODEX 004 42.C).

        - FPD 000 4.4, 001 5.1.1: the *first* touched piece that can move must be played;
        - FMJD 002 3.11: every touched playable piece must be moved, capture due or not;
        - CODEX 004 42.C: likewise, except when the move played is a compulsory capture."""
        origins = index.origins
        playable = [(up, s) for s, up, _ in touches if s in origins]
        if not playable:
            return ()
        style = self.book.touch_move
        if style is TouchMove.FIRST_TOUCHED:
            first_t, first = min(playable)
            if first == move.origin or first_lift is not None and first_lift < first_t:
                return ()
            return (first,)
        if style is TouchMove.EXCEPT_CAPTURE and move.is_capture and index.due:
            return ()
        return tuple(sorted({s for _, s in playable if s != move.origin}))

    # -- removal order -------------------------------------------------------------------------------

    def removal_out_of_order(self, move: Move, lifted_at: dict[int, float],
                             within: float = 0.0) -> tuple[int, ...] | None:
        """The order the captured pieces were seen removed, when it is neither the order they were jumped
        nor its reverse (FMJD 002 4.5, 4.6, 4.11; CODEX 004 art. 89); None when in order, when the book
        asks no order (the FPD's), or when fewer than three were removed. Pieces lifted in one frame
        (the same time), or less than ``within`` apart (the debounce window: two pieces taken off together
        are dated at the end of their switches' bounce, which can put either first), are in order either
        way: the switches do not show their order."""
        if len(move.captured) < 3 or "capture-removed-out-of-order" not in self.book.laws:
            return None
        times = [lifted_at[s] for s in move.captured if s in lifted_at]
        if len(times) < 3 or _monotonic(times, within) or _monotonic([-x for x in times], within):
            return None
        seen = sorted((s for s in move.captured if s in lifted_at), key=lambda s: lifted_at[s])
        return tuple(seen)


def _monotonic(values: Iterable[float], within: float = 0.0) -> bool:
    """Non-decreasing, a value less than ``within`` below the highest before it counting as equal."""
    top = None
    for v in values:
        if top is not None and v < top - within:
            return False
        top = v if top is None else max(top, v)
    return True
