"""Irregularities committed by the simulated hands, and what the engine must report for each.

One handler per irregularity type of docs/session-format.md that a reed board can
show. A handler plays the whole turn (think, act, press) and records the
irregularity with the move number and side of the turn's player. Its status
follows the rules: the opponent's next move accepts it (004 art. 42, 43;
002 5.4, 5.7); a correction before that move makes it ``corrected``.

Types that change the position (``capture-not-taken``, ``illegal-move``,
``two-moves``, ``capture-not-removed``, ...) continue the game from the
irregular position, as the record does after an accepted irregularity.
Not simulated: ``capture-rule-violated`` and ``uncrowned-king-moved`` (the
latter needs a camera: a reed board cannot see a crown).
"""

from __future__ import annotations

from typing import Callable

from rig.board import Board
from rig.move import Move
from rig.simulate.sessiontypes import Injection, InjectionError, side_name
from rig.simulate.simulation import Simulation, resolve_moves
from rig.simulate.hands import between
from rig.simulate.irregular import (backward_moves, ends_game, incomplete_stops, move_text, own_squares,
                                    pieces_after, plain_moves, second_moves, their_squares)
from rig.variants import Variant

__all__ = ["HANDLERS", "CORRECTABLE", "ALWAYS_CORRECTED", "NEEDS_CLOCK", "check_injection", "applicable",
           "prepare_setup", "plain_moves", "backward_moves"]

Handler = Callable[[Simulation, Move, bool], None]

#: types whose ``:corrected`` form is simulated (the board is put right after the press, before the opponent
#: moves; for move-taken-back: the same move is played again)
CORRECTABLE = frozenset({"capture-not-removed", "wrong-piece-removed", "own-piece-removed", "move-taken-back"})
#: types that are always corrected (the board is restored before play goes on)
ALWAYS_CORRECTED = frozenset({"wrong-setup", "position-lost"})
#: types that need a clock: the press is the irregular act, or without one the act reads as something else
#: (an opponent's piece taken off once the move is over is the opponent starting his move)
NEEDS_CLOCK = frozenset({"clock-without-move", "wrong-piece-removed"})
#: types whose irregular act comes once the move is over (a second move, the move undone, a piece taken off
#: after it, a correction after the press): not possible after a move that ends the game, the game is over
#: then (FPD 5.2; CODEX 57.A) and nothing more is read
AFTER_THE_MOVE = frozenset({"two-moves", "move-taken-back", "wrong-piece-removed", "own-piece-removed"})


# -- applicability --------------------------------------------------------------------------

def applicable(sim: Simulation, inj: Injection, move: Move) -> str | None:
    """None if ``inj`` can be committed now with the game's ``move``, else the reason it cannot."""
    board, kind = sim.board, inj.type
    if inj.corrected and kind not in CORRECTABLE | ALWAYS_CORRECTED:
        return f"{kind} has no simulated correction (correctable: {', '.join(sorted(CORRECTABLE))})"
    if inj.corrected and kind in CORRECTABLE - {"move-taken-back"} and not sim.use_clock:
        return "a correction after the press needs a clock (without one, the move is not over yet)"
    if kind in NEEDS_CLOCK and not sim.use_clock:
        return f"{kind} needs a clock"
    if kind == "wrong-setup":
        return None if inj.ply == 0 else "wrong-setup happens before the first move (ply 0)"
    if (kind in AFTER_THE_MOVE or inj.corrected and kind in CORRECTABLE) and ends_game(board, move):
        return "the move ends the game: nothing after it is read"
    if kind == "touched-piece-not-moved":
        if board.is_capture_due():
            return "a capture is due (touch-move does not bind against a compulsory capture, 004 42.C)"
        if not {m.origin for m in board.legal_moves} - {move.origin}:
            return "no other piece has a legal move"
    elif kind == "piece-moved-after-release":
        if move.is_capture or not [m for m in board.legal_moves
                                   if m.origin == move.origin and m.destination != move.destination]:
            return "the move's piece has no second destination"
    elif kind in ("opponent-piece-touched", "wrong-piece-removed"):
        if not their_squares(sim, move.captured):
            return "the opponent has no piece besides the captured ones"
    elif kind in ("capture-removed-early", "capture-not-removed"):
        if not move.is_capture:
            return "the move is not a capture"
        if kind == "capture-not-removed" and not inj.corrected and not _leave_options(sim, move):
            return "the opponent could only go on with a piece that should have been removed"
    elif kind == "capture-incomplete":
        if not move.is_capture or not incomplete_stops(sim, move):
            return "the move is not a capture of two or more pieces that can be broken off"
    elif kind == "own-piece-removed":
        if not own_squares(sim, (move.origin,)):
            return "the mover has no other piece"
    elif kind == "capture-not-taken":
        if not board.is_capture_due() or not _not_taken_moves(board):
            return "no capture is due, or no plain move is possible"
    elif kind == "illegal-move":
        if board.is_capture_due() or not backward_moves(board):
            return "a capture is due, or no man can step backwards"
    elif kind == "two-moves":
        if not second_moves(board, move):
            return "no second move is possible"
    elif kind == "move-taken-back":
        if not inj.corrected and not [m for m in board.legal_moves if m.key != move.key]:
            return "no other move to play instead"
    elif kind == "position-lost":
        if len(board.pieces()) < _knock_size(sim, 0):
            return "too few pieces on the board for a knock the engine cannot read as a move"
    return None


