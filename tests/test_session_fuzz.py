"""Bad session input (issue 9 part 4): a header with an unreadable FEN or another variant's rule set exits 2
naming the line, and a mutation fuzz of real sessions (lines truncated, doubled, dropped, reordered; fields
of the wrong type; header fields changed) either transcribes or raises SessionFormatError naming a line:
never another exception."""

from __future__ import annotations

import io
import json
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rig.cli import main
from rig.commands.transcribe import transcribe
from rig.errors import SessionFormatError
from rig.simulate import HumanModel, random_game, simulate_game
from rig.simulate.injections import find_ply
from rig.variants import get_variant

VARIANTS = ("portuguese", "brazilian", "international")
OTHER_RULESET = {"portuguese": "codex-64", "brazilian": "fmjd", "international": "fpd-2026"}
BAD_FENS = ("W:Wxx:B1", "W:W1,2:B1", "Q:W1:B2", "W:W99:B1", "W", "", ":::", "B:W1,2,3", "W:WK:B",
            "W:W31:B2:H0:F1", "[FEN \"W:W1:B2\"]")


@lru_cache(maxsize=None)
def session_lines(variant: str, clock: bool) -> tuple[str, ...]:
    """A short simulated game (all noise on, one irregularity) as JSON lines."""
    moves = random_game(variant, 12, seed="fuzz")
    ply = find_ply(get_variant(variant), moves, "opponent-piece-touched", clock=clock, start=2)
    s = simulate_game(variant, moves, seed=1, clock=clock, model=HumanModel.hard(),
                      inject=[f"opponent-piece-touched@{ply}"])
    return tuple(s.to_jsonl().splitlines())


def run_cli(tmp_path, lines, capsys) -> tuple[int, str]:
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = main(["transcribe", str(path), "--report", str(tmp_path / "r.json")])
    return code, capsys.readouterr().err


def with_header(lines, **changes) -> list[str]:
    head = json.loads(lines[0])
    head.update(changes)
    return [json.dumps(head)] + list(lines[1:])


CASES = [pytest.param(v, c, id=f"{v}-{'clock' if c else 'noclock'}") for v in VARIANTS for c in (True, False)]


@pytest.mark.parametrize("variant,clock", CASES)
@pytest.mark.parametrize("fen", BAD_FENS[:4])
def test_unreadable_fen_in_header_exits_2_naming_line_1(tmp_path, capsys, variant, clock, fen):
    code, err = run_cli(tmp_path, with_header(session_lines(variant, clock), fen=fen), capsys)
    assert code == 2
    assert "line 1" in err and "'fen'" in err and variant in err and "Traceback" not in err


@pytest.mark.parametrize("variant,clock", CASES)
def test_rule_set_of_another_variant_exits_2_naming_line_1(tmp_path, capsys, variant, clock):
    other = OTHER_RULESET[variant]
    code, err = run_cli(tmp_path, with_header(session_lines(variant, clock), ruleset=other), capsys)
    assert code == 2
    assert "line 1" in err and f"rule set {other!r}" in err and f"not {variant}" in err


@pytest.mark.parametrize("variant,clock", CASES)
def test_unmutated_session_transcribes(variant, clock):
    engine = transcribe(io.StringIO("\n".join(session_lines(variant, clock)) + "\n"))
    assert engine.moves and engine.pdn()


# -- mutation fuzz ----------------------------------------------------------------------------

WRONG_VALUES = st.sampled_from([None, True, False, -1, 0, 1.5, 10 ** 12, float("nan"), "x", "", [], [1, "a"], {},
                                {"a": 1}, [-3], [10 ** 6], "W:W1:B2"])
HEADER_CHANGES = st.one_of(
    st.tuples(st.just("variant"), st.sampled_from(VARIANTS + ("chess", "", None, 3))),
    st.tuples(st.just("ruleset"), st.sampled_from(("fpd-2026", "fpd-classic", "fmjd", "codex-64", "codex-100",
                                                   "fide", None, 7))),
    st.tuples(st.just("fen"), st.sampled_from(BAD_FENS + (None, "W:W1:B32", "B:W32:B1", "W:WK5:BK46",
                                                          "W:W21,22:B11,12", "B:W:B", "W:W:B"))),
    st.tuples(st.just("fen"), st.text(alphabet="WBK:,0123456789-.HF\"", max_size=24)),
    st.tuples(st.just("tags"), WRONG_VALUES),
    st.tuples(st.just("version"), st.sampled_from((0, 1, 2, "1", None))),
    st.tuples(st.just("clock"), WRONG_VALUES),
)


def _mutate(lines: list[str], op: str, i: int, j: int, data) -> list[str]:
    n = len(lines)
    i, j = i % n, j % n
    if op == "truncate":
        lines[i] = lines[i][: data.draw(st.integers(0, max(0, len(lines[i]) - 1)))]
    elif op == "double":
        lines.insert(i, lines[i])
    elif op == "drop":
        del lines[i]
    elif op == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    elif op == "move":
        lines.insert(j, lines.pop(i))
    elif op == "field":
        obj = json.loads(lines[i]) if lines[i].startswith("{") and lines[i].endswith("}") else None
        if isinstance(obj, dict) and obj:
            key = data.draw(st.sampled_from(sorted(obj)))
            obj[key] = data.draw(WRONG_VALUES)
            lines[i] = json.dumps(obj)
    elif op == "header":
        obj = json.loads(lines[0]) if lines and lines[0].startswith("{") and lines[0].endswith("}") else None
        if isinstance(obj, dict):
            key, value = data.draw(HEADER_CHANGES)
            obj[key] = value
            lines[0] = json.dumps(obj)
    return lines


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(variant=st.sampled_from(VARIANTS), clock=st.booleans(),
       ops=st.lists(st.tuples(st.sampled_from(("truncate", "double", "drop", "swap", "move", "field", "header")),
                              st.integers(0, 10 ** 4), st.integers(0, 10 ** 4)), min_size=1, max_size=4),
       data=st.data())
def test_mutated_session_transcribes_or_names_a_line(variant, clock, ops, data):
    lines = list(session_lines(variant, clock))
    for op, i, j in ops:
        if lines:
            lines = _mutate(lines, op, i, j, data)
    try:
        engine = transcribe(io.StringIO("\n".join(lines) + "\n"))
    except SessionFormatError as exc:
        assert exc.line is not None and exc.line >= 1
        return
    # what `rig transcribe` writes next must not fail either
    assert engine.pdn()
    json.dumps(engine.report())
