"""Reading PDN: every game of a text, past bad games, each error with line and column.

The grammar is PDN 3.0's reading grammar (pdn.fmjd.org, "PDN Grammars"): tags
``[Name "value"]``, move numbers ``1.`` and ``1...``, moves ``a-b`` and
``axb`` in numbers or algebraic names, comments ``{...}`` with embedded clock
commands, move strength ``!?`` and NAGs ``$n``, variations ``( ... )`` (read
and skipped), setups ``/FEN "..."/``, results of both styles and ``*``.
Forms found in the wild are accepted too: ``:`` captures, full capture paths,
``1. ... 7-12``, ``%`` and ``;`` line comments, trailing-dot FENs, ``½-½``, a
game ended by the next game's tags instead of a result.

Files from the wild (tournament and site exports) are read as their authors
meant: a comment outside any game (a file header before the first game's tags)
is kept in :attr:`PdnReadResult.comments`, not counted as a game; a GameType
naming another numeric notation (``20,W,10,10,N1,0``) is read with it, the
squares renumbered to the variant's own; a FEN tag whose side to move is ``?``
is accepted and the side decided from the moves; a capture written short where
paths take different pieces is resolved by the rest of the game; a game
without a GameType that does not replay says which variant it probably is.

A game with a syntax error is left out of :attr:`PdnReadResult.games` and
reported in :attr:`PdnReadResult.errors`; reading goes on with the next game.
Whether the moves are legal is :meth:`ParsedGame.replay`'s business.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field, replace
from os import PathLike

from rig.board import Board
from rig.errors import AmbiguousMoveError, InvalidFenError, RigError
from rig.move import Move
from rig.pdn.clock import ClockStamp, extract_clock
from rig.pdn.errors import PdnError, PdnSyntaxError
from rig.fen import make_fen, parse_fen
from rig.pdn.gametype import GameTypeError, parse_gametype
from rig.pdn.lexer import Token, tokens
from rig.pdn.record import GameRecord, MoveNode
from rig.variants import VARIANTS, Variant, get_variant, renumbering

__all__ = ["RawNode", "ParsedGame", "ReplayError", "ReplayResult", "PdnReadResult", "read_games", "read_game",
           "read_file", "decode_pdn"]

_UNKNOWN_SIDE = re.compile(r'^(\s*"?\s*)\?')
_NUMBER_IN_MOVE = re.compile(r"(?<![a-jA-J0-9])\d+")
#: how many ambiguous captures deep the replay tries every reading before calling a move ambiguous
_MAX_TRIALS = 6


# -- games --------------------------------------------------------------------------------------


@dataclass
class RawNode:
    """A move or setup as read: its text (``''`` for a setup), where it stands, what follows it."""

    text: str
    line: int
    column: int
    comment: str | None = None
    clock: ClockStamp | None = None
    setup_fen: str | None = None
    number: str | None = None  # the move number written before it ("12." or "12...")

    @property
    def is_setup(self) -> bool:
        return self.setup_fen is not None


@dataclass(frozen=True)
class ReplayError:
    """Where and why a replay stopped: ``index`` into the game's nodes, the move ``label`` (``12... 23x14``)."""

    index: int
    label: str
    line: int
    column: int
    reason: str

    def __str__(self) -> str:
        return f"move {self.label} (line {self.line}, column {self.column}): {self.reason}"


@dataclass
class ReplayResult:
    """A replay: ``boards[0]`` the start, ``boards[i + 1]`` the position after node ``i``; ``moves[i]`` the
    :class:`Move` of node ``i`` (None for a setup). On failure both stop before the failing node."""

    boards: list[Board]
    moves: list[Move | None]
    labels: list[str]
    error: ReplayError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def board(self) -> Board:
        """The last position reached."""
        return self.boards[-1]


