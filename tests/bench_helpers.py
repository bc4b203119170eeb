"""Load a script of bench/ as a module, for the tests of the benchmarks' own logic."""

from __future__ import annotations

import importlib.util
import os
from types import ModuleType

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "bench")


def load_bench(name: str) -> ModuleType:
    """The module ``bench/<name>.py`` (bench/ is no package: its scripts run as ``python bench/x.py``)."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(BENCH, f"{name}.py"))
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
