"""The session format (docs/session-format.md): reading, writing, and malformed input."""

import io

import pytest

from rig.errors import SessionFormatError
from rig.rulesets import FMJD
from rig.session import ClockEvent, Frame, Header, dump_event, read_session, write_session
from rig.variants import INTERNATIONAL

HEADER = '{"type": "header", "version": 1, "variant": "portuguese", "ruleset": "fpd-2026", "fen": null, "tags": {"White": "A"}}'


def read(text):
    return read_session(io.StringIO(text))


def test_round_trip():
    h = Header(INTERNATIONAL, FMJD, None, {"Event": "Test"})
    events = [Frame(0.0, frozenset(range(1, 21)) | frozenset(range(31, 51))),
              ClockEvent(1.5, "press", side="white"),
              ClockEvent(1.5, "time", white_ms=598000, black_ms=600000),
              Frame(2.0, frozenset({1, 2}), pieces={1: "w", 2: "B"})]
    buf = io.StringIO()
    write_session(buf, h, events)
    h2, ev2 = read(buf.getvalue())
    assert h2 == h and ev2 == events


def test_default_ruleset_per_variant():
    h, _ = read('{"type": "header", "version": 1, "variant": "brazilian", "fen": null, "tags": {}}\n')
    assert h.ruleset.id == "codex-64"


@pytest.mark.parametrize("lines, line_no, words", [
    (["{not json"], 1, "not valid JSON"),
    ([], 1, "header is missing"),
    (['{"type": "frame", "t": 0, "occupied": []}'], 1, "first line must be the header"),
    ([HEADER, '{"type": "frame", "t": 1, "occupied": [33]}'], 2, "unknown square 33"),
    ([HEADER, '{"type": "frame", "t": 2, "occupied": [1]}', '{"type": "frame", "t": 1, "occupied": [1]}'], 3,
     "time goes backwards"),
    ([HEADER, '{"type": "clock", "t": 1, "event": "press"}'], 2, "needs 'side'"),
    ([HEADER, '{"type": "clock", "t": 1, "event": "time", "white_ms": -5, "black_ms": 0}'], 2, "non-negative"),
    ([HEADER, '{"type": "dance", "t": 1}'], 2, "unknown line type"),
    ([HEADER, '{"type": "frame", "t": "soon", "occupied": []}'], 2, "must be a number"),
    ([HEADER, '[1, 2]'], 2, "JSON object"),
    (['{"type": "header", "version": 9, "variant": "portuguese"}'], 1, "unsupported session version"),
    (['{"type": "header", "version": 1, "variant": "chess"}'], 1, "unknown variant"),
    ([HEADER, HEADER], 2, "second header"),
    ([HEADER, '{"type": "frame", "t": 1, "occupied": [1], "pieces": {"1": "q"}}'], 2, "not one of"),
])
def test_malformed_sessions_name_the_line(lines, line_no, words):
    with pytest.raises(SessionFormatError) as e:
        read("\n".join(lines) + "\n")
    assert e.value.line == line_no
    assert words in str(e.value)
    assert isinstance(e.value, ValueError)


def test_unknown_optional_fields_are_kept_for_clock_and_ignored_elsewhere():
    h, ev = read(HEADER + '\n{"type": "clock", "t": 1, "event": "disconnected", "source": "dgt"}\n')
    assert ev[0].extra == {"source": "dgt"}
    assert '"source": "dgt"' in dump_event(ev[0])


@pytest.mark.parametrize("fields, words", [
    ('"variant": "portuguese", "ruleset": "fmjd"', "rule set 'fmjd' is for international, not portuguese"),
    ('"variant": "brazilian", "ruleset": "fpd-2026"', "rule set 'fpd-2026' is for portuguese, not brazilian"),
    ('"variant": "international", "ruleset": "codex-64"', "rule set 'codex-64' is for brazilian, not international"),
    ('"variant": "portuguese", "fen": "W:Wxx:B1"', "'fen' is not a position of the portuguese board"),
    ('"variant": "international", "fen": "W:W51:B1"', "'fen' is not a position of the international board"),
    ('"variant": "brazilian", "fen": "Q:W1:B2"', "'fen' is not a position of the brazilian board"),
    ('"variant": "portuguese", "clock": "yes"', "'clock' must be true or false"),
])
def test_header_of_another_variant_or_unreadable_fen_names_line_1(fields, words):
    with pytest.raises(SessionFormatError) as e:
        read('{"type": "header", "version": 1, ' + fields + '}\n')
    assert e.value.line == 1 and words in str(e.value)


def test_header_fen_and_ruleset_of_the_variant_are_kept():
    h, _ = read('{"type": "header", "version": 1, "variant": "international", "ruleset": "codex-100", '
                '"fen": "W:W31,32:B19,20", "clock": false}\n')
    assert (h.ruleset.id, h.fen, h.extra["clock"]) == ("codex-100", "W:W31,32:B19,20", False)
