"""``rig doctor``: what is wrong with the matrix, from a recording or live.

:func:`analyse_recording` reads a session's frames (the ``raw`` cells when
every frame has them, else the occupied squares through the cell map) and
finds:

- ``stuck-closed``: occupied in the first frame where the start position has
  no piece; or (suspect) never released, a diagonal neighbour (or a jump away) of
  a square where a piece was put down that no lift accounts for;
- ``dead``: a square the start position needs that is never occupied;
- ``chattering``: a square that keeps blinking (on and off within
  ``blink_s``), counted as a rate;
- ``missing-diode``: a square X turning on in the same frame as the third
  corner of a rectangle whose other corners are closed: a ghost; the
  diode missing is the corner diagonally opposite X (see :mod:`sensors.circuit`).

:func:`check_live` walks the live board with a person (or scripted hands):
each square with a piece centred, pushed off-centre and as a stacked king,
naming ``dead``, ``dead-spot``, ``king-not-seen``, ``reversed-diode``,
``missing-diode``, ``crosstalk`` (a neighbour's reed closed by this magnet:
one piece cannot make a ghost) and ``ghost`` (a sneak path, only possible
with three really closed corners), ``miswired`` and ``stuck-closed``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import AbstractSet, Iterable

from rig.fen import parse_fen
from rig.session import Frame, Header
from sensors.cellmap import Cell, CellMap, default_cellmap
from sensors.matrix import MatrixScanner
from sensors.prompts import CellWaiter, Prompter, Step

__all__ = ["Finding", "analyse_recording", "start_squares", "check_live"]


@dataclass(frozen=True)
class Finding:
    kind: str
    square: int
    message: str
    severity: str = "error"  # "error" or "suspect"

    def __str__(self) -> str:
        return f"{self.severity}: {self.kind} on square {self.square}: {self.message}"


def start_squares(header: Header) -> frozenset[int] | None:
    """The occupied squares of the session's starting position, or None if the FEN cannot be read."""
    v = header.variant
    if header.fen is None:
        return frozenset(v.white_start) | frozenset(v.black_start)
    try:
        p = parse_fen(header.fen, v)
    except ValueError:
        return None
    return p.white_men | p.white_kings | p.black_men | p.black_kings


def _cells_of(frame: Frame, cellmap: CellMap, use_raw: bool) -> frozenset[Cell]:
    if use_raw:
        return frozenset((r, c) for r, row in enumerate(frame.raw) for c, ch in enumerate(row) if ch == "1")
    return cellmap.cells_of(frame.occupied)


def _ghost_readings(seq: list[tuple[float, frozenset[Cell]]], burst_s: float) -> list[tuple[float, Cell, set[Cell]]]:
    """(time, ghost cell, candidate diode-less corners) for every cell that turned on with the third
    corner of a rectangle whose fourth corner was already closed. Frames closer than ``burst_s`` are
    one change (a ghost can settle a scan after the switch that makes it)."""
    steps: list[tuple[float, frozenset[Cell]]] = []
    for t, cells in seq:
        if steps and t - steps[-1][0] < burst_s and len(steps) > 1:
            steps[-1] = (steps[-1][0], cells)
        else:
            steps.append((t, cells))
    out = []
    for (_, a), (t1, b) in zip(steps, steps[1:]):
        appeared = b - a
        if len(appeared) < 2:  # one hand places one piece: the others may be ghosts
            continue
        for x in appeared:
            cands = {d for d in a if d[0] != x[0] and d[1] != x[1]
                     and (d[0], x[1]) in b and (x[0], d[1]) in b
                     and ((d[0], x[1]) in appeared or (x[0], d[1]) in appeared)}
            if cands:
                out.append((t1, x, cands))
    return out


