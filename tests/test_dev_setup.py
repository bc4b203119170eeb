"""``./dev``: installs only when the dependencies changed (a stamp in each venv), so a second run works
offline; the package metadata in setup.cfg, the version in one place; the RPi.GPIO extra."""

from __future__ import annotations

import configparser
import os
import shutil
import stat
import subprocess
from importlib.metadata import entry_points
from pathlib import Path

import rig

ROOT = Path(__file__).resolve().parent.parent
FAKE_PYTHON = """#!/bin/sh
# stands in for a venv's python: logs every call, succeeds
echo "$0 $*" >>"$LOG"
"""


def _tree(tmp: Path) -> Path:
    """A copy of what ``./dev setup`` reads, with fake venvs whose python only logs its calls."""
    work = tmp / "work"
    (work / "rig").mkdir(parents=True)
    for name in ("dev", "setup.cfg", "pyproject.toml", "rig/__init__.py"):
        shutil.copy2(ROOT / name, work / name)
    for env in (".venv", ".venv-py-draughts", ".venv-pydraughts"):
        python = work / env / "bin" / "python"
        python.parent.mkdir(parents=True)
        python.write_text(FAKE_PYTHON)
        python.chmod(python.stat().st_mode | stat.S_IXUSR)
    return work


def _setup(work: Path, log: Path) -> list[str]:
    log.write_text("")
    subprocess.run(["./dev", "setup"], cwd=work, env={**os.environ, "LOG": str(log)}, check=True,
                   capture_output=True, timeout=120)
    return [line for line in log.read_text().splitlines() if "pip install" in line]


def test_dev_installs_once_then_only_when_the_dependencies_change(tmp_path: Path) -> None:
    work, log = _tree(tmp_path), tmp_path / "log"
    first = _setup(work, log)
    assert len(first) == 3 and any("-e .[test]" in c for c in first)  # the project and both GPL peers
    assert _setup(work, log) == []  # nothing changed: no network needed
    with open(work / "setup.cfg", "a") as fh:
        fh.write("\n# a new dependency\n")
    again = _setup(work, log)
    assert len(again) == 1 and "-e .[test]" in again[0]  # only the project's venv; the peers stay
    assert _setup(work, log) == []


def test_metadata_in_setup_cfg_and_the_version_in_one_place() -> None:
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    assert cfg["metadata"]["version"] == "attr: rig.__version__"
    assert rig.__version__.count(".") == 2
    extras = cfg["options.extras_require"]
    assert "lgpio" in extras["pi"] and "RPi.GPIO" in extras["pi-rpigpio"]
    assert "ruff" in extras["test"] and "mypy" in extras["test"]


def test_gpiozero_knows_the_rpigpio_pin_factory_the_extra_installs() -> None:
    # GPIOZERO_PIN_FACTORY=rpigpio (README "Wiring a board") names this entry point of gpiozero
    names = {ep.name: ep.value for ep in entry_points(group="gpiozero_pin_factories")}
    assert names["rpigpio"].endswith(":RPiGPIOFactory") and "lgpio" in names
