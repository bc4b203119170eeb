"""``rig calibrate matrix``: learn which matrix cell is which square.

The wizard asks for a piece on the variant's long diagonal (one square on
every rank and file, every position along a line) and on one square off it
(which tells rows-are-ranks from rows-are-files), reading each time which
cell closes. Assuming the board is wired line by line (see
:mod:`sensors.cellmap`), every matrix row is then known to be some line and
every column some position along it: the map follows, with the board's
orientation, and any two rows or columns wired the wrong way round show up
as a permutation (crossed wires: reported, and compensated by the map). A
square that closes nothing gets a second square on the same line to tell a
broken row wire from a broken column wire or a dead switch; a wire that
never answers is a missing wire and the wizard fails naming it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rig.variants import Variant
from sensors.cellmap import Cell, CellMap, line_squares, structured_map
from sensors.config import MatrixConfig
from sensors.errors import CalibrationError
from sensors.pinmap import PinMap, header_pin
from sensors.prompts import CellWaiter, Prompter, Step

__all__ = ["CalibrationResult", "calibration_squares", "solve_map", "run_wizard", "ORIENTATIONS"]

#: (axis, rows ascending, columns ascending) -> orientation name
ORIENTATIONS = {
    ("ranks", True, True): "standard",
    ("ranks", False, False): "rotated-180",
    ("ranks", True, False): "mirrored",
    ("ranks", False, True): "flipped",
    ("files", True, False): "rotated-90cw",
    ("files", False, True): "rotated-90ccw",
    ("files", True, True): "transposed",
    ("files", False, False): "anti-transposed",
}


@dataclass(frozen=True)
class CalibrationResult:
    cellmap: CellMap
    axis: str
    orientation: str
    crossed: tuple[str, ...] = field(default=())
    warnings: tuple[str, ...] = field(default=())

    def config(self, pins: PinMap, scan_hz: float = 200.0, debounce: int = 3) -> MatrixConfig:
        return MatrixConfig(self.cellmap.variant, pins, self.cellmap, scan_hz=scan_hz, debounce=debounce,
                            axis=self.axis, orientation=self.orientation, notes=self.crossed + self.warnings)


def _line_pos(v: Variant, axis: str, square: int) -> tuple[int, int]:
    f, r = v.coords(square)
    line = r if axis == "ranks" else f
    return line, line_squares(v, axis, line).index(square)


def calibration_squares(variant: Variant) -> list[int]:
    """The squares the wizard asks for: the long diagonal from white's side, then the
    other dark corner square of white's first row."""
    v = variant
    diag = sorted(v.long_diagonal, key=lambda s: v.coords(s)[1])
    first = line_squares(v, "ranks", 0)
    extra = first[-1] if diag[0] == first[0] else first[0]
    return diag + [extra]


def _assign(v: Variant, axis: str, obs: dict[int, Cell]) -> tuple[dict[int, int], dict[int, int]] | None:
    """matrix row -> line and column -> position implied by the observations, or None if contradictory."""
    rows: dict[int, int] = {}
    cols: dict[int, int] = {}
    for sq, (i, j) in obs.items():
        line, pos = _line_pos(v, axis, sq)
        if rows.setdefault(i, line) != line or cols.setdefault(j, pos) != pos:
            return None
    if len(set(rows.values())) != len(rows) or len(set(cols.values())) != len(cols):
        return None
    return rows, cols


def _order(mapping: dict[int, int], n: int, what: str, pins: tuple[int, ...]) -> tuple[bool, list[str]]:
    """The wiring direction closest to ``mapping`` and the crossed pairs relative to it."""
    up = sum(mapping[i] == i for i in range(n))
    down = sum(mapping[i] == n - 1 - i for i in range(n))
    ascending = up >= down
    want = {i: (i if ascending else n - 1 - i) for i in range(n)}
    wrong = [i for i in range(n) if mapping[i] != want[i]]
    crossed, done = [], set()
    for i in wrong:
        if i in done:
            continue
        j = next((k for k in wrong if want[k] == mapping[i]), None)
        if j is not None and mapping[j] == want[i]:
            done |= {i, j}
            crossed.append(f"{what} {i} and {j} are crossed (GPIO{pins[i]} pin {header_pin(pins[i])} <-> "
                           f"GPIO{pins[j]} pin {header_pin(pins[j])}); the map compensates")
        else:
            done.add(i)
            crossed.append(f"{what} {i} (GPIO{pins[i]}) is wired out of order; the map compensates")
    return ascending, crossed


