"""The matrix configuration file (TOML): what ``rig calibrate matrix`` writes and ``rig run``/``rig record`` read.

    variant = "portuguese"
    scan_hz = 200.0
    debounce = 3
    settle_us = 50.0            # wait after driving a row before reading the columns

    [pins]                      # BCM GPIO numbers
    rows = [5, 6, 12, 13, 16, 19, 20, 21]
    cols = [17, 27, 22, 23]

    [map]
    axis = "ranks"              # matrix rows are ranks ("files": the board turned a quarter)
    orientation = "standard"    # as the wizard found it
    cells = [[4, 3, 2, 1], ...] # cells[row][col] = square number
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

from rig.variants import Variant, get_variant
from sensors.cellmap import CellMap, default_cellmap
from sensors.errors import MatrixConfigError
from sensors.pinmap import PinMap, default_pinmap

__all__ = ["MatrixConfig", "default_matrix_config", "load_matrix_config", "save_matrix_config"]


@dataclass(frozen=True)
class MatrixConfig:
    variant: Variant
    pins: PinMap
    cellmap: CellMap
    scan_hz: float = 200.0
    debounce: int = 3
    settle_us: float = 50.0
    axis: str = "ranks"
    orientation: str = "standard"
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        v = self.variant
        self.pins.check_size(v.size)
        if self.cellmap.variant != v:
            raise MatrixConfigError(f"the cell map is for {self.cellmap.variant.name}, the config for {v.name}")
        if not (isinstance(self.scan_hz, (int, float)) and self.scan_hz > 0):
            raise MatrixConfigError(f"scan_hz must be a positive number, not {self.scan_hz!r}")
        if isinstance(self.debounce, bool) or not isinstance(self.debounce, int) or self.debounce < 1:
            raise MatrixConfigError(f"debounce must be a whole number of scans >= 1, not {self.debounce!r}")
        if isinstance(self.settle_us, bool) or not isinstance(self.settle_us, (int, float)) or not (
                0 <= self.settle_us < 10000):
            raise MatrixConfigError(f"settle_us must be microseconds between 0 and 10000, not {self.settle_us!r}")

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"variant": self.variant.name, "scan_hz": float(self.scan_hz), "debounce": self.debounce,
             "settle_us": float(self.settle_us),
             "pins": self.pins.to_dict(),
             "map": {"axis": self.axis, "orientation": self.orientation, "cells": self.cellmap.to_lists()}}
        if self.notes:
            d["map"]["notes"] = list(self.notes)
        return d


def default_matrix_config(variant: Variant) -> MatrixConfig:
    """The standard wiring on the default pins (what an uncalibrated board assumes)."""
    return MatrixConfig(variant, default_pinmap(variant.size), default_cellmap(variant))


def load_matrix_config(path: str | Path) -> MatrixConfig:
    """Read and validate a matrix config; errors name the file and what is wrong."""
    try:
        with open(path, "rb") as fh:
            d = tomllib.load(fh)
    except FileNotFoundError:
        raise MatrixConfigError(f"{path}: no such matrix config (run `rig calibrate matrix`)") from None
    except tomllib.TOMLDecodeError as exc:
        raise MatrixConfigError(f"{path}: not valid TOML ({exc})") from None
    try:
        variant = get_variant(d["variant"])  # a config file is an edge: the name is resolved here, once
        m = d.get("map", {})
        cells = m.get("cells")
        cellmap = default_cellmap(variant) if cells is None else CellMap(variant, tuple(tuple(r) for r in cells))
        return MatrixConfig(variant=variant, pins=PinMap.from_dict(d.get("pins", {})), cellmap=cellmap,
                            scan_hz=d.get("scan_hz", 200.0), debounce=d.get("debounce", 3),
                            settle_us=d.get("settle_us", 50.0),
                            axis=m.get("axis", "ranks"), orientation=m.get("orientation", "standard"),
                            notes=tuple(m.get("notes", ())))
    except KeyError as exc:
        raise MatrixConfigError(f"{path}: missing key {exc}") from None
    except (MatrixConfigError, ValueError, TypeError) as exc:
        raise MatrixConfigError(f"{path}: {exc}") from None


def save_matrix_config(config: MatrixConfig, path: str | Path) -> None:
    Path(path).write_text(tomli_w.dumps(config.to_dict()), encoding="utf-8")