def check_injection(sim: Simulation, inj: Injection, move: Move) -> None:
    reason = applicable(sim, inj, move)
    if reason is not None:
        raise InjectionError(f"cannot inject {inj} (move {sim.number} {side_name(sim.side)}, {move}): {reason}")


# -- handlers -------------------------------------------------------------------------------

def _touched_piece_not_moved(sim: Simulation, move: Move, corrected: bool) -> None:
    """000 4.3-4.4; 004 42.C: an own piece with a legal move lifted and put back, another played."""
    others = sorted({m.origin for m in sim.board.legal_moves} - {move.origin})
    sim.think(settled=True)
    sim.touch(sim.rng.choice(others))
    sim.irregular("touched-piece-not-moved")
    sim.play(move)
    sim.press()


def _piece_moved_after_release(sim: Simulation, move: Move, corrected: bool) -> None:
    """000 4.6: the piece set down and left on one square, then moved on to the one it ends on."""
    h, m = sim.hands, sim.model
    first = sim.rng.choice([x for x in sim.board.legal_moves
                            if x.origin == move.origin and x.destination != move.destination])
    piece = sim.board.piece_at(move.origin)
    assert piece is not None   # the move's own piece
    king = bool(piece[1])
    slide = king and sim.rng.random() < m.slide_p
    sim.think(settled=True)
    text = sim.board.move_text(move)
    h.pick_up(move.origin)
    h.carry(between(sim.variant, move.origin, first.destination), slide)
    h.place(first.destination)
    h.wait(m.release_s)
    h.pick_up(first.destination)
    h.carry(between(sim.variant, first.destination, move.destination), slide)
    h.place(move.destination)
    sim.irregular("piece-moved-after-release")
    side = sim.side
    sim.board.push(move)
    sim.expect(text, side)
    sim.press()


def _opponent_piece_touched(sim: Simulation, move: Move, corrected: bool) -> None:
    """000 4.13; 004 42.E: a piece of the opponent lifted and put back before moving."""
    sim.think(settled=True)
    sim.touch(sim.rng.choice(their_squares(sim, move.captured)))
    sim.irregular("opponent-piece-touched")
    sim.play(move)
    sim.press()


def _capture_removed_early(sim: Simulation, move: Move, corrected: bool) -> None:
    """000 3.8; 004 42.J: a captured piece taken off while the capturing piece is still under way."""
    sim.think(settled=True)
    if sim.removal_unproven(move.destination):
        sim.observe("capture-removed-early")    # the frames prove no early removal: an observation
    else:
        sim.irregular("capture-removed-early")
    move = sim.any_path(move)
    sim.play(move, early=sim.rng.choice(move.captured))
    sim.press()


def _leave_options(sim: Simulation, move: Move) -> list[tuple[int, ...]]:
    """Captured pieces that can be left on the board so that the opponent still has a legal move with
    another piece (moving a piece that should have gone reads as removing it late)."""
    out = []
    for size in range(1, len(move.captured) + 1):
        for start in range(len(move.captured) - size + 1):
            left = move.captured[start:start + size]
            b = sim.board.copy(stack=False)
            b.push(move)
            pieces = b.pieces()
            for c in left:
                piece = sim.board.piece_at(c)
                assert piece is not None   # a captured piece, still on the board before the move
                pieces[c] = piece
            b.set_pieces(pieces, b.turn)
            if any(m.origin not in left for m in b.legal_moves):
                out.append(left)
    return out


