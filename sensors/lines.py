"""The matrix lines: drive a row, read the columns (and the reverse for the diode check).

Two backends behind one small interface (:class:`MatrixLines`):

- :class:`LgpioLines` talks to lgpio directly with *group* calls: the rows are
  one open-drain output group (a released row is high-impedance with its
  pull-up on, never floating), the columns one input group with pull-ups.
  Releasing one row and driving the next is one ``group_write``; reading
  every column is one ``group_read``: 2 calls per row.
- :class:`GpiozeroLines` uses gpiozero pins one by one (any pin factory: the
  mock ones in tests, or a Pi without lgpio). Through gpiozero's lgpio pins
  that costs 7 lgpio calls per row plus one per column
  (``bench/bench_matrix_scan.py`` counts them).

``calls`` counts the backend calls made; ``open_lines`` picks a backend.
Nothing Pi-specific is imported at module load.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Any, Protocol

from sensors.errors import MatrixConfigError
from sensors.pinmap import PinMap

__all__ = ["MatrixLines", "GpiozeroLines", "LgpioLines", "open_lines", "find_gpio_chip", "LGPIO_CALLS_PER_OP"]

#: lgpio calls gpiozero 2.0's LGPIOPin makes per pin operation (gpiozero/pins/lgpio.py):
#: drive = output_with_state(False): gpio_claim_output, then the state setter's gpio_get_mode + gpio_write;
#: release = input_with_pull("up"): gpio_claim_input, then the pull setter's gpio_get_mode + gpio_free +
#: gpio_claim_input; read = the state getter's gpio_read.
LGPIO_CALLS_PER_OP = {"drive": 3, "release": 4, "read": 1}


class MatrixLines(Protocol):
    backend: str
    calls: int

    def drive_row(self, i: int | None) -> None:
        """Drive row ``i`` low and release every other row (None: release all)."""

    def read_cols(self) -> int:
        """Bit j set: column j reads low."""

    def begin_check(self) -> None:
        """Diode check: rows become pulled-up inputs, columns drivable."""

    def drive_col(self, j: int | None) -> None:
        """Drive column ``j`` low, release the others (None: release all)."""

    def read_rows(self) -> int:
        """Bit i set: row i reads low."""

    def end_check(self) -> None:
        """Back to scanning: columns pulled-up inputs, rows released."""

    def close(self) -> None: ...


class GpiozeroLines:
    """Matrix lines on gpiozero pins (``factory.pin(gpio)``), one call per pin operation."""

    backend = "gpiozero"

    def __init__(self, pinmap: PinMap, factory: Any):
        self.calls = 0
        self.ops: Counter[str] = Counter()
        self._rows: list[Any] = []
        self._cols: list[Any] = []
        self._row_on: int | None = None
        self._col_on: int | None = None
        try:
            for g in pinmap.rows:
                self._rows.append(factory.pin(g))
                self._rows[-1].input_with_pull("up")
            for g in pinmap.cols:
                self._cols.append(factory.pin(g))
                self._cols[-1].input_with_pull("up")
        except Exception:
            self.close()
            raise

    @property
    def pins(self) -> tuple[list[Any], list[Any]]:
        return self._rows, self._cols

    def _switch(self, pins: list[Any], on: int | None, new: int | None) -> int | None:
        if on is not None and on != new:
            pins[on].input_with_pull("up")
            self.calls += 1
            self.ops["release"] += 1
        if new is not None and new != on:
            pins[new].output_with_state(False)
            self.calls += 1
            self.ops["drive"] += 1
        return new

    def drive_row(self, i: int | None) -> None:
        self._row_on = self._switch(self._rows, self._row_on, i)

    def drive_col(self, j: int | None) -> None:
        self._col_on = self._switch(self._cols, self._col_on, j)

    def _read(self, pins: list[Any]) -> int:
        m = 0
        for k, p in enumerate(pins):
            if not p.state:
                m |= 1 << k
        self.calls += len(pins)
        self.ops["read"] += len(pins)
        return m

    @property
    def lgpio_calls(self) -> int:
        """The lgpio calls these operations cost through gpiozero's lgpio pins (``LGPIO_CALLS_PER_OP``)."""
        return sum(LGPIO_CALLS_PER_OP[k] * n for k, n in self.ops.items())

    def read_cols(self) -> int:
        return self._read(self._cols)

    def read_rows(self) -> int:
        return self._read(self._rows)

    def begin_check(self) -> None:
        self.drive_row(None)  # released rows are pulled-up inputs already

    def end_check(self) -> None:
        self.drive_col(None)

    def close(self) -> None:
        for p in self._rows + self._cols:
            try:
                p.close()
            except Exception:  # noqa: BLE001 - closing must release every pin it can
                pass
        self._rows, self._cols = [], []


