"""The soak harness (bench/soak_transcribe.py): its figures per human model, and that it runs the hard preset."""

from __future__ import annotations


import pytest

from bench_helpers import load_bench



@pytest.fixture(scope="module")
def soak():
    return load_bench("soak_transcribe")


def irr(kind, number, side, status="accepted"):
    return {"type": kind, "number": number, "side": side, "status": status}


def test_row_counts_precision_recall_and_observations_apart(soak):
    row = soak.Row("hard")
    case = {"variant": "portuguese", "game": "random", "clock": True, "preset": "hard", "inject": ["two-moves@4"]}
    # one right, one false alarm, one missed; two observations (not alarms)
    row.add(case, ["irregularities: ..."], {"got": [irr("two-moves", 3, "white"), irr("illegal-move", 7, "black")],
                                            "want": [irr("two-moves", 3, "white"), irr("capture-not-removed", 9,
                                                                                       "white")],
                                            "observations": [("piece-moved-after-release", 3, "white")] * 2}, [])
    row.add(dict(case, clock=False, inject=[]), [], {"got": [], "want": [], "observations": []}, [])
    name, games, exact, clock, noclock, precision, recall, false, obs, crashes = row.figures()
    assert (games, exact, clock, noclock) == ("2", "50.0", "0.0", "100.0")
    assert (precision, recall, false, obs, crashes) == ("0.500", "0.500", "0.50", "1.00", "0")
    assert row.false == {"illegal-move": 1} and row.missed == {"capture-not-removed": 1}
    assert row.observed == {"piece-moved-after-release": 2}


def test_soak_runs_the_hard_preset_and_prints_its_table(soak, capsys):
    assert soak.main(["--seconds", "1.5", "--preset", "hard", "--seed", "3", "--show", "0"]) == 0
    out = capsys.readouterr().out
    head, rule, hard = [line for line in out.splitlines() if line.startswith("|")]
    assert "irr. precision" in head and "observations/game" in head
    cells = [c.strip() for c in hard.strip("|").split("|")]
    assert cells[0] == "hard" and int(cells[1]) > 0


def test_every_behaviour_has_a_row_of_its_own(soak, capsys):
    from rig.simulate.model import BEHAVIOURS

    model, _ = soak.model_of("behaviour:slow-magnet", 0)
    assert model.behaviours() == ("slow-magnet",)
    assert soak.model_of("hard", 0)[0].behaviours() == tuple(BEHAVIOURS)
    with pytest.raises(SystemExit):
        soak.main(["--preset", "hard", "--behaviour", "jostle"])