def _capture_not_removed(sim: Simulation, move: Move, corrected: bool) -> None:
    """004 42.K: the clock pressed (without a clock: the opponent began) with captured pieces on the board."""
    before = sim.board.pieces()
    path = sim.any_path(move)
    options = [tuple(path.captured[:1])] if corrected else _leave_options(sim, path)
    remaining = list(sim.rng.choice(options))
    removed = [c for c in path.captured if c not in remaining]
    sim.rng.shuffle(removed)
    side = sim.side
    sim.think(settled=True)
    idx = sim.irregular("capture-not-removed", corrected=False)
    sim.play(path, removal=removed)
    sim.press()
    if corrected:
        sim.hands.wait(sim.model.settle_s)
        for c in remaining:
            sim.hands.lift(c)
            sim.hands.wait(sim.model.removal_gap_s)
        sim.correct(idx)
        return
    pieces = sim.board.pieces()
    for c in remaining:
        pieces[c] = before[c]
    sim.set_position(pieces, not side)
    # the opponent plays on around them: moving one would read as removing it late
    sim.avoid = frozenset(remaining)


def _wrong_piece_removed(sim: Simulation, move: Move, corrected: bool) -> None:
    """004 42.G, 42.L: an opponent's piece that was not captured taken off the board (after a capture,
    among the captured pieces, before the last one)."""
    victim = sim.rng.choice(their_squares(sim, move.captured))
    side = sim.side
    sim.think(settled=True)
    idx = sim.irregular("wrong-piece-removed")
    if move.is_capture:
        order = list(move.captured)
        sim.rng.shuffle(order)
        order.insert(sim.rng.randrange(len(order)), victim)
        sim.play(move, removal=order)
    else:
        sim.play(move)
        sim.hands.wait(sim.model.removal_gap_s)
        sim.hands.lift(victim)
    sim.press()
    _settle_removal(sim, idx, victim, side, corrected)


def _own_piece_removed(sim: Simulation, move: Move, corrected: bool) -> None:
    """004 42.N: the mover takes one of his own pieces off the board."""
    victim = sim.rng.choice(own_squares(sim, (move.origin,)))
    side = sim.side
    sim.think(settled=True)
    idx = sim.irregular("own-piece-removed")
    sim.play(move)
    sim.hands.wait(sim.model.removal_gap_s)
    sim.hands.lift(victim)
    sim.press()
    _settle_removal(sim, idx, victim, side, corrected)


def _settle_removal(sim: Simulation, idx: int, victim: int, side: bool, corrected: bool) -> None:
    if corrected:
        sim.hands.wait(sim.model.settle_s)
        sim.hands.place(victim)
        sim.correct(idx)
        return
    pieces = sim.board.pieces()
    del pieces[victim]
    sim.set_position(pieces, not side)


def _irregular_move(sim: Simulation, kind: str, move: Move) -> None:
    side = sim.side
    sim.think(settled=True)
    sim.execute(move)
    sim.irregular(kind)
    pieces = pieces_after(sim.board, move)
    sim.expect(move_text(sim, move), side)
    sim.set_position(pieces, not side)
    sim.press()


def _not_taken_moves(board: Board) -> list[Move]:
    """Plain moves for ``capture-not-taken``, leaving out those from and to the squares of a due capture:
    lifted on one and set on the other with nothing removed, they read as that capture with its pieces left
    standing (``capture-not-removed``; docs/reconstruction.md, Limits)."""
    ends = {(m.origin, m.destination) for m in board.legal_moves}
    return [m for m in plain_moves(board) if (m.origin, m.destination) not in ends]


def _capture_not_taken(sim: Simulation, move: Move, corrected: bool) -> None:
    """000 3.3; 004 42.F: a plain move played when a capture was compulsory."""
    _irregular_move(sim, "capture-not-taken", sim.rng.choice(_not_taken_moves(sim.board)))


def _illegal_move(sim: Simulation, move: Move, corrected: bool) -> None:
    """004 42.B: a man stepped backwards."""
    _irregular_move(sim, "illegal-move", sim.rng.choice(backward_moves(sim.board)))


