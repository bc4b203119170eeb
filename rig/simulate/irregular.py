"""Moves and positions the simulated hands need for irregularities: moves no rule allows (a plain move when a
capture is due, a man stepping backwards, a second move), the pieces after any move, and the squares a hand
may take a piece from (docs/simulator.md)."""

from __future__ import annotations

from rig.board import Board
from rig.move import Move
from rig.simulate.hands import step_squares
from rig.simulate.simulation import Simulation

__all__ = ["plain_moves", "backward_moves", "pieces_after", "own_squares", "their_squares", "move_text",
           "second_moves", "ends_game", "incomplete_stops"]


def plain_moves(board: Board) -> list[Move]:
    """Non-capturing moves of the side to move as if no capture were due (for ``capture-not-taken``)."""
    v = board.variant
    out = []
    occupied = board.occupied()
    forward = (1,) if board.turn else (-1,)
    promo = v.promotion_squares(board.turn)
    for sq, (white, king) in sorted(board.pieces().items()):
        if white != board.turn:
            continue
        if not king:
            for to in step_squares(v, sq, forward):
                if to not in occupied:
                    out.append(Move(sq, to, (sq, to), (), to in promo))
            continue
        f, r = v.coords(sq)
        for df, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            i = 1
            while (far := v.square_at(f + i * df, r + i * dr)) is not None and far not in occupied:
                out.append(Move(sq, far, (sq, far)))
                i += 1
    return out


def backward_moves(board: Board) -> list[Move]:
    """A man of the side to move stepping backwards onto an empty square: a move no rule allows
    (000 3.1a; 004 42.B)."""
    v = board.variant
    occupied = board.occupied()
    backward = (-1,) if board.turn else (1,)
    out = []
    for sq, (white, king) in sorted(board.pieces().items()):
        if white == board.turn and not king:
            out += [Move(sq, to, (sq, to)) for to in step_squares(v, sq, backward) if to not in occupied]
    return out


def pieces_after(board: Board, move: Move) -> dict[int, tuple[bool, bool]]:
    """The pieces after an arbitrary (possibly irregular) move of the side to move."""
    pieces: dict[int, tuple[bool, bool]] = dict(board.pieces())
    white, king = pieces.pop(move.origin)
    for c in move.captured:
        pieces.pop(c, None)
    pieces[move.destination] = (white, king or move.promotes)
    return pieces


def own_squares(sim: Simulation, exclude=()) -> list[int]:
    """The squares of the mover's pieces, ascending, but ``exclude``."""
    return sorted(s for s, (w, _) in sim.board.pieces().items() if w == sim.side and s not in exclude)


def their_squares(sim: Simulation, exclude=()) -> list[int]:
    """The squares of the opponent's pieces, ascending, but ``exclude``."""
    return sorted(s for s, (w, _) in sim.board.pieces().items() if w != sim.side and s not in exclude)


def move_text(sim: Simulation, move: Move) -> str:
    """``move`` as the variant's record writes it."""
    return move.text(name=sim.variant.square_name)


def second_moves(board: Board, move: Move) -> list[Move]:
    """Legal moves of the same side after ``move``, as if it were its turn again, by another piece."""
    b = board.copy(stack=False)
    b.push(move)
    b.turn = not b.turn
    return [m for m in b.legal_moves if m.origin != move.destination]


def ends_game(board: Board, move: Move) -> bool:
    """``move`` leaves the opponent without a move (FPD 5.2)."""
    b = board.copy(stack=False)
    b.push(move)
    return b.is_game_over()


def incomplete_stops(sim: Simulation, move: Move) -> list[int]:
    """Indices into ``move.path`` where a chain can be broken off (CODEX 004 art. 42.I): not on the far row for a
    man, nor on the destination of a legal capture from the same square that takes the pieces taken so far and
    more (a king's 4x18 over 13 when 4x18 over 13, 37, 43 and 29 is due: the same board as that capture with
    three pieces left standing, read ``capture-not-removed``; docs/reconstruction.md, Known limits)."""
    piece = sim.board.piece_at(move.origin)
    promo = sim.variant.promotion_squares(sim.side)
    whole = [(m.destination, frozenset(m.captured)) for m in sim.board.legal_moves if m.origin == move.origin]
    return [k for k in range(1, len(move.captured))
            if piece and (piece[1] or move.path[k] not in promo) and move.path[k] != move.origin
            and not any(d == move.path[k] and c.issuperset(move.captured[:k]) for d, c in whole)]
