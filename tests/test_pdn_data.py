"""The real games under tests/data/<variant>/ (sources in tests/data/SOURCES.md) replay legally, and the
rig's rewrite of each reads back to the same moves (for portuguese, which neither peer plays, this is the
only round trip with real games)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rig.cli import main
from rig.pdn import read_file, read_game

DATA = Path(__file__).resolve().parent / "data"
FILES = sorted((variant, path) for variant in ("international", "brazilian", "portuguese")
               for path in (DATA / variant).glob("*.pdn"))


def test_every_variant_has_real_games():
    assert {variant for variant, _ in FILES} == {"international", "brazilian", "portuguese"}


@pytest.mark.parametrize("variant,path", FILES, ids=[f"{v}/{p.name}" for v, p in FILES])
def test_real_games_replay_and_round_trip(variant, path, capsys):
    assert main(["pdn", "check", "--variant", variant, str(path)]) == 0
    result = read_file(path, variant)
    assert result.ok and result.games
    summary = capsys.readouterr().out.splitlines()[-1]
    assert summary == f"{len(result.games)} games, {len(result.games)} replayed legally"
    for game in result.games:
        assert game.variant.name == variant
        record = game.to_record()
        back = read_game(record.to_pdn(), "international" if variant != "international" else "portuguese")
        replay = back.replay()
        assert replay.ok, replay.error
        assert [m.key for m in replay.moves] == [n.move.key for n in record.nodes]
        assert back.to_record().tags == record.tags and back.result == record.result
