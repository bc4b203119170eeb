"""The rule sets themselves: one :class:`RuleSet` per federation text and variant, its draw rules with their
articles and limits, and the table of them by id (docs/rules.md "Rule sets", docs/rulesets.md).

``fpd-2026`` (FPD 000), ``fpd-classic`` (001), ``fmjd`` (002), ``codex-64`` and ``codex-100`` (CODEX 004,
art. 59 / 60). :mod:`rig.rulesets` re-exports every name here and adds the :class:`~rig.rulesets.GameTracker`
that counts them during a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from rig.errors import UnknownRuleSetError
from rig.variants import BRAZILIAN, INTERNATIONAL, PORTUGUESE, Variant

__all__ = ["Material", "Ending", "Kind", "DrawRule", "RuleSet", "FPD_2026", "FPD_CLASSIC", "FMJD", "CODEX_64",
           "CODEX_100", "FORCADA", "RULESETS", "DEFAULT_RULESETS", "get_ruleset", "default_ruleset_for",
           "UnknownRuleSetError"]


# -- rule descriptions ----------------------------------------------------------------------

Material = tuple[int, int]  # (men, kings) of one side


@dataclass(frozen=True)
class Ending:
    """A material configuration: ``strong`` side against ``weak`` side, either colour.

    ``where`` adds a condition on the squares: ``"weak_king_on_long_diagonal"``
    (CODEX 59.E.E-G: the lone king stands on the long diagonal) or
    ``"codex_59F"`` (CODEX 59.F, see :func:`rig.endings.codex_59f`).
    """

    strong: Material
    weak: Material
    where: str | None = None
    label: str = ""


class Kind(str, Enum):
    """How a draw rule counts."""

    KING_MOVES = "king_moves"   #: successive moves with no man move and no capture
    FPD_20 = "fpd_20"           #: FPD 2026 3.9b: material condition, restart on man move or capture
    ENDING = "ending"           #: a listed ending: moves played since it arose
    FORCADA = "forcada"         #: 3 kings v 1 king, strong side's moves after occupying the Rio


@dataclass(frozen=True)
class DrawRule:
    """One counted draw rule: the article, what it counts and its limit.

    ``unit``: ``"moves"`` (moves of one player, i.e. plies; for the Forçada the
    strong side's moves) or ``"moves each"`` (the limit is reached after
    ``2 * limit`` plies). ``limit_by_rate`` overrides ``limit`` for the listed
    rates of play (CODEX 60.F). ``reset_on_material_change``: a capture or a
    promotion starts a new ending (a new count) while the position stays in
    the rule's set of endings.
    """

    article: str
    title: str
    kind: Kind
    limit: int
    unit: str = "moves"
    endings: tuple[Ending, ...] = ()
    limit_by_rate: tuple[tuple[str, int], ...] = ()
    reset_on_material_change: bool = True
    note: str = ""

    def limit_for(self, rate: str) -> int:
        return dict(self.limit_by_rate).get(rate, self.limit)


@dataclass(frozen=True)
class RuleSet:
    """The rules of one federation text for one variant.

    ``scoring`` is (win, draw, loss) points (FPD 10.1; CODEX art. 53).
    ``repetition_same_side_to_move``: whether a repeated position must have the
    same player to move (FMJD 6.1, CODEX 59.C say so; the FPD texts speak of the
    position of the pieces only).
    """

    id: str
    variant: Variant
    title: str
    source: str
    scoring: tuple[float, float, float]
    scoring_article: str
    game_end_article: str
    repetition_article: str
    repetition_same_side_to_move: bool
    draw_rules: tuple[DrawRule, ...]
    both_flags_article: str | None = None
    time_loss_article: str | None = None
    notes: tuple[str, ...] = field(default=(), compare=False)

    def rule(self, article: str) -> DrawRule:
        for r in self.draw_rules:
            if r.article == article:
                return r
        raise KeyError(f"{self.id} has no counted draw rule {article!r}")

    def label(self, article: str) -> str:
        """``"fpd-2026 3.9b"``: the rule set and the article, as counters show them."""
        return f"{self.id} {article}"


def _pairs(*items: tuple[Material, Material, str]) -> tuple[Ending, ...]:
    return tuple(Ending(s, w, None, label) for s, w, label in items)


_3V1 = ((0, 3), (0, 1), "3 kings v 1 king")
_2K1M_V1 = ((1, 2), (0, 1), "2 kings + 1 man v 1 king")
_1K2M_V1 = ((2, 1), (0, 1), "1 king + 2 men v 1 king")
_2V1 = ((0, 2), (0, 1), "2 kings v 1 king")
_KM_V1 = ((1, 1), (0, 1), "1 king + 1 man v 1 king")
_1V1 = ((0, 1), (0, 1), "1 king v 1 king")
_KM_VKM = ((1, 1), (1, 1), "1 king + 1 man v 1 king + 1 man")
_2V2 = ((0, 2), (0, 2), "2 kings v 2 kings")

FORCADA = DrawRule(
    "3.9a", "Forçada: 3 kings v 1 king, won within 12 moves after occupying the Rio", Kind.FORCADA, 12,
    endings=_pairs(_3V1),
    note="counts the strong side's moves, the capture included, from its first move after a king of "
         "its own stands on the Rio (the long diagonal 1-32); the move that occupies the Rio is not counted")

FPD_2026 = RuleSet(
    id="fpd-2026", variant=PORTUGUESE, title="FPD Regras Oficiais (in force 2026-04-01)",
    source="seed 000", scoring=(1, 0.5, 0), scoring_article="10.1", game_end_article="5.2-5.4",
    repetition_article="5.3", repetition_same_side_to_move=False,
    time_loss_article="5.4",
    draw_rules=(
        FORCADA,
        DrawRule("3.9b", "20-move rule: at most 4 pieces each, a king on each side", Kind.FPD_20, 20,
                 unit="moves each",
                 note="starts as soon as each side has at most 4 pieces, at least one a king; a man move "
                      "or a capture changes the ending and restarts the count; not in the Forçada (3.9b(4))"),
    ),
    notes=("9.8: a draw by these rules must be accepted; 9.9: the arbiter decides disagreements.",),
)

FPD_CLASSIC = RuleSet(
    id="fpd-classic", variant=PORTUGUESE, title="FPD Damas Clássicas",
    source="seed 001", scoring=(1, 0.5, 0), scoring_article="FPD 2026 10.1 (001 has no scoring article)",
    game_end_article="4.2-4.4", repetition_article="3.2.1c", repetition_same_side_to_move=False,
    time_loss_article="4.4c",
    draw_rules=(
        DrawRule("3.2.1a", "20 consecutive moves by both players, no man moved, no capture",
                 Kind.KING_MOVES, 20, unit="moves each",
                 note="the count restarts, for both sides, with the move after a man move or a capture"),
        DrawRule("3.2.1b", "Forçada: 3 kings v 1 king, won within 12 moves after occupying the Rio",
                 Kind.FORCADA, 12, endings=_pairs(_3V1), note=FORCADA.note),
    ),
)

FMJD = RuleSet(
    id="fmjd", variant=INTERNATIONAL, title="FMJD rules (Portuguese text)",
    source="seed 002", scoring=(2, 1, 0), scoring_article="none in 002: FMJD tournament points 2/1/0",
    game_end_article="7.2", repetition_article="6.1", repetition_same_side_to_move=True,
    draw_rules=(
        DrawRule("6.2", "25 successive moves with only kings moved, no capture, no man move",
                 Kind.KING_MOVES, 25),
        DrawRule("6.3", "3 kings, 2 kings + man or king + 2 men v 1 king: at most 10 moves", Kind.ENDING, 10,
                 endings=_pairs(_3V1, _2K1M_V1, _1K2M_V1)),
        DrawRule("6.4", "2 kings, king + man or king v 1 king: at most 5 moves", Kind.ENDING, 5,
                 endings=_pairs(_2V1, _KM_V1, _1V1)),
    ),
)

_CODEX_59F = Ending((2, 1), (0, 1), "codex_59F",
                    "king on the long diagonal + 2 men v 1 king holding a 59.F diagonal")

CODEX_64 = RuleSet(
    id="codex-64", variant=BRAZILIAN, title="CBD CODEX 2020, 64 squares",
    source="seed 004", scoring=(2, 1, 0), scoring_article="53", game_end_article="57.A",
    repetition_article="59.C", repetition_same_side_to_move=True,
    both_flags_article="59.A", time_loss_article="57.C",
    draw_rules=(
        DrawRule("59.B", "20 successive moves with only kings moved, no capture, no man move",
                 Kind.KING_MOVES, 20),
        DrawRule("59.D", "1 king v 1 king: at most 2 moves", Kind.ENDING, 2, endings=_pairs(_1V1)),
        DrawRule("59.E", "listed endings: at most 5 moves", Kind.ENDING, 5,
                 endings=_pairs(_2V1, _KM_V1, _KM_VKM, _2V2) + tuple(
                     Ending(s, w, "weak_king_on_long_diagonal", label + ", the lone king on the long diagonal")
                     for s, w, label in (_3V1, _2K1M_V1, _1K2M_V1))),
        DrawRule("59.F", "king on the long diagonal + 2 men v 1 king holding the men's diagonal: at most 5 moves",
                 Kind.ENDING, 5, endings=(_CODEX_59F,),
                 note="the rig checks the material, the diagonals and that both men stand before the lone "
                      "king's diagonal; whether they cannot pass ('sem condição de passagem') the arbiter judges"),
    ),
)

CODEX_100 = RuleSet(
    id="codex-100", variant=INTERNATIONAL, title="CBD CODEX 2020, 100 squares",
    source="seed 004", scoring=(2, 1, 0), scoring_article="53", game_end_article="57.A",
    repetition_article="60.C", repetition_same_side_to_move=True,
    both_flags_article="60.A", time_loss_article="57.C",
    draw_rules=(
        DrawRule("60.B", "25 successive moves with only kings moved, no capture, no man move",
                 Kind.KING_MOVES, 25),
        DrawRule("60.D", "1 king v 1 king: at most 2 moves", Kind.ENDING, 2, endings=_pairs(_1V1)),
        DrawRule("60.E", "listed endings: at most 5 moves", Kind.ENDING, 5,
                 endings=_pairs(_2V1, _KM_V1, _KM_VKM, _2V2)),
        DrawRule("60.F", "3 kings, 2 kings + man or king + 2 men v 1 king: 15 moves (classical), 5 otherwise",
                 Kind.ENDING, 15, endings=_pairs(_3V1, _2K1M_V1, _1K2M_V1),
                 limit_by_rate=(("semi-rapid", 5), ("rapid", 5), ("blitz", 5), ("below-blitz", 5)),
                 reset_on_material_change=False,
                 note="a man move or a capture does not reset the count (60.F.D-E); at a non-classical "
                      "rate the arbiter may extend to 15 moves for an obvious demonstrable win (60.F.D)"),
    ),
)

RULESETS: dict[str, RuleSet] = {r.id: r for r in (FPD_2026, FPD_CLASSIC, FMJD, CODEX_64, CODEX_100)}


def get_ruleset(ruleset: str | RuleSet) -> RuleSet:
    """The rule set of that id (``fpd-2026``, ``fpd-classic``, ``fmjd``, ``codex-64``, ``codex-100``)."""
    if isinstance(ruleset, RuleSet):
        return ruleset
    try:
        return RULESETS[ruleset.lower()]
    except (KeyError, AttributeError):
        raise UnknownRuleSetError(f"unknown rule set {ruleset!r}; known: {', '.join(RULESETS)}") from None


#: The rule set each variant is played under unless told otherwise (docs/rulesets.md): the federation
#: whose text the rig follows for that board, FPD 000, CODEX 004 art. 59, FMJD 002.
DEFAULT_RULESETS: dict[Variant, RuleSet] = {PORTUGUESE: FPD_2026, BRAZILIAN: CODEX_64, INTERNATIONAL: FMJD}


def default_ruleset_for(variant: Variant) -> RuleSet:
    """The rule set ``variant`` is played under unless told otherwise (:data:`DEFAULT_RULESETS`).

    >>> default_ruleset_for(BRAZILIAN).id
    'codex-64'
    """
    return DEFAULT_RULESETS[variant]