def _capture_incomplete(sim: Simulation, move: Move, corrected: bool) -> None:
    """004 42.I, art. 9: the capturing piece stopped before the end of its chain."""
    path = sim.any_path(move)
    stops = incomplete_stops(sim, path)
    if not stops:
        path, stops = move, incomplete_stops(sim, move)
    k = sim.rng.choice(stops)
    partial = Move(path.origin, path.path[k], path.path[: k + 1], path.captured[:k], False)
    _irregular_move(sim, "capture-incomplete", partial)


def _two_moves(sim: Simulation, move: Move, corrected: bool) -> None:
    """004 42.A: a second move in a row, made after the first was over (pressed; without a clock, left
    standing longer than ``stable_s``) and before the opponent's move."""
    seconds = second_moves(sim.board, move)
    plain = [m for m in seconds if not m.is_capture]
    second = sim.rng.choice(plain or seconds)
    side = sim.side
    sim.think(settled=True)
    sim.play(move)
    sim.press()
    sim.hands.wait(sim.model.settle_s if sim.use_clock else sim.model.slow_reply_s)
    sim.board.turn = side
    sim.irregular("two-moves")
    sim.play(second)
    sim.position_changed = True


def _move_taken_back(sim: Simulation, move: Move, corrected: bool) -> None:
    """004 42.D: the move, once completed (pressed; without a clock, left standing), is undone on the
    board and another move made instead (``corrected``: the same move again). The engine withdraws the
    undone move (docs/engine-contract.md): it stays in the report's moves, marked withdrawn
    (``expected_report_moves``), and only the move played instead stands (``expected_moves``)."""
    h, m = sim.hands, sim.model
    before = sim.board.pieces()
    side = sim.side
    sim.think(settled=True)
    path = sim.any_path(move)
    text = sim.play(path)
    if sim.clock is not None:
        sim.press()
    else:
        h.wait(m.slow_reply_s)
    h.wait(m.settle_s)
    h.pick_up(path.destination)
    h.wait(m.travel_s)
    h.place(path.origin)
    back = h.t
    for c in path.captured:
        h.wait(m.removal_gap_s)
        h.place(c)
    sim.board.set_pieces(before, side)
    sim.withdraw(text)
    idx = sim.irregular("move-taken-back")
    h.wait(m.settle_s)
    h.wait(max(0.0, back + m.put_back_floor_s() - h.t))     # (not read as a neighbour phantom)
    alts = [x for x in sim.board.legal_moves if x.key != move.key]
    again = move if corrected else sim.rng.choice(alts)
    sim.play(again)
    if corrected:
        sim.correct(idx)
    else:
        sim.position_changed = True


def _clock_without_move(sim: Simulation, move: Move, corrected: bool) -> None:
    """000 7.5b: the clock pressed with no move on the board; the turn passes."""
    side = sim.side
    sim.think(settled=True)
    sim.irregular("clock-without-move")
    sim.press()
    before = None
    if sim.board.peek() is not None:
        b = sim.board.copy()
        b.pop()
        before = frozenset(b.occupied())
    sim.set_position(sim.board.pieces(), not side)
    # the opponent's reply must not put the board back where it was before his last move: that would read
    # as his move taken back, then a press of his without a move (the same contacts and presses)
    sim.avoid_occupancy = before


def _knock_size(sim: Simulation, more: int) -> int:
    """Pieces swept off by a knock: more squares than any move of the side to move changes, plus the
    engine's ``lost_squares`` (docs/engine-contract.md)."""
    longest = max((len(m.captured) for m in sim.board.legal_moves), default=0)
    return longest + 2 + sim.model.lost_squares + more