def analyse_recording(header: Header, events: Iterable, cellmap: CellMap | None = None, *,
                      blink_s: float = 0.1, chatter_min: int = 3, hand_s: float = 0.8,
                      burst_s: float = 0.05) -> list[Finding]:
    """The findings of a recorded session (empty: nothing wrong seen).

    ``hand_s``: a piece put down more than this long after the last unmatched lift came from nowhere;
    ``burst_s``: frames closer than this are one change for the ghost search.
    """
    v = header.variant
    cellmap = cellmap or default_cellmap(v)
    frames = [e for e in events if isinstance(e, Frame)]
    if not frames:
        return []
    use_raw = all(isinstance(f.raw, list) and len(f.raw) == cellmap.shape[0] for f in frames)
    seq = [(f.t, _cells_of(f, cellmap, use_raw)) for f in frames]
    sq = cellmap.square
    out: list[Finding] = []
    start = start_squares(header)
    first = seq[0][1]
    ever = frozenset().union(*(c for _, c in seq))
    always = frozenset.intersection(*(c for _, c in seq))
    changed: Counter[Cell] = Counter()
    on_times: dict[Cell, list[float]] = {}
    blinks: Counter[Cell] = Counter()
    stuck_suspects: set[Cell] = set()
    lifts: list[float] = []  # times of lifts not yet matched by a put-down
    for (t0, a), (t1, b) in zip(seq, seq[1:]):
        for cell in a ^ b:
            changed[cell] += 1
        for cell in b - a:
            on_times.setdefault(cell, []).append(t1)
        for cell in a - b:
            ts = on_times.get(cell)
            if ts and t1 - ts[-1] < blink_s:
                blinks[cell] += 1
        appeared = b - a
        lifts = [t for t in lifts if t1 - t <= hand_s] + [t1] * len(a - b)
        if len(appeared) > len(lifts):  # a piece put down that no lift accounts for: its origin never opened
            for x in appeared:  # its origin: a never-released diagonal neighbour (a jump away if none)
                fx, rx = v.coords(sq(x))
                for dist in (1, 2):
                    near = {c for c in a & always
                            if abs(v.coords(sq(c))[0] - fx) == dist == abs(v.coords(sq(c))[1] - rx)}
                    if near:
                        stuck_suspects |= near
                        break
        del lifts[:len(appeared)]
    if start is not None:
        expected = cellmap.cells_of(start)
        for cell in sorted(first - expected):
            out.append(Finding("stuck-closed", sq(cell), "occupied at the start where the position has no piece"
                               + (" and never released" if cell in always else "")))
        for cell in sorted(expected - ever):
            out.append(Finding("dead", sq(cell), "never occupied although the starting position has a piece there"))
    for cell in sorted(always & stuck_suspects):
        out.append(Finding("stuck-closed", sq(cell), "a piece appeared next to it without being lifted from "
                           "anywhere, and this square never released", "suspect"))
    duration = max(seq[-1][0] - seq[0][0], 1e-9)
    for cell, n in sorted(blinks.items()):
        if n >= chatter_min:
            out.append(Finding("chattering", sq(cell), f"{n} blinks shorter than {blink_s:g} s "
                               f"({n / duration * 60:.1f} per minute)"))
    ghosts = _ghost_readings(seq, burst_s)
    while ghosts:  # greedy cover: the corner explaining most ghost readings, ties named together
        score = Counter(d for _, _, cands in ghosts for d in cands)
        best = max(score.values())
        top = sorted(d for d, n in score.items() if n == best)
        explained = [g for g in ghosts if top[0] in g[2]]
        names = ", ".join(sorted({str(sq(x)) for _, x, _ in explained}, key=int))
        which = (f"square {sq(top[0])}" if len(top) == 1
                 else "one of squares " + ", ".join(str(sq(d)) for d in top))
        out.append(Finding("missing-diode", sq(top[0]),
                           f"{best} ghost reading(s) (on {names}) appeared with the third corner of a rectangle: "
                           f"the diode of {which} conducts backwards", "suspect"))
        ghosts = [g for g in ghosts if not (g[2] & set(top))]
    return out


