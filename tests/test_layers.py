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

No module imports a private name (``_x``) of another module, and the import graph has no cycle (every import
statement that runs, lazy ones included; only ``if TYPE_CHECKING:`` blocks are left out).
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
          "paho", "picamera2", "select", "signal", "termios", "pty", "tty", "time", "http", "urllib", "ssl",
          "selectors", "concurrent", "fcntl", "smbus", "smbus2", "spidev", "PIL")
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


def _runtime_imports(module: str, path: Path) -> set[str]:
    """The modules of the tree ``module`` imports when it runs: every import statement, in functions too, but
    not those under ``if TYPE_CHECKING:`` (types only, never executed). ``from pkg import name`` is an edge to
    the submodule ``pkg.name`` where there is one, else to ``pkg`` (whose ``__init__`` runs)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]

    def known(name: str) -> str | None:
        while name and name not in MODULES:
            name = name.rpartition(".")[0]
        return name or None

    out: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            out.update(t for a in node.names if (t := known(a.name)))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package
                for _ in range(node.level - 1):
                    up = up.rpartition(".")[0]
                base = f"{up}.{base}" if base else up
            for alias in node.names:
                target = f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else known(base)
                if target:
                    out.add(target)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    out.discard(module)
    return out


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The cycles of ``graph``: one per strongly connected component of more than one module, as a closed path."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def connect(v: str) -> None:   # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(component)

    for v in sorted(graph):
        if v not in index:
            connect(v)
    cycles = []
    for component in components:   # a path through the component back to its first module
        members, start = set(component), min(component)
        path, seen = [start], {start}
        while True:
            nxt = sorted(w for w in graph[path[-1]] if w in members)
            back = [w for w in nxt if w == start]
            if back and len(path) > 1:
                cycles.append(path + [start])
                break
            fresh = [w for w in nxt if w not in seen]
            if not fresh:
                cycles.append(path + ["..."])
                break
            path.append(fresh[0])
            seen.add(fresh[0])
    return sorted(cycles)


def test_no_import_cycle():
    graph = {m: _runtime_imports(m, p) for m, p in MODULES.items()}
    assert sum(len(v) for v in graph.values()) > 200   # the graph was read
    assert import_cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e2"}, "e2": {"e"}}
    assert import_cycles(graph) == [["a", "b", "c", "a"], ["e", "e2", "e"]]
    assert import_cycles({"x": {"y"}, "y": set()}) == []
