"""The board: a position of one variant with push/pop history (python-chess style).

Pure: no I/O, no clock. Rule-set counters (draws) live in :mod:`rig.rulesets`,
the record in :mod:`rig.pdn`.
"""

from __future__ import annotations

from typing import Iterator, Mapping, NamedTuple, Sequence

from rig.errors import AmbiguousMoveError, IllegalMoveError
from rig.fen import FenPosition, make_fen, parse_fen
from rig.geometry import Geometry, geometry
from rig.move import Move
from rig.movegen import generate
from rig.perft import perft as _perft
from rig.variants import Variant, get_variant

__all__ = ["Board", "WHITE", "BLACK", "MAN", "KING", "Piece", "WHITE_MAN", "WHITE_KING", "BLACK_MAN", "BLACK_KING"]

WHITE = True
BLACK = False
MAN = "man"
KING = "king"


class Piece(NamedTuple):
    """A piece: its colour and whether it is a king. Compares equal to the tuple ``(white, king)``.

    >>> Piece(WHITE, True).symbol()
    'W'
    >>> Piece.from_symbol("b")
    Piece(white=False, king=False)
    """

    white: bool
    king: bool = False

    def symbol(self) -> str:
        """The session-frame code: ``w`` ``W`` white man/king, ``b`` ``B`` black man/king."""
        return _CODES[self]

    @classmethod
    def from_symbol(cls, code: str) -> "Piece":
        """The piece of a session-frame code (``w W b B``)."""
        try:
            return _PIECES[code]
        except KeyError:
            raise ValueError(f"piece code must be one of w W b B, not {code!r}") from None


WHITE_MAN, WHITE_KING = Piece(True, False), Piece(True, True)
BLACK_MAN, BLACK_KING = Piece(False, False), Piece(False, True)
_CODES: dict[tuple[bool, bool], str] = {WHITE_MAN: "w", WHITE_KING: "W", BLACK_MAN: "b", BLACK_KING: "B"}
_PIECES: dict[str, Piece] = {c: p for p, c in ((WHITE_MAN, "w"), (WHITE_KING, "W"), (BLACK_MAN, "b"),
                                                (BLACK_KING, "B"))}


