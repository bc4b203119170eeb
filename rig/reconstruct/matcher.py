"""Matching what the board shows against the moves of the position.

A move explains an observation when the occupancy after it, less the
captured pieces still standing and plus nothing else, is what the board
shows (``occ``). Candidates come in tiers, the first that explains wins:

0. the legal moves (every landing path: a multiple capture's path is chosen by
   the squares the piece touched down on);
1. captures the law forbids: a complete chain taking fewer pieces or kings than
   the law requires (``capture-rule-violated``, FPD 3.7, CODEX 42.H) or a chain
   stopped before its end (``capture-incomplete``, CODEX 42.I, art. 9);
2. a plain move when a capture was compulsory (``capture-not-taken``, FPD 3.3);
3. any other relocation of one own piece (``illegal-move``, CODEX 42.B).

Within a tier the candidate with the fewest residual pieces wins (captured
pieces left standing, other pieces missing), then the one whose path fits the
touch-downs best. Pure functions; nothing here knows about time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rig.board import Board
from rig.geometry import geometry
from rig.move import Move

__all__ = ["Explanation", "explain", "capture_sequences", "plain_moves"]

TIER_LEGAL = 0
TIER_CAPTURE = 1
TIER_NOT_TAKEN = 2
TIER_ILLEGAL = 3


@dataclass(frozen=True)
class Explanation:
    """How one move of the side to move of ``board`` explains the observed occupancy.

    ``kind``: None for a legal move, else the irregularity type the move itself is.
    ``standing``: captured pieces still on the board; ``missing``: other pieces no longer
    on the board (own or the opponent's, not captured)."""

    move: Move
    legal: bool
    kind: str | None
    standing: frozenset[int] = frozenset()
    missing: frozenset[int] = frozenset()
    cost: tuple = field(default=(), compare=False)

    @property
    def exact(self) -> bool:
        return not self.standing and not self.missing


def plain_moves(board: Board) -> list[Move]:
    """Every non-capturing move of the side to move, whether or not a capture is due."""
    g = geometry(board.variant)
    white = board.turn
    men, kings = (board.wm, board.wk) if white else (board.bm, board.bk)
    empty = g.mask & ~(board.wm | board.wk | board.bm | board.bk)
    promo = g.promo_white if white else g.promo_black
    sq = g.sq
    out = []
    for d in ((0, 1) if white else (2, 3)):
        nxt = g.next[d]
        m = men
        while m:
            low = m & -m
            m ^= low
            b = low.bit_length() - 1
            n = nxt[b]
            if n >= 0 and (empty >> n) & 1:
                out.append(Move(sq[b], sq[n], (sq[b], sq[n]), (), bool((promo >> n) & 1)))
    k = kings
    while k:
        low = k & -k
        k ^= low
        b = low.bit_length() - 1
        for d in range(4):
            for n in g.rays[d][b]:
                if not (empty >> n) & 1:
                    break
                out.append(Move(sq[b], sq[n], (sq[b], sq[n]), ()))
    return out


def capture_sequences(board: Board) -> list[tuple[Move, bool]]:
    """Every capture sequence of the side to move, complete or stopped early, ignoring the
    quantity and quality laws: ``(move, complete)`` pairs (``complete``: the chain cannot go on)."""
    g = geometry(board.variant)
    white = board.turn
    men, kings = (board.wm, board.wk) if white else (board.bm, board.bk)
    opp = (board.bm | board.bk) if white else (board.wm | board.wk)
    empty = g.mask & ~(board.wm | board.wk | board.bm | board.bk)
    promo = g.promo_white if white else g.promo_black
    man_dirs = (0, 1, 2, 3) if board.variant.men_capture_backward else ((0, 1) if white else (2, 3))
    sq = g.sq
    out: list[tuple[Move, bool]] = []

    def emit(start: int, b: int, path: tuple, caps: tuple, complete: bool, man: bool) -> None:
        out.append((Move(sq[start], sq[b], tuple(sq[x] for x in path), tuple(sq[x] for x in caps),
                         man and bool((promo >> b) & 1)), complete))

    def man_dfs(start: int, emp: int, b: int, capmask: int, path: tuple, caps: tuple) -> None:
        found = False
        for d in man_dirs:
            n = g.next[d][b]
            if n < 0 or not (opp >> n) & 1 or (capmask >> n) & 1:
                continue
            land = g.next[d][n]
            if land < 0 or not (emp >> land) & 1:
                continue
            found = True
            man_dfs(start, emp, land, capmask | (1 << n), path + (land,), caps + (n,))
        if caps:
            emit(start, b, path, caps, not found, True)

    def king_dfs(start: int, emp: int, b: int, capmask: int, path: tuple, caps: tuple) -> None:
        found = False
        for d in range(4):
            ray = g.rays[d][b]
            i = 0
            while i < len(ray) and (emp >> ray[i]) & 1:
                i += 1
            if i >= len(ray) - 1:
                continue
            v = ray[i]
            if not (opp >> v) & 1 or (capmask >> v) & 1:
                continue
            j = i + 1
            while j < len(ray) and (emp >> ray[j]) & 1:
                found = True
                king_dfs(start, emp, ray[j], capmask | (1 << v), path + (ray[j],), caps + (v,))
                j += 1
        if caps:
            emit(start, b, path, caps, not found, False)

    for pieces, dfs in ((men, man_dfs), (kings, king_dfs)):
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            b = low.bit_length() - 1
            dfs(b, empty | low, b, 0, (b,), ())
    return out


def _fit(move: Move, occ0: frozenset[int], occ: frozenset[int]) -> tuple[frozenset[int], frozenset[int]] | None:
    """(standing, missing) if ``move`` explains ``occ`` from ``occ0``, else None."""
    caps = move.captured
    if move.destination not in occ:
        return None
    if move.origin != move.destination and move.origin in occ:
        return None
    after = (occ0 - {move.origin} - set(caps)) | {move.destination}
    extra = occ - after
    standing = extra & set(caps)
    if len(extra) != len(standing):
        return None
    return frozenset(standing), frozenset(after - occ)


def _landing_cost(move: Move, landings: frozenset[int]) -> tuple[int, int]:
    inner = set(move.path[1:-1])
    return len(landings - inner - {move.origin, move.destination}), len(inner - landings)


def explain(board: Board, occ0: frozenset[int], occ: frozenset[int], landings: frozenset[int] = frozenset(),
            lifted: tuple[int, ...] = (), hints: dict[int, int] | None = None) -> Explanation | None:
    """The best one-move explanation of ``occ`` (seen now) from ``occ0`` (seen at the start of the
    turn) for the side to move of ``board``, or None. ``landings``: squares the moving piece was set
    down on and left again (multiple-capture landings); ``lifted``: own squares in the order they
    were lifted (the last one is the likeliest mover among several); ``hints``: for a square a piece
    was set down on, the own square lifted last before that (the piece that went there)."""
    added = occ - occ0
    if len(added) > 1:
        return None
    removed = occ0 - occ
    if not added and not removed:
        return None
    best: Explanation | None = None

    def consider(move: Move, legal: bool, kind: str | None, tier: int) -> None:
        nonlocal best
        fit = _fit(move, occ0, occ)
        if fit is None:
            return
        standing, missing = fit
        hinted = 0 if hints is None or hints.get(move.destination, move.origin) == move.origin else 1
        cost = (tier, len(standing) + len(missing), hinted, *_landing_cost(move, landings), move.path)
        if best is None or cost < best.cost:
            best = Explanation(move, legal, kind, standing, missing, cost)

    if added:
        (dest,) = added
        dest_ok = lambda m: m.destination == dest  # noqa: E731
    else:
        dest_ok = lambda m: m.origin == m.destination and m.origin in occ  # noqa: E731

    for m in board.legal_moves_all_paths():
        if dest_ok(m):
            consider(m, True, None, TIER_LEGAL)
    if best is not None and best.exact:
        return best
    legal_keys = {m.key for m in board.legal_moves}
    due = board.is_capture_due()
    for m, complete in capture_sequences(board):
        if dest_ok(m) and m.key not in legal_keys:
            consider(m, False, "capture-rule-violated" if complete else "capture-incomplete", TIER_CAPTURE)
    if due:
        for m in plain_moves(board):
            if dest_ok(m):
                consider(m, False, "capture-not-taken", TIER_NOT_TAKEN)
    if best is not None:
        return best
    if not added:
        return None
    own = {s for s, (w, _k) in board.pieces().items() if w == board.turn}
    movers = [s for s in removed if s in own]
    if not movers:
        return None
    order = {s: i for i, s in enumerate(lifted)}
    origin = max(movers, key=lambda s: (order.get(s, -1), -s))
    (dest,) = added
    piece = board.piece_at(origin)
    promotes = piece is not None and not piece[1] and dest in board.variant.promotion_squares(board.turn)
    caps = tuple(sorted(s for s in removed if s not in own))
    inner = tuple(s for s in sorted(landings) if s not in (origin, dest))
    move = Move(origin, dest, (origin, *inner, dest), caps, promotes)
    fit = _fit(move, occ0, occ)
    if fit is None:
        return None
    return Explanation(move, False, "illegal-move", fit[0], fit[1], (TIER_ILLEGAL,))