@dataclass
class ParsedGame:
    """A game as read from PDN text; :meth:`replay` plays it through the rules core."""

    index: int
    line: int
    tags: dict[str, str]
    variant: Variant
    initial_fen: str | None
    nodes: list[RawNode]
    result: str
    comment: str | None = None
    side_unknown: bool = False  # the FEN tag's side to move was "?": decided from the moves
    numbering: str | None = None  # the file's numbering (GameType), when not the variant's own

    @property
    def moves(self) -> list[RawNode]:
        """The move nodes (setups left out)."""
        return [n for n in self.nodes if n.setup_fen is None]

    def first_number(self) -> int:
        for node in self.nodes:
            if node.number:
                return int(re.sub(r"\D.*", "", node.number) or 1)
            if node.setup_fen is None:
                break
        return 1

    def replay(self) -> ReplayResult:
        """Play the nodes from the initial position; setups set the board. Stops at the first illegal
        move. A capture written short that names several captures (different pieces taken) is
        played each way and the one the rest of the game replays with is kept; if the rest does not
        tell, the move is reported ambiguous. When the FEN's side to move was ``?``, both sides are
        tried the same way. A game without a GameType tag that fails says which variant it
        probably is (:meth:`variant_hint`)."""
        result = self._replay()
        if result.error is not None and "GameType" not in self.tags:
            hint = self.variant_hint()
            if hint:
                e = result.error
                result.error = ReplayError(e.index, e.label, e.line, e.column, f"{e.reason}; {hint}")
        return result

    def _replay(self) -> ReplayResult:
        start = Board(self.variant, self.initial_fen)
        if not self.side_unknown:
            return self._play(start, 0, self.first_number(), 0)
        other = start.copy(stack=False)
        other.set_fen(("B" if start.turn else "W") + start.fen()[1:])
        black_first = bool(self.nodes) and (self.nodes[0].number or "").endswith(("...", "\u2026"))
        tries = [self._play(b, 0, self.first_number(), 0) for b in ((other, start) if black_first else (start, other))]
        return _best(tries) or tries[0]

    def _play(self, board: Board, start: int, number: int, depth: int) -> ReplayResult:
        """Replay nodes ``start``.. from ``board`` (not changed); ``boards[0]`` is ``board``."""
        board = board.copy(stack=False)
        boards = [board.copy(stack=False)]
        moves: list[Move | None] = []
        labels: list[str] = []
        for i in range(start, len(self.nodes)):
            node = self.nodes[i]
            if node.setup_fen is not None:
                pos = Board(self.variant, node.setup_fen)
                if not board.turn and pos.turn:
                    number += 1
                board = pos
                boards.append(board.copy(stack=False))
                moves.append(None)
                labels.append(f'/FEN "{node.setup_fen}"/')
                continue
            white = board.turn
            label = f"{number}. {node.text}" if white else f"{number}... {node.text}"
            after = number if white else number + 1
            try:
                move = board.parse_move(node.text)
            except AmbiguousMoveError as exc:
                if depth >= _MAX_TRIALS:
                    return ReplayResult(boards, moves, labels, ReplayError(i, label, node.line, node.column, str(exc)))
                tails = []
                for cand in board.moves_matching(node.text):
                    trial = board.copy(stack=False)
                    trial.push(cand)
                    tails.append((cand, self._play(trial, i + 1, after, depth + 1)))
                chosen = _best([t for _, t in tails])
                if chosen is None:
                    tell = ("the rest of the game replays either way" if all(t.ok for _, t in tails)
                            else "the rest of the game does not tell which was played")
                    return ReplayResult(boards, moves, labels,
                                        ReplayError(i, label, node.line, node.column, f"{exc}; {tell}"))
                cand = next(c for c, t in tails if t is chosen)
                return ReplayResult(boards + chosen.boards, moves + [cand, *chosen.moves],
                                    labels + [label, *chosen.labels], chosen.error)
            except (RigError, ValueError) as exc:
                return ReplayResult(boards, moves, labels, ReplayError(i, label, node.line, node.column, str(exc)))
            board.push(move)
            boards.append(board.copy(stack=False))
            moves.append(move)
            labels.append(label)
            number = after
        return ReplayResult(boards, moves, labels)

    def variant_hint(self) -> str | None:
        """For a game that names no variant and does not replay: which variant it probably is and how to
        name it, or None. A game that replays as another variant of the rig is that variant; one
        whose squares are all 1-32 read as a 10x10 game is an 8x8 game of a variant the rig does not
        play (English, Italian, ... draughts)."""
        for other in VARIANTS.values():
            if other == self.variant:
                continue
            try:
                fen = None if self.initial_fen is None else Board(other, self.initial_fen).fen()
                trial = replace(self, variant=other, initial_fen=fen)._replay()
            except (RigError, ValueError):
                continue
            if trial.ok and trial.moves:
                return (f"the game has no GameType tag and replays as {other.name}: name its variant with "
                        f'[GameType "{other.pdn_gametype}"] (or rig pdn check --variant {other.name})')
        numbers = [int(n) for node in self.moves for n in _NUMBER_IN_MOVE.findall(node.text)]
        if self.variant.size == 10 and numbers and max(numbers) <= 32:
            return ("the game has no GameType tag and names only squares 1-32: it is probably an 8x8 game of "
                    'a variant the rig does not play (English draughts [GameType "21"], Italian "22", ...); '
                    'the rig plays international (20), brazilian (26) and portuguese (28): name the variant '
                    "with a GameType tag")
        return None

    def to_record(self) -> GameRecord:
        """The game as a :class:`GameRecord` in canonical notation; raises :class:`PdnSyntaxError` if it does
        not replay legally."""
        replay = self.replay()
        if replay.error is not None:
            e = replay.error
            raise PdnSyntaxError(f"move {e.label}: {e.reason}", e.line, e.column, self.index)
        initial_fen = replay.boards[0].fen() if self.side_unknown else self.initial_fen
        tags = {k: v for k, v in self.tags.items() if k not in ("FEN", "GameType")}
        record = GameRecord(self.variant, tags, initial_fen, [], self.result, self.comment)
        for i, node in enumerate(self.nodes):
            before = replay.boards[i]
            if node.setup_fen is not None:
                record.nodes.append(MoveNode("", None, node.comment, node.clock, node.setup_fen))
            else:
                move = replay.moves[i]
                assert move is not None  # a move node replays to a move
                record.nodes.append(MoveNode(before.move_text(move), move, node.comment, node.clock))
        return record

    @property
    def white(self) -> str:
        return self.tags.get("White", "?")

    @property
    def black(self) -> str:
        return self.tags.get("Black", "?")


