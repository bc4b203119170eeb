"""Reading a board some of whose squares are masked (a faulty switch, a missing diode's ghost): their state may
be either way, so the matcher tries the states the legal moves would give them (docs/reconstruction.md,
"Failing switches")."""

from __future__ import annotations

from typing import Callable

from rig.board import Board
from rig.reconstruct.matcher import Explanation, PositionIndex, explain

__all__ = ["explain_masked"]


def explain_masked(board: Board, occ0: frozenset[int], occ: frozenset[int], masked: frozenset[int],
                   landings: frozenset[int], lift_order: tuple[int, ...], hints: dict[int, int] | None,
                   index: PositionIndex, first: Explanation | None,
                   fits: Callable[[Explanation], bool] | None = None,
                   alternatives: list[Explanation] | None = None) -> tuple[Explanation | None, bool]:
    """The best reading of ``occ`` when the masked squares may be either way (their reading is the state
    the game gave them at the turn's start: a move onto or off one is not seen there). ``first``: the
    reading with the masked squares as they are. Returns (explanation, settled): ``settled`` is False when
    two different legal moves explain the board exactly and neither ``fits`` (the frame as the switches and
    diodes would read it after the move) nor the lifts tell which was played. ``alternatives`` gets the moves
    that fitted when the choice is unsettled, or was settled by the frame alone (a frame can mislead)."""
    best = first
    exact = [first] if first is not None and first.legal and first.exact else []
    for flips in _flip_sets(index, occ0, occ, masked):
        expl = explain(board, occ0, occ ^ flips, landings, lift_order, hints, index)
        if expl is None:
            continue
        if expl.legal and expl.exact:
            exact.append(expl)
        if best is None or _rank(expl) < _rank(best):
            best = expl
    if len(exact) > 1 and len({e.move.key for e in exact}) > 1:
        if fits is not None:
            fitting = [e for e in exact if fits(e)]
            if fitting and len({e.move.key for e in fitting}) == 1:
                if alternatives is not None:
                    alternatives.extend(exact)        # the frame told: the others stay open to the game
                return fitting[0], True
            exact = fitting or exact
        lifted = [e for e in exact if e.move.origin in lift_order]
        if len(lifted) == 1:
            return lifted[0], True
        if alternatives is not None:
            alternatives.extend(lifted or exact)
        return (lifted or exact)[0], False
    return best, True



def _flip_sets(index: PositionIndex, occ0: frozenset[int], occ: frozenset[int],
               masked: frozenset[int]) -> list[frozenset[int]]:
    """The masked squares to read the other way: for each legal move, the masked squares where the board
    after it differs from ``occ`` (all of them, and each alone: the move still under way). Linear in the
    moves, where every subset of the masked squares would be exponential (a missing diode masks many)."""
    out: set[frozenset[int]] = set()
    for m in index.moves:
        after = (occ0 - {m.origin}).difference(m.captured) | {m.destination}
        flips = (after ^ occ) & masked
        if flips:
            out.add(frozenset(flips))
            if len(flips) > 1:
                out.update(frozenset((s,)) for s in flips)
    return sorted(out, key=lambda f: (len(f), sorted(f)))



def _rank(expl: Explanation) -> tuple[int, int, int]:
    return (0 if expl.legal else 1, len(expl.standing) + len(expl.missing), 0 if expl.kind is None else 1)
