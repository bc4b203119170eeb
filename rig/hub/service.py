"""``rig hub``'s core: follows every board of a tournament over MQTT into SQLite, the feed and the pages.

paho's network thread only queues what arrives; one worker thread takes it in batches: each message is
checked (:func:`rig.hub.protocol.decode`, the fields it needs), put in sequence by its board session's
:class:`~rig.hub.streams.Stream` (duplicates dropped, gaps asked back with a replay request), applied to
the game (:class:`~rig.hub.model.GameState`), the relay feed appended to (:class:`~rig.hub.feed.RelayFeed`),
all of it written to SQLite in one transaction per batch, and the changed boards handed to the listeners
(the pages' Server-Sent Events).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import deque
from typing import Any, Callable

from rig.hub import HubError
from rig.hub.feed import RelayFeed, relay_problem
from rig.hub.model import GameKey, GameState
from rig.hub.pairings import Pairing
from rig.hub.protocol import KINDS, OFFLINE, ONLINE, Topics, check_id, decode, encode
from rig.hub.store import Store
from rig.hub.streams import Stream
from rig.variants import INTERNATIONAL, Variant

__all__ = ["Hub"]

log = logging.getLogger(__name__)

Listener = Callable[[list[dict[str, Any]]], None]


class Hub:
    """One tournament's hub. ``start(host, port)`` subscribes; without it, :meth:`receive` feeds it directly."""

    def __init__(self, tournament: str, store: Store, *, pairings: list[Pairing] = (), variant: Variant = INTERNATIONAL,
                 event: str | None = None):
        self.tournament = check_id(tournament, "tournament")
        self.store = store
        self.variant = variant
        self.event = event or tournament
        self.lock = threading.RLock()
        self.games: dict[GameKey, GameState] = {}
        self.current: dict[str, GameKey] = {}                  # board -> its latest game
        self.streams: dict[tuple[str, str], Stream] = {}
        self.online: dict[str, bool] = {}
        self.feeds: dict[int, dict[str, RelayFeed]] = {}        # round -> board -> feed, in the feed's order
        self.frozen: set[int] = set()
        self.late: dict[int, list[str]] = {}                   # boards that came after the round was frozen
        self.pairings: dict[tuple[int, str], Pairing] = {}
        self.version: dict[int, int] = {}
        self._cache: dict[int, tuple[int, bytes]] = {}
        self.listeners: list[Listener] = []
        self.problems: deque[str] = deque(maxlen=50)           # bad messages, for the organiser
        self.replay_requests: deque[tuple[str, str, int, int]] = deque(maxlen=200)   # (board, session, from, to)
        self.stats = {"messages": 0, "applied": 0, "duplicates": 0, "bad": 0, "replays_asked": 0, "batches": 0}
        self._q: "queue.SimpleQueue[tuple]" = queue.SimpleQueue()
        self._client = None
        self._worker: threading.Thread | None = None
        self._stopping = False
        self._load(list(pairings))

    # -- start-up: what the database already holds, then the pairings ----------------------------

    def _load(self, pairings: list[Pairing]) -> None:
        st = self.store
        for g in st.load_games():
            self.games[g.key] = g
            cur = self.current.get(g.board)
            if cur is None or g.round >= cur[0]:
                self.current[g.board] = g.key
        for s in st.load_streams():
            self.streams[(s.board, s.session)] = s
        self.frozen = st.load_frozen_rounds()
        for rnd, items in st.load_feeds().items():
            self.feeds[rnd] = dict(items)
        st.begin()
        st.save_pairings(pairings)
        st.commit()
        for p in st.load_pairings():
            self.pairings[(p.round, p.board)] = p
            self._feed_for(p.round, p.board)

    def _feed_for(self, rnd: int, board: str) -> RelayFeed | None:
        """The board's game in the round's feed (made while the round is not frozen)."""
        feeds = self.feeds.setdefault(rnd, {})
        feed = feeds.get(board)
        if feed is not None:
            return feed
        if rnd in self.frozen:
            if board not in self.late.setdefault(rnd, []):
                self.late[rnd].append(board)
            return None
        p = self.pairings.get((rnd, board))
        game = self.games.get((rnd, board))
        tags = self._feed_tags(rnd, board)
        variant = game.variant if game is not None else (p.variant if p and p.variant else self.variant)
        feed = feeds[board] = RelayFeed(variant, tags, game.start_fen if game is not None else None)
        self.store.save_feed(rnd, board, list(feeds).index(board), feed, 0)
        self.version[rnd] = self.version.get(rnd, 0) + 1
        return feed

    def _feed_tags(self, rnd: int, board: str) -> dict[str, str]:
        """A feed game's tags: the board's, with the pairing's players, the round and the board."""
        p = self.pairings.get((rnd, board))
        game = self.games.get((rnd, board))
        tags = {"Event": (p.event if p and p.event else self.event)}
        if game is not None:
            tags.update({k: v for k, v in game.tags.items() if k not in ("Result", "GameType", "FEN", "SetUp")})
        if p is not None:
            tags.update({"White": p.white, "Black": p.black})
        tags["Round"], tags["Board"] = str(rnd), board
        return tags

    # -- MQTT -------------------------------------------------------------------------------------

    def start(self, host: str, port: int) -> "Hub":
        import paho.mqtt.client as mqtt

        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"rig-hub-{self.tournament}-{id(self):x}",
                        clean_session=True)
        c.reconnect_delay_set(min_delay=1, max_delay=2)
        topics = Topics(self.tournament)

        def on_connect(client, userdata, flags, reason_code, properties):
            if not reason_code.is_failure:
                client.subscribe([(topics.msg, 1), (topics.state, 1), (topics.status, 1)])

        c.on_connect = on_connect
        c.on_message = lambda client, userdata, m: self._q.put(("mqtt", m.topic, m.payload))
        self._client = c
        self._start_worker()
        c.connect_async(host, port, keepalive=5)
        c.loop_start()
        return self

    def _start_worker(self) -> None:
        if self._worker is None:
            self._worker = threading.Thread(target=self._work, name="hub-worker", daemon=True)
            self._worker.start()

    def receive(self, topic: str, payload: bytes) -> None:
        """Queue one MQTT message (what paho's thread does; tests and benches may call it directly)."""
        self._start_worker()
        self._q.put(("mqtt", topic, payload))

    def stop(self) -> None:
        self._stopping = True
        if self._client is not None:
            self._client.disconnect()
            self._client.loop_stop()
        if self._worker is not None:
            self._q.put(("stop",))
            self._worker.join(5.0)

    def idle(self) -> bool:
        """Nothing queued (for tests that wait for the hub to catch up)."""
        return self._q.empty()

    # -- the worker ------------------------------------------------------------------------------

    def _work(self) -> None:
        while True:
            try:
                items = [self._q.get(timeout=0.25)]
            except queue.Empty:
                items = []
            while len(items) < 1000:
                try:
                    items.append(self._q.get_nowait())
                except queue.Empty:
                    break
            stop = any(i[0] == "stop" for i in items)
            try:
                self.process([i for i in items if i[0] == "mqtt"])
            except Exception:  # noqa: BLE001 - a bug must not stop the hall; the boards keep everything
                log.exception("hub: a batch failed")
            if stop:
                return

    def process(self, items: list[tuple]) -> None:
        """Apply a batch of ``("mqtt", topic, payload)`` items at once (the worker's step; tests call it).

        The pages hear of the changes before they are written to SQLite: the boards' journals are the source
        of truth, and a hub that dies before its commit gets the same messages again (state, replays)."""
        changed: set[GameKey] = set()
        with self.lock:
            for _, topic, payload in items:
                self._one(topic, payload, changed)
            if items:
                self.stats["batches"] += 1
            self._ask_replays()
            now = time.time()
            summaries = [dict(self.games[k].summary(), hub_ts=now) for k in changed]
        for listener in list(self.listeners) if summaries else ():
            try:
                listener(summaries)
            except Exception:  # noqa: BLE001
                log.exception("hub listener failed")
        if not changed:
            return
        with self.lock:
            self.store.begin()
            try:
                streams = set()
                for key in changed:
                    g = self.games[key]
                    streams.add((g.board, g.session))
                    self._feed_update(g)
                    self.store.save_game(g)
                for k in streams:
                    if k in self.streams:
                        self.store.save_stream(self.streams[k])
            finally:
                self.store.commit()

    def _bad(self, topic: str, why: str) -> None:
        self.stats["bad"] += 1
        self.problems.append(f"{time.strftime('%H:%M:%S')} {topic}: {why}")
        log.warning("hub: %s: %s", topic, why)

    def _one(self, topic: str, payload: bytes, changed: set[GameKey]) -> None:
        self.stats["messages"] += 1
        parts = Topics.split(topic)
        if parts is None or parts[0] != self.tournament:
            return
        _, board, leaf = parts
        if leaf == "status":
            self._status(board, payload.decode("utf-8", "replace").strip(), changed)
            return
        if leaf not in ("msg", "state"):
            return
        try:
            msg = decode(payload)
            session, seq, rnd = str(msg["session"]), int(msg["seq"]), int(msg["round"])
            if msg.get("board") != board:
                raise HubError(f"board {msg.get('board')!r} on board {board}'s topic")
            kind = msg.get("kind")
            if leaf == "msg" and kind not in KINDS or leaf == "state" and kind != "state":
                raise HubError(f"unknown kind {kind!r}")
            if rnd < 1 or seq < 0 or not session:
                raise HubError("round, seq and session must be set")
        except (HubError, KeyError, TypeError, ValueError) as exc:
            self._bad(topic, str(exc) if isinstance(exc, HubError) else f"bad message: {type(exc).__name__}: {exc}")
            return
        stream = self.streams.get((board, session))
        if stream is None:
            stream = self.streams[(board, session)] = Stream(board, session)
        before = stream.duplicates
        ready = stream.offer(msg) if leaf == "msg" else stream.offer_state(msg)
        self.stats["duplicates"] += stream.duplicates - before
        for m in ready:
            game = self._game_of(board, session, int(m["round"]))
            if game is None:
                continue
            try:
                if game.apply(m):
                    changed.add(game.key)
            except (KeyError, TypeError, ValueError) as exc:
                self._bad(topic, f"message {m.get('seq')} ({m.get('kind')}) cannot be applied: {exc}")
                continue
            game.seq = max(game.seq, int(m.get("seq") or 0))
            self.stats["applied"] += 1

    def _game_of(self, board: str, session: str, rnd: int) -> GameState | None:
        key = (rnd, board)
        game = self.games.get(key)
        if game is not None and game.session == session:
            return game
        if game is not None and game.session is not None and self._older(board, session, game.session):
            return None                               # a late message of a session the board left
        if game is not None and game.session not in (None, session):
            self.problems.append(f"board {board} started another game for round {rnd}: the hub follows the new one")
        game = GameState(rnd, board, session, self.variant)
        game.online = self.online.get(board, False)
        self.games[key] = game
        cur = self.current.get(board)
        if cur is None or rnd >= cur[0]:
            self.current[board] = key
        return game

    def _older(self, board: str, session: str, than: str) -> bool:
        order = [s for (b, s) in self.streams if b == board]
        return order.index(session) < order.index(than) if session in order and than in order else False

    def _status(self, board: str, text: str, changed: set[GameKey]) -> None:
        if text not in (ONLINE, OFFLINE):
            self._bad(f"board {board} status", f"status {text[:40]!r} is neither online nor offline")
            return
        on = text == ONLINE
        self.online[board] = on
        self.store.save_board(board, on, None, None, time.time())
        key = self.current.get(board)
        if key is not None and self.games[key].online != on:
            self.games[key].online = on
            changed.add(key)

    def _feed_update(self, game: GameState) -> None:
        feed = self._feed_for(game.round, game.board)
        if feed is None:
            return
        if not feed.nodes and feed.result == "*":       # before its first step the feed takes the board's header
            tags = self._feed_tags(game.round, game.board)
            if (feed.variant, feed.start_fen, feed.tags) != (game.variant, game.start_fen, tags):
                feed.can_restart(game.variant, game.start_fen, tags)
                self.store.save_feed(game.round, game.board, list(self.feeds[game.round]).index(game.board), feed,
                                     0)
                self.version[game.round] = self.version.get(game.round, 0) + 1
        n = len(feed.nodes)
        result = feed.result
        if feed.update(game) or result != feed.result:
            order = list(self.feeds[game.round])
            self.store.save_feed(game.round, game.board, order.index(game.board), feed, n)
            self.version[game.round] = self.version.get(game.round, 0) + 1

    def _ask_replays(self) -> None:
        now = time.monotonic()
        for s in self.streams.values():
            gap = s.should_ask(now)
            if gap is None:
                continue
            self.stats["replays_asked"] += 1
            self.replay_requests.append((s.board, s.session, gap[0], gap[1]))
            if self._client is not None:
                self._client.publish(Topics(self.tournament, s.board).replay,
                                     encode({"from": gap[0], "to": gap[1], "session": s.session}), qos=1)

    # -- what the pages read -----------------------------------------------------------------------

    def rounds(self) -> list[int]:
        with self.lock:
            return sorted(set(self.feeds) | {k[0] for k in self.games})

    def round_pdn(self, rnd: int) -> bytes:
        """The round's multi-game PDN. The first read freezes the round's list of games (the relay matches
        games by their place in the file: none may be added or dropped after it has begun)."""
        with self.lock:
            feeds = self.feeds.get(rnd)
            if not feeds:
                raise KeyError(rnd)
            if rnd not in self.frozen:
                self.frozen.add(rnd)
                self.store.begin()
                self.store.save_round(rnd, True)
                self.store.commit()
            v = self.version.get(rnd, 0)
            cached = self._cache.get(rnd)
            if cached is not None and cached[0] == v:
                return cached[1]
            body = "".join(f.to_pdn() for f in feeds.values()).encode("utf-8")
            self._cache[rnd] = (v, body)
            return body

    def game_pdn(self, board: str) -> bytes:
        """The board's current game as the feed has it (legal moves and setups only)."""
        with self.lock:
            key = self.current.get(board)
            if key is None:
                raise KeyError(board)
            feed = self.feeds.get(key[0], {}).get(board)
            if feed is None:
                g = self.games[key]
                feed = RelayFeed(g.variant, dict(g.tags), g.start_fen)
                feed.update(g)
            return feed.to_pdn().encode("utf-8")

    def relay_status(self, rnd: int) -> list[dict[str, Any]]:
        """Per game of the round: can the relay follow it, and why not."""
        with self.lock:
            out = []
            feeds = self.feeds.get(rnd, {})
            for pos, (board, feed) in enumerate(feeds.items(), 1):
                game = self.games.get((rnd, board))
                reasons, notes = [], []
                problem = relay_problem(feed.variant)
                if problem:
                    reasons.append(problem)
                if game is None:
                    notes.append("no board has published this game yet (it is in the feed with its tags and *)")
                elif not game.online and game.result == "*":
                    notes.append("the board is offline: the feed waits for it")
                if feed.setups:
                    notes.append(f"the feed goes on from {feed.setups} /FEN/ setup(s): an irregular position was "
                                 "accepted or set by the arbiter")
                out.append({"position": pos, "board": board, "white": feed.tags.get("White", "?"),
                            "black": feed.tags.get("Black", "?"), "variant": feed.variant.name,
                            "relayable": not reasons, "reasons": reasons, "notes": notes,
                            "steps": len(feed.nodes), "result": feed.result})
            for board in self.late.get(rnd, []):
                out.append({"position": None, "board": board, "white": "?", "black": "?", "variant": "?",
                            "relayable": False, "reasons": ["the board's game began after the round PDN was first "
                                                            "served: adding a game would fail every poll"],
                            "notes": [], "steps": 0, "result": "*"})
            return out

    def summaries(self, board: str | None = None) -> list[dict[str, Any]]:
        with self.lock:
            keys = [self.current[board]] if board is not None and board in self.current else \
                [] if board is not None else sorted(self.current.values(), key=lambda k: (k[0], k[1]))
            return [self.games[k].summary() for k in keys]

    def game(self, board: str) -> dict[str, Any]:
        with self.lock:
            key = self.current.get(board)
            if key is None:
                raise KeyError(board)
            return self.games[key].detail()

    def __repr__(self) -> str:
        return f"<Hub {self.tournament} boards={len(self.current)} games={len(self.games)} {self.stats}>"
