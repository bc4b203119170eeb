"""A checker that reads a round PDN the way lidraughts' broadcast relay does, snapshot after snapshot.

The relay polls one URL (every 10-60 s, 4 s timeout, no conditional headers) and:

- splits the body into games at a blank line followed by ``[``, and matches games by their position;
- stops the whole round on one unparsable token or an empty game;
- freezes a board at an illegal move;
- fails every poll once games are added, dropped or reordered after the round began;
- reads a Result other than ``2-0 0-2 1-1 1-0 0-1 1/2-1/2 *`` as a draw;
- drops a FEN written with ranges (``31-50``);
- reads clocks only as ``[%clock wH:MM:SS BH:MM:SS]`` (upper-case letter: the running side) or
  ``[%clk H:MM:SS]``;
- plays GameTypes 20, 25, 26 and 40 only.

:class:`RelayChecker` applies exactly these rules to each snapshot and to the sequence of snapshots (a
game's moves may only be appended to; an ended game never changes). Each problem that would stop the
round, freeze a board, or make the relay show something else than the game is an *error*; a game the
relay does not play (another GameType) is a *note*. Move legality is checked with the rules core.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rig.board import Board
from rig.errors import RigError
from rig.variants import get_variant

__all__ = ["RelayChecker", "Snapshot", "SnapshotGame", "RELAY_RESULTS", "PLAYED_GAMETYPES"]

RELAY_RESULTS = ("2-0", "0-2", "1-1", "1-0", "0-1", "1/2-1/2", "*")
PLAYED_GAMETYPES = {20: "international", 26: "brazilian", 25: None, 40: None}
TIMEOUT_S = 4.0

_SPLIT = re.compile(r"\n[ \t]*\n(?=\[)")
_TAG = re.compile(r'^\[([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\]$')
_TOKEN = re.compile(r'\s*(?:(?P<comment>\{[^}]*\})|(?P<setup>/FEN\s+"[^"]*"/)|(?P<number>\d+\.(?:\.\.)?)'
                    r'|(?P<result>2-0|0-2|1-1|1-0|0-1|1/2-1/2|\*)(?=\s|$)'
                    r'|(?P<move>(?:\d+|[a-h][1-8])(?:[-x:](?:\d+|[a-h][1-8]))+)(?=[\s{]|$)|(?P<bad>\S+))')
_CLOCK_ANY = re.compile(r"\[%(clock|clk)\b[^\]]*\]")
_CLOCK = re.compile(r"^\[%clock [wWbB]\d+:[0-5]\d:[0-5]\d [wWbB]\d+:[0-5]\d:[0-5]\d\]$")
_CLK = re.compile(r"^\[%clk \d+:[0-5]\d:[0-5]\d\]$")
_RANGE = re.compile(r"\d+\s*-\s*\d+")


@dataclass
class SnapshotGame:
    """One game of a snapshot as the relay sees it."""

    index: int
    tags: dict[str, str]
    steps: list[str] = field(default_factory=list)      # moves and setups, as written
    result: str | None = None
    played: bool = True
    fen: str | None = None          # the position the relay has reached (None: not played, or frozen)


@dataclass
class Snapshot:
    games: list[SnapshotGame]
    errors: list[str]
    notes: list[str]


class RelayChecker:
    """Feed it every body a poller would get; :attr:`errors` collects every rule broken, with the poll."""

    def __init__(self) -> None:
        self.polls = 0
        self.errors: list[str] = []
        self.notes: set[str] = set()
        self.previous: list[SnapshotGame] | None = None

    def poll(self, body: bytes, status: int = 200, elapsed_s: float = 0.0,
             content_type: str = "application/x-draughts-pdn; charset=utf-8") -> Snapshot:
        """Check one poll's answer; the problems are returned and added to :attr:`errors`."""
        self.polls += 1
        errors: list[str] = []
        if status != 200:
            errors.append(f"status {status}")
        if elapsed_s > TIMEOUT_S:
            errors.append(f"answered in {elapsed_s:.2f} s (the relay gives up after {TIMEOUT_S:.0f} s)")
        if "utf-8" not in content_type.lower():
            errors.append(f"content type {content_type!r} does not say UTF-8")
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as exc:
            errors.append(f"body is not UTF-8: {exc}")
            text = body.decode("utf-8", "replace")
        snap = read_snapshot(text)
        errors += snap.errors
        if self.previous is not None:
            errors += compare(self.previous, snap.games)
        if not errors:
            self.previous = snap.games
        self.notes.update(snap.notes)
        self.errors += [f"poll {self.polls}: {e}" for e in errors]
        snap.errors = errors
        return snap


def read_snapshot(text: str) -> Snapshot:
    """Split, tokenise and replay every game of one body."""
    text = text.replace("\r\n", "\n").strip()
    errors: list[str] = []
    notes: list[str] = []
    games: list[SnapshotGame] = []
    if not text:
        return Snapshot([], ["the body has no game"], [])
    for i, chunk in enumerate(_SPLIT.split(text), 1):
        game, errs, note = _read_game(i, chunk.strip())
        errors += errs
        if note:
            notes.append(note)
        games.append(game)
    return Snapshot(games, errors, notes)


