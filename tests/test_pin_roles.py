"""Every document agrees with sensors/pinmap.py on what each GPIO does.

``pin_roles()`` is the one source of truth. Generated files (WIRING.md, the schematics) are checked
exactly; hand-written text (README, docs/, hardware/ notes, module docstrings) is checked for role
words: every role word in a sentence belongs to the nearest GPIO mentioned, and must be one the
pin's role (or one of its other functions) allows. "Spare: GPIO4" fails while GPIO4 is a clock
button; "I2C1 (GPIO2, GPIO3)" passes.
"""

import ast
import re
from pathlib import Path

import pytest

from sensors.pinmap import ALT_FUNCTIONS, CLOCK_BUTTON_PINS, DEFAULT_PINMAP_8x8, DEFAULT_PINMAP_10x10, pin_roles

ROOT = Path(__file__).resolve().parent.parent
ROLES = {r.gpio: r for r in pin_roles()}

WORDS = [  # (pattern, tag)
    (r"\brows?\b|\bROW\d", "row"), (r"\bcol(?:umn)?s?\b|\bCOL\d", "col"),
    (r"button|\bclock\b|player|\bpause\b", "clock"), (r"\bspare\b", "spare"),
    (r"\bfree\b|\bunused\b|not used", "free"), (r"I2C\d?", "i2c"), (r"UART\d?|serial console", "uart"),
    (r"SPI0", "spi0"), (r"SPI1", "spi1"), (r"keeps? clear|stays? clear|\bavoids?\b", "free"), (r"PCM|I2S", "pcm"), (r"EEPROM|ID_S[DC]", "eeprom"), (r"PWM", "pwm"),
    (r"GPCLK|1-Wire", "gpclk"),
]
MENTION = re.compile(r"\b(?:GPIO ?|BCM ?)(\d{1,2})\b")


def tags_of(text: str) -> set[str]:
    return {tag for pat, tag in WORDS if re.search(pat, text, re.I)}


def accepted(gpio: int) -> set[str]:
    """The role words that may stand next to ``gpio``."""
    r = ROLES[gpio]
    base = {"matrix-row": {"row"}, "matrix-col": {"col"}, "clock-button": {"clock"}, "kept-free": {"free"},
            "spare": {"spare", "free"}}[r.kind]
    if r.kind.startswith("matrix") and "8x8" not in r.boards:
        base |= {"spare"}
    return base | tags_of(r.text) | tags_of(ALT_FUNCTIONS.get(gpio, ""))


def sentences(text: str):
    """Table rows, and the sentences of the paragraphs (lines joined)."""
    for para in re.split(r"\n\s*\n", text):
        rows = [ln for ln in para.splitlines() if ln.lstrip().startswith("|")]
        yield from rows
        rest = " ".join(ln.strip() for ln in para.splitlines() if not ln.lstrip().startswith("|"))
        yield from (s for s in re.split(r"(?<=[.;])\s+|\s+-\s+(?=\S)", rest) if s)


def contradictions(text: str) -> list[str]:
    """(gpio, role words) pairs where the words do not fit the pin's role."""
    out = []
    for s in sentences(text):
        ms = list(MENTION.finditer(s))
        if not ms:
            continue
        owned: list[set[str]] = [set() for _ in ms]
        for pat, tag in WORDS:
            for w in re.finditer(pat, s, re.I):
                if any(m.start() <= w.start() < m.end() for m in ms):
                    continue
                dist = [min(abs(w.start() - m.end()), abs(m.start() - w.end())) for m in ms]
                best = min(dist)
                owned[max(k for k, d in enumerate(dist) if d == best)].add(tag)  # ties: "NAME (GPIOn)"
        for sig in re.finditer(r"\b(ROW\d+|COL\d+|BTN_[A-Z]+)\b", s):
            dist = [min(abs(sig.start() - m.end()), abs(m.start() - sig.end())) for m in ms]
            best = min(dist)
            k = max(k for k, d in enumerate(dist) if d == best)
            g = int(ms[k].group(1))
            if g in ROLES and ROLES[g].signal != sig.group(1):
                out.append(f"GPIO{g} is {ROLES[g].signal}, not {sig.group(1)}: {s.strip()!r}")
        prev: set[str] = set()
        for m, tags in zip(ms, owned):
            tags = tags or prev
            prev = tags
            g = int(m.group(1))
            if g not in ROLES:
                out.append(f"GPIO{g} is not a header GPIO: {s!r}")
            elif tags - accepted(g):
                out.append(f"GPIO{g} ({ROLES[g].text}) is called {sorted(tags - accepted(g))}: {s.strip()!r}")
    return out


