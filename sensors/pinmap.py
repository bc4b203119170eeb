"""The GPIO assignment: the one source of truth for every pin and its role.

Pins are BCM GPIO numbers. :data:`PIN_ROLES` names the role of every GPIO on
the 40-pin header: the matrix rows and columns, the clock buttons, the pins
kept free for add-ons, and the spares. The scanner, the clock, the
generated schematics, ``hardware/schematics/WIRING.md`` and the docs all
follow it (``tests/test_pin_roles.py`` checks every document).

Kept free for add-ons: the HAT ID EEPROM (GPIO0, GPIO1), I2C1 (GPIO2,
GPIO3: an RTC or a display), UART0 (GPIO14, GPIO15: the serial console),
SPI0 (GPIO8 to GPIO11: the bus and its first chip select). A 10x10 matrix (15
lines) and two clock buttons need 17 pins, exactly the 17 GPIOs left, so
the defaults do use the PCM/I2S pins (GPIO18 to GPIO21: no I2S audio
add-on) and SPI1. The optional pause button takes SPI0 CE1 (GPIO7), usable
when SPI is off or limited to one chip select (``dtoverlay=spi0-1cs``).
The 8x8 map is a prefix of the 10x10 map, so one
harness serves both boards; on an 8x8 board ROW8, ROW9 and COL4 are spare.
"""

from __future__ import annotations

from dataclasses import dataclass

from sensors.errors import MatrixConfigError

__all__ = [
    "PinMap",
    "PinRole",
    "HEADER",
    "HEADER_POWER",
    "RESERVED",
    "ALT_FUNCTIONS",
    "DEFAULT_PINMAP_8x8",
    "DEFAULT_PINMAP_10x10",
    "CLOCK_BUTTON_PINS",
    "SERIES_RESISTOR_OHMS",
    "default_pinmap",
    "header_pin",
    "pin_roles",
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

#: GPIOs kept free for add-ons, and why (none of them is wired by the rig).
RESERVED: dict[int, str] = {
    0: "HAT ID EEPROM (ID_SD)", 1: "HAT ID EEPROM (ID_SC)", 2: "I2C1 SDA (RTC, display)",
    3: "I2C1 SCL (RTC, display)", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK",
    14: "UART0 TX (serial console)", 15: "UART0 RX (serial console)",
}

#: The other functions of the pins the rig does use (what an add-on on them would collide with).
ALT_FUNCTIONS: dict[int, str] = {
    4: "GPCLK0, 1-Wire default", 5: "GPCLK1", 6: "GPCLK2", 7: "SPI0 CE1", 12: "PWM0", 13: "PWM1",
    16: "SPI1 CE2", 17: "SPI1 CE1", 18: "PCM/I2S CLK, SPI1 CE0, PWM0", 19: "PCM/I2S FS, SPI1 MISO, PWM1",
    20: "PCM/I2S DIN, SPI1 MOSI", 21: "PCM/I2S DOUT, SPI1 SCLK", 22: "", 23: "", 24: "", 25: "", 26: "",
    27: "",
}

#: Ohms in series with every matrix and clock line, at the Pi end (hardware/schematics/README.md).
SERIES_RESISTOR_OHMS = 330


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


#: GPIO push buttons of a clock kept by the Pi (sensors.clock.gpio): the two GPIOs the matrix leaves,
#: and SPI0 CE1 for the optional pause button (see the module docstring).
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


@dataclass(frozen=True)
class PinRole:
    """What one GPIO does on a damas rig board.

    ``kind``: ``matrix-row``, ``matrix-col``, ``clock-button``, ``kept-free`` or ``spare``;
    ``signal``: the schematic's net (``ROW0``, ``COL3``, ``BTN_LEFT``) or None;
    ``boards``: the boards that wire it (``("8x8", "10x10")``, ``("10x10",)`` or ``()``).
    """

    gpio: int
    kind: str
    signal: str | None
    text: str
    boards: tuple[str, ...]
    alt: str = ""

    @property
    def header(self) -> int:
        return HEADER[self.gpio]


_BUTTON_TEXT = {"left": "clock button, left player", "right": "clock button, right player",
                "pause": "clock button, pause/resume (arbiter; optional)"}


def pin_roles() -> list[PinRole]:
    """The role of every GPIO of the header (GPIO 0..27), in GPIO order."""
    big, small = DEFAULT_PINMAP_10x10, DEFAULT_PINMAP_8x8
    small_sig = dict(small.signals())
    out: dict[int, PinRole] = {}
    for net, g in big.signals():
        kind = "matrix-row" if net.startswith("ROW") else "matrix-col"
        boards = ("8x8", "10x10") if net in small_sig else ("10x10",)
        line = f"matrix {'row' if kind == 'matrix-row' else 'column'} {net[3:]}"
        text = line if len(boards) == 2 else f"{line} (10x10 only; spare on an 8x8 board)"
        out[g] = PinRole(g, kind, net, text, boards, ALT_FUNCTIONS.get(g, ""))
    for name, g in CLOCK_BUTTON_PINS.items():
        out[g] = PinRole(g, "clock-button", f"BTN_{name.upper()}", _BUTTON_TEXT[name], ("8x8", "10x10"),
                         ALT_FUNCTIONS.get(g, ""))
    for g, why in RESERVED.items():
        out[g] = PinRole(g, "kept-free", None, f"kept free: {why}", ())
    for g in HEADER:
        out.setdefault(g, PinRole(g, "spare", None, "spare", (), ALT_FUNCTIONS.get(g, "")))
    return [out[g] for g in sorted(out)]