def find_gpio_chip(lg: Any) -> int:
    """The gpiochip of the 40-pin header: the first whose label is a Pi pin controller (0 on most Pis,
    4 on a Pi 5 with an older kernel)."""
    for chip in range(6):
        try:
            h = lg.gpiochip_open(chip)
        except Exception:  # noqa: BLE001 - no such chip
            continue
        try:
            _, lines, _name, label = lg.gpio_get_chip_info(h)
        finally:
            lg.gpiochip_close(h)
        if str(label).startswith("pinctrl-") and lines >= 28:
            return chip
    raise MatrixConfigError("no Raspberry Pi GPIO chip found (/dev/gpiochip*)")


class LgpioLines:
    """Matrix lines on lgpio group calls (``lg``: the lgpio module, or a simulated one)."""

    backend = "lgpio"

    def __init__(self, pinmap: PinMap, lg: Any = None, chip: int | None = None):
        if lg is None:
            import lgpio  # noqa: PLC0415 - Pi only

            lg = lgpio
        self.lg = lg
        self.calls = 0
        self.rows, self.cols = list(pinmap.rows), list(pinmap.cols)
        self._all_rows = (1 << len(self.rows)) - 1
        self._all_cols = (1 << len(self.cols)) - 1
        self.handle = lg.gpiochip_open(find_gpio_chip(lg) if chip is None else chip)
        self._claimed: list[int] = []
        self.output_bias = True  # released (open-drain high) lines keep their pull-up
        try:
            self._claim(self.rows, self.cols)
        except Exception:
            self.close()
            raise

    def _call(self, fn: str, *args):
        self.calls += 1
        return getattr(self.lg, fn)(self.handle, *args)

    def _claim(self, driven: list[int], read: list[int]) -> None:
        lg = self.lg
        levels = [1] * len(driven)
        if self.output_bias:
            try:
                self._call("group_claim_output", driven, levels, lg.SET_OPEN_DRAIN | lg.SET_PULL_UP)
            except lg.error:  # a kernel without bias on output lines: released lines float (diodes still block)
                self.output_bias = False
        if not self.output_bias:
            self._call("group_claim_output", driven, levels, lg.SET_OPEN_DRAIN)
        self._claimed.append(driven[0])
        self._call("group_claim_input", read, lg.SET_PULL_UP)
        self._claimed.append(read[0])

    def _free(self) -> None:
        while self._claimed:
            self._call("group_free", self._claimed.pop())

    def drive_row(self, i: int | None) -> None:
        bits = self._all_rows if i is None else self._all_rows & ~(1 << i)
        self._call("group_write", self.rows[0], bits, self._all_rows)

    def drive_col(self, j: int | None) -> None:
        bits = self._all_cols if j is None else self._all_cols & ~(1 << j)
        self._call("group_write", self.cols[0], bits, self._all_cols)

    def read_cols(self) -> int:
        _, bits = self._call("group_read", self.cols[0])
        return ~bits & self._all_cols

    def read_rows(self) -> int:
        _, bits = self._call("group_read", self.rows[0])
        return ~bits & self._all_rows

    def begin_check(self) -> None:
        self._free()
        self._claim(self.cols, self.rows)

    def end_check(self) -> None:
        self._free()
        self._claim(self.rows, self.cols)

    def close(self) -> None:
        try:
            self._free()
        finally:
            if self.handle is not None:
                self.lg.gpiochip_close(self.handle)
                self.handle = None


def open_lines(pinmap: PinMap, pin_factory: Any = None, backend: str = "auto") -> MatrixLines:
    """The lines of ``pinmap``: gpiozero pins from ``pin_factory`` when given; else lgpio group calls
    on a Pi (``backend="auto"`` falls back to gpiozero's default factory without lgpio, or when
    ``GPIOZERO_PIN_FACTORY`` asks for another one)."""
    if backend not in ("auto", "lgpio", "gpiozero"):
        raise MatrixConfigError(f"unknown pin backend {backend!r}: auto, lgpio or gpiozero")
    if pin_factory is None and backend != "gpiozero" and (backend == "lgpio" or not os.environ.get(
            "GPIOZERO_PIN_FACTORY")):
        try:
            import lgpio  # noqa: F401, PLC0415
        except ImportError:
            if backend == "lgpio":
                raise MatrixConfigError("the lgpio backend needs lgpio (pip install -e '.[pi]')") from None
        else:
            return LgpioLines(pinmap)
    if pin_factory is None:
        from gpiozero import Device  # noqa: PLC0415

        if Device.pin_factory is None:
            Device.pin_factory = Device._default_pin_factory()
        pin_factory = Device.pin_factory
    return GpiozeroLines(pinmap, pin_factory)
