"""The engine's state lives in ``Reconstructor.__slots__`` (the speed of every ``self.x``, docs/reconstruction.md,
issue 9's speed target): a slot is set by ``__init__``, and no stage's class-level default hides behind one."""

from __future__ import annotations

from rig.reconstruct import Reconstructor
from rig.rulesets import FPD_2026
from rig.session import Header


def test_every_slot_is_set_by_init():
    engine = Reconstructor(Header(FPD_2026.variant, FPD_2026))
    unset = [name for name in Reconstructor.__slots__ if not hasattr(engine, name)]
    assert unset == [], f"slots never set in __init__ (read before any write would raise): {unset}"


def test_no_stage_default_is_shadowed_by_a_slot():
    # a class-level default in a mixin under a slotted name would be hidden by the (empty) slot
    slots = set(Reconstructor.__slots__)
    shadowed = {cls.__name__: sorted(slots & set(vars(cls))) for cls in Reconstructor.__mro__[1:]}
    assert {k: v for k, v in shadowed.items() if v} == {}


def test_an_attribute_not_listed_still_works():
    engine = Reconstructor(Header(FPD_2026.variant, FPD_2026))
    engine._not_a_slot = 1      # the stages declare no slots: the instance keeps a __dict__ for the rest
    assert engine._not_a_slot == 1
