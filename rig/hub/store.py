"""The tournament in SQLite: boards, rounds, pairings, games, moves, irregularities, the relay feed.

One writer (the hub's worker thread) owns the connection; WAL journal, so a crash of the hub loses at most
the last batch, which the boards' retained snapshots and replays give back. The schema is in docs/hub.md.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any, Iterable

from rig.hub.feed import FeedNode, RelayFeed
from rig.hub.model import GameState
from rig.hub.pairings import Pairing
from rig.hub.streams import Stream
from rig.rulesets import get_ruleset
from rig.variants import get_variant

__all__ = ["Store", "SCHEMA"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS boards (board TEXT PRIMARY KEY, online INTEGER NOT NULL DEFAULT 0, session TEXT,
    round INTEGER, last_seen REAL);
CREATE TABLE IF NOT EXISTS streams (board TEXT NOT NULL, session TEXT NOT NULL, next_seq INTEGER NOT NULL,
    duplicates INTEGER NOT NULL DEFAULT 0, replays_asked INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (board, session));
CREATE TABLE IF NOT EXISTS rounds (round INTEGER PRIMARY KEY, frozen INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS pairings (round INTEGER NOT NULL, board TEXT NOT NULL, position INTEGER NOT NULL,
    white TEXT NOT NULL, black TEXT NOT NULL, variant TEXT, event TEXT, PRIMARY KEY (round, board));
CREATE TABLE IF NOT EXISTS games (round INTEGER NOT NULL, board TEXT NOT NULL, session TEXT, variant TEXT NOT NULL,
    ruleset TEXT, start_fen TEXT, tags TEXT NOT NULL, has_clock INTEGER NOT NULL DEFAULT 0, result TEXT NOT NULL,
    reason TEXT, clock TEXT, lost INTEGER NOT NULL DEFAULT 0, fen TEXT, restored TEXT, health TEXT,
    last_seq INTEGER NOT NULL DEFAULT 0, updated REAL, PRIMARY KEY (round, board));
CREATE TABLE IF NOT EXISTS moves (round INTEGER NOT NULL, board TEXT NOT NULL, idx INTEGER NOT NULL,
    number INTEGER, side TEXT, move TEXT, legal INTEGER, fen_after TEXT, clock_ms INTEGER, t REAL,
    withdrawn INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (round, board, idx));
CREATE TABLE IF NOT EXISTS irregularities (round INTEGER NOT NULL, board TEXT NOT NULL, idx INTEGER NOT NULL,
    type TEXT, number INTEGER, side TEXT, t REAL, squares TEXT, rule TEXT, status TEXT, detail TEXT,
    PRIMARY KEY (round, board, idx));
CREATE TABLE IF NOT EXISTS feed_games (round INTEGER NOT NULL, board TEXT NOT NULL, position INTEGER NOT NULL,
    variant TEXT NOT NULL, tags TEXT NOT NULL, start_fen TEXT, fed_upto INTEGER NOT NULL, result TEXT NOT NULL,
    PRIMARY KEY (round, board));
CREATE TABLE IF NOT EXISTS feed (round INTEGER NOT NULL, board TEXT NOT NULL, pos INTEGER NOT NULL, kind TEXT NOT NULL,
    text TEXT NOT NULL, number INTEGER, white INTEGER, clock TEXT, idx INTEGER, PRIMARY KEY (round, board, pos));
"""

_MOVE_COLS = ("idx", "number", "side", "move", "legal", "fen_after", "clock_ms", "t", "withdrawn")
_IRR_COLS = ("idx", "type", "number", "side", "t", "squares", "rule", "status", "detail")


