"""Each federation's law on irregularities: the article, the consequence and the status, per rule set.

The irregularity ids (docs/session-format.md) are the same in every rule set; what the rule book in force
decides is *which article* names the fault, *what follows* from it and *which status* it then has:

- :attr:`Consequence.ACCEPTED`: the opponent's next move accepts it (CODEX 004 art. 43, 50; FMJD 002 5.7):
  status ``accepted``, the record goes on from the board as it stands;
- :attr:`Consequence.RESTORE`: the position before it is to be restored whenever it is found (FPD 000 7.5a,
  4.12; FPD 001 5.1.3): no move accepts it, it stays ``open`` for the arbiter and what follows is played from
  an irregular position; the arbiter's ``rectify`` restores the position before it;
- :attr:`Consequence.PENALTY`: the position stands (nothing to restore); the arbiter may apply a penalty
  (FPD 000 12.9, CODEX 004 art. 51): it stays ``open`` for him.

A :class:`Law` may be an *observation* (``observation=True``): the book's text makes it depend on what the
sensors cannot settle (a request, who was at fault), so the rig reports it for review, never as an alarm.
A type a book does not make irregular has no law there (:func:`law_for` returns None): the rig does not
report it under that rule set (``uncrowned-king-moved`` under FPD 001 2.2.7).

:class:`TouchMove` says how each book reads touch-move. ``docs/rules-notes.md`` (Law) records the readings.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import Mapping

from rig.rulesets import RULESETS, RuleSet

__all__ = ["Consequence", "TouchMove", "Law", "Book", "BOOKS", "IRREGULARITY_TYPES", "OBSERVATION_TYPES",
           "book_for", "law_for", "laws", "rule_for", "status_after_reply"]

#: The irregularity ids (stable, docs/session-format.md), in the report's order of presentation.
IRREGULARITY_TYPES = (
    "touched-piece-not-moved", "piece-moved-after-release", "opponent-piece-touched", "capture-removed-early",
    "capture-not-removed", "wrong-piece-removed", "own-piece-removed", "capture-not-taken",
    "capture-rule-violated", "capture-incomplete", "illegal-move", "two-moves", "move-taken-back",
    "clock-without-move", "uncrowned-king-moved", "wrong-setup", "position-lost",
)
#: Types only ever reported as observations (the sensors see the fact, the book leaves the rest to a request).
OBSERVATION_TYPES = ("capture-removed-out-of-order",)


class Consequence(str, Enum):
    """What the rule book makes of an irregularity once the opponent plays on."""

    ACCEPTED = "accepted-by-next-move"   #: CODEX 004 art. 43, 50; FMJD 002 5.7
    RESTORE = "restore"                  #: FPD 000 7.5a, 4.12; FPD 001 5.1.3
    PENALTY = "penalty"                  #: FPD 000 12.9; CODEX 004 art. 51

    @property
    def description(self) -> str:
        return {"accepted-by-next-move": "accepted by the opponent's next move",
                "restore": "the position before it is restored whenever found",
                "penalty": "the position stands; a penalty for the arbiter to apply"}[self.value]


class TouchMove(str, Enum):
    """How a book reads a touched piece (the ``touched-piece-not-moved`` trigger)."""

    FIRST_TOUCHED = "first-touched"      #: FPD 000 4.3-4.5, 001 5.1.1: the first touched piece that can move
    EVERY_TOUCHED = "every-touched"      #: FMJD 002 3.11: every touched playable piece must move
    EXCEPT_CAPTURE = "except-capture"    #: CODEX 004 42.C: as FMJD, except to make a compulsory capture


@dataclass(frozen=True)
class Law:
    """One irregularity under one rule book: ``article`` as the report cites it: ``"FPD 3.4c"`` (seed 000, the
    FPD rules in force), ``"FPD classic 5.1.1"`` (001), ``"FMJD 4.11"`` (002), ``"CODEX art. 42.K"`` (004);
    ``consequence``, ``text`` (what the article says, in English: the article's docstring), ``penalty`` (where
    the arbiter finds the sanction, when the book names one) and ``observation`` (reported for review only)."""

    type: str
    article: str
    consequence: Consequence
    text: str
    penalty: str = ""
    observation: bool = False

    @property
    def status_after_reply(self) -> str:
        """The status once the opponent has played on: ``accepted`` or ``open`` (for the arbiter)."""
        return "accepted" if self.consequence is Consequence.ACCEPTED else "open"


@dataclass(frozen=True)
class Book:
    """A rule book's law on irregularities: ``laws`` by type (a type missing is not irregular there)."""

    id: str
    title: str
    touch_move: TouchMove
    laws: Mapping[str, Law]

    def law(self, kind: str) -> Law | None:
        return self.laws.get(kind)


