"""Rule sets: game end, draw rules with their counters, scoring (docs/rules.md "Rule sets").

One :class:`RuleSet` per federation text: ``fpd-2026`` (seed 000), ``fpd-classic``
(001), ``fmjd`` (002), ``codex-64`` and ``codex-100`` (004, art. 59 / 60).
:class:`GameTracker` follows a game move by move and keeps every draw counter
with the article it implements, so the live page can show
``fpd-2026 3.9b: 7/20``. The rig reports draws; the arbiter decides: a draw
rule never ends the game here, :meth:`GameTracker.outcome` is decided by the
board alone (no pieces or no move: the side to move loses, FPD 5.2/5.4,
FMJD 7.2, CODEX 57.A).

Conventions (docs/rulesets.md has the full table):

- "a move" (*lance*) is one move of one player (FMJD 3.2 defines it so)
  unless the text counts "for each colour": then the unit is ``moves each``
  and the limit is reached after twice as many plies;
- a count is the number of moves played since the position where the rule's
  condition began to hold (the move that created that position is not
  counted); it restarts where the text says the ending changes;
- repetition counts occurrences of the current position since the start of
  the game or the last :meth:`GameTracker.set_position`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Literal

from rig.board import Board
from rig.errors import RigError, UnknownRuleSetError
from rig.geometry import geometry
from rig.move import Move
from rig.variants import BRAZILIAN, INTERNATIONAL, PORTUGUESE, Variant

__all__ = [
    "RuleSet", "DrawRule", "Ending", "DrawCounter", "GameTracker", "RULESETS", "RATES",
    "get_ruleset", "default_ruleset_for", "DEFAULT_RULESETS", "UnknownRuleSetError", "EmptyHistoryError",
]

Outcome = Literal["white", "black", "draw"]

#: Rates of play a tracker accepts (CODEX art. 3; FPD Appendix B, C): the values of
#: ``sensors.clock.timecontrol.RateClass``.
RATES = ("classical", "semi-rapid", "rapid", "blitz", "below-blitz")




class EmptyHistoryError(RigError, IndexError):
    """``pop()`` with no move to take back (none pushed since the start or the last set_position)."""


# -- rule descriptions ----------------------------------------------------------------------

Material = tuple[int, int]  # (men, kings) of one side


@dataclass(frozen=True)
class Ending:
    """A material configuration: ``strong`` side against ``weak`` side, either colour.

    ``where`` adds a condition on the squares: ``"weak_king_on_long_diagonal"``
    (CODEX 59.E.E-G: the lone king stands on the long diagonal) or
    ``"codex_59F"`` (CODEX 59.F, see :func:`_codex_59f`).
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

_FORCADA = DrawRule(
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
        _FORCADA,
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
                 Kind.FORCADA, 12, endings=_pairs(_3V1), note=_FORCADA.note),
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


# -- counters --------------------------------------------------------------------------------


@dataclass(frozen=True)
class DrawCounter:
    """A draw rule's count as the live page shows it: ``fpd-2026 3.9b: 7/20``.

    ``count`` is in the article's unit (``unit``); ``from_number`` is the PDN
    move number of the first move counted; ``reached``: the draw condition holds.
    """

    rule: str
    title: str
    count: int
    limit: int
    unit: str
    from_number: int
    reached: bool

    def __str__(self) -> str:
        return f"{self.rule}: {self.count}/{self.limit}"


# -- material and geometry helpers -----------------------------------------------------------

#: (white men, white kings, black men, black kings): the material of a position.
Material4 = tuple[int, int, int, int]


def _material(board: Board) -> Material4:
    """The position's material from the bitboards' popcounts."""
    return board.wm.bit_count(), board.wk.bit_count(), board.bm.bit_count(), board.bk.bit_count()


def _material_side(ending: Ending, material: Material4) -> bool | None:
    """The colour (WHITE=True) whose material is ``ending``'s strong side against the other's weak
    side (white first when both are), or None: the material part of an ending."""
    white, black = material[:2], material[2:]
    if white == ending.strong and black == ending.weak:
        return True
    if black == ending.strong and white == ending.weak:
        return False
    return None


def _lone_king(board: Board, white: bool) -> int:
    return next(s for s, (w, k) in board.pieces().items() if w == white and k)


#: CODEX 59.F.A: the diagonals the lone king holds when it plays white (59.F.B: black by symmetry).
CODEX_59F_DIAGONALS = (("a5", "e1"), ("e1", "h4"), ("c1", "h6"))


