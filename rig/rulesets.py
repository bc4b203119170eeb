"""Rule sets: game end, draw rules with their counters, scoring (RULES.md "Rule sets").

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

from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from typing import Literal

from rig.board import Board
from rig.errors import RigError
from rig.move import Move
from rig.variants import Variant, get_variant

__all__ = [
    "RuleSet", "DrawRule", "Ending", "DrawCounter", "GameTracker", "RULESETS", "RATES",
    "get_ruleset", "default_ruleset_for", "UnknownRuleSetError", "EmptyHistoryError",
]

Outcome = Literal["white", "black", "draw"]

#: Rates of play a tracker accepts (CODEX art. 3; FPD Appendix B, C): the values of
#: ``rig.clock.timecontrol.RateClass``.
RATES = ("classical", "semi-rapid", "rapid", "blitz", "below-blitz")


class UnknownRuleSetError(RigError, KeyError):
    """A rule-set id that is not in :data:`RULESETS`."""

    def __str__(self) -> str:  # KeyError would quote the whole message
        return str(self.args[0]) if self.args else ""


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
    variant: str
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
    id="fpd-2026", variant="portuguese", title="FPD Regras Oficiais (in force 2026-04-01)",
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
    id="fpd-classic", variant="portuguese", title="FPD Damas Clássicas",
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
    id="fmjd", variant="international", title="FMJD rules (Portuguese text)",
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
    id="codex-64", variant="brazilian", title="CBD CODEX 2020, 64 squares",
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
    id="codex-100", variant="international", title="CBD CODEX 2020, 100 squares",
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


def default_ruleset_for(variant: str | Variant) -> RuleSet:
    """The rule set a variant is played under unless told otherwise (``Variant.default_ruleset``)."""
    return RULESETS[get_variant(variant).default_ruleset]


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


def _strong_side(board: Board, ending: Ending) -> bool | None:
    """The colour (WHITE=True) playing the strong side of ``ending``, or None if the material differs."""
    white, black = board.count(True), board.count(False)
    if white == ending.strong and black == ending.weak:
        side: bool | None = True
    elif black == ending.strong and white == ending.weak:
        side = False
    else:
        return None
    if ending.where is None:
        return side
    if ending.where == "weak_king_on_long_diagonal":
        return side if _lone_king(board, not side) in board.variant.long_diagonal else None
    if ending.where == "codex_59F":
        return side if _codex_59f(board, side) else None
    raise ValueError(f"unknown ending condition {ending.where!r}")


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


def _fpd_20_condition(board: Board) -> bool:
    """FPD 2026 3.9b(1): at most four pieces each, at least one king on each side; not the Forçada (3.9b(4))."""
    wm, wk = board.count(True)
    bm, bk = board.count(False)
    if not (wm + wk <= 4 and bm + bk <= 4 and wk >= 1 and bk >= 1):
        return False
    return _strong_side(board, _FORCADA.endings[0]) is None


# -- the tracker -----------------------------------------------------------------------------

# Per-rule state: None (not running) or (start_index, count, side, signature)
#   start_index: position index where the count started (moves after it are counted)
#   count: plies counted (Forçada: strong-side moves; -1 while waiting for the Rio)
#   side: the strong colour (Forçada, endings) or None
#   signature: material signature when the count started (reset_on_material_change)
_State = tuple[int, int, bool | None, tuple] | None


@dataclass(frozen=True)
class _Position:
    number: int                      # PDN move number of the next move
    turn: bool
    states: tuple[_State, ...]
    flags: frozenset[bool]           # colours whose flag has fallen
    key: tuple                       # repetition identity of the position


def _signature(board: Board) -> tuple:
    return (board.count(True), board.count(False))


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
    """

    def __init__(self, ruleset: str | RuleSet, board: Board | None = None, rate: str = "classical",
                 first_number: int = 1):
        self.ruleset = get_ruleset(ruleset)
        rate = getattr(rate, "value", rate)
        if rate not in RATES:
            raise ValueError(f"unknown rate of play {rate!r}; known: {', '.join(RATES)}")
        self.rate: str = rate
        variant = get_variant(self.ruleset.variant)
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
        self._positions: list[_Position] = []
        self._seen: Counter = Counter()
        self._reset(first_number)
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
        return self._positions[-1].number

    @property
    def moves(self) -> list[Move]:
        """Moves pushed since the start or the last :meth:`set_position`."""
        return list(self._board.move_stack)

    def _rep_key(self) -> tuple:
        k = self._board.key()
        return k if self.ruleset.repetition_same_side_to_move else k[:4]

    def _reset(self, number: int) -> None:
        self._seen = Counter([self._rep_key()])
        states = tuple(self._start_state(r, 0) for r in self.ruleset.draw_rules)
        self._positions = [_Position(number, self._board.turn, states, frozenset(), self._rep_key())]

    def set_position(self, fen: str) -> None:
        """Continue from an accepted irregular position (CODEX 42-43, 50; FMJD 5.7).

        The move numbering goes on (the next number if the side to move skips
        ahead); the repetition history and every counter restart from this
        position, and :meth:`pop` cannot go back past it.
        """
        last = self._positions[-1]
        self._board.set_fen(fen)
        number = last.number
        if self._board.turn and not last.turn:  # black was due, the position has white to move
            number += 1
        flags = last.flags
        self._reset(number)
        first = self._positions[-1]
        self._positions[-1] = _Position(number, first.turn, first.states, flags, first.key)

    def push(self, move: Move) -> None:
        """Play ``move`` (not checked: take it from the board's legal moves) and update every counter."""
        before = self._positions[-1]
        mover = self._board.turn
        piece = self._board.piece_at(move.origin)
        man_move = piece is not None and not piece[1]
        old_sig = _signature(self._board)
        self._board.push(move)
        index = len(self._positions)
        states = tuple(self._next_state(r, s, index, mover, man_move, move.is_capture, old_sig)
                       for r, s in zip(self.ruleset.draw_rules, before.states))
        number = before.number + (0 if mover else 1)
        key = self._rep_key()
        self._positions.append(_Position(number, self._board.turn, states, before.flags, key))
        self._seen[key] += 1

    def pop(self) -> Move:
        """Take back the last move; every counter is restored exactly."""
        if len(self._positions) <= 1:
            raise EmptyHistoryError("no move to take back")
        self._seen[self._positions.pop().key] -= 1
        return self._board.pop()

    # -- counting --------------------------------------------------------------------------

    def _start_state(self, rule: DrawRule, index: int) -> _State:
        board = self._board
        if rule.kind is Kind.KING_MOVES:
            return (index, 0, None, ())
        if rule.kind is Kind.FPD_20:
            return (index, 0, None, ()) if _fpd_20_condition(board) else None
        for ending in rule.endings:
            side = _strong_side(board, ending)
            if side is not None:
                if rule.kind is Kind.FORCADA:
                    on_rio = any(s in board.variant.long_diagonal
                                 for s, (w, k) in board.pieces().items() if w == side and k)
                    return (index, 0 if on_rio else -1, side, _signature(board))
                return (index, 0, side, _signature(board))
        return None

    def _next_state(self, rule: DrawRule, state: _State, index: int, mover: bool, man_move: bool,
                    capture: bool, old_sig: tuple) -> _State:
        if rule.kind is Kind.KING_MOVES:
            # 3.2.1a / 6.2 / 59.B / 60.B: a man move or a capture restarts the count after it.
            if man_move or capture or state is None:
                return (index, 0, None, ())
            return (state[0], state[1] + 1, None, ())
        if rule.kind is Kind.FPD_20:
            # 3.9b(2)-(3): a man move or a capture changes the ending: the count restarts.
            if not _fpd_20_condition(self._board):
                return None
            if state is None or man_move or capture:
                return (index, 0, None, ())
            return (state[0], state[1] + 1, None, ())
        fresh = self._start_state(rule, index)
        if fresh is None:
            return None
        if state is None:
            return fresh
        start, count, side, sig = state
        if rule.kind is Kind.FORCADA:
            if count < 0:  # waiting for the strong side to occupy the Rio (3.9a(3))
                return fresh if fresh[1] == 0 else state
            return (start, count + (1 if mover == side else 0), side, sig)
        if rule.reset_on_material_change and _signature(self._board) != sig:
            return fresh  # a capture or a promotion: a new ending, a new count
        return (start, count + 1, side, sig)

    def _counter(self, rule: DrawRule, state: _State) -> DrawCounter | None:
        if state is None:
            return None
        start, count, side, _ = state
        limit = rule.limit_for(self.rate)
        start_pos = self._positions[start]
        number = start_pos.number
        if rule.kind is Kind.FORCADA:
            if count < 0:
                return None
            if start_pos.turn != side and not start_pos.turn:  # first strong move comes after black's reply
                number += 1
            return DrawCounter(self.ruleset.label(rule.article), rule.title, count, limit, "moves",
                               number, count >= limit)
        if rule.unit == "moves each":
            return DrawCounter(self.ruleset.label(rule.article), rule.title, count // 2, limit, rule.unit,
                               number, count >= 2 * limit)
        return DrawCounter(self.ruleset.label(rule.article), rule.title, count, limit, rule.unit,
                           number, count >= limit)

    def repetition(self) -> DrawCounter:
        """How often the current position has occurred (threefold repetition)."""
        rs = self.ruleset
        key = self._positions[-1].key
        n = self._seen[key]
        first = next(p for p in self._positions if p.key == key)
        title = ("threefold repetition, same player to move" if rs.repetition_same_side_to_move
                 else "threefold repetition of the position of the pieces")
        return DrawCounter(rs.label(rs.repetition_article), title, n, 3, "occurrences",
                           first.number, n >= 3)

    def counters(self) -> list[DrawCounter]:
        """The counters running or reached now, for the live page (repetition once a position recurs).

        A king-moves counter shows from its first counted move; the others as
        soon as their condition holds (a Forçada once the Rio is occupied).
        """
        out: list[DrawCounter] = []
        for rule, state in zip(self.ruleset.draw_rules, self._positions[-1].states):
            c = self._counter(rule, state)
            if c is None or (rule.kind is Kind.KING_MOVES and state[1] == 0):
                continue
            out.append(c)
        if self._seen[self._positions[-1].key] >= 2:
            out.append(self.repetition())
        return out

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
        last = self._positions[-1]
        self._positions[-1] = _Position(last.number, last.turn, last.states, last.flags | {bool(white)}, last.key)

    @property
    def flags(self) -> frozenset[bool]:
        """Colours whose flag has fallen."""
        return self._positions[-1].flags

    def both_flags(self) -> bool:
        """Both flags have fallen (CODEX 59.A / 60.A: a draw)."""
        return len(self._positions[-1].flags) == 2

    def flag_outcome(self) -> Outcome | None:
        """The result the clock gives: a fallen flag loses (CODEX 57.C, FPD 5.4), both fallen draw
        where the rule set says so (CODEX 59.A/60.A), else None (the arbiter decides)."""
        flags = self._positions[-1].flags
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

