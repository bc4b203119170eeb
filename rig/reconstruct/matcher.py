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
from rig.movegen import generate_all_paths

__all__ = ["Explanation", "PositionIndex", "explain", "capture_sequences", "plain_moves"]

TIER_LEGAL = 0
TIER_CAPTURE = 1
TIER_NOT_TAKEN = 2
TIER_ILLEGAL = 3


@dataclass(frozen=True, slots=True)
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


class PositionIndex:
    """The candidates of one position, computed once per position and looked up per observation.

    ``due``: a capture is compulsory (FPD 3.3a, FMJD 4.1); ``longest``: the most pieces a legal
    move captures; ``has_moves``: the side to move can move. The legal moves (every landing path)
    stay in the move generator's form until asked for: ``to(dest)`` gives those ending on ``dest``,
    ``round_trips`` those ending where they began (a king's capture round), ``moves`` all of them
    (as ``Board.legal_moves_all_paths``); ``keys`` are their identities, ``origins`` the squares
    they start from, ``own`` the squares of the side to move. The forbidden candidates (tiers 1-2)
    are built on first use too, since most observations match a legal move.
    Treat as immutable: an index stands for its position, whichever board it was built from."""

    __slots__ = ("board", "due", "longest", "has_moves", "_raw", "_sq", "_bit", "_to", "_moves", "_trips",
                 "_keys", "_origins", "_own", "_sequences", "_forbidden", "_forbidden_trips", "_legal_moves")

    def __init__(self, board: Board, *, shared: bool = False):
        """``shared``: the caller never changes ``board`` while the index is in use (no copy is kept)."""
        if shared:
            self.board = board
        else:
            self.board = board.copy()
            self.board.clear_stack()
        g = geometry(board.variant)
        raw = generate_all_paths(g, board.wm, board.wk, board.bm, board.bk, board.turn)
        self._raw = raw
        self._sq = g.sq
        self._bit = g.bit
        self.has_moves = bool(raw)
        self.due = bool(raw) and raw[0][2] != 0
        self.longest = max(len(m[5]) for m in raw) if self.due else 0
        self._to: dict[int, list[Move]] = {}
        self._moves: list[Move] | None = None
        self._trips: list[Move] | None = None
        self._keys: frozenset | None = None
        self._origins: frozenset[int] | None = None
        self._own: frozenset[int] | None = None
        self._sequences: list[tuple[Move, bool]] | None = None
        self._forbidden: dict[int, list[tuple[Move, str, int]]] | None = None
        self._forbidden_trips: list[tuple[Move, str, int]] = []
        self._legal_moves: list[Move] | None = None

    def _convert(self, raw: list[tuple]) -> list[Move]:
        """Generator tuples (rig.movegen) as moves, in ``Board.legal_moves_all_paths`` order."""
        sq = self._sq
        out = []
        for frm, to, _, promotes, path, caps in raw:
            if path is None:
                out.append(Move(sq[frm], sq[to], (sq[frm], sq[to]), (), promotes))
            else:
                out.append(Move(sq[frm], sq[to], tuple(sq[b] for b in path), tuple(sq[b] for b in caps), promotes))
        if len(out) > 1:
            out.sort(key=lambda m: (m.origin, m.destination, m.captured, m.path))
        return out

    def to(self, dest: int) -> list[Move]:
        """The legal moves (every landing path) ending on ``dest``."""
        moves = self._to.get(dest)
        if moves is None:
            b = self._bit[dest]
            moves = self._to[dest] = self._convert([m for m in self._raw if m[1] == b])
        return moves

    @property
    def round_trips(self) -> list[Move]:
        """The legal moves that end where they began."""
        if self._trips is None:
            self._trips = self._convert([m for m in self._raw if m[0] == m[1]])
        return self._trips

    @property
    def moves(self) -> list[Move]:
        """Every legal move with every landing path (``Board.legal_moves_all_paths``)."""
        if self._moves is None:
            self._moves = self._convert(self._raw)
        return self._moves

    @property
    def keys(self) -> frozenset:
        """The identities (``Move.key``) of the legal moves."""
        if self._keys is None:
            self._keys = frozenset(m.key for m in self.moves)
        return self._keys

    @property
    def origins(self) -> frozenset[int]:
        """The squares a legal move starts from."""
        if self._origins is None:
            self._origins = frozenset(self._sq[m[0]] for m in self._raw)
        return self._origins

    @property
    def own(self) -> frozenset[int]:
        """The squares of the side to move."""
        if self._own is None:
            b = self.board
            self._own = frozenset(geometry(b.variant).squares_of((b.wm | b.wk) if b.turn else (b.bm | b.bk)))
        return self._own

    @property
    def legal_moves(self) -> list[Move]:
        """``Board.legal_moves`` of the position (one path per move, the generator's choice)."""
        if self._legal_moves is None:
            self._legal_moves = self.board.legal_moves
        return self._legal_moves

    @property
    def sequences(self) -> list[tuple[Move, bool]]:
        """:func:`capture_sequences` of the position."""
        if self._sequences is None:
            self._sequences = capture_sequences(self.board)
        return self._sequences

    def forbidden(self) -> tuple[dict[int, list[tuple[Move, str, int]]], list[tuple[Move, str, int]]]:
        """Tiers 1-2 as ``(move, kind, tier)``, by destination, and those ending where they began."""
        if self._forbidden is None:
            out: list[tuple[Move, str, int]] = []
            keys = self.keys
            for m, complete in self.sequences:
                if m.key not in keys:
                    out.append((m, "capture-rule-violated" if complete else "capture-incomplete", TIER_CAPTURE))
            if self.due:
                out.extend((m, "capture-not-taken", TIER_NOT_TAKEN) for m in plain_moves(self.board))
            by_dest: dict[int, list[tuple[Move, str, int]]] = {}
            for c in out:
                by_dest.setdefault(c[0].destination, []).append(c)
            self._forbidden = by_dest
            self._forbidden_trips = [c for c in out if c[0].origin == c[0].destination]
        return self._forbidden, self._forbidden_trips


