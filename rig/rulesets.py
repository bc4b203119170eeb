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

The rule sets themselves (:class:`RuleSet`, the ``RULESETS`` table,
``get_ruleset``) are defined in :mod:`rig.ruleset_defs` and the conditions of
the endings in :mod:`rig.endings`; this module re-exports the former, so
``from rig.rulesets import RuleSet`` is the one import a caller needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rig.board import Board
from rig.errors import RigError, UnknownRuleSetError
from rig.endings import Material4, codex_59f, ending_side, fpd_20_condition, material_of
from rig.geometry import geometry
from rig.move import Move
from rig.ruleset_defs import (CODEX_64, CODEX_100, DEFAULT_RULESETS, FMJD, FORCADA, FPD_2026, FPD_CLASSIC, RULESETS,
                              DrawRule, Ending, Kind, Material, RuleSet, default_ruleset_for, get_ruleset)

__all__ = [
    "RuleSet", "DrawRule", "Ending", "Kind", "Material", "DrawCounter", "GameTracker", "RULESETS", "RATES",
    "FPD_2026", "FPD_CLASSIC", "FMJD", "CODEX_64", "CODEX_100", "FORCADA",
    "get_ruleset", "default_ruleset_for", "DEFAULT_RULESETS", "UnknownRuleSetError", "EmptyHistoryError",
]

Outcome = Literal["white", "black", "draw"]

#: Rates of play a tracker accepts (CODEX art. 3; FPD Appendix B, C): the values of
#: ``sensors.clock.timecontrol.RateClass``.
RATES = ("classical", "semi-rapid", "rapid", "blitz", "below-blitz")




class EmptyHistoryError(RigError, IndexError):
    """``pop()`` with no move to take back (none pushed since the start or the last set_position)."""


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
                holds = fpd_20_condition(material)
                active = active or holds
                entries.append(holds)
            else:
                fits = []
                for ending in rule.endings:
                    side = ending_side(ending, material)
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
        material = material_of(board)
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
            return codex_59f(board, side)
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
