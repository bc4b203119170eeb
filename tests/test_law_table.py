"""The law table (rig.law): every irregularity type under every rule set, and ``rig rules --ruleset R``."""

from __future__ import annotations

import pytest

from rig.cli import main
from pathlib import Path

from rig.law import (BOOKS, IRREGULARITY_TYPES, OBSERVATION_TYPES, Consequence, TouchMove, book_for, law_for, laws,
                     rule_for, status_after_reply)
from rig.reconstruct.outputs import RULES
from rig.rulesets import RULESETS, UnknownRuleSetError, get_ruleset

PREFIX = {"fpd-2026": "FPD ", "fpd-classic": "FPD classic ", "fmjd": "FMJD ", "codex-64": "CODEX art. ",
          "codex-100": "CODEX art. "}
#: the only (rule set, type) pairs a book does not make irregular
ABSENT = {("fpd-classic", "uncrowned-king-moved"), ("fpd-2026", "capture-removed-out-of-order"),
          ("fpd-classic", "capture-removed-out-of-order")}


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_type_has_its_article_consequence_and_status_under_every_rule_set(ruleset):
    assert set(BOOKS) == set(RULESETS)
    for kind in IRREGULARITY_TYPES + ("capture-removed-out-of-order",):
        law = law_for(RULESETS[ruleset], kind)
        if (ruleset, kind) in ABSENT:
            assert law is None and rule_for(RULESETS[ruleset], kind) == ""
            continue
        assert law is not None and law.type == kind
        assert law.article.startswith(PREFIX[ruleset]) and law.text
        assert isinstance(law.consequence, Consequence)
        assert law.status_after_reply == ("accepted" if law.consequence is Consequence.ACCEPTED else "open")
        assert status_after_reply(RULESETS[ruleset], kind) == law.status_after_reply


def test_fpd_000_7_5a_and_001_5_1_3_nothing_is_accepted_by_the_next_move():
    for ruleset in ("fpd-2026", "fpd-classic"):
        assert all(law.consequence is not Consequence.ACCEPTED for law in laws(RULESETS[ruleset]))
        assert law_for(RULESETS[ruleset], "illegal-move").consequence is Consequence.RESTORE
        assert book_for(RULESETS[ruleset]).touch_move is TouchMove.FIRST_TOUCHED
    assert law_for(RULESETS["fpd-2026"], "opponent-piece-touched").consequence is Consequence.PENALTY
    assert law_for(RULESETS["fpd-2026"], "clock-without-move").penalty == "FPD 7.5b, 12.9"


def test_codex_50_and_fmjd_5_7_the_next_move_accepts_what_art_42_and_5_4_list():
    for ruleset in ("fmjd", "codex-64", "codex-100"):
        moves = [k for k in IRREGULARITY_TYPES if k not in ("wrong-setup", "position-lost")]
        assert all(law_for(RULESETS[ruleset], k).consequence is Consequence.ACCEPTED for k in moves)
        assert law_for(RULESETS[ruleset], "capture-removed-out-of-order").observation
    assert book_for(RULESETS["fmjd"]).touch_move is TouchMove.EVERY_TOUCHED
    assert book_for(RULESETS["codex-64"]).touch_move is TouchMove.EXCEPT_CAPTURE
    assert law_for(RULESETS["codex-64"], "capture-removed-out-of-order").article == "CODEX art. 89 (FMJD 4.11)"


def test_rules_fallback_names_every_book():
    assert RULES["capture-not-removed"] == ("FPD 3.4c; FPD classic 2.2.8, 5.1.3; FMJD 4.4, 5.4.11; "
                                            "CODEX art. 42.K")
    with pytest.raises(UnknownRuleSetError):
        get_ruleset("fide")
    with pytest.raises(TypeError, match="get_ruleset"):
        book_for("fmjd")  # type: ignore[arg-type]  # a name is resolved at the edge, never inside


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_rig_rules_prints_the_law(ruleset, capsys):
    assert main(["rules", "--ruleset", ruleset]) == 0
    out = capsys.readouterr().out
    for law in laws(RULESETS[ruleset]):
        assert f"{law.article}: {law.consequence.description}" in out
        assert law.text in out
    if ruleset == "fpd-classic":
        assert "not irregular under this book: uncrowned-king-moved" in out
    if ruleset.startswith("codex"):
        assert "touch-move: except-capture" in out and "accepted once the opponent plays on" in out


def test_docs_rulesets_table_is_the_code():
    """docs/rulesets.md "Law on irregularities" shows this table: one row per type, as rig.law has it."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "rulesets.md").read_text(encoding="utf-8")
    short = {Consequence.ACCEPTED: "A", Consequence.RESTORE: "R", Consequence.PENALTY: "P"}
    for kind in IRREGULARITY_TYPES + OBSERVATION_TYPES:
        cells = []
        for ruleset in ("fpd-2026", "fpd-classic", "fmjd", "codex-64"):
            law = law_for(RULESETS[ruleset], kind)
            if law is None:
                cells.append("—")
                continue
            article = law.article[len(PREFIX[ruleset]):]
            cells.append(f"{article} {short[law.consequence]}{' (obs.)' if law.observation else ''}")
        assert f"| `{kind}` | " + " | ".join(cells) + " |" in text, kind