class Store:
    """The hub's database file (``:memory:`` for a throw-away hub)."""

    def __init__(self, path: str):
        self.path = path
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- writing (one transaction per batch) ---------------------------------------------------------

    def begin(self) -> None:
        self.db.execute("BEGIN")

    def commit(self) -> None:
        self.db.execute("COMMIT")

    def save_pairings(self, pairings: Iterable[Pairing]) -> None:
        self.db.executemany("INSERT OR REPLACE INTO pairings VALUES (?,?,?,?,?,?,?)",
                            [(p.round, p.board, p.position, p.white, p.black, p.variant and p.variant.name, p.event)
                             for p in pairings])

    def save_round(self, rnd: int, frozen: bool) -> None:
        self.db.execute("INSERT OR REPLACE INTO rounds VALUES (?,?)", (rnd, int(frozen)))

    def save_board(self, board: str, online: bool, session: str | None, rnd: int | None, seen: float) -> None:
        self.db.execute("INSERT OR REPLACE INTO boards VALUES (?,?,?,?,?)", (board, int(online), session, rnd, seen))

    def save_stream(self, s: Stream) -> None:
        self.db.execute("INSERT OR REPLACE INTO streams VALUES (?,?,?,?,?)",
                        (s.board, s.session, s.next, s.duplicates, s.replays_asked))

    def save_game(self, g: GameState) -> None:
        key = (g.round, g.board)
        self.db.execute("INSERT OR REPLACE INTO games VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                        key + (g.session, g.variant.name, g.ruleset.id if g.ruleset else "", g.start_fen,
                               json.dumps(g.tags), int(g.has_clock),
                               g.result, g.reason, json.dumps(g.clock), int(g.lost), g.fen, json.dumps(g.restored),
                               json.dumps(g.health), g.seq, g.ts))
        moves = sorted(g.moves.items()) if g.dirty_all else \
            sorted((i, g.moves[i]) for kind, i in g.dirty if kind == "move" and i in g.moves)
        irrs = sorted(g.irregularities.items()) if g.dirty_all else \
            sorted((i, g.irregularities[i]) for kind, i in g.dirty if kind == "irregularity" and i in g.irregularities)
        if g.dirty_all:                          # a snapshot: the game as a whole
            self.db.execute("DELETE FROM moves WHERE round=? AND board=?", key)
            self.db.execute("DELETE FROM irregularities WHERE round=? AND board=?", key)
        self.db.executemany("INSERT OR REPLACE INTO moves VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                            [key + tuple(int(bool(m.get(c))) if c in ("legal", "withdrawn") else m.get(c)
                                         for c in _MOVE_COLS) for _, m in moves])
        self.db.executemany("INSERT OR REPLACE INTO irregularities VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                            [key + tuple(json.dumps(x.get(c)) if c == "squares" else x.get(c) for c in _IRR_COLS)
                             for _, x in irrs])
        g.dirty.clear()
        g.dirty_all = False

    def save_feed(self, rnd: int, board: str, position: int, feed: RelayFeed, new_from: int) -> None:
        """The feed game's header and its steps from ``new_from`` on (steps are only ever appended)."""
        self.db.execute("INSERT OR REPLACE INTO feed_games VALUES (?,?,?,?,?,?,?,?)",
                        (rnd, board, position, feed.variant.name, json.dumps(feed.tags), feed.start_fen, feed.fed_upto,
                         feed.result))
        self.db.executemany("INSERT INTO feed VALUES (?,?,?,?,?,?,?,?,?)",
                            [(rnd, board, pos, n.kind, n.text, n.number, int(n.white), n.clock, n.idx)
                             for pos, n in enumerate(feed.nodes[new_from:], new_from)])

    # -- reading (at start) ----------------------------------------------------------------------

    def rows(self, sql: str, *args: Any) -> list[sqlite3.Row]:
        cur = self.db.execute(sql, args)
        cur.row_factory = sqlite3.Row
        return cur.fetchall()

    def load_games(self) -> list[GameState]:
        games = []
        for r in self.rows("SELECT * FROM games"):
            g = GameState(r["round"], r["board"], r["session"], get_variant(r["variant"]),
                          get_ruleset(r["ruleset"]) if r["ruleset"] else None, r["start_fen"],
                          json.loads(r["tags"]), bool(r["has_clock"]))
            g.clock, g.result, g.reason, g.lost, g.fen = (json.loads(r["clock"]), r["result"], r["reason"] or "",
                                                         bool(r["lost"]), r["fen"])
            g.restored = [tuple(x) for x in json.loads(r["restored"] or "[]")]
            g.health, g.seq, g.ts = json.loads(r["health"] or "[]"), r["last_seq"], r["updated"] or 0.0
            for m in self.rows("SELECT * FROM moves WHERE round=? AND board=? ORDER BY idx", g.round, g.board):
                d = {c: m[c] for c in _MOVE_COLS}
                d["legal"], d["withdrawn"] = bool(d["legal"]), bool(d["withdrawn"])
                g.moves[d["idx"]] = d
            for x in self.rows("SELECT * FROM irregularities WHERE round=? AND board=? ORDER BY idx", g.round, g.board):
                d = {c: x[c] for c in _IRR_COLS}
                d["squares"] = json.loads(d["squares"] or "[]")
                g.irregularities[d["idx"]] = d
            games.append(g)
        return games

    def load_feeds(self) -> dict[int, list[tuple[str, RelayFeed]]]:
        out: dict[int, list[tuple[str, RelayFeed]]] = {}
        for r in self.rows("SELECT * FROM feed_games ORDER BY round, position"):
            f = RelayFeed(get_variant(r["variant"]), json.loads(r["tags"]), r["start_fen"], fed_upto=r["fed_upto"],
                         result=r["result"])
            f.nodes = [FeedNode(n["kind"], n["text"], n["number"] or 0, bool(n["white"]), n["clock"], n["idx"])
                       for n in self.rows("SELECT * FROM feed WHERE round=? AND board=? ORDER BY pos",
                                          r["round"], r["board"])]
            out.setdefault(r["round"], []).append((r["board"], f))
        return out

    def load_streams(self) -> list[Stream]:
        return [Stream(r["board"], r["session"], r["next_seq"], duplicates=r["duplicates"],
                       replays_asked=r["replays_asked"]) for r in self.rows("SELECT * FROM streams")]

    def load_frozen_rounds(self) -> set[int]:
        return {r["round"] for r in self.rows("SELECT round FROM rounds WHERE frozen=1")}

    def load_pairings(self) -> list[Pairing]:
        return [Pairing(r["round"], r["board"], r["white"], r["black"], r["position"],
                        get_variant(r["variant"]) if r["variant"] else None, r["event"])
                for r in self.rows("SELECT * FROM pairings ORDER BY round, position")]

    def moves_of(self, rnd: int, board: str) -> list[dict[str, Any]]:
        """The moves of a game as stored (for tests and audits)."""
        return [dict(r) for r in self.rows("SELECT * FROM moves WHERE round=? AND board=? ORDER BY idx", rnd, board)]

    def __repr__(self) -> str:
        return f"<Store {self.path}>"