def _ghosts(extra: AbstractSet[Cell], real: AbstractSet[Cell]) -> set[Cell]:
    """The extra readings a sneak path could make: a rectangle whose other three corners really are
    closed. With one piece on a clear board there are none: one piece cannot make a ghost."""
    return {x for x in extra for d in real
            if d[0] != x[0] and d[1] != x[1] and (d[0], x[1]) in real and (x[0], d[1]) in real}


def check_live(scanner: MatrixScanner, waiter: CellWaiter, prompter: Prompter,
               squares: Iterable[int] | None = None, *, poses: Iterable[str] = ("centre", "off-centre", "king")
               ) -> list[Finding]:
    """Interactive check: clear board (stuck switches), then on each square a piece centred, pushed
    off-centre (the reed's dead spot) and a stacked king (the strongest field: crosstalk), with the
    diode check after every placement (a reversed diode makes a piece invisible to the scan)."""
    v, cellmap = scanner.variant, scanner.cellmap
    todo = list(range(1, v.squares + 1)) if squares is None else list(squares)
    poses = list(poses)
    out: list[Finding] = []
    seen: set[tuple[str, int]] = set()

    def report(kind: str, square: int, message: str, severity: str = "error") -> None:
        if (kind, square) not in seen:
            seen.add((kind, square))
            out.append(Finding(kind, square, message, severity))

    prompter.ask(Step("clear", None, "", 0, len(todo)))
    baseline = waiter.settle()
    for cell in sorted(baseline):
        report("stuck-closed", cellmap.square(cell), "closed on an empty board")
    for k, s in enumerate(todo, 1):
        name, want = v.square_name(s), cellmap.cell(s)
        for pose in poses:
            prompter.ask(Step("place", s, name, k, len(todo), pose))
            new = waiter.change(baseline) - baseline
            backward = scanner.diode_check()
            piece = {"centre": "a piece", "off-centre": "a piece off-centre", "king": "a stacked king"}[pose]
            if want in new:
                extra = new - {want}
                ghosts = _ghosts(extra, set(baseline) | {want})
                for c in sorted(extra - ghosts):
                    report("crosstalk", cellmap.square(c),
                           f"{piece} on {name} also closes this square's reed: the magnet reaches the "
                           f"neighbour (weaker magnet, more distance, or the reed upright)")
                for c in sorted(ghosts):
                    report("ghost", cellmap.square(c), f"reads closed with {piece} on {name} through a sneak "
                           f"path (a missing diode among the closed corners)", "suspect")
            elif backward.get(want) == "reversed-diode":
                report("reversed-diode", s, f"{piece} closes the reed but the scan cannot see it: the diode "
                       "is soldered the wrong way round (band towards the column); turn it round")
            elif new:
                others = sorted(cellmap.square(c) for c in new)
                report("miswired", s, f"{piece} on {name} closed the cell of {others}: recalibrate "
                       "(`rig calibrate matrix`)")
            elif pose == "centre":
                report("dead", s, "nothing closed with a piece on it")
            elif pose == "off-centre" and ("dead", s) not in seen:
                report("dead-spot", s, "closes with a piece centred but not pushed off-centre: the reed has a "
                       "dead spot (mount it upright, see hardware/schematics/README.md)")
            elif pose == "king" and ("dead", s) not in seen:
                report("king-not-seen", s, "a stacked king closes nothing although one piece does: the two "
                       "magnets repel (glue every magnet north up)")
            for cell, kind in sorted(backward.items()):
                if cell != want or kind == "missing-diode":
                    report(kind, cellmap.square(cell), "conducts backwards in the diode check"
                           + (" (diode missing or shorted)" if kind == "missing-diode" else
                              " while the scan sees nothing there (diode reversed)"))
            prompter.ask(Step("lift", s, name, k, len(todo)))
            waiter.back_to(baseline)
    prompter.tell("no problem found" if not out else f"{len(out)} problem(s) found")
    return out