@dataclass
class PdnReadResult:
    """Every game read from a text, and every error, in file order.

    ``game_count`` counts the games found, those with errors included; ``comments`` holds the
    comments found outside any game (a file header before the first game's tags), with their line."""

    games: list[ParsedGame] = field(default_factory=list)
    errors: list[PdnError] = field(default_factory=list)
    game_count: int = 0
    comments: list[tuple[int, str]] = field(default_factory=list)  # (line, text) outside any game

    @property
    def ok(self) -> bool:
        return not self.errors

    def errors_of(self, game: int) -> list[PdnError]:
        return [e for e in self.errors if e.game == game]


def _best(tries: list[ReplayResult]) -> ReplayResult | None:
    """The one replay that goes furthest (all the way, if any does), or None when two tie."""
    reach = [len(t.labels) if t.error is None else t.error.index for t in tries]
    ok = [t for t in tries if t.ok]
    if len(ok) == 1:
        return ok[0]
    if ok:
        return None
    top = max(reach)
    return tries[reach.index(top)] if reach.count(top) == 1 else None


class _Positions:
    """Offset -> (line, column), both 1-based."""

    def __init__(self, text: str):
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def __call__(self, pos: int) -> tuple[int, int]:
        k = bisect.bisect_right(self.starts, pos) - 1
        return k + 1, pos - self.starts[k] + 1