def _book(id: str, title: str, touch: TouchMove, prefix: str, consequence: Consequence, penalty: str,
          *rows: tuple) -> Book:
    """Rows ``(type, articles, text[, consequence[, observation[, penalty]]])``; articles are cited with
    ``prefix``; ``consequence`` and ``penalty`` are the book's defaults for a row that names none."""
    laws = {}
    for row in rows:
        kind, articles, text = row[:3]
        cons = row[3] if len(row) > 3 and row[3] is not None else consequence
        observation = len(row) > 4 and bool(row[4])
        pen = row[5] if len(row) > 5 else penalty
        laws[kind] = Law(kind, f"{prefix} {articles}", cons, text, pen, observation)
    return Book(id, title, touch, MappingProxyType(laws))


R, P, A = Consequence.RESTORE, Consequence.PENALTY, Consequence.ACCEPTED

FPD_2026 = _book(
    "fpd-2026", "FPD Regras Oficiais 2026 (seed 000)", TouchMove.FIRST_TOUCHED, "FPD", R, "",
    ("touched-piece-not-moved", "4.3-4.5",
     "4.3: a piece deliberately touched must be played if it has a legal move; 4.4: of several, the first "
     "touched that can move; 4.5: if none can, any legal move"),
    ("piece-moved-after-release", "4.6, 4.8",
     "4.6: a piece set down and released on a square cannot be moved on in the same move (4.8: the move is "
     "made at the release)"),
    ("opponent-piece-touched", "4.13", "4.13: a player may not handle the opponent's pieces, except to "
     "carry out a capture (6.2e: only the player whose clock runs adjusts pieces)", P, False, "FPD 12.9"),
    ("capture-removed-early", "3.8, 4.10",
     "3.8: captured pieces are removed only when the capturing move is over, not one by one"),
    ("capture-not-removed", "3.4c", "3.4c: the move is over only once the captured piece is removed"),
    ("wrong-piece-removed", "4.13, 7.5a",
     "4.13: the opponent's pieces are handled only to carry out a capture; 7.5a: the position before the "
     "irregularity is restored"),
    ("own-piece-removed", "4.12, 7.5a", "4.12: an illegal move is replaced by a legal one; 7.5a: restored"),
    ("capture-not-taken", "3.3a, 7.5a", "3.3a: capturing is compulsory; 7.5a: the position is restored"),
    ("capture-rule-violated", "3.7a-b, 7.5a",
     "3.7a: the greatest number must be taken; 3.7b: then the best quality (kings); 7.5a: restored"),
    ("capture-incomplete", "4.9, 3.6, 7.5a",
     "4.9: a capture is made when the capturing piece is released on the last square of its path; 3.6: a "
     "chain goes on while it can; 7.5a: restored"),
    ("illegal-move", "4.12, 7.5a",
     "4.12: an illegal move must be replaced by a legal one; 7.5a: when found during the game, the position "
     "just before it is restored (or the last identifiable one)"),
    ("two-moves", "7.5a", "7.5a: a move out of turn is an illegal move; the position before it is restored"),
    ("move-taken-back", "4.8, 7.5a",
     "4.8: a move is made when the piece is released on its square; undoing it is an illegal move (7.5a)"),
    ("clock-without-move", "7.5b",
     "7.5b: pressing the clock without making a move is treated and penalised as an illegal move (7.5a)",
     R, False, "FPD 7.5b, 12.9"),
    ("uncrowned-king-moved", "3.1d-g",
     "3.1d: a man reaching the base becomes a king, crowned with another man; 3.1f: play goes on only after "
     "the crowning; 3.1g: if it is not crowned, the opponent is asked to do it", P, True),
    ("wrong-setup", "7.2", "7.2: a wrong set-up or board orientation annuls the game; a new one is played"),
    ("position-lost", "7.4, 7.5a",
     "7.4a: pieces displaced or knocked over are put back by that player in his own time (7.4c: he may be "
     "penalised); 7.5a: else the last identifiable position", R, False, "FPD 7.4c"),
)

