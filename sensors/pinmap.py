"""The matrix pin assignment: the one source of truth for the scanner, the schematics and the wiring table.

Pins are BCM GPIO numbers. The defaults keep clear of the pins a board
add-on is likely to need: I2C1 (GPIO 2, 3: an RTC or a display), UART0
(GPIO 14, 15: the serial console / a clock link), SPI0 (GPIO 7-11) and the
HAT ID EEPROM (GPIO 0, 1). The 8x8 map is a prefix of the 10x10 map, so one
harness serves both boards. GPIO 4, 18 (and 7) carry the clock buttons of a
Pi-kept clock (``CLOCK_BUTTON_PINS``).
"""

from __future__ import annotations

from dataclasses import dataclass

from sensors.errors import MatrixConfigError

__all__ = [
    "PinMap",
    "HEADER",
    "RESERVED",
    "DEFAULT_PINMAP_8x8",
    "DEFAULT_PINMAP_10x10",
    "CLOCK_BUTTON_PINS",
    "default_pinmap",
    "header_pin",
]

#: BCM GPIO number -> physical pin of the 40-pin header (all Pis since the B+, Pi 5 included).
HEADER: dict[int, int] = {
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23, 12: 32, 13: 33,
    14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40, 22: 15, 23: 16, 24: 18, 25: 22,
    26: 37, 27: 13,
}

#: Power and ground pins of the header (physical pin -> name), for the schematic symbol.
HEADER_POWER: dict[int, str] = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V",
                                **{p: "GND" for p in (6, 9, 14, 20, 25, 30, 34, 39)}}

#: GPIOs the defaults avoid, and why.
RESERVED: dict[int, str] = {
    0: "HAT ID EEPROM (ID_SD)", 1: "HAT ID EEPROM (ID_SC)", 2: "I2C1 SDA", 3: "I2C1 SCL",
    7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK",
    14: "UART0 TX", 15: "UART0 RX",
}


def header_pin(gpio: int) -> int:
    """The physical header pin of a BCM GPIO."""
    try:
        return HEADER[gpio]
    except KeyError:
        raise MatrixConfigError(f"GPIO{gpio} is not on the 40-pin header (GPIO 0..27)") from None


@dataclass(frozen=True)
class PinMap:
    """Row (driven, active low) and column (input, pull-up) GPIOs of the matrix, BCM numbers.

    ``rows[i]`` drives matrix row ``i``; ``cols[j]`` reads matrix column ``j``.
    """

    rows: tuple[int, ...]
    cols: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "rows", tuple(self.rows))
        object.__setattr__(self, "cols", tuple(self.cols))
        if not self.rows or not self.cols:
            raise MatrixConfigError("a pin map needs at least one row and one column pin")
        pins = self.rows + self.cols
        for p in pins:
            if isinstance(p, bool) or not isinstance(p, int):
                raise MatrixConfigError(f"pins are BCM GPIO numbers, not {p!r}")
            header_pin(p)
        dupes = sorted({p for p in pins if pins.count(p) > 1})
        if dupes:
            raise MatrixConfigError(f"GPIO used twice in the pin map: {', '.join(map(str, dupes))}")

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.rows), len(self.cols)

    def check_size(self, size: int) -> None:
        """Raise unless this map fits an ``size x size`` board (size rows, size/2 columns)."""
        if self.shape != (size, size // 2):
            raise MatrixConfigError(
                f"a {size}x{size} board needs {size} row and {size // 2} column pins, "
                f"the pin map has {len(self.rows)} and {len(self.cols)}")

    def signals(self) -> list[tuple[str, int]]:
        """(signal name, GPIO) for every pin: ROW0.., COL0..; the names of the schematic's nets."""
        return [(f"ROW{i}", g) for i, g in enumerate(self.rows)] + [(f"COL{j}", g) for j, g in enumerate(self.cols)]

    def to_dict(self) -> dict[str, list[int]]:
        return {"rows": list(self.rows), "cols": list(self.cols)}

    @classmethod
    def from_dict(cls, d: dict) -> "PinMap":
        try:
            return cls(rows=tuple(d["rows"]), cols=tuple(d["cols"]))
        except (KeyError, TypeError):
            raise MatrixConfigError("the [pins] table needs 'rows' and 'cols' lists of GPIO numbers") from None


#: GPIO push buttons of a clock kept by the Pi (rig.clock.gpio): the pins the matrix leaves free.
#: The pause button takes SPI0 CE1 (GPIO 7): leave it unwired if an SPI device is attached.
CLOCK_BUTTON_PINS: dict[str, int] = {"left": 4, "right": 18, "pause": 7}

DEFAULT_PINMAP_10x10 = PinMap(rows=(5, 6, 12, 13, 16, 19, 20, 21, 25, 26), cols=(17, 27, 22, 23, 24))
DEFAULT_PINMAP_8x8 = PinMap(rows=DEFAULT_PINMAP_10x10.rows[:8], cols=DEFAULT_PINMAP_10x10.cols[:4])


def default_pinmap(size: int) -> PinMap:
    """The default pin map of an 8x8 or 10x10 board."""
    if size == 8:
        return DEFAULT_PINMAP_8x8
    if size == 10:
        return DEFAULT_PINMAP_10x10
    raise MatrixConfigError(f"no default pin map for a {size}x{size} board")
