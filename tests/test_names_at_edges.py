"""Names at the edges (docs/architecture.md): inside, a variant is a :class:`~rig.variants.Variant` and a rule set a
:class:`~rig.rulesets.RuleSet`; a name is resolved once, where it enters (command line, session header, PDN, config
files, the database and the boards' messages), and written back only there.

Checked from the source: a call of ``get_variant``/``get_ruleset`` or a look-up in the ``VARIANTS``/``RULESETS``
tables (however imported or renamed) is allowed only in the modules listed in :data:`EDGES`, each with its reason;
the list is exact (a module that no longer resolves a name leaves it). The value types hold objects.
"""

from __future__ import annotations

import ast
import dataclasses
import typing
from pathlib import Path

import pytest

from rig.rulesets import RuleSet
from rig.variants import Variant

ROOT = Path(__file__).resolve().parent.parent
#: where a name may be resolved, and why
EDGES: dict[str, str] = {
    "rig.variants": "defines get_variant and the VARIANTS table",
    "rig.ruleset_defs": "defines get_ruleset and the RULESETS table",
    "rig.rulesets": "re-exports get_ruleset and RULESETS; GameTracker(ruleset) takes an id (public API, docstring)",
    "rig.board": "Board(variant=...) takes a name (public API, the rig package doctest)",
    "rig.geometry": "geometry(name) is public API (tests/test_variant_objects.py)",
    "rig.pdn.reader": "PDN: read_games(text, default_variant) takes a name (GameType is read by rig.pdn.gametype)",
    "rig.pdn.record": "GameRecord(variant) takes a name (public API, tests/test_variant_objects.py)",
    "rig.simulate.game": "simulate_game(variant, ruleset=) take names (public API, the rig.simulate doctest)",
    "rig.session": "the session header: its names are resolved by the parser (SessionFormatError naming line 1)",
    "rig.commands.names": "the command line: argparse type= converters of --variant and --ruleset",
    "rig.commands.rules": "the command line: rig rules resolves --variant/--ruleset itself (its errors exit 2)",
    "rig.hub.model": "the network: a board's MQTT snapshot header",
    "rig.hub.pairings": "a config file: the pairings CSV/TOML",
    "rig.hub.store": "the hub's SQLite database (names stored as text)",
    "sensors.config": "a config file: the matrix TOML",
    "vision.config": "a config file: the camera TOML",
}
#: the resolving functions and tables, by the module that defines them
RESOLVERS = {("rig.variants", "get_variant"), ("rig.rulesets", "get_ruleset"), ("rig.variants", "VARIANTS"),
             ("rig.rulesets", "RULESETS"), ("rig.ruleset_defs", "get_ruleset"), ("rig.ruleset_defs", "RULESETS"),
             ("rig", "get_variant"), ("rig", "get_ruleset")}


def _modules():
    for top in ("rig", "sensors", "vision", "calibration"):
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            yield ".".join(parts), path


MODULES = dict(_modules())