def solve_map(variant: Variant, obs: dict[int, Cell], pins: PinMap) -> CalibrationResult:
    """The map from placements ``{square: closed cell}``, all of them good readings."""
    v = variant
    options = [(axis, a) for axis in ("ranks", "files") if (a := _assign(v, axis, obs)) is not None]
    if not options:
        raise CalibrationError("the readings do not fit a board wired line by line: "
                               + ", ".join(f"{sq}->cell {c}" for sq, c in sorted(obs.items())))
    axis, (rows, cols) = options[0]
    if len(rows) != v.size or len(cols) != v.half:
        raise CalibrationError(f"not enough readings: rows {sorted(rows)}, columns {sorted(cols)}")
    rows_up, crossed_rows = _order(rows, v.size, "rows", pins.rows)
    cols_up, crossed_cols = _order(cols, v.half, "columns", pins.cols)
    cellmap = structured_map(v, axis, [rows[i] for i in range(v.size)], [cols[j] for j in range(v.half)])
    return CalibrationResult(cellmap, axis, ORIENTATIONS[(axis, rows_up, cols_up)],
                             tuple(crossed_rows + crossed_cols))


def run_wizard(variant: Variant, waiter: CellWaiter, prompter: Prompter, pins: PinMap) -> CalibrationResult:
    """Ask for the pieces, read the cells, learn the map (raises :class:`CalibrationError` on missing wires)."""
    v = variant
    squares = calibration_squares(v)
    total = len(squares)
    prompter.ask(Step("clear", None, "", 0, total))
    baseline = waiter.settle()
    warnings = []
    if baseline:
        warnings.append(f"cells {sorted(baseline)} are closed on an empty board (stuck switches?): ignored")
        prompter.tell(warnings[-1])
    obs: dict[int, Cell] = {}
    failed: list[int] = []

    def probe(sq: int, index: int) -> None:
        name = v.square_name(sq)
        prompter.ask(Step("place", sq, name, index, total))
        new = waiter.change(baseline) - baseline
        if len(new) == 1:
            obs[sq] = next(iter(new))
        elif not new:
            failed.append(sq)
            prompter.tell(f"nothing closed for square {name}")
        else:
            raise CalibrationError(f"square {name} closed {len(new)} cells {sorted(new)}: a short, "
                                   "a missing diode or a magnet reaching the neighbours")
        prompter.ask(Step("lift", sq, name, index, total))
        waiter.back_to(baseline)

    for k, sq in enumerate(squares, 1):
        probe(sq, k)
    if failed:  # a second square on each silent line tells a row wire from a column wire
        for sq in list(failed):
            line, pos = _line_pos(v, "ranks", sq)
            others = [s for s in line_squares(v, "ranks", line) if s != sq]
            total += 1
            probe(others[0] if _line_pos(v, "ranks", others[0])[1] != pos else others[1], total)
    problems = []
    n_rows, n_cols = pins.shape
    seen_rows = {c[0] for c in obs.values()}
    seen_cols = {c[1] for c in obs.values()}
    for i in sorted(set(range(n_rows)) - seen_rows):
        problems.append(f"row wire {i} (GPIO{pins.rows[i]}, header pin {header_pin(pins.rows[i])}) is missing: "
                        "no switch on it ever closed")
    for j in sorted(set(range(n_cols)) - seen_cols):
        problems.append(f"column wire {j} (GPIO{pins.cols[j]}, header pin {header_pin(pins.cols[j])}) is missing: "
                        "no switch on it ever closed")
    if not problems and failed:
        dead = [v.square_name(s) for s in failed if s not in obs]
        problems.append(f"dead switch on square(s) {', '.join(dead)}: its row and column both work")
    if problems:
        for p in problems:
            prompter.tell(p)
        raise CalibrationError("; ".join(problems))
    result = solve_map(v, obs, pins)
    result = CalibrationResult(result.cellmap, result.axis, result.orientation, result.crossed, tuple(warnings))
    prompter.tell(f"learned the {v.name} map: axis {result.axis}, orientation {result.orientation}")
    for c in result.crossed:
        prompter.tell(c)
    return result