FPD_CLASSIC = _book(
    "fpd-classic", "FPD Damas Clássicas (seed 001)", TouchMove.FIRST_TOUCHED, "FPD classic", R, "",
    ("touched-piece-not-moved", "5.1.1",
     "5.1.1: a player who touches one or more pieces must play the first touched piece that can be moved; "
     "if none can, he may play any move"),
    ("piece-moved-after-release", "6.1",
     "001 has no article on a released piece (FPD 000 4.6 has); 6.1: omitted cases go to the arbiter", R, True),
    ("opponent-piece-touched", "6.1",
     "001 has no article on touching the opponent's pieces (FPD 000 4.13 has); 6.1: omitted cases go to "
     "the arbiter", P, True),
    ("capture-removed-early", "2.2.10",
     "2.2.10: pieces taken in a move that takes more than one are removed only once the move is over"),
    ("capture-not-removed", "2.2.8, 5.1.3",
     "2.2.8: the capturing piece takes the pieces it jumps; a board with them standing is not that move: "
     "5.1.3 restores the position before it"),
    ("wrong-piece-removed", "5.1.3", "5.1.3: an illegal move found during the game: the position just "
     "before it is restored (or the last identifiable one)"),
    ("own-piece-removed", "5.1.3", "5.1.3: an illegal move found during the game: restored"),
    ("capture-not-taken", "3.1.1a, 5.1.3", "3.1.1a: capturing is compulsory; 5.1.3: restored"),
    ("capture-rule-violated", "3.1.1b-c, 5.1.3",
     "3.1.1b: the greatest number; 3.1.1c: then the greater value; 5.1.3: restored"),
    ("capture-incomplete", "2.2.8, 5.1.3",
     "2.2.8: the capturing piece goes on while there is a piece to take; 5.1.3: restored"),
    ("illegal-move", "5.1.3", "5.1.3: when an illegal move is found the position just before it is "
     "restored; if it cannot be, the game goes on from the last identifiable position"),
    ("two-moves", "2.2.2, 5.1.3", "2.2.2: the colours move alternately; 5.1.3: restored"),
    ("move-taken-back", "5.1.1, 5.1.3",
     "5.1.1: the touched piece is played; undoing the move played is an illegal move (5.1.3)"),
    ("clock-without-move", "6.1 (FPD 7.5b)",
     "001 has no clock article; 6.1 leaves omitted cases to the arbiters, whom the FPD's own rule guides "
     "(000 7.5b: treated as an illegal move)"),
    ("wrong-setup", "2.1.5, 2.2.1", "2.1.5: each player's bottom-right square is dark; 2.2.1: 12 men each"),
    ("position-lost", "5.1.3",
     "5.1.3: a position that cannot be rebuilt: the game goes on from the last identifiable one"),
)

FMJD = _book(
    "fmjd", "FMJD rules (seed 002)", TouchMove.EVERY_TOUCHED, "FMJD", A, "",
    ("touched-piece-not-moved", "3.11, 5.4.0.3",
     "3.11: a player who touches one of his playable pieces must move it; 5.4.0.3: touching one and playing "
     "another; only the opponent decides whether it is rectified (5.4) and his move accepts it (5.7)"),
    ("piece-moved-after-release", "3.10, 5.4.0.2",
     "3.10: a move ends when the piece is released; moving it on is an irregular move (5.4.0.2)"),
    ("opponent-piece-touched", "5.4.0.5", "5.4.0.5: playing a piece of the opponent (the rig: lifting one "
     "during one's own turn)"),
    ("capture-removed-early", "4.11, 5.4.10",
     "4.11: captured pieces are removed only after the whole chain; 5.4.10: removing one before the end"),
    ("capture-not-removed", "4.4, 5.4.11",
     "4.4: a capture ends with the removal of the pieces; 5.4.11: removing fewer pieces than were taken"),
    ("wrong-piece-removed", "5.4.0.7, 5.4.12",
     "5.4.0.7: removing pieces without cause; 5.4.12: removing pieces that were not taken"),
    ("own-piece-removed", "5.4.0.7, 5.4.14", "5.4.14: removing one's own pieces after a capture"),
    ("capture-not-taken", "4.1, 5.4.0.6", "4.1: capturing is compulsory; 5.4.0.6: playing when a capture "
     "is possible"),
    ("capture-rule-violated", "4.13, 5.4.0.8",
     "4.13: the greatest number is compulsory; 5.4.0.8: taking fewer or more than the rule requires"),
    ("capture-incomplete", "4.10, 5.4.0.9",
     "4.10: a chain ends where the piece is released; 5.4.0.9: stopping before the end of a chain"),
    ("illegal-move", "5.4.0.2", "5.4.0.2: an irregular move of a man or a king"),
    ("two-moves", "5.4.0.1", "5.4.0.1: two moves in a row in one's turn"),
    ("move-taken-back", "5.4.0.4", "5.4.0.4: taking back a move made"),
    ("clock-without-move", "10.5",
     "10.5: the clock is governed by the competition rules, which 002 does not contain; no article of 5.4 "
     "names a press without a move, so the opponent's move accepts it (5.7)"),
    ("uncrowned-king-moved", "3.7, 5.4.0.2",
     "3.7: a man made king keeps that quality but cannot move before it is crowned"),
    ("wrong-setup", "5.1, 5.2", "5.1: a wrongly placed board annuls the game; 5.2: the set-up is checked "
     "before the start", R),
    ("position-lost", "5.5", "5.5: an accidental change of the position, found at once, is not an "
     "irregularity: the position is put back", R),
    ("capture-removed-out-of-order", "4.11",
     "4.11 (and 4.5, 4.6): captured pieces are removed at once, in the ascending or descending order in "
     "which they were jumped; disorder is an incorrectness rectified at the opponent's request", A, True),
)