class Board:
    """A position of one variant and the moves that led to it (``push``/``pop``, as in python-chess).

    ``variant`` is a :class:`~rig.variants.Variant` or its name; ``fen`` a PDN
    FEN (None: the variant's initial position, docs/rules.md "Variants").
    Squares are the variant's own numbers.

    >>> b = Board("portuguese")
    >>> len(b.legal_moves)
    7
    >>> b.push(b.parse_move("11-15"))
    >>> b.turn is BLACK
    True
    >>> b.piece_at(15)
    Piece(white=True, king=False)
    >>> b.pop()
    <Move 11-15>
    >>> b.fen()
    'W:W1-12:B21-32'
    """

    __slots__ = ("variant", "_g", "wm", "wk", "bm", "bk", "turn", "move_stack", "_stack", "initial_fen",
                 "_legal", "_legal_key")

    def __init__(self, variant: Variant | str = "portuguese", fen: str | None = None):
        self.variant = get_variant(variant)
        self._g: Geometry = geometry(self.variant)
        self.move_stack: list[Move] = []
        self._stack: list[tuple[int, int, int, int, bool]] = []
        self._legal: tuple[Move, ...] | None = None
        self._legal_key: tuple[int, int, int, int, bool] | None = None
        if fen is None:
            v = self.variant
            self._set(FenPosition(True, frozenset(v.white_start), frozenset(), frozenset(v.black_start), frozenset()))
        else:
            self._set(parse_fen(fen, self.variant))
        self.initial_fen = self.fen()

    # -- state ------------------------------------------------------------------------------

    def _set(self, pos: FenPosition) -> None:
        m = self._g.squares_mask
        self.wm, self.wk = m(pos.white_men), m(pos.white_kings)
        self.bm, self.bk = m(pos.black_men), m(pos.black_kings)
        self.turn = pos.white_to_move
        self._legal = None

    def set_fen(self, fen: str) -> None:
        """Set a position (clears the history)."""
        self._set(parse_fen(fen, self.variant))
        self.move_stack.clear()
        self._stack.clear()
        self.initial_fen = self.fen()

    def set_pieces(self, pieces: Mapping[int, tuple[bool, bool]], white_to_move: bool) -> None:
        """Set a position from ``{square: (white, king)}`` (clears the history)."""
        self._set(FenPosition(
            white_to_move,
            frozenset(s for s, (w, k) in pieces.items() if w and not k),
            frozenset(s for s, (w, k) in pieces.items() if w and k),
            frozenset(s for s, (w, k) in pieces.items() if not w and not k),
            frozenset(s for s, (w, k) in pieces.items() if not w and k)))
        self.move_stack.clear()
        self._stack.clear()
        self.initial_fen = self.fen()

    def fen(self) -> str:
        sq = self._g.squares_of
        return make_fen(FenPosition(self.turn, frozenset(sq(self.wm)), frozenset(sq(self.wk)),
                                    frozenset(sq(self.bm)), frozenset(sq(self.bk))), self.variant)

    def copy(self, stack: bool = True) -> "Board":
        b = Board.__new__(Board)
        b.variant, b._g = self.variant, self._g
        b.wm, b.wk, b.bm, b.bk, b.turn = self.wm, self.wk, self.bm, self.bk, self.turn
        b.move_stack = list(self.move_stack) if stack else []
        b._stack = list(self._stack) if stack else []
        b.initial_fen = self.initial_fen if stack else b.fen()
        b._legal, b._legal_key = self._legal, self._legal_key
        return b

    def position_copy(self) -> "Board":
        """The position without its history: ``copy()`` then ``clear_stack()`` (``initial_fen`` kept), without
        copying the stacks first.

        >>> b = Board("portuguese")
        >>> b.push(b.legal_moves[0]); p = b.position_copy()
        >>> (p.key() == b.key(), len(p.move_stack), p.initial_fen == b.initial_fen)
        (True, 0, True)
        """
        b = Board.__new__(Board)
        b.variant, b._g = self.variant, self._g
        b.wm, b.wk, b.bm, b.bk, b.turn = self.wm, self.wk, self.bm, self.bk, self.turn
        b.move_stack = []
        b._stack = []
        b.initial_fen = self.initial_fen
        b._legal, b._legal_key = self._legal, self._legal_key
        return b

    def clear_stack(self) -> None:
        """Forget the moves played; the position (and ``initial_fen``) stays, as python-chess's ``clear_stack``.

        >>> b = Board("portuguese")
        >>> b.push(b.legal_moves[0]); b.clear_stack(); len(b.move_stack)
        0
        """
        self.move_stack.clear()
        self._stack.clear()

    def key(self) -> tuple[int, int, int, int, bool]:
        """Hashable identity of the position with the side to move (repetition, FMJD 6.1)."""
        return (self.wm, self.wk, self.bm, self.bk, self.turn)

    def piece_at(self, square: int) -> Piece | None:
        """The piece on a square, or None if it is empty."""
        b = 1 << self._g.bit[square]
        if self.wm & b:
            return WHITE_MAN
        if self.wk & b:
            return WHITE_KING
        if self.bm & b:
            return BLACK_MAN
        if self.bk & b:
            return BLACK_KING
        return None

    def pieces(self) -> dict[int, Piece]:
        """``{square: Piece}`` of every piece."""
        out: dict[int, Piece] = {}
        sq = self._g.squares_of
        for mask, piece in ((self.wm, WHITE_MAN), (self.wk, WHITE_KING), (self.bm, BLACK_MAN), (self.bk, BLACK_KING)):
            for s in sq(mask):
                out[s] = piece
        return out

    def piece_codes(self) -> dict[int, str]:
        """``{square: 'w'|'W'|'b'|'B'}`` as in session frames."""
        return {s: _CODES[p] for s, p in self.pieces().items()}

    def occupied(self) -> frozenset[int]:
        return frozenset(self._g.squares_of(self.wm | self.wk | self.bm | self.bk))

    def count(self, white: bool) -> tuple[int, int]:
        """(men, kings) of one colour."""
        if white:
            return self.wm.bit_count(), self.wk.bit_count()
        return self.bm.bit_count(), self.bk.bit_count()

    # -- moves ------------------------------------------------------------------------------

    def _to_move(self, m: tuple) -> Move:
        sq = self._g.sq
        frm, to, _, promotes, path, caps = m
        if path is None:
            return Move(sq[frm], sq[to], (sq[frm], sq[to]), (), promotes)
        return Move(sq[frm], sq[to], tuple(sq[b] for b in path), tuple(sq[b] for b in caps), promotes)

    def _internal(self) -> list[tuple]:
        return generate(self._g, self.wm, self.wk, self.bm, self.bk, self.turn)

    @property
    def legal_moves(self) -> list[Move]:
        """Legal moves, one per (origin, destination, captured set), sorted by origin then destination.

        Computed once per position and kept until the position changes (``push``, ``pop``,
        ``set_fen``, ``set_pieces``, or a bitboard or ``turn`` assigned directly, which the position
        key catches); each access returns a new list of the kept moves, free to change.

        >>> [str(m) for m in Board("international").legal_moves][:3]
        ['31-26', '31-27', '32-27']
        """
        return list(self._legal_tuple())

    def legal_moves_all_paths(self) -> list[Move]:
        """Legal moves with every distinct landing path of a capture (for reconstruction)."""
        moves = [self._to_move(m) for m in generate(self._g, self.wm, self.wk, self.bm, self.bk, self.turn, True)]
        moves.sort(key=lambda m: (m.origin, m.destination, m.captured, m.path))
        return moves

    def _legal_tuple(self) -> tuple[Move, ...]:
        """The kept legal moves (no copy), generated if the position changed since."""
        key = (self.wm, self.wk, self.bm, self.bk, self.turn)
        legal = self._legal
        if legal is None or self._legal_key != key:
            moves = [self._to_move(m) for m in self._internal()]
            moves.sort(key=lambda m: (m.origin, m.destination, m.captured))
            legal = self._legal = tuple(moves)
            self._legal_key = key
        return legal

    def has_legal_moves(self) -> bool:
        return bool(self._legal_tuple())

    def is_capture_due(self) -> bool:
        """True if the side to move must capture (FPD 3.3a, FMJD 4.1)."""
        ms = self._legal_tuple()
        return bool(ms) and bool(ms[0].captured)

    def is_legal(self, move: Move) -> bool:
        return any(m.key == move.key for m in self._legal_tuple())

    def push(self, move: Move) -> None:
        """Play a move (not checked: use :meth:`parse_move` or :meth:`is_legal` first)."""
        g = self._g
        bit = g.bit
        fb = 1 << bit[move.origin]
        tb = 1 << bit[move.destination]
        cap = 0
        for s in move.captured:
            cap |= 1 << bit[s]
        self._stack.append((self.wm, self.wk, self.bm, self.bk, self.turn))
        self.move_stack.append(move)
        self._legal = None
        self._apply(fb, tb, cap, move.promotes)

    def _apply(self, fb: int, tb: int, cap: int, promotes: bool) -> None:
        if self.turn:
            if self.wm & fb:
                self.wm &= ~fb
                if promotes:
                    self.wk |= tb
                else:
                    self.wm |= tb
            else:
                self.wk = (self.wk & ~fb) | tb
            if cap:
                self.bm &= ~cap
                self.bk &= ~cap
        else:
            if self.bm & fb:
                self.bm &= ~fb
                if promotes:
                    self.bk |= tb
                else:
                    self.bm |= tb
            else:
                self.bk = (self.bk & ~fb) | tb
            if cap:
                self.wm &= ~cap
                self.wk &= ~cap
        self.turn = not self.turn

    def pop(self) -> Move:
        """Take back the last move."""
        self.wm, self.wk, self.bm, self.bk, self.turn = self._stack.pop()
        self._legal = None
        return self.move_stack.pop()

    def peek(self) -> Move | None:
        return self.move_stack[-1] if self.move_stack else None

    def ply(self) -> int:
        return len(self.move_stack)

    # -- notation ---------------------------------------------------------------------------

    def move_text(self, move: Move, legal: Sequence[Move] | None = None) -> str:
        """The move in the variant's notation; the full path only where two captures would
        otherwise read the same (docs/rules.md "Record keeping")."""
        name = self.variant.square_name
        if not move.captured:
            return move.text(name=name)
        legal = self.legal_moves if legal is None else legal
        clash = any(m.captured and m.origin == move.origin and m.destination == move.destination
                    and m.key != move.key for m in legal)
        return move.text(full_path=clash, name=name)

    def parse_move(self, text: str) -> Move:
        """A legal move from its notation: ``11-15``, ``11x18``, ``11:18``, ``c3-d4``, full capture
        paths ``11x18x25``. Raises :class:`IllegalMoveError` / :class:`AmbiguousMoveError`."""
        cands = self.moves_matching(text)
        if len(cands) > 1:
            raise AmbiguousMoveError(f"move {text!r} is ambiguous in {self.fen()}: "
                                     + ", ".join(sorted("x".join(map(str, m.path)) for m in cands)))
        return cands[0]

    def moves_matching(self, text: str) -> list[Move]:
        """Every legal move a notation can name, one per (origin, destination, captured set): one
        move, or several for a capture written short where paths take different pieces (PDN 3.0
        "Restrictions" 8). Raises :class:`IllegalMoveError` when it names none.

        >>> b = Board("international", "W:WK16:B12,21,28,44")
        >>> [m.captured for m in b.moves_matching("16x1")]
        [(21, 28, 12), (21, 44, 12)]
        """
        t = text.strip().lower().replace(":", "x")
        sep = "x" if "x" in t else "-"
        parts = [p for p in t.split(sep)]
        if len(parts) < 2 or any(not p for p in parts):
            raise IllegalMoveError(f"cannot read move {text!r}")
        try:
            squares = [self.variant.parse_square(p) for p in parts]
        except ValueError as exc:
            raise IllegalMoveError(f"cannot read move {text!r}: {exc}") from None
        legal = self.legal_moves_all_paths()
        origin, dest = squares[0], squares[-1]
        cands = [m for m in legal if m.origin == origin and m.destination == dest]
        if sep == "-" and len(squares) == 2:
            quiet = [m for m in cands if not m.captured]
            if quiet:
                return [quiet[0]]
        if len(squares) > 2:
            # a full path: every named square must be a landing square, in order
            def follows(m: Move) -> bool:
                it = iter(m.path)
                return all(any(p == s for p in it) for s in squares)
            cands = [m for m in cands if follows(m)] or [m for m in cands if set(squares[1:-1]) <= set(m.captured)]
        if not cands:
            raise IllegalMoveError(f"illegal move {text!r} in {self.fen()}")
        one: dict[tuple[int, int, frozenset[int]], Move] = {}
        for m in cands:
            one.setdefault(m.key, m)
        return list(one.values())

    def push_text(self, text: str) -> Move:
        m = self.parse_move(text)
        self.push(m)
        return m

    # -- game end ---------------------------------------------------------------------------

    def is_game_over(self) -> bool:
        """No pieces or no legal move for the side to move (FPD 1.5, 5.1; FMJD 5.1)."""
        return not self._legal_tuple()

    def winner(self) -> bool | None:
        """The winning colour when the side to move has no move, else None."""
        return (not self.turn) if self.is_game_over() else None

    # -- display ----------------------------------------------------------------------------

    def __iter__(self) -> Iterator[Move]:
        return iter(self.legal_moves)

    def __str__(self) -> str:
        v = self.variant
        codes = self.piece_codes()
        rows = []
        for rank in range(v.size - 1, -1, -1):
            cells = []
            for f in range(v.size):
                s = v.square_at(f, rank)
                cells.append(" " if s is None else {"w": "o", "W": "O", "b": "x", "B": "X"}.get(codes.get(s, ""), "."))
            rows.append(" ".join(cells))
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"<Board {self.variant.name} {self.fen()!r}>"

    def perft(self, depth: int) -> int:
        """Leaf nodes at ``depth`` (captures with the same origin, destination and captured set count once)."""
        return perft(self, depth)


def api_perft(board: Board, depth: int) -> int:
    """Perft through the public API only (``legal_moves``, ``push``, ``pop``; bulk count at depth 1):
    the reference :func:`perft` is checked against, and what peers are compared with."""
    moves = board.legal_moves
    if depth <= 1:
        return len(moves) if depth == 1 else 1
    total = 0
    for move in moves:
        board.push(move)
        total += api_perft(board, depth - 1)
        board.pop()
    return total


def perft(board: Board, depth: int) -> int:
    """Leaf nodes at ``depth`` below ``board``'s position: :func:`rig.perft.perft` on its bitboards."""
    return _perft(board._g, board.wm, board.wk, board.bm, board.bk, board.turn, depth)
