"""A game record and its PDN 3.0 text (docs/rules.md "Record keeping", pdn.fmjd.org).

The record is what the rig writes: tags (the seven roster tags first, then the
full GameType, the FEN when the game does not start from the initial
position, then any others), the moves in the variant's notation (numeric for
portuguese and international, algebraic for brazilian; the full path only
where two captures would otherwise read the same), clock commands and
comments after the moves, ``/FEN "..."/`` setups where an accepted irregular
position continues the game, and the result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rig.board import Board
from rig.errors import IllegalMoveError
from rig.fen import parse_fen
from rig.move import Move
from rig.pdn.clock import ClockStamp
from rig.pdn.gametype import normal_result, parse_gametype
from rig.variants import Variant, get_variant

__all__ = ["MoveNode", "GameRecord", "write_game", "ROSTER", "LINE_WIDTH"]

#: The seven tags of the standard, in their order (PDN 3.0 "PDN Tags").
ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
_UNKNOWN = {"Date": "????.??.??", "Result": "*"}
LINE_WIDTH = 79


@dataclass
class MoveNode:
    """One step of the game: a move, or (``setup_fen`` set) a ``/FEN "..."/`` setup.

    ``move_text`` is the move as written (empty for a setup); ``move`` the
    :class:`Move` when known; ``comment`` and ``clock`` follow the step."""

    move_text: str
    move: Move | None = None
    comment: str | None = None
    clock: ClockStamp | None = None
    setup_fen: str | None = None

    @property
    def is_setup(self) -> bool:
        return self.setup_fen is not None


def _canonical_fen(variant: Variant, fen: str) -> str:
    return Board(variant, fen).fen()


@dataclass
class GameRecord:
    """A game as the rig records it; :meth:`to_pdn` writes it as PDN 3.0.

    ``tags`` keeps the seven roster tags first (unknown values ``?``); the
    GameType and FEN tags are written from ``variant`` and ``initial_fen``
    (a ``FEN`` or ``GameType`` passed in ``tags`` is taken over and checked).
    ``initial_fen`` is None for the variant's initial position.
    """

    variant: Variant
    tags: dict[str, str] = field(default_factory=dict)
    initial_fen: str | None = None
    nodes: list[MoveNode] = field(default_factory=list)
    result: str = "*"
    comment: str | None = None
    _cache: tuple[int, Board] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.variant = get_variant(self.variant)
        tags = dict(self.tags)
        gametype = tags.pop("GameType", None)
        if gametype is not None and parse_gametype(gametype).variant != self.variant:
            raise ValueError(f"GameType {gametype!r} is not {self.variant.name}")
        fen_tag = tags.pop("FEN", None)
        tags.pop("SetUp", None)
        if self.initial_fen is None and fen_tag:
            self.initial_fen = fen_tag
        if self.initial_fen is not None:
            fen = _canonical_fen(self.variant, self.initial_fen)
            self.initial_fen = None if fen == Board(self.variant).fen() else fen
        if "Result" in tags and self.result == "*":
            self.result = tags["Result"]
        self.result = normal_result(self.result, self.variant)
        tags["Result"] = self.result
        ordered = {k: tags.pop(k, _UNKNOWN.get(k, "?")) for k in ROSTER}
        ordered.update(tags)
        self.tags = ordered

    # -- building ---------------------------------------------------------------------------

    def position(self) -> Board:
        """The position after the last node (a fresh board; replays the nodes once, then caches)."""
        if self._cache is not None and self._cache[0] == len(self.nodes):
            return self._cache[1].copy(stack=False)
        board = Board(self.variant, self.initial_fen)
        for node in self.nodes:
            if node.setup_fen is not None:
                board.set_fen(node.setup_fen)
            else:
                board.push(node.move if node.move is not None else board.parse_move(node.move_text))
        board = board.copy(stack=False)
        self._cache = (len(self.nodes), board)
        return board.copy(stack=False)

    def add_move(self, board_before: Board, move: Move, comment: str | None = None,
                 clock: ClockStamp | None = None) -> MoveNode:
        """Record ``move`` played in ``board_before`` (which must be the record's current position).

        The notation is ``board_before.move_text(move)``: the full path only when needed."""
        if board_before.variant != self.variant:
            raise ValueError(f"board is {board_before.variant.name}, the record {self.variant.name}")
        current = self.position()
        if board_before.key() != current.key():
            raise ValueError(f"board {board_before.fen()} is not the record's position {current.fen()}; "
                             "record the position with add_setup first")
        legal = board_before.legal_moves
        if not any(m.key == move.key for m in legal):
            raise IllegalMoveError(f"{move.text(name=self.variant.square_name)} is not legal in {board_before.fen()}")
        node = MoveNode(board_before.move_text(move, legal), move, _clean_comment(comment), clock)
        self.nodes.append(node)
        current.push(move)
        self._cache = (len(self.nodes), current)
        return node

    def add_setup(self, fen: str, comment: str | None = None, clock: ClockStamp | None = None) -> MoveNode:
        """Continue the game from position ``fen`` (PDN 3.0 setup command; an accepted irregular position)."""
        board = Board(self.variant, fen)
        node = MoveNode("", None, _clean_comment(comment), clock, board.fen())
        self.nodes.append(node)
        self._cache = (len(self.nodes), board)
        return node

    def set_result(self, text: str) -> None:
        """Set the result (any accepted form; stored in the variant's style)."""
        self.result = normal_result(text, self.variant)
        self.tags["Result"] = self.result

    # -- writing ----------------------------------------------------------------------------

    def tag_pairs(self) -> list[tuple[str, str]]:
        """The tags as written: roster, GameType, FEN (if any), the others."""
        pairs = [(k, self.result if k == "Result" else self.tags.get(k, _UNKNOWN.get(k, "?"))) for k in ROSTER]
        pairs.append(("GameType", self.variant.pdn_gametype))
        if self.initial_fen is not None:
            pairs.append(("FEN", self.initial_fen))
        pairs.extend((k, v) for k, v in self.tags.items() if k not in ROSTER)
        return pairs

    def movetext_units(self) -> list[str]:
        """The movetext as units that line wrapping never splits."""
        units: list[str] = []
        if self.comment:
            units.append("{" + (_clean_comment(self.comment) or "") + "}")
        white = parse_fen(self.initial_fen, self.variant).white_to_move if self.initial_fen else True
        number = 1
        need_number = True
        for node in self.nodes:
            if node.setup_fen is not None:
                setup_white = parse_fen(node.setup_fen, self.variant).white_to_move
                if not white and setup_white:
                    number += 1
                white = setup_white
                units.append(f'/FEN "{node.setup_fen}"/')
                need_number = True
            else:
                if white:
                    units.append(f"{number}. {node.move_text}")
                elif need_number:
                    units.append(f"{number}... {node.move_text}")
                else:
                    units.append(node.move_text)
                need_number = False
                if not white:
                    number += 1
                white = not white
            if node.clock is not None:
                units.append("{" + node.clock.command() + "}")
            if node.comment:
                units.append("{" + (_clean_comment(node.comment) or "") + "}")
        units.append(self.result)
        return units

    def to_pdn(self) -> str:
        """The game as PDN 3.0 text, ending with a blank line."""
        lines = [f'[{k} "{_escape(v)}"]' for k, v in self.tag_pairs()]
        lines.append("")
        line = ""
        for unit in self.movetext_units():
            if line and len(line) + 1 + len(unit) > LINE_WIDTH:
                lines.append(line)
                line = unit
            else:
                line = f"{line} {unit}" if line else unit
        lines.append(line)
        return "\n".join(lines) + "\n\n"

    def __str__(self) -> str:
        return self.to_pdn()


def _escape(value: str) -> str:
    one_line = re.sub(r"\r\n|\r|\n", " ", str(value))
    return one_line.replace("\\", "\\\\").replace('"', '\\"')


def _clean_comment(comment: str | None) -> str | None:
    """A comment as PDN can hold it: no closing brace (PDN 3.0 COMMENT token), trimmed."""
    if comment is None:
        return None
    text = comment.replace("}", "").strip()
    return text or None


def write_game(record: GameRecord) -> str:
    """The game as PDN 3.0 text."""
    return record.to_pdn()