def _position_lost(sim: Simulation, move: Move, corrected: bool) -> None:
    """000 7.4; 004 art. 46-48: pieces knocked off and displaced, then restored before play goes on."""
    h, m, rng, v = sim.hands, sim.model, sim.rng, sim.variant
    pieces = sim.board.pieces()
    centre = rng.choice(sorted(pieces))
    cf, cr = v.coords(centre)

    def dist(s: int) -> int:
        f, r = v.coords(s)
        return max(abs(f - cf), abs(r - cr))

    whites = sorted((s for s, p in pieces.items() if p[0]), key=dist)
    blacks = sorted((s for s, p in pieces.items() if not p[0]), key=dist)
    knocked = {whites[0], blacks[0]} if whites and blacks else set(sorted(pieces, key=dist)[:2])
    extra = _knock_size(sim, rng.randint(0, 2)) - len(knocked)
    for s in sorted(pieces, key=dist):
        if extra and s not in knocked:
            knocked.add(s)
            extra -= 1
    sim.think(settled=True)
    order = sorted(knocked)
    rng.shuffle(order)
    for s in order:
        h.lift(s)
        h.wait((0.06, 0.12))
    displaced: tuple[int, int] | None = None
    empty = [s for s in range(1, v.squares + 1) if s not in h.occupied and s not in knocked]
    if rng.random() < 0.5 and empty:
        displaced = (order[0], rng.choice(empty))
        h.place(displaced[1])
    sim.irregular("position-lost", corrected=True)
    h.wait((m.stable_s * 1.5, m.stable_s * 3))
    if displaced:
        h.lift(displaced[1])
        h.wait(m.removal_gap_s)
    for s in order:
        h.place(s)
        h.wait(m.removal_gap_s)
    sim.think(settled=True)
    sim.play(move)
    sim.press()


def _normal_turn(sim: Simulation, move: Move, corrected: bool) -> None:
    """A turn played as usual (the wrong set-up was shown and put right before it: :func:`prepare_setup`)."""
    sim.think()
    sim.play(move)
    sim.press()


def prepare_setup(sim: Simulation) -> None:
    """000 7.2; 004 art. 44: the board set up wrongly (a piece missing or on a wrong square), seen by the
    first frame, then put right before the first move. Call before the clock starts."""
    h, m, rng, v, board = sim.hands, sim.model, sim.rng, sim.variant, sim.board
    start = board.occupied()
    reachable = set()
    for mv in board.legal_moves:
        b = board.copy(stack=False)
        b.push(mv)
        reachable.add(b.occupied())
    empty = [s for s in range(1, v.squares + 1) if s not in start]
    options: list[tuple[int, int | None]] = [(s, None) for s in sorted(start)]
    options += [(s, e) for s in sorted(start) for e in empty]
    rng.shuffle(options)
    for piece, wrong in options:
        shown = (start - {piece}) | ({wrong} if wrong else set())
        if shown not in reachable and shown != start:
            break
    else:
        raise InjectionError("no wrong set-up differs from every position one move away")
    h.occupied = set(shown)
    h.initial = frozenset(shown)
    sim.irregular("wrong-setup", corrected=True)
    h.wait((m.stable_s * 1.5, m.stable_s * 3))
    if wrong is not None:
        h.lift(wrong)
        h.wait(m.travel_s)
    h.place(piece)
    h.wait(m.settle_s)


HANDLERS: dict[str, Handler] = {
    "touched-piece-not-moved": _touched_piece_not_moved,
    "piece-moved-after-release": _piece_moved_after_release,
    "opponent-piece-touched": _opponent_piece_touched,
    "capture-removed-early": _capture_removed_early,
    "capture-not-removed": _capture_not_removed,
    "wrong-piece-removed": _wrong_piece_removed,
    "own-piece-removed": _own_piece_removed,
    "capture-not-taken": _capture_not_taken,
    "capture-incomplete": _capture_incomplete,
    "illegal-move": _illegal_move,
    "two-moves": _two_moves,
    "move-taken-back": _move_taken_back,
    "clock-without-move": _clock_without_move,
    "wrong-setup": _normal_turn,
    "position-lost": _position_lost,
}


def find_ply(variant: Variant, moves, kind: str, *, fen: str | None = None, clock: bool = True, start: int = 0,
             corrected: bool = False) -> int | None:
    """The first turn at or after ``start`` where ``kind`` can be injected into the game ``moves`` (Move
    objects or notation), or None. Leaves room for the opponent's reply when the type must be accepted."""
    import random as _random

    from rig.simulate.model import HumanModel

    v = variant
    plan = resolve_moves(v, moves, fen)
    board = Board(v, fen)
    sim = Simulation(v, board, _random.Random(0), HumanModel(), clock)
    last = len(plan) if corrected or kind in ALWAYS_CORRECTED else len(plan) - 1
    for ply, move in enumerate(plan[:last]):
        sim.ply = ply
        if ply >= start and applicable(sim, Injection(kind, ply, corrected), move) is None:
            return ply
        board.push(move)
    return None
