"""The layers of the tree (docs/architecture.md): a pure core, device drivers behind it, the application on top.

Checked from the source (every import statement, lazy ones included), so a new file that breaks the rule
fails here before anyone has to find the cycle:

- **core** (``rig`` but its application subpackages): rules, PDN, sessions, reconstruction, the simulator's
  human model. It imports only the core and the standard library's pure parts: no device, thread, process,
  network, database or web code.
- **devices** (``sensors`` with the clock drivers, ``vision``, ``calibration``): may import the core and
  each other, never the application.
- **application** (``rig.live``, ``rig.web``, ``rig.hub``, ``rig.commands``, ``rig.demo``, ``rig.cli``):
  may import anything.

No module imports a private name (``_x``) of another module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APP = ("rig.live", "rig.web", "rig.hub", "rig.commands", "rig.demo", "rig.cli")
DEVICES = ("sensors", "vision", "calibration")
#: standard-library and third-party modules the pure core must not import
IMPURE = ("threading", "socket", "subprocess", "asyncio", "multiprocessing", "sqlite3", "queue", "serial",
          "gpiozero", "lgpio", "RPi", "cv2", "numpy", "starlette", "sse_starlette", "uvicorn", "httpx",
          "paho", "picamera2", "select", "signal", "termios", "pty", "tty")
#: core modules allowed a device import, with the reason (none today)
CORE_EXCEPTIONS: set[tuple[str, str]] = set()


def _modules():
    for top in ("rig", "sensors", "vision", "calibration"):
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("")
            parts = list(rel.parts)
            if parts[-1] == "__init__":
                parts.pop()
            yield ".".join(parts), path


def _layer(module: str) -> str:
    if any(module == a or module.startswith(a + ".") for a in APP):
        return "app"
    if module.split(".")[0] in DEVICES:
        return "devices"
    if module.split(".")[0] == "rig":
        return "core"
    return "other"


def _imports(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, None
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                yield node.lineno, node.module, alias.name


MODULES = dict(_modules())


@pytest.mark.parametrize("module", sorted(MODULES))
def test_module_respects_its_layer(module):
    path = MODULES[module]
    mine = _layer(module)
    wrong = []
    for line, target, name in _imports(path):
        theirs = _layer(target)
        if (module, target) in CORE_EXCEPTIONS:
            continue
        if mine == "core" and (theirs in ("devices", "app") or target.split(".")[0] in IMPURE):
            wrong.append(f"line {line}: the core imports {target}")
        if mine == "devices" and theirs == "app":
            wrong.append(f"line {line}: a device module imports the application's {target}")
        if name and name.startswith("_") and not name.startswith("__") and theirs != "other" \
                and target != module:
            wrong.append(f"line {line}: imports the private name {name} of {target}")
    assert not wrong, f"{path.relative_to(ROOT)}: " + "; ".join(wrong)


def test_every_package_has_a_layer():
    assert {_layer(m) for m in MODULES} <= {"core", "devices", "app"}
    # the core exists and is the larger part of rig/
    assert sum(1 for m in MODULES if _layer(m) == "core") > 30