class _GameBuilder:
    def __init__(self, index: int, line: int, default: Variant, where: _Positions):
        self.index = index
        self.line = line
        self.default = default
        self.where = where
        self.tags: dict[str, str] = {}
        self.tag_pos: dict[str, int] = {}
        self.nodes: list[RawNode] = []
        self.comment: str | None = None
        self.errors: list[PdnError] = []
        self.in_moves = False
        self.variant: Variant = default
        self.initial_fen: str | None = None
        self.white = True
        self.depth = 0
        self.number: str | None = None
        self.result: str | None = None
        self.renumber: dict[int, int] | None = None  # file's number -> the variant's (GameType numbering)
        self.numbering: str | None = None
        self.side_unknown = False

    def error(self, pos: int, message: str) -> None:
        line, col = self.where(pos)
        self.errors.append(PdnError(line, col, self.index, message))

    def start_moves(self) -> None:
        """The tags are complete: settle the variant and the initial position."""
        if self.in_moves:
            return
        self.in_moves = True
        self.variant = self.default
        if "GameType" in self.tags:
            try:
                gametype = parse_gametype(self.tags["GameType"])
                self.variant = gametype.variant
            except GameTypeError as exc:
                self.error(self._value_pos("GameType"), str(exc))
            else:
                if gametype.numbering is not None and gametype.numbering != self.variant.numbering:
                    self.numbering = gametype.numbering
                    self.renumber = renumbering(self.variant, gametype.numbering)
        fen = self.tags.get("FEN")
        if fen is not None and fen.strip():
            unknown = _UNKNOWN_SIDE.match(fen)
            if unknown:  # side to move "?" (site exports): decided from the moves at replay
                self.side_unknown = True
                fen = f"{unknown.group(1)}W{fen[unknown.end():]}"
            try:
                board = self._board(fen)
            except InvalidFenError as exc:
                self._fen_error(self._value_pos("FEN"), exc)
            else:
                self.white = board.turn
                self.initial_fen = board.fen() if board.fen() != Board(self.variant).fen() else None

    def _board(self, fen: str) -> Board:
        """The position of a FEN in the file's numbering."""
        if self.renumber is None:
            return Board(self.variant, fen)
        pos, own = parse_fen(fen, self.variant), self.renumber
        moved = [frozenset(own[s] for s in group)
                 for group in (pos.white_men, pos.white_kings, pos.black_men, pos.black_kings)]
        return Board(self.variant, make_fen(type(pos)(pos.white_to_move, *moved), self.variant))

    def _move_text(self, text: str) -> str:
        """A move in the file's numbering, in the variant's own (algebraic names stay)."""
        own = self.renumber
        if own is None:
            return text
        return _NUMBER_IN_MOVE.sub(lambda m: str(own.get(int(m.group(0)), m.group(0))), text)

    def _value_pos(self, tag: str) -> int:
        return self.tag_pos.get(tag, 0)

    def _fen_error(self, value_pos: int, exc: InvalidFenError) -> None:
        msg = str(exc)
        m = re.match(r"column (\d+): (.*)", msg, re.S)
        if m:
            self.error(value_pos + int(m.group(1)) - 1, f"bad FEN: {m.group(2)}")
        else:
            self.error(value_pos, f"bad FEN: {msg}")

    def add(self, tok: Token) -> None:
        kind = tok.kind
        if kind == "tag":
            if tok.value in self.tags:
                self.error(tok.pos, f"tag {tok.value} given twice")
            self.tags[tok.value] = tok.value2
            self.tag_pos[tok.value] = tok.pos + tok.text.index('"') + 1
            return
        if kind == "error":
            self.in_moves = self.in_moves or tok.resync
            self.error(tok.pos, tok.value)
            return
        self.start_moves()
        if kind == "open":
            self.depth += 1
        elif kind == "close":
            if self.depth == 0:
                self.error(tok.pos, "')' without an opening '('")
            else:
                self.depth -= 1
        elif self.depth > 0 or kind == "nag":
            return
        elif kind == "number":
            self.number = tok.text
        elif kind == "comment":
            self._comment(tok)
        elif kind == "setup":
            try:
                board = self._board(tok.value)
            except InvalidFenError as exc:
                self._fen_error(tok.pos + tok.text.index('"') + 1, exc)
                return
            line, col = self.where(tok.pos)
            self.nodes.append(RawNode("", line, col, setup_fen=board.fen()))
            self.white = board.turn
            self.number = None
        elif kind == "move":
            line, col = self.where(tok.pos)
            text = re.sub(r"\s+", "", tok.value).replace("\u00d7", "x")
            if "-" not in text and "x" not in text.lower() and ":" not in text:
                text = f"{text[:2]}-{text[2:]}"
            self.nodes.append(RawNode(self._move_text(text), line, col, number=self.number))
            self.white = not self.white
            self.number = None

    def _comment(self, tok: Token) -> None:
        mover = (not self.white) if self.nodes and self.nodes[-1].setup_fen is None else None
        clock, rest, problem = extract_clock(tok.value, mover)
        if problem:
            self.error(tok.pos, f"bad clock command {problem}")
        target = self.nodes[-1] if self.nodes else None
        if clock is not None and target is not None:
            target.clock = clock
        if rest:
            if target is None:
                self.comment = rest if self.comment is None else f"{self.comment} {rest}"
            else:
                target.comment = rest if target.comment is None else f"{target.comment} {rest}"

    def has_content(self) -> bool:
        return bool(self.tags or self.nodes or self.errors or self.comment)

    def only_comment(self) -> bool:
        """Nothing but a comment: text outside any game (a file header), not a game."""
        return self.comment is not None and not (self.tags or self.nodes or self.errors)

    def finish(self, end_pos: int, result: str | None) -> ParsedGame | None:
        self.start_moves()
        if self.depth > 0:
            self.error(end_pos, f"{self.depth} variation(s) not closed with ')'")
        if result is None or (result == "*" and "Result" in self.tags):
            result = self.tags.get("Result", "*") or "*"
        if self.errors:
            return None
        tags = dict(self.tags)
        tags["Result"] = result
        return ParsedGame(self.index, self.line, tags, self.variant, self.initial_fen, self.nodes, result,
                          self.comment, self.side_unknown, self.numbering)


