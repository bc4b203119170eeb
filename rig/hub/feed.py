"""The relay feed: a round's games as one multi-game PDN a broadcast platform can poll (docs/hub.md "Feed").

lidraughts' broadcast relay polls one URL, splits it into games at a blank line followed by ``[``, and
matches games by their place in the file; an unreadable token or an empty game stops the whole round, an
illegal move freezes that board, and adding, dropping or reordering games fails every poll. So a
:class:`RelayFeed` only ever *appends*: each move is checked with the rules core (:mod:`rig.board`) in
the position the feed has reached, and a move goes in as soon as the board has committed it as final
(:meth:`RelayFeed.final`: a legal move whose board is its legal result, at once; a move that left the board
irregular, once the opponent replies or the game ends, CODEX 004 art. 43, 50). Where
the board's record went on from a position no legal move reaches (an accepted irregular position, FPD 7.4;
CODEX art. 42-43, 50, or an arbiter's set position), the feed has a ``/FEN "..."/`` setup of that
position, its squares listed one by one (the relay drops FEN ranges such as ``31-50``). Clocks are
``{[%clk H:MM:SS]}``, the mover's time after his press.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rig.board import Board
from rig.errors import RigError
from rig.fen import parse_fen
from rig.pdn.record import ROSTER
from rig.variants import Variant

__all__ = ["FeedNode", "RelayFeed", "plain_fen", "RELAY_GAMETYPES", "RELAY_RESULTS", "relay_problem",
           "clk_command"]

#: the GameTypes the relay plays
RELAY_GAMETYPES = (20, 25, 26, 40)
#: the results the relay reads as such (any other is read as a draw)
RELAY_RESULTS = ("2-0", "0-2", "1-1", "1-0", "0-1", "1/2-1/2", "*")


def plain_fen(fen: str, variant: Variant) -> str:
    """The FEN with every square listed (no ``31-50`` ranges), kings as ``K``: ``W:W31,32,...:B1,2,...``
    (squares named as the variant names them: numbers, or ``a1``.. for brazilian)."""
    v = variant
    p = parse_fen(fen, v)

    def side(men: frozenset[int], kings: frozenset[int]) -> str:
        items = sorted([(sq, "") for sq in men] + [(sq, "K") for sq in kings])
        return ",".join(f"{k}{v.square_name(sq)}" for sq, k in items)

    return f"{'W' if p.white_to_move else 'B'}:W{side(p.white_men, p.white_kings)}:B{side(p.black_men, p.black_kings)}"


def clk_command(ms: int) -> str:
    s = max(0, int(ms)) // 1000
    return f"[%clk {s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}]"


def relay_problem(variant: Variant) -> str | None:
    """Why the relay cannot play games of this variant (None when it can)."""
    v = variant
    gametype = int(v.pdn_gametype.split(",")[0])
    if gametype in RELAY_GAMETYPES:
        return None
    return (f"{v.name} (GameType {gametype}): the relay plays GameTypes "
            f"{', '.join(map(str, RELAY_GAMETYPES))} only; follow it on the hub's game page")


@dataclass
class FeedNode:
    """One appended step: a move (``text``, numbered as the record numbers it) or a setup (``fen``)."""

    kind: str                      # "move" | "setup"
    text: str                      # the move, or the plain FEN of a setup
    number: int = 0
    white: bool = True
    clock: str | None = None
    idx: int = -1                  # the board's move entry it came from

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "number": self.number, "white": self.white,
                "clock": self.clock, "idx": self.idx}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "FeedNode":
        return cls(d["kind"], d["text"], int(d.get("number") or 0), bool(d.get("white", True)), d.get("clock"),
                   int(d.get("idx", -1)))


@dataclass
class RelayFeed:
    """One game of the round PDN: fixed tags, appended steps, ``*`` until the end."""

    variant: Variant
    tags: dict[str, str]
    start_fen: str | None = None
    nodes: list[FeedNode] = field(default_factory=list)
    fed_upto: int = -1             # the last move entry (board idx) the feed has taken
    result: str = "*"
    _board: Board | None = field(default=None, repr=False)

    def position(self) -> Board:
        if self._board is None:
            b = Board(self.variant, self.start_fen)
            for n in self.nodes:
                if n.kind == "setup":
                    b.set_fen(n.text)
                else:
                    b.push(b.parse_move(n.text))
            self._board = b.copy(stack=False)
        return self._board

    def can_restart(self, variant: Variant, start_fen: str | None, tags: dict[str, str]) -> bool:
        """Before its first step a feed still takes the board's variant, start position and tags."""
        if self.nodes or self.result != "*":
            return False
        self.variant, self.start_fen, self._board = variant, start_fen, None
        self.tags = {k: v for k, v in tags.items() if k not in ("Result", "GameType", "FEN", "SetUp")}
        return True

    def update(self, game) -> int:
        """Append every move entry of ``game`` (a :class:`~rig.hub.model.GameState`) that is final
        (:meth:`final`); return how many steps."""
        standing = [m for m in game.standing() if m.get("fen_after")]
        ended = game.result != "*"
        board = self.position()
        added = self._taken_back(game, standing, board)
        for i, m in enumerate(standing):
            idx = int(m["idx"])
            if idx <= self.fed_upto:
                continue
            restored = [fen for after, fen in game.restored if after == i]
            before = self._record_before(game, standing, i)
            if not (ended or game.closed or i < len(standing) - 1 or self.final(board, m, restored + [before])):
                break                   # the last entry left an irregular position: it may still be put right
            for node in self._steps(board, m, restored, before):
                self.nodes.append(node)
                added += 1
            self.fed_upto = idx
        if ended and self.result == "*" and self.fed_upto >= max((int(m["idx"]) for m in standing), default=-1):
            self.result = game.result
            added += 1
        return added

    def _taken_back(self, game, standing: list[dict[str, Any]], board: Board) -> int:
        """A move the feed has taken, withdrawn since (taken back, CODEX 004 art. 42.D): a setup of the
        position the board's record went back to, at once (the move played instead follows from there)."""
        fed = [i for i, m in enumerate(standing) if int(m["idx"]) <= self.fed_upto]
        last = int(standing[fed[-1]]["idx"]) if fed else -1
        if not any(m.get("withdrawn") and last < int(m["idx"]) <= self.fed_upto
                   for m in getattr(game, "moves", {}).values()):
            return 0
        back = standing[fed[-1]]["fen_after"] if fed else (game.start_fen or Board(self.variant).fen())
        if board.key() == Board(self.variant, back).key():
            return 0
        self.nodes.append(self._setup(board, back))
        return 1

    def final(self, board: Board, m: dict[str, Any], setups: list[str | None] | None = None) -> bool:
        """Whether the board's last move entry ``m`` is final though the opponent has not replied yet:
        a legal move whose board is its legal result. The engine commits a move at the mover's clock
        press (the press completes the move, FPD 000 art. 6.2a), at the opponent's first lift of one of
        his pieces, or without a clock when the board has stood still with the move on it; from then on
        only an irregularity can undo it (a move taken back, CODEX 004 art. 42.D; FMJD 002 art. 5.4),
        and the feed shows that as it is: a setup of the position it went back to, and the move played
        instead. A move that left the board irregular (a captured piece standing, a piece removed
        wrongly, an illegal move) can still be put right before the opponent moves (CODEX 004 art. 43,
        50): it is final only once a later entry comes, or the game ends, or the board's run closes."""
        if not m.get("legal"):
            return False
        return self._played(board, m, [None] + list(setups or ())) is not None

    def _played(self, board: Board, m: dict[str, Any],
                setups: list[str | None]) -> tuple[str | None, str, Board] | None:
        """(the setup it needs or None, the move's text, the position after) when the entry's move, played
        from the feed's position or from one of ``setups``, gives exactly the entry's position after."""
        target = Board(self.variant, m["fen_after"]).key()
        for setup in setups:
            trial = board.copy(stack=False)
            if setup is not None:
                try:
                    trial.set_fen(setup)
                except (RigError, ValueError):
                    continue
            try:
                move = trial.parse_move(str(m.get("move")))
            except (RigError, ValueError):
                continue
            text = trial.move_text(move)
            trial.push(move)
            if trial.key() == target:
                return setup, text, trial
        return None

    def _record_before(self, game, standing: list[dict[str, Any]], i: int) -> str | None:
        """The position the board's record had before standing entry ``i``: the one after the entry
        before it, or the game's start (where a move taken back leaves the record, docs/hub.md)."""
        if i > 0:
            return standing[i - 1].get("fen_after")
        return game.start_fen or Board(self.variant).fen()

    def _steps(self, board: Board, m: dict[str, Any], restored: list[str],
               before: str | None = None) -> list[FeedNode]:
        """The feed steps for one final move entry; ``board`` is moved to the entry's position.
        ``restored``: positions an arbiter set just before this move; ``before``: the record's position
        before it (after a move the feed has taken was withdrawn, the move played instead goes on from
        there: a setup, then the move)."""
        white = m.get("side") == "white"
        number = int(m.get("number") or 0)
        clock = clk_command(m["clock_ms"]) if m.get("clock_ms") is not None else None
        if m.get("legal"):
            found = self._played(board, m, [None] + restored + ([before] if before is not None else []))
            if found is not None:
                setup, text, after = found
                steps = [self._setup(board, setup)] if setup is not None else []
                board.set_fen(after.fen())
                steps.append(FeedNode("move", text, number, white, clock, int(m["idx"])))
                return steps
        # not a move from the feed's position: the record continues from the board as it stands
        return [self._setup(board, m["fen_after"], int(m["idx"]))]

    def _setup(self, board: Board, fen: str, idx: int = -1) -> FeedNode:
        plain = plain_fen(fen, self.variant)
        board.set_fen(plain)
        return FeedNode("setup", plain, 0, board.turn, None, idx)

    @property
    def setups(self) -> int:
        """How many ``/FEN/`` setups the feed has (irregular positions it went on from)."""
        return sum(n.kind == "setup" for n in self.nodes)

    # -- the text ----------------------------------------------------------------------------

    def tag_pairs(self) -> list[tuple[str, str]]:
        v = self.variant
        pairs = [(k, self.result if k == "Result" else self.tags.get(k, "????.??.??" if k == "Date" else "?"))
                 for k in ROSTER]
        pairs.append(("GameType", v.pdn_gametype))
        if self.start_fen is not None and Board(v, self.start_fen).fen() != Board(v).fen():
            pairs.append(("FEN", plain_fen(self.start_fen, self.variant)))
        pairs += [(k, val) for k, val in self.tags.items() if k not in ROSTER and k not in ("GameType", "FEN")]
        return pairs

    def to_pdn(self) -> str:
        """This game as PDN text ending with a blank line (one line of movetext per 79 columns)."""
        lines = [f'[{k} "{_escape(v)}"]' for k, v in self.tag_pairs()]
        units: list[str] = []
        need_number = True
        for n in self.nodes:
            if n.kind == "setup":
                units.append(f'/FEN "{n.text}"/')
                need_number = True
            elif n.white:
                units.append(f"{n.number}. {n.text}")
                need_number = False
            else:
                units.append(f"{n.number}... {n.text}" if need_number else n.text)
                need_number = False
            if n.clock:
                units.append("{" + n.clock + "}")
        units.append(self.result)
        text, line = [], ""
        for unit in units:
            if line and len(line) + 1 + len(unit) > 79:
                text.append(line)
                line = unit
            else:
                line = f"{line} {unit}" if line else unit
        text.append(line)
        return "\n".join(lines) + "\n\n" + "\n".join(text) + "\n\n"


def _escape(value: str) -> str:
    one = " ".join(str(value).split())
    return one.replace("\\", "\\\\").replace('"', '\\"')