def _read_game(index: int, chunk: str) -> tuple[SnapshotGame, list[str], str | None]:
    where = f"game {index}"
    game = SnapshotGame(index, {})
    errors: list[str] = []
    lines = chunk.split("\n")
    n = 0
    while n < len(lines) and lines[n].startswith("["):
        m = _TAG.match(lines[n].strip())
        if m is None:
            errors.append(f"{where}: unreadable tag line {lines[n]!r} (the round stops)")
        else:
            game.tags[m.group(1)] = m.group(2)
        n += 1
    movetext = " ".join(lines[n:]).strip()
    if not game.tags and not movetext:
        return game, [f"{where}: empty game (the round stops)"], None
    gt_text = game.tags.get("GameType", "20").split(",")[0].strip()
    gametype = int(gt_text) if gt_text.isdigit() else -1
    variant = PLAYED_GAMETYPES.get(gametype, False)
    note = None
    if variant is False:
        game.played = False
        note = f"{where} ({game.tags.get('White', '?')} - {game.tags.get('Black', '?')}): GameType {gt_text} is not played"
    fen = game.tags.get("FEN")
    if fen is not None and _RANGE.search(fen):
        errors.append(f"{where}: FEN tag {fen!r} has a range (the relay drops it)")
    board: Board | None = None
    if game.played and variant:
        try:
            board = Board(get_variant(variant), fen) if fen else Board(get_variant(variant))
        except (RigError, ValueError) as exc:
            errors.append(f"{where}: FEN tag {fen!r} cannot be read: {exc}")
    frozen = False
    pos = 0
    while pos < len(movetext):
        m = _TOKEN.match(movetext, pos)
        if m is None or m.end() == pos:
            break
        pos = m.end()
        kind = m.lastgroup
        tok = m.group(kind)
        if game.result is not None:
            errors.append(f"{where}: {tok!r} after the result (the round stops)")
            break
        if kind == "bad":
            errors.append(f"{where}: unparsable token {tok!r} (the round stops)")
            break
        if kind == "comment":
            for c in _CLOCK_ANY.finditer(tok):
                if not (_CLOCK.match(c.group(0)) or _CLK.match(c.group(0))):
                    errors.append(f"{where}: clock {c.group(0)!r} is not [%clock wH:MM:SS BH:MM:SS] or [%clk H:MM:SS]")
        elif kind == "result":
            game.result = tok
        elif kind == "setup":
            game.steps.append(tok)
            setup = tok[len("/FEN"):].strip().strip("/").strip().strip('"')
            if _RANGE.search(setup):
                errors.append(f"{where}: setup {tok!r} has a range (the relay drops it)")
            elif board is not None and not frozen:
                try:
                    board.set_fen(setup)
                except (RigError, ValueError) as exc:
                    errors.append(f"{where}: setup {tok!r} cannot be read: {exc}")
                    frozen = True
        elif kind == "move":
            game.steps.append(tok)
            if board is not None and not frozen:
                try:
                    board.push(board.parse_move(tok))
                except (RigError, ValueError) as exc:
                    errors.append(f"{where}: illegal move {tok} after {len(game.steps) - 1} steps "
                                  f"(the board freezes): {exc}")
                    frozen = True
    if board is not None and not frozen:
        game.fen = board.fen()
    if game.result is None:
        errors.append(f"{where}: no result token at the end of the movetext (the round stops)")
    tag_result = game.tags.get("Result")
    for r in (tag_result, game.result):
        if r is not None and r not in RELAY_RESULTS:
            errors.append(f"{where}: result {r!r} would be read as a draw")
    return game, errors, note


def compare(before: list[SnapshotGame], now: list[SnapshotGame]) -> list[str]:
    """What the relay cannot follow from one poll to the next."""
    errors: list[str] = []
    if len(now) != len(before):
        return [f"{len(before)} games became {len(now)} (games added or dropped: every poll fails)"]
    for a, b in zip(before, now):
        where = f"game {b.index}"
        for tag in ("White", "Black", "Round", "Board"):
            if a.tags.get(tag) != b.tags.get(tag) and a.tags.get(tag) not in (None, "?"):
                errors.append(f"{where}: {tag} {a.tags.get(tag)!r} became {b.tags.get(tag)!r} "
                              "(games reordered: every poll fails)")
        if b.steps[:len(a.steps)] != a.steps:
            errors.append(f"{where}: the moves were rewritten, not appended to ({len(a.steps)} steps before)")
        if a.result not in (None, "*") and (b.result != a.result or len(b.steps) != len(a.steps)):
            errors.append(f"{where}: the ended game ({a.result}) changed")
    return errors