CODEX = _book(
    "codex", "CBD CODEX 2020 (seed 004)", TouchMove.EXCEPT_CAPTURE, "CODEX art.", A, "CODEX art. 51",
    ("touched-piece-not-moved", "42.C",
     "42.C: touching one's own piece and playing another, except to make a compulsory capture; only the "
     "opponent decides whether it stands (42) and his move accepts it (50)"),
    ("piece-moved-after-release", "9, 42.B",
     "9: a move is complete when the piece is released; moving it on is an irregular move (42.B)"),
    ("opponent-piece-touched", "42.E", "42.E: playing a piece of the opponent (the rig: lifting one during "
     "one's own turn)"),
    ("capture-removed-early", "42.J", "42.J: removing a piece before the capture is over"),
    ("capture-not-removed", "42.K", "42.K: removing fewer pieces than were taken"),
    ("wrong-piece-removed", "42.G, 42.L", "42.G: removing pieces without cause; 42.L: removing pieces that "
     "were not taken"),
    ("own-piece-removed", "42.N", "42.N: removing one's own pieces after the capture"),
    ("capture-not-taken", "42.F", "42.F: playing a piece when a capture is possible"),
    ("capture-rule-violated", "42.H", "42.H: taking fewer or more pieces than the rule requires"),
    ("capture-incomplete", "42.I, 9", "42.I: stopping before the end of a chain (9: released mid-chain)"),
    ("illegal-move", "42.B", "42.B: an irregular move of a man or a king"),
    ("two-moves", "42.A", "42.A: two moves in a row in one's turn"),
    ("move-taken-back", "42.D", "42.D: taking back a move made"),
    ("clock-without-move", "26",
     "26: after his move the player stops his clock; art. 42 does not list a press without a move (art. 46 "
     "even lets the opponent press so): the opponent's move accepts it (50)", A, False, ""),
    ("uncrowned-king-moved", "42.O", "42.O: playing a king not crowned"),
    ("wrong-setup", "44", "44: a wrongly placed board annuls the game; it is started again", R, False, ""),
    ("position-lost", "46-48",
     "46: pieces disarranged by accident are put back in the player's own time; 48: else the last "
     "position remembered by both", R, False, ""),
    ("capture-removed-out-of-order", "89 (FMJD 4.11)",
     "89: play follows the FMJD rules save what the CODEX says; FMJD 4.11: removal in the order jumped, "
     "disorder rectified at the opponent's request", A, True, ""),
)

del R, P, A

#: The book of each rule set (``rig.rulesets.RULESETS`` ids).
BOOKS: Mapping[str, Book] = MappingProxyType({
    "fpd-2026": FPD_2026, "fpd-classic": FPD_CLASSIC, "fmjd": FMJD, "codex-64": CODEX, "codex-100": CODEX,
})
assert set(BOOKS) == set(RULESETS), "every rule set has its book"


def book_for(ruleset: RuleSet) -> Book:
    """The rule book in force under ``ruleset``; a name is resolved at the edge first (``get_ruleset``).

    >>> from rig.rulesets import RULESETS
    >>> book_for(RULESETS["codex-64"]).law("two-moves").article
    'CODEX art. 42.A'
    """
    if not isinstance(ruleset, RuleSet):
        raise TypeError(f"book_for takes a RuleSet (resolve the name with rig.rulesets.get_ruleset), not {ruleset!r}")
    return BOOKS[ruleset.id]


def law_for(ruleset: RuleSet, kind: str) -> Law | None:
    """The law of irregularity ``kind`` under ``ruleset``; None where that book does not make it irregular."""
    return book_for(ruleset).law(kind)


def laws(ruleset: RuleSet) -> list[Law]:
    """Every law of the rule set's book, irregularities first, in :data:`IRREGULARITY_TYPES` order."""
    book = book_for(ruleset)
    return [book.laws[k] for k in IRREGULARITY_TYPES + OBSERVATION_TYPES if k in book.laws]


def rule_for(ruleset: RuleSet, kind: str) -> str:
    """The article a report cites for ``kind`` under ``ruleset`` ("" where the book has none)."""
    law = law_for(ruleset, kind)
    return law.article if law is not None else ""


def status_after_reply(ruleset: RuleSet, kind: str) -> str:
    """``accepted`` where the opponent's move accepts ``kind`` under ``ruleset``, else ``open``."""
    law = law_for(ruleset, kind)
    return law.status_after_reply if law is not None else "open"