def _fit(move: Move, occ: frozenset[int], added: frozenset[int], removed: frozenset[int]
         ) -> tuple[frozenset[int], frozenset[int]] | None:
    """(standing, missing) if ``move`` explains ``occ``, else None. ``added``/``removed``: the squares
    ``occ`` has more/fewer than the occupancy ``occ0`` at the start of the turn.

    The board after the move would be ``after = (occ0 - {origin} - captured) | {destination}``; the
    move explains ``occ`` when nothing but captured pieces stands where ``after`` is empty
    (``occ - after``: the new squares and the origin or captured squares still occupied, less the
    destination) and the destination is occupied; ``after - occ`` are the pieces missing (the
    squares gone, less origin and captured). Only the changed squares are visited."""
    dest = move.destination
    if dest not in occ:
        return None
    origin = move.origin
    if origin != dest and origin in occ:
        return None
    caps = move.captured
    standing = {s for s in caps if s in occ}
    if origin in occ:
        standing.add(origin)
    standing |= added
    standing.discard(dest)
    if not standing.issubset(caps):
        return None
    return frozenset(standing), removed.difference(caps, (origin,))


def _landing_cost(move: Move, landings: frozenset[int]) -> tuple[int, int]:
    inner = set(move.path[1:-1])
    return len(landings - inner - {move.origin, move.destination}), len(inner - landings)


def _order_cost(move: Move, lifted: tuple[int, ...]) -> int:
    """1 when the captured pieces already taken off were lifted neither in the order ``move`` jumps them nor
    in its reverse (FMJD 002 art. 4.11; CODEX 004 art. 89: players remove them so), else 0: between two
    landing paths taking the same pieces, the removals tell which one was played."""
    if len(move.captured) < 3:
        return 0
    seen = [s for s in lifted if s in move.captured]
    if len(seen) < 2:
        return 0
    jumped = [s for s in move.captured if s in seen]
    return 0 if seen == jumped or seen == jumped[::-1] else 1


def explain(board: Board, occ0: frozenset[int], occ: frozenset[int], landings: frozenset[int] = frozenset(),
            lifted: tuple[int, ...] = (), hints: dict[int, int] | None = None,
            index: PositionIndex | None = None) -> Explanation | None:
    """The best one-move explanation of ``occ`` (seen now) from ``occ0`` (seen at the start of the
    turn) for the side to move of ``board``, or None. ``landings``: squares the moving piece was set
    down on and left again (multiple-capture landings); ``lifted``: own squares in the order they
    were lifted (the last one is the likeliest mover among several); ``hints``: for a square a piece
    was set down on, the own square lifted last before that (the piece that went there). ``index``:
    the :class:`PositionIndex` of ``board`` when the caller keeps one (else it is built here)."""
    added = occ - occ0
    if len(added) > 1:
        return None
    removed = occ0 - occ
    if not added and not removed:
        return None
    if index is None:
        index = PositionIndex(board, shared=True)
    best: Explanation | None = None

    def consider(move: Move, legal: bool, kind: str | None, tier: int) -> None:
        nonlocal best
        fit = _fit(move, occ, added, removed)
        if fit is None:
            return
        standing, missing = fit
        hinted = 0 if hints is None or hints.get(move.destination, move.origin) == move.origin else 1
        cost = (tier, len(standing) + len(missing), hinted, *_landing_cost(move, landings),
                _order_cost(move, lifted), move.path)
        if best is None or cost < best.cost:
            best = Explanation(move, legal, kind, standing, missing, cost)

    if added:
        (dest,) = added
        for m in index.to(dest):
            consider(m, True, None, TIER_LEGAL)
    else:
        for m in index.round_trips:
            if m.origin in occ:
                consider(m, True, None, TIER_LEGAL)
    if best is not None:
        return best           # the tier leads the cost: no forbidden candidate can beat a legal one
    by_dest, trips = index.forbidden()
    for m, kind, tier in (by_dest.get(dest, ()) if added else (c for c in trips if c[0].origin in occ)):
        consider(m, False, kind, tier)
    if best is not None:
        return best
    if not added:
        return None
    own = index.own
    movers = [s for s in removed if s in own]
    if not movers:
        return None
    order = {s: i for i, s in enumerate(lifted)}
    origin = max(movers, key=lambda s: (order.get(s, -1), -s))
    piece = board.piece_at(origin)
    promotes = piece is not None and not piece[1] and dest in board.variant.promotion_squares(board.turn)
    caps = tuple(sorted(s for s in removed if s not in own))
    inner = tuple(s for s in sorted(landings) if s not in (origin, dest))
    move = Move(origin, dest, (origin, *inner, dest), caps, promotes)
    fit = _fit(move, occ, added, removed)
    if fit is None:
        return None
    return Explanation(move, False, "illegal-move", fit[0], fit[1], (TIER_ILLEGAL,))