def _diagonal(variant: Variant, a: str, b: str) -> dict[int, int]:
    """{file: rank} of the squares from ``a`` to ``b`` (algebraic, as white sees the board)."""
    fa, ra = variant.coords(variant.parse_square(a))
    fb, rb = variant.coords(variant.parse_square(b))
    n = abs(fb - fa)
    df, dr = (fb - fa) // n, (rb - ra) // n
    return {fa + i * df: ra + i * dr for i in range(n + 1)}


def _codex_59f(board: Board, strong_white: bool) -> bool:
    """CODEX 59.F: strong king on the long diagonal, the lone king on one of the listed diagonals
    (rotated by the board's symmetry when it plays black), both men before that diagonal on their
    way to promotion (on its files, on the men's side). Whether they can pass is the arbiter's call."""
    v = board.variant
    pieces = board.pieces()
    strong_king = next(s for s, (w, k) in pieces.items() if w == strong_white and k)
    if strong_king not in v.long_diagonal:
        return False
    lone = _lone_king(board, not strong_white)
    men = [v.coords(s) for s, (w, k) in pieces.items() if w == strong_white and not k]
    lf, lr = v.coords(lone)
    n = v.size - 1
    for a, b in CODEX_59F_DIAGONALS:
        diag = _diagonal(v, a, b)
        if strong_white:  # the lone king plays black: rotate the diagonal by 180 degrees
            diag = {n - f: n - r for f, r in diag.items()}
        if diag.get(lf) != lr:
            continue
        # white men (strong white) move up: "before" = below the diagonal; black men: above it
        if all(f in diag and ((r < diag[f]) if strong_white else (r > diag[f])) for f, r in men):
            return True
    return False


def _fpd_20_condition(material: Material4) -> bool:
    """FPD 2026 3.9b(1): at most four pieces each, at least one king on each side; not the Forçada (3.9b(4))."""
    wm, wk, bm, bk = material
    if not (wm + wk <= 4 and bm + bk <= 4 and wk >= 1 and bk >= 1):
        return False
    return _material_side(_FORCADA.endings[0], material) is None


# -- the rules compiled per material ---------------------------------------------------------

_KING_MOVES, _FPD_20, _ENDING, _FORCADA_KIND = range(4)
_KIND_CODE = {Kind.KING_MOVES: _KING_MOVES, Kind.FPD_20: _FPD_20, Kind.ENDING: _ENDING,
              Kind.FORCADA: _FORCADA_KIND}


class _Plan:
    """A rule set's draw rules compiled for :meth:`GameTracker.push`: what each rule needs to know
    of a material, worked out once per material and kept.

    A row (:meth:`row`) has one entry per draw rule: for ``FPD_20`` whether 3.9b(1) holds; for an
    ending rule the ``(where, strong side)`` of each of its endings the material fits, in the
    rule's order (the squares condition ``where`` is checked on the board); ``None`` for the
    king-move counters. A row is ``None`` when no ending rule fits and 3.9b(1) fails: only the
    king-move counters run.
    """

    __slots__ = ("kinds", "resets", "idle", "king", "_rules", "_rows")

    def __init__(self, ruleset: RuleSet):
        self._rules = ruleset.draw_rules
        self.kinds = tuple(_KIND_CODE[r.kind] for r in self._rules)
        self.resets = tuple(r.reset_on_material_change for r in self._rules)
        #: every rule stopped; ``king``: the index of the only king-move counter (-1: none, -2: several)
        self.idle: tuple[None, ...] = (None,) * len(self.kinds)
        kings = [i for i, k in enumerate(self.kinds) if k == _KING_MOVES]
        self.king = kings[0] if len(kings) == 1 else -1 if not kings else -2
        self._rows: dict[Material4, tuple | None] = {}

    def row(self, material: Material4) -> tuple | None:
        try:
            return self._rows[material]
        except KeyError:
            pass
        entries: list = []
        active = False
        for rule in self._rules:
            if rule.kind is Kind.KING_MOVES:
                entries.append(None)
            elif rule.kind is Kind.FPD_20:
                holds = _fpd_20_condition(material)
                active = active or holds
                entries.append(holds)
            else:
                fits = []
                for ending in rule.endings:
                    side = _material_side(ending, material)
                    if side is not None:
                        fits.append((ending.where, side))
                active = active or bool(fits)
                entries.append(tuple(fits))
        row = tuple(entries) if active else None
        self._rows[material] = row
        return row


_PLANS: dict[RuleSet, _Plan] = {}


def _plan(ruleset: RuleSet) -> _Plan:
    plan = _PLANS.get(ruleset)
    if plan is None:
        plan = _PLANS[ruleset] = _Plan(ruleset)
    return plan


# -- the tracker -----------------------------------------------------------------------------

