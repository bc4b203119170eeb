"""``rig rules`` and ``rig ballot``."""

from rig.cli import main


def test_rules_default_is_fpd_2026(capsys):
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("fpd-2026:")
    assert "fpd-2026 3.9b:" in out and "limit 20 moves each" in out
    assert "fpd-2026 3.9a:" in out and "win 1, draw 0.5, loss 0 (10.1)" in out


def test_rules_codex_100_rate(capsys):
    assert main(["rules", "--ruleset", "codex-100", "--rate", "rapid"]) == 0
    out = capsys.readouterr().out
    assert "codex-100 60.F:" in out and "limit 5 moves" in out.split("codex-100 60.F:")[1].splitlines()[0]
    assert main(["rules", "--variant", "brazilian"]) == 0
    assert capsys.readouterr().out.startswith("codex-64:")


def test_rules_errors(capsys):
    assert main(["rules", "--ruleset", "chess"]) == 2
    assert "unknown rule set" in capsys.readouterr().out
    assert main(["rules", "--variant", "brazilian", "--ruleset", "fmjd"]) == 2
    assert "fmjd is for international" in capsys.readouterr().out


def test_ballot(capsys):
    assert main(["ballot", "3", "106"]) == 0
    assert capsys.readouterr().out.strip() == "FPD A.3 no. 106: 10-14, 23-19, 14x23, 27x20, 9-13"
    assert main(["ballot", "two_move", "43"]) == 0
    assert capsys.readouterr().out.strip() == "FPD A.2 no. 43: 12-16, 24-20"
    assert main(["ballot", "two_move", "44"]) == 2
    assert "1..43, not 44" in capsys.readouterr().out
