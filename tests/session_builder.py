"""Build board sessions from physical actions, for the engine's tests.

>>> b = SessionBuilder("portuguese")
>>> b.move("11-15").press("white")            # doctest: +ELLIPSIS
<...>
>>> header, events = b.session()

Each action advances time; ``lift``/``place``/``bounce`` emit complete
occupancy frames as a reed board does, ``press``/``time`` clock events.
Square arguments are the variant's numbers (or names: "c3").
"""

from __future__ import annotations

from rig.board import Board
from rig.rulesets import default_ruleset_for, get_ruleset
from rig.session import ArbiterEvent, ClockEvent, Frame, Header


class SessionBuilder:
    """A scripted pair of hands over a board."""

    def __init__(self, variant: str = "portuguese", fen: str | None = None, ruleset: str | None = None,
                 tags: dict | None = None, start: float = 0.0, camera: bool = False, clock_header: bool = False):
        self.board = Board(variant, fen)        # the legal game as the test means it
        self.variant = self.board.variant
        rs = get_ruleset(ruleset) if ruleset else default_ruleset_for(self.variant)
        extra = {"clock": True} if clock_header else {}
        self.header = Header(self.variant, rs, fen, dict(tags or {}), extra=extra)
        self.t = start
        self.camera = camera
        self.pieces = {s: c for s, c in self.board.piece_codes().items()}
        self.events: list = []
        self.frame()

    # -- raw actions -----------------------------------------------------------------------

    def sq(self, s) -> int:
        return s if isinstance(s, int) else self.variant.parse_square(s)

    def wait(self, dt: float) -> "SessionBuilder":
        self.t = round(self.t + dt, 6)
        return self

    def frame(self) -> "SessionBuilder":
        pieces = dict(self.pieces) if self.camera else None
        self.events.append(Frame(self.t, frozenset(self.pieces), pieces))
        return self

    def lift(self, s, dt: float = 0.3) -> "SessionBuilder":
        s = self.sq(s)
        self.wait(dt)
        self._held = self.pieces.pop(s)
        return self.frame()

    def place(self, s, dt: float = 0.3, piece: str | None = None) -> "SessionBuilder":
        s = self.sq(s)
        self.wait(dt)
        self.pieces[s] = piece or self._held
        return self.frame()

    def remove(self, s, dt: float = 0.3) -> "SessionBuilder":
        return self.lift(s, dt)

    def put(self, s, piece: str, dt: float = 0.3) -> "SessionBuilder":
        """Put a piece (``w``/``W``/``b``/``B``) on an empty square."""
        return self.place(s, dt, piece)

    def bounce(self, s, dt: float = 0.1, length: float = 0.004) -> "SessionBuilder":
        """The square's switch toggles for ``length`` seconds."""
        s = self.sq(s)
        self.wait(dt)
        had = s in self.pieces
        code = self.pieces.pop(s, None)
        if not had:
            self.pieces[s] = "w"
        self.frame()
        self.wait(length)
        if had:
            self.pieces[s] = code
        else:
            del self.pieces[s]
        return self.frame()

    def touch(self, s, hold: float = 0.4, dt: float = 0.3) -> "SessionBuilder":
        """Lift a piece and put it back on its square."""
        return self.lift(s, dt).place(s, hold)

    def press(self, side: str, dt: float = 0.3, white_ms: int | None = None,
              black_ms: int | None = None) -> "SessionBuilder":
        self.wait(dt)
        self.events.append(ClockEvent(self.t, "press", side))
        if white_ms is not None:
            self.events.append(ClockEvent(self.t, "time", None, white_ms, black_ms))
        return self

    def clock(self, event: str, side: str | None = None, dt: float = 0.1, **kw) -> "SessionBuilder":
        self.wait(dt)
        self.events.append(ClockEvent(self.t, event, side, **kw))
        return self

    def arbiter(self, action: str, dt: float = 0.1, **kw) -> "SessionBuilder":
        self.wait(dt)
        self.events.append(ArbiterEvent(self.t, action, **kw))
        return self

    # -- whole moves -----------------------------------------------------------------------

    def move(self, text: str, dt: float = 0.5, land: bool = True, remove: bool = True,
             slide: bool = False, order=None) -> "SessionBuilder":
        """Play a legal move of ``self.board`` as a careful human: lift, touch down on each
        landing square of a capture (if ``land``), release, then remove the captured pieces
        (in ``order``, default the jump order) if ``remove``. ``slide``: a king crosses the squares
        between, closing each switch for 30 ms."""
        m = self.board.parse_move(text)
        self.play(m, dt, land, remove, slide, order)
        return self

    def play(self, m, dt: float = 0.5, land: bool = True, remove: bool = True, slide: bool = False,
             order=None) -> "SessionBuilder":
        piece = self.pieces[m.origin]
        self.lift(m.origin, dt)
        for s in m.path[1:-1]:
            if land:
                self.place(s, 0.25, piece).lift(s, 0.25)
        if slide and not m.captured:
            for s in self._between(m.origin, m.destination):
                self.place(s, 0.05, piece).lift(s, 0.03)
        if m.promotes:
            piece = piece.upper() if not self.camera else piece
        self.place(m.destination, 0.3, piece)
        self.board.push(m)
        if remove:
            for s in (order or m.captured):
                self.remove(s, 0.3)
        return self

    def _between(self, a: int, b: int) -> list[int]:
        v = self.variant
        (fa, ra), (fb, rb) = v.coords(a), v.coords(b)
        df = 1 if fb > fa else -1
        dr = 1 if rb > ra else -1
        out = []
        f, r = fa + df, ra + dr
        while (f, r) != (fb, rb):
            out.append(v.square_at(f, r))
            f += df
            r += dr
        return out

    def session(self) -> tuple[Header, list]:
        return self.header, list(self.events)


def run(builder: SessionBuilder, settings=None, finish: bool = True):
    """Feed a builder's session to a fresh engine; returns the engine."""
    from rig.reconstruct import Reconstructor

    header, events = builder.session()
    engine = Reconstructor(header, settings)
    for ev in events:
        engine.feed(ev)
    if finish:
        engine.finish()
    return engine


def play_line(b: SessionBuilder, texts, clock: bool = True) -> SessionBuilder:
    """Play ``texts`` as clean moves (with a press after each when ``clock``)."""
    for text in texts:
        side = "white" if b.board.turn else "black"
        b.move(text)
        if clock:
            b.press(side)
    return b