def lookups(module: str, path: Path) -> list[str]:
    """Where ``module`` resolves a name (``line N: what``): a call of a resolver function, or a look-up in a
    table (``TABLE[name]``, ``TABLE.get(name)``); iterating a table or comparing with it is no look-up."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    bound = {name: name for mod, name in RESOLVERS if mod == module}   # its own definitions
    modules = set()   # names bound to rig.variants / rig.rulesets themselves
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                if (node.module, alias.name) in RESOLVERS:
                    bound[alias.asname or alias.name] = alias.name
                if f"{node.module}.{alias.name}" in ("rig.variants", "rig.rulesets", "rig.ruleset_defs"):
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in ("rig.variants", "rig.rulesets", "rig.ruleset_defs"):
                    modules.add(alias.asname or alias.name)

    def resolver(expr: ast.expr) -> str | None:
        """The resolver ``expr`` names (``get_variant``, ``VARIANTS``, ...), or None."""
        if isinstance(expr, ast.Name) and expr.id in bound:
            return bound[expr.id]
        if isinstance(expr, ast.Attribute) and expr.attr in {n for _, n in RESOLVERS} and \
                ast.unparse(expr.value) in modules | {"rig.variants", "rig.rulesets", "rig.ruleset_defs", "rig"}:
            return expr.attr
        return None

    out = []
    for node in ast.walk(tree):
        what = None
        if isinstance(node, ast.Call):
            func = node.func
            name = resolver(func)
            if name in ("get_variant", "get_ruleset"):
                what = f"{name}()"
            elif isinstance(func, ast.Attribute) and func.attr == "get" and resolver(func.value):
                what = f"{resolver(func.value)}.get()"
        elif isinstance(node, ast.Subscript) and resolver(node.value):
            what = f"{resolver(node.value)}[...]"
        if what is not None:
            out.append(f"line {node.lineno}: {what}")
    return out


@pytest.mark.parametrize("module", sorted(MODULES))
def test_names_are_resolved_only_at_the_edges(module: str) -> None:
    found = lookups(module, MODULES[module])
    if module in EDGES:
        assert found, f"{module} resolves no name any more: take it out of EDGES ({EDGES[module]})"
    else:
        assert not found, (f"{module} resolves a name inside ({'; '.join(found)}): pass the Variant/RuleSet "
                           "object in, and resolve the name where it enters (docs/architecture.md)")


def test_every_edge_is_a_module_of_the_tree() -> None:
    assert set(EDGES) <= set(MODULES)


def test_the_engine_and_the_core_resolve_nothing() -> None:
    inside = [m for m in MODULES if m.startswith(("rig.reconstruct", "rig.law", "rig.fen", "rig.move", "rig.perft",
                                                  "rig.pdn.gametype", "rig.simulate.simulation", "rig.web"))]
    assert inside and not any(m in EDGES for m in inside)


@pytest.mark.parametrize("cls,fields", [
    ("rig.session:Header", {"variant": "Variant", "ruleset": "RuleSet"}),
    ("rig.rulesets:RuleSet", {"variant": "Variant"}),
    ("sensors.cellmap:CellMap", {"variant": "Variant"}),
    ("sensors.config:MatrixConfig", {"variant": "Variant"}),
    ("vision.config:CameraConfig", {"variant": "Variant"}),
    ("vision.stability:BoardWatcher", {"variant": "Variant"}),
    ("rig.simulate.games:GameSource", {"variant": "Variant"}),
    ("rig.hub.feed:RelayFeed", {"variant": "Variant"}),
    ("rig.hub.model:GameState", {"variant": "Variant", "ruleset": "RuleSet | None"}),
    ("rig.hub.pairings:Pairing", {"variant": "Variant | None"}),
])
def test_value_types_hold_objects(cls: str, fields: dict[str, str]) -> None:
    import importlib

    module, name = cls.split(":")
    klass = getattr(importlib.import_module(module), name)
    declared = {f.name: f.type for f in dataclasses.fields(klass)}
    assert {k: declared[k] for k in fields} == fields
    hints = typing.get_type_hints(klass)  # the annotations name the real classes
    assert all(set(typing.get_args(hints[k]) or (hints[k],)) <= {Variant, RuleSet, type(None)} for k in fields)


def test_a_header_refuses_names() -> None:
    from rig.rulesets import FPD_2026
    from rig.session import Header
    from rig.variants import PORTUGUESE

    assert Header(PORTUGUESE, FPD_2026).to_json()["variant"] == "portuguese"
    with pytest.raises(TypeError, match="Variant and a RuleSet"):
        Header("portuguese", "fpd-2026")  # type: ignore[arg-type]


def test_a_bad_name_on_the_command_line_is_argparse_s_error(capsys: pytest.CaptureFixture[str]) -> None:
    from rig.cli import main

    with pytest.raises(SystemExit) as info:
        main(["perft", "Chess", "1"])
    assert info.value.code == 2
    assert "argument VARIANT: unknown variant 'Chess'; known: portuguese, brazilian, international" in \
        capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        main(["run", "--ruleset", "fide", "--out", "x"])
    assert info.value.code == 2 and "unknown rule set 'fide'" in capsys.readouterr().err
    assert main(["perft", "International", "1"]) == 0  # the converter takes any case, as get_variant does
    assert "9" in capsys.readouterr().out


def test_another_variant_s_rule_set_is_refused_before_recording(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    from rig.cli import main

    out = tmp_path / "s.jsonl"
    assert main(["record", "--simulate", "--ruleset", "fmjd", "-o", str(out), "--config", ""]) == 2
    assert "rule set fmjd is for international, not portuguese; portuguese is played under fpd-2026, fpd-classic" \
        in capsys.readouterr().err
    assert not out.exists()  # no header that no reader would take


def test_the_hub_database_keeps_names_and_gives_back_objects() -> None:
    from rig.hub.feed import RelayFeed
    from rig.hub.model import GameState
    from rig.hub.pairings import Pairing
    from rig.hub.store import Store
    from rig.rulesets import CODEX_64
    from rig.variants import BRAZILIAN, PORTUGUESE

    store = Store(":memory:")
    store.save_game(GameState(1, "b1", "s1", BRAZILIAN, CODEX_64))
    store.save_game(GameState(1, "b2", "s2", PORTUGUESE))
    store.save_feed(1, "b1", 0, RelayFeed(BRAZILIAN, {"White": "A"}), 0)
    store.save_pairings([Pairing(1, "b1", "A", "B", 1, BRAZILIAN), Pairing(1, "b2", "C", "D", 2)])
    assert [r["variant"] for r in store.rows("SELECT variant FROM games ORDER BY board")] == ["brazilian", "portuguese"]
    games = {g.board: g for g in store.load_games()}
    assert (games["b1"].variant, games["b1"].ruleset, games["b2"].ruleset) == (BRAZILIAN, CODEX_64, None)
    assert games["b1"].detail()["ruleset"] == "codex-64" and games["b2"].detail()["ruleset"] == ""
    assert store.load_feeds()[1][0][1].variant is BRAZILIAN
    assert [p.variant for p in store.load_pairings()] == [BRAZILIAN, None]
