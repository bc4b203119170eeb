"""A simulated ``lgpio`` module wired to a :class:`~sensors.simmatrix.SimulatedMatrix`.

The subset :class:`~sensors.lines.LgpioLines` uses, with lgpio's signatures and
return values (``group_read`` returns ``(group size, bits)``, bit k = the k-th
GPIO of the group, bit 0 the group leader; claiming a claimed GPIO fails as
"GPIO busy"). An open-drain output written 1 is released (high-impedance,
its pull-up on when the group was claimed with ``SET_PULL_UP``). Every call
is one pin call of the matrix (counted, and ``call_s`` of virtual time), so
tests and ``bench/bench_matrix_scan.py`` see what a Pi would do.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sensors.simmatrix import SimulatedMatrix

__all__ = ["SimLgpio", "error"]

SET_ACTIVE_LOW, SET_OPEN_DRAIN, SET_OPEN_SOURCE, SET_PULL_UP, SET_PULL_DOWN, SET_PULL_NONE = 4, 8, 16, 32, 64, 128
GROUP_ALL = 0xFFFFFFFFFFFFFFFF


class error(Exception):  # noqa: N801 - the name lgpio uses
    """What lgpio raises on a failed call."""


class SimLgpio:
    """Looks like the ``lgpio`` module; ``calls`` counts the calls by name."""

    SET_ACTIVE_LOW, SET_OPEN_DRAIN, SET_PULL_UP, SET_PULL_DOWN, SET_PULL_NONE = (
        SET_ACTIVE_LOW, SET_OPEN_DRAIN, SET_PULL_UP, SET_PULL_DOWN, SET_PULL_NONE)
    GROUP_ALL = GROUP_ALL
    error = error

    def __init__(self, matrix: "SimulatedMatrix", chip: int = 0, label: str = "pinctrl-bcm2711",
                 output_bias: bool = True):
        self.matrix = matrix
        self.output_bias = output_bias  # False: a kernel that refuses pull flags on output lines
        self.chip, self.label = chip, label
        self.calls: Counter[str] = Counter()
        self._open: set[int] = set()
        self._groups: dict[int, tuple[list[int], str, int]] = {}  # leader -> (gpios, "in"/"out", flags)
        self._owner: dict[int, int] = {}  # gpio -> leader
        self._levels: dict[int, int] = {}  # output leader -> last bits written

    def _call(self, name: str, handle: int | None = None) -> None:
        self.calls[name] += 1
        self.matrix.tick()
        if handle is not None and handle not in self._open:
            raise error(f"{name}: unknown handle {handle}")

    # -- chips
    def gpiochip_open(self, gpiochip: int) -> int:
        self._call("gpiochip_open")
        if gpiochip != self.chip:
            raise error(f"can not open gpiochip {gpiochip}")
        handle = len(self._open) + 1
        self._open.add(handle)
        return handle

    def gpiochip_close(self, handle: int) -> int:
        self._call("gpiochip_close", handle)
        self._open.discard(handle)
        return 0

    def gpio_get_chip_info(self, handle: int) -> tuple[int, int, str, str]:
        self._call("gpio_get_chip_info", handle)
        return 0, 54, f"gpiochip{self.chip}", self.label

    # -- groups
    def _claim(self, name: str, handle: int, gpios: list[int], kind: str, flags: int) -> None:
        self._call(name, handle)
        busy = [g for g in gpios if g in self._owner]
        if busy:
            raise error(f"GPIO busy: {busy}")
        self._groups[gpios[0]] = (list(gpios), kind, flags)
        for g in gpios:
            self._owner[g] = gpios[0]

    def group_claim_input(self, handle: int, gpio: list[int], lFlags: int = 0) -> int:  # noqa: N803
        self._claim("group_claim_input", handle, gpio, "in", lFlags)
        for g in gpio:
            self.matrix.drive(g, False)
            self.matrix.pull(g, bool(lFlags & SET_PULL_UP))
        return 0

    def group_claim_output(self, handle: int, gpio: list[int], levels: list[int] = [0],  # noqa: B006
                           lFlags: int = 0) -> int:  # noqa: N803
        if not self.output_bias and lFlags & (SET_PULL_UP | SET_PULL_DOWN):
            self._call("group_claim_output", handle)
            raise error("bad GPIO line flags")
        self._claim("group_claim_output", handle, gpio, "out", lFlags)
        levels = list(levels) + [0] * (len(gpio) - len(levels))
        self._set(gpio[0], sum(1 << k for k, v in enumerate(levels) if v))
        return 0

    def _set(self, leader: int, bits: int) -> None:
        gpios, _, flags = self._groups[leader]
        self._levels[leader] = bits
        for k, g in enumerate(gpios):
            high = bool(bits >> k & 1)
            if not flags & SET_OPEN_DRAIN and high:
                raise error("push-pull high on a matrix line: the simulation only models open-drain rows")
            self.matrix.drive(g, not high)
            self.matrix.pull(g, high and bool(flags & SET_PULL_UP))

    def group_write(self, handle: int, gpio: int, group_bits: int, group_mask: int = GROUP_ALL) -> int:
        self._call("group_write", handle)
        if gpio not in self._groups or self._groups[gpio][1] != "out":
            raise error(f"GPIO {gpio} is not the leader of an output group")
        old = self._levels[gpio]
        self._set(gpio, (old & ~group_mask) | (group_bits & group_mask))
        return 0

    def group_read(self, handle: int, gpio: int) -> tuple[int, int]:
        self._call("group_read", handle)
        if gpio not in self._groups:
            raise error(f"GPIO {gpio} is not a group leader")
        gpios, kind, _ = self._groups[gpio]
        if kind == "out":
            return len(gpios), self._levels[gpio]
        bits = 0
        for k, g in enumerate(gpios):
            level = self.matrix.level(g)
            if level is None or level:
                bits |= 1 << k
        return len(gpios), bits

    def group_free(self, handle: int, gpio: int) -> int:
        self._call("group_free", handle)
        gpios, _, _ = self._groups.pop(gpio)
        self._levels.pop(gpio, None)
        for g in gpios:
            del self._owner[g]
            self.matrix.drive(g, False)
            self.matrix.pull(g, False)
        return 0
