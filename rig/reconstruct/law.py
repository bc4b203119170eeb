"""The rule set's law as the reconstruction engine applies it (the table is :mod:`rig.law`).

:class:`Judge` answers the engine's questions about an irregularity under the rule set in force: which
article to cite, whether it is reported at all or only as an observation, whether the opponent's next move
accepts it, and what position an arbiter's ``rectify`` restores. Touch-move and the removal order of a capture,
each book its own way, are read from a turn's evidence by :mod:`rig.reconstruct.detectors`. docs/reconstruction.md
("Law") says how.
"""

from __future__ import annotations

from rig.board import Board
from rig.law import Book, Consequence, Law, book_for
from rig.rulesets import RuleSet

__all__ = ["Judge"]


class Judge:
    """The law of ``ruleset`` for one game, with what the engine keeps about each irregularity: the position
    before it (``before``, by index, what ``rectify`` restores where the book restores) and which ones the
    opponent has already played on from (``replied``)."""

    __slots__ = ("ruleset", "book", "before", "replied")

    def __init__(self, ruleset: RuleSet):
        self.ruleset = ruleset
        self.book: Book = book_for(ruleset)
        self.before: dict[int, Board] = {}
        self.replied: set[int] = set()

    def __repr__(self) -> str:
        return f"<Judge {self.ruleset.id} ({self.book.title}): {len(self.replied)} played on>"

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