def prose(path: Path) -> str:
    """A document's prose: the file for Markdown, the docstrings and comments of a Python module."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        return text
    tree = ast.parse(text)
    docs = [ast.get_docstring(n) or "" for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))]
    comments = [ln.split("#", 1)[1] for ln in text.splitlines() if ln.lstrip().startswith("#")]
    return "\n\n".join(docs + comments)


def documents() -> list[Path]:
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "hardware").rglob("*.md"))]
    docs += [*sorted((ROOT / "sensors").glob("*.py")), ROOT / "sensors" / "clock" / "gpio.py",
             *sorted((ROOT / "hardware").rglob("*.py")), *sorted((ROOT / "calibration").glob("*.py"))]
    return docs


def test_the_checker_catches_the_old_contradictions():
    assert contradictions("Spare: GPIO4 (pin 7), GPIO18 (pin 12).")  # clock buttons called spare
    assert contradictions("- GPIO7 (pin 26): left free on purpose.")   # the pause button called free
    assert contradictions("The defaults keep clear of PCM (GPIO 19, 20).")  # both are matrix rows
    assert not contradictions("the HAT ID EEPROM (GPIO0, GPIO1), I2C1 (GPIO2, GPIO3) stay free.")
    assert not contradictions("| 7 | GPIO4 | clock button, left player | BTN_LEFT |")
    assert contradictions("| 7 | GPIO4 | matrix row 4 | ROW4 |")
    assert contradictions("| ROW5 | GPIO20 | 38 |")                   # GPIO20 is ROW6


@pytest.mark.parametrize("path", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_document_agrees_with_the_pin_roles(path):
    assert contradictions(prose(path)) == []


def test_wiring_table_is_the_role_table():
    text = (ROOT / "hardware" / "schematics" / "WIRING.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \| GPIO(\d+) \| ([^|]+) \| ([^|]+) \|", text, re.M)
    assert {int(g): (int(p), role.strip(), net.strip()) for p, g, role, net in rows} == {
        r.gpio: (r.header, r.text, r.signal or "-") for r in pin_roles()}


def test_roles_cover_the_header_once_and_match_the_code():
    from sensors.clock.gpio import DEFAULT_PINS

    kinds = {r.gpio: r.kind for r in pin_roles()}
    assert len(kinds) == 28
    rows = {ROLES[g].signal: g for g in ROLES if ROLES[g].kind == "matrix-row"}
    cols = {ROLES[g].signal: g for g in ROLES if ROLES[g].kind == "matrix-col"}
    assert [rows[f"ROW{i}"] for i in range(10)] == list(DEFAULT_PINMAP_10x10.rows)
    assert [cols[f"COL{j}"] for j in range(5)] == list(DEFAULT_PINMAP_10x10.cols)
    assert DEFAULT_PINMAP_8x8.rows == DEFAULT_PINMAP_10x10.rows[:8]
    buttons = {ROLES[g].signal: g for g in ROLES if ROLES[g].kind == "clock-button"}
    assert buttons == {f"BTN_{k.upper()}": g for k, g in CLOCK_BUTTON_PINS.items()} and DEFAULT_PINS == CLOCK_BUTTON_PINS