# Per-rule state: None (not running) or (start_index, count, side, material)
#   start_index: position index where the count started (moves after it are counted)
#   count: plies counted (Forçada: strong-side moves; -1 while waiting for the Rio)
#   side: the strong colour (Forçada, endings) or None
#   material: the material when the count started (reset_on_material_change), or None
_State = tuple[int, int, bool | None, Material4 | None] | None

# A position of the history, a plain tuple (push makes one per move):
# (number: PDN move number of the next move, turn, states: one _State per draw rule,
#  flags: colours whose flag has fallen, key: repetition identity, material)
_NUMBER, _TURN, _STATES, _FLAGS, _KEY, _MATERIAL = range(6)


class GameTracker:
    """Follows a game under a rule set: the board, the history, every draw counter.

    >>> t = GameTracker("fpd-2026")
    >>> t.push(t.board.parse_move("11-15"))
    >>> t.move_number, t.outcome()
    (1, None)

    ``rate`` is the rate of play (:data:`RATES`, default ``classical``); it
    changes CODEX 60.F (15 moves at the classical rate, 5 otherwise).
    ``first_number`` is the PDN move number of the first move from ``board``.
    A given board's move history is replayed, so its positions count for
    repetition and the counters.

    Per move, :meth:`push` keeps plain tuples: the material comes from the
    bitboards (counted again only after a capture or a promotion), each rule's
    endings are looked up by material (:class:`_Plan`), the repetition key is
    the board's bitboards; :class:`DrawCounter` values are made only by
    :meth:`counters`, and legal moves only by :meth:`is_game_over` / :meth:`outcome`.
    """

    def __init__(self, ruleset: str | RuleSet, board: Board | None = None, rate: str = "classical",
                 first_number: int = 1):
        self.ruleset = get_ruleset(ruleset)
        rate = getattr(rate, "value", rate)
        if rate not in RATES:
            raise ValueError(f"unknown rate of play {rate!r}; known: {', '.join(RATES)}")
        self.rate: str = rate
        variant = self.ruleset.variant
        if board is None:
            start = Board(variant)
            replay: list[Move] = []
        else:
            if board.variant != variant:
                raise ValueError(f"rule set {self.ruleset.id} is for {variant.name}, "
                                 f"not {board.variant.name}")
            start = Board(variant, board.initial_fen) if board.move_stack else board.copy(stack=False)
            replay = list(board.move_stack)
        self._board = start
        self._plan = _plan(self.ruleset)
        g = geometry(variant)
        self._square_bit: list[int] = [1 << b for b in g.bit]
        self._rio: int = g.squares_mask(variant.long_diagonal)
        self._same_side: bool = self.ruleset.repetition_same_side_to_move
        rs = self.ruleset
        # (kind, label, title, limit, unit) per draw rule, for counters()
        self._shown = tuple((_KIND_CODE[r.kind], rs.label(r.article), r.title, r.limit_for(rate), r.unit)
                            for r in rs.draw_rules)
        self._history: list[tuple] = []
        self._seen: dict[tuple, int] = {}     # repetition key -> occurrences in the history
        self._first: dict[tuple, int] = {}    # repetition key -> index of its first occurrence
        self._reset(first_number, frozenset())
        for m in replay:
            self.push(m)

    # -- state -----------------------------------------------------------------------------

    @property
    def board(self) -> Board:
        """The tracker's own board (do not push on it directly: use :meth:`push`)."""
        return self._board

    @property
    def move_number(self) -> int:
        """PDN move number of the next move."""
        return self._history[-1][_NUMBER]

    @property
    def moves(self) -> list[Move]:
        """Moves pushed since the start or the last :meth:`set_position`."""
        return list(self._board.move_stack)

    def _rep_key(self) -> tuple:
        b = self._board
        if self._same_side:
            return (b.wm, b.wk, b.bm, b.bk, b.turn)
        return (b.wm, b.wk, b.bm, b.bk)

    def _reset(self, number: int, flags: frozenset[bool]) -> None:
        board = self._board
        material = _material(board)
        n = len(self._plan.kinds)
        states = self._step((None,) * n, 0, board.turn, False, True, material)
        key = self._rep_key()
        self._history = [(number, board.turn, states, flags, key, material)]
        self._seen = {key: 1}
        self._first = {key: 0}

    def set_position(self, fen: str) -> None:
        """Continue from an irregular position the record goes on from: accepted (CODEX 43, 50; FMJD 5.7), or
        played on until the arbiter restores the one before it (FPD 7.5a), or set by the arbiter.

        The move numbering goes on (the next number if the side to move skips
        ahead); the repetition history and every counter restart from this
        position, and :meth:`pop` cannot go back past it.
        """
        last = self._history[-1]
        self._board.set_fen(fen)
        number = last[_NUMBER]
        if self._board.turn and not last[_TURN]:  # black was due, the position has white to move
            number += 1
        self._reset(number, last[_FLAGS])

    def push(self, move: Move) -> None:
        """Play ``move`` (not checked: take it from the board's legal moves) and update every counter."""
        board = self._board
        history = self._history
        number, _, states, flags, _, material = history[-1]
        mover = board.turn
        man_move = bool((board.wm | board.bm) & self._square_bit[move.origin])
        capture = bool(move.captured)
        board.push(move)
        if capture or move.promotes:
            material = (board.wm.bit_count(), board.wk.bit_count(), board.bm.bit_count(), board.bk.bit_count())
        index = len(history)
        states = self._step(states, index, mover, man_move or capture, False, material)
        if self._same_side:
            key: tuple = (board.wm, board.wk, board.bm, board.bk, board.turn)
        else:
            key = (board.wm, board.wk, board.bm, board.bk)
        history.append((number if mover else number + 1, board.turn, states, flags, key, material))
        seen = self._seen
        n = seen.get(key, 0)
        seen[key] = n + 1
        if not n:
            self._first[key] = index

    def pop(self) -> Move:
        """Take back the last move; every counter is restored exactly."""
        if len(self._history) <= 1:
            raise EmptyHistoryError("no move to take back")
        key = self._history.pop()[_KEY]
        n = self._seen[key] - 1
        if n:
            self._seen[key] = n
        else:
            del self._seen[key]
            del self._first[key]
        return self._board.pop()

    # -- counting --------------------------------------------------------------------------

    def _step(self, states: tuple, index: int, mover: bool, restart: bool, start: bool,
              material: Material4) -> tuple:
        """Every rule's state after the move into position ``index`` (``start``: the history's first
        position, every count begins there). ``restart``: a man move or a capture."""
        plan = self._plan
        row = plan.row(material)
        if row is None:  # no ending, no 3.9b material: only the king-move counters run
            k = plan.king
            if k == -1:
                return plan.idle
            if k >= 0:
                s = states[k]
                idle = plan.idle
                return idle[:k] + ((index, 0, None, None) if restart or s is None
                                   else (s[0], s[1] + 1, None, None),) + idle[k + 1:]
            return tuple(None if kind != _KING_MOVES else (index, 0, None, None) if restart or state is None
                         else (state[0], state[1] + 1, None, None) for kind, state in zip(plan.kinds, states))
        out: list[_State] = []
        for kind, entry, state, reset in zip(plan.kinds, row, states, plan.resets):
            if kind == _KING_MOVES:
                # 3.2.1a / 6.2 / 59.B / 60.B: a man move or a capture restarts the count after it.
                out.append((index, 0, None, None) if restart or state is None
                           else (state[0], state[1] + 1, None, None))
            elif kind == _FPD_20:
                # 3.9b(2)-(3): a man move or a capture changes the ending: the count restarts.
                if not entry:
                    out.append(None)
                elif state is None or restart:
                    out.append((index, 0, None, None))
                else:
                    out.append((state[0], state[1] + 1, None, None))
            else:
                out.append(self._ending_step(kind, entry, state, reset, index, mover, material))
        return tuple(out)

    def _fits(self, where: str | None, side: bool) -> bool:
        """The squares condition of an ending whose material fits, ``side`` playing the strong side."""
        if where is None:
            return True
        board = self._board
        if where == "weak_king_on_long_diagonal":  # CODEX 59.E.E-G: the weak side's lone king
            return bool((board.bk if side else board.wk) & self._rio)
        if where == "codex_59F":
            return _codex_59f(board, side)
        raise ValueError(f"unknown ending condition {where!r}")

    def _ending_step(self, kind: int, fits: tuple, state: _State, reset: bool, index: int, mover: bool,
                     material: Material4) -> _State:
        """An ending rule's state (FMJD 6.3-6.4, CODEX 59.D-F, 60.D-F, the Forçada FPD 3.9a / 3.2.1b)."""
        for where, side in fits:
            if self._fits(where, side):
                break
        else:
            return None  # not (or no longer) one of the rule's endings
        if kind == _FORCADA_KIND:
            if state is None or state[1] < 0:  # waiting for the strong side to occupy the Rio (3.9a(3))
                board = self._board
                on_rio = bool((board.wk if side else board.bk) & self._rio)
                if state is None or on_rio:
                    return (index, 0 if on_rio else -1, side, material)
                return state
            start, count, strong, sig = state
            return (start, count + 1 if mover == strong else count, strong, sig)
        if state is None or (reset and material != state[3]):
            return (index, 0, side, material)  # a capture or a promotion: a new ending, a new count
        return (state[0], state[1] + 1, state[2], state[3])

    def counters(self) -> list[DrawCounter]:
        """The counters running or reached now, for the live page (repetition once a position recurs).

        A king-moves counter shows from its first counted move; the others as
        soon as their condition holds (a Forçada once the Rio is occupied).
        """
        history = self._history
        out: list[DrawCounter] = []
        for (kind, label, title, limit, unit), state in zip(self._shown, history[-1][_STATES]):
            if state is None:
                continue
            start, count, side, _ = state
            if kind == _KING_MOVES and count == 0:
                continue
            start_pos = history[start]
            number = start_pos[_NUMBER]
            if kind == _FORCADA_KIND:
                if count < 0:
                    continue
                if start_pos[_TURN] != side and not start_pos[_TURN]:  # first strong move after black's reply
                    number += 1
                out.append(DrawCounter(label, title, count, limit, "moves", number, count >= limit))
            elif unit == "moves each":
                out.append(DrawCounter(label, title, count // 2, limit, unit, number, count >= 2 * limit))
            else:
                out.append(DrawCounter(label, title, count, limit, unit, number, count >= limit))
        if self._seen[history[-1][_KEY]] >= 2:
            out.append(self.repetition())
        return out

    def repetition(self) -> DrawCounter:
        """How often the current position has occurred (threefold repetition)."""
        rs = self.ruleset
        key = self._history[-1][_KEY]
        n = self._seen[key]
        first = self._history[self._first[key]]
        title = ("threefold repetition, same player to move" if rs.repetition_same_side_to_move
                 else "threefold repetition of the position of the pieces")
        return DrawCounter(rs.label(rs.repetition_article), title, n, 3, "occurrences",
                           first[_NUMBER], n >= 3)

    def draws(self) -> list[DrawCounter]:
        """The rules whose draw condition holds now (counted rules, repetition, both flags)."""
        out = [c for c in self.counters() if c.reached]
        art = self.ruleset.both_flags_article
        if art and self.both_flags():
            out.append(DrawCounter(self.ruleset.label(art), "both flags fallen", 2, 2, "flags",
                                   self.move_number, True))
        return out

    def claimable_draw(self) -> bool:
        """True if some draw rule holds now (the arbiter decides; the game is not ended here)."""
        return bool(self.draws())

    # -- game end, clock, score ------------------------------------------------------------

    def is_game_over(self) -> bool:
        """The side to move has no piece or no legal move (FPD 5.2, FMJD 7.2, CODEX 57.A)."""
        return self._board.is_game_over()

    def outcome(self) -> Outcome | None:
        """``"white"``/``"black"`` when the side to move cannot move, else None (draws are the arbiter's)."""
        if not self._board.is_game_over():
            return None
        return "black" if self._board.turn else "white"

    def flag(self, white: bool) -> None:
        """Record that the flag of ``white`` (True) or black (False) has fallen now (CODEX art. 29)."""
        last = self._history[-1]
        self._history[-1] = last[:_FLAGS] + (last[_FLAGS] | {bool(white)},) + last[_FLAGS + 1:]

    @property
    def flags(self) -> frozenset[bool]:
        """Colours whose flag has fallen."""
        return self._history[-1][_FLAGS]

    def both_flags(self) -> bool:
        """Both flags have fallen (CODEX 59.A / 60.A: a draw)."""
        return len(self._history[-1][_FLAGS]) == 2

    def flag_outcome(self) -> Outcome | None:
        """The result the clock gives: a fallen flag loses (CODEX 57.C, FPD 5.4), both fallen draw
        where the rule set says so (CODEX 59.A/60.A), else None (the arbiter decides)."""
        flags = self._history[-1][_FLAGS]
        if len(flags) == 2:
            return "draw" if self.ruleset.both_flags_article else None
        if len(flags) == 1:
            return "black" if True in flags else "white"
        return None

    def score(self, outcome: Outcome) -> tuple[float, float]:
        """(white points, black points) for a result, per the rule set's scoring."""
        win, draw, loss = self.ruleset.scoring
        table = {"white": (win, loss), "black": (loss, win), "draw": (draw, draw)}
        try:
            return table[outcome]
        except KeyError:
            raise ValueError(f"outcome must be 'white', 'black' or 'draw', not {outcome!r}") from None

    def __repr__(self) -> str:
        return f"<GameTracker {self.ruleset.id} {self._board.fen()!r} move {self.move_number}>"
