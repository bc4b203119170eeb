"""Variants and rule sets as objects: the numbering a field, names resolved once, clear errors."""

from __future__ import annotations

import pytest

from rig.errors import RigError, UnknownRuleSetError, UnknownVariantError
from rig.geometry import geometry
from rig.pdn import GameRecord
from rig.rulesets import FPD_2026, get_ruleset
from rig.variants import BRAZILIAN, INTERNATIONAL, PORTUGUESE, VARIANTS, get_variant, numbering_order


def test_numbering_is_a_field_of_the_variant() -> None:
    assert [v.numbering for v in VARIANTS.values()] == ["N1", "N2", "N2"]
    # FPD 000 art. 2.2: 1 = h1, 4 = b1, 5 = g2, 32 = a8; FMJD 002 art. 2.6: 1 = b10, 46 = a1
    assert [PORTUGUESE.algebraic_name(s) for s in (1, 4, 5, 32)] == ["h1", "b1", "g2", "a8"]
    assert [INTERNATIONAL.algebraic_name(s) for s in (1, 5, 6, 46, 50)] == ["b10", "j10", "a9", "a1", "i1"]
    assert [BRAZILIAN.algebraic_name(s) for s in (1, 4, 29, 32)] == ["b8", "h8", "a1", "g1"]


@pytest.mark.parametrize("code", ["N0", "N1", "N2", "N3"])
@pytest.mark.parametrize("size,mirrored", [(8, True), (8, False), (10, False)])
def test_every_numbering_covers_each_dark_square_once(code: str, size: int, mirrored: bool) -> None:
    order = numbering_order(size, code, mirrored)
    assert len(order) == len(set(order)) == size * size // 2
    assert all((f + r) % 2 == (1 if mirrored else 0) for f, r in order)


def test_unknown_numbering_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="N0, N1, N2, N3"):
        numbering_order(8, "A0", False)


@pytest.mark.parametrize("bad", ["checkers", "", 7, None])
def test_unknown_variant_error(bad: object) -> None:
    with pytest.raises(UnknownVariantError, match="known: portuguese, brazilian, international") as info:
        get_variant(bad)  # type: ignore[arg-type]
    assert isinstance(info.value, RigError) and isinstance(info.value, ValueError)


def test_unknown_rule_set_error() -> None:
    with pytest.raises(UnknownRuleSetError, match="unknown rule set 'chess'") as info:
        get_ruleset("chess")
    assert isinstance(info.value, RigError) and isinstance(info.value, ValueError)
    assert str(info.value).startswith("unknown rule set")  # not quoted as a KeyError would be


def test_lookups_take_an_object_or_a_name_and_are_idempotent() -> None:
    assert get_variant(PORTUGUESE) is PORTUGUESE is get_variant(" Portuguese ")
    assert get_variant(get_variant("portuguese")) is PORTUGUESE
    assert get_ruleset(FPD_2026) is FPD_2026 is get_ruleset("FPD-2026")
    assert geometry("international") is geometry(INTERNATIONAL)


def test_game_record_variant_is_coerced_and_validated() -> None:
    assert GameRecord("brazilian").variant is BRAZILIAN  # type: ignore[arg-type]
    assert GameRecord(INTERNATIONAL).variant is INTERNATIONAL
    with pytest.raises(UnknownVariantError):
        GameRecord("chess")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="is not portuguese"):
        GameRecord(PORTUGUESE, {"GameType": "20"})