def read_games(text: str, default_variant: str | Variant = "international") -> PdnReadResult:
    """Read every game of a PDN text. A game without a GameType tag is of ``default_variant``
    (a :class:`Variant` or its name). Bad games are reported with line and column, not raised.

    >>> result = read_games('[GameType "20"]\\n1. 32-28 19-23 2. 28x19 14x23 *')
    >>> game = result.games[0]
    >>> game.variant.name, [node.text for node in game.moves]
    ('international', ['32-28', '19-23', '28x19', '14x23'])
    >>> game.replay().board.fen()
    'W:W31,33-50:B1-13,15-18,20,23'
    >>> read_games("1. 32-28 {no result").errors[0].message
    "unterminated comment: '{' has no closing '}'"
    """
    default = get_variant(default_variant)
    where = _Positions(text)
    out = PdnReadResult()
    game: _GameBuilder | None = None

    def close(pos: int, result: str | None) -> None:
        nonlocal game
        if game is not None and result is None and game.only_comment():
            assert game.comment is not None
            out.comments.append((game.line, game.comment))
        elif game is not None and game.has_content():
            parsed = game.finish(pos, result)
            out.errors.extend(game.errors)
            out.game_count += 1
            if parsed is not None:
                out.games.append(parsed)
        game = None

    for tok in tokens(text):
        if game is not None and tok.kind == "tag" and game.in_moves:
            close(tok.pos, None)
        if game is None:
            if tok.kind == "result" and tok.value == "*":
                continue  # a stray separator between games
            game = _GameBuilder(out.game_count, where(tok.pos)[0], default, where)
        if tok.kind == "result" and game.depth == 0:
            close(tok.pos, tok.value)
            continue
        game.add(tok)
        if tok.kind == "error" and tok.resync:
            close(tok.pos, None)
    close(len(text), None)
    return out


def read_game(text: str, default_variant: str | Variant = "international") -> ParsedGame:
    """The first game of a PDN text; raises :class:`PdnSyntaxError` for its first error."""
    result = read_games(text, default_variant)
    first_errors = result.errors_of(0)
    if first_errors:
        raise first_errors[0].exception()
    if not result.games:
        raise PdnSyntaxError("no game in the text")
    return result.games[0]


def decode_pdn(data: bytes) -> str:
    """PDN bytes as text: UTF-8 (with or without BOM), else Windows-1252/Latin-1 as old files are."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            return data.decode("cp1252")
        except UnicodeDecodeError:
            return data.decode("latin-1")


def read_file(path: str | PathLike, default_variant: str | Variant = "international") -> PdnReadResult:
    """Read every game of a PDN file (raises :class:`OSError` if the file cannot be read)."""
    with open(path, "rb") as fh:
        data = fh.read()
    return read_games(decode_pdn(data), default_variant)
