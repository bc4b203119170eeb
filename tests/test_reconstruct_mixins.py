"""The engine is one class made of mixins (rig/reconstruct/faults.py and the modules it lists); a helper a mixin
defines under a name another already uses shadows it silently, for every caller of the other (a generator named
like another mixin's lookup once turned a rule's loop into ``None``). No two classes of the engine may define the
same method name."""

from __future__ import annotations

from collections import defaultdict

from rig.reconstruct import Reconstructor


def test_reconstruct_mixins_define_each_method_once():
    owners: dict[str, list[str]] = defaultdict(list)
    classes = [c for c in Reconstructor.__mro__ if c.__module__.startswith("rig.reconstruct")]
    assert len(classes) > 10          # the mixins are there to be checked
    for cls in classes:
        for name, value in vars(cls).items():
            if callable(value) and not name.startswith("__"):
                owners[name].append(f"{cls.__module__}.{cls.__name__}")
    assert {name: where for name, where in owners.items() if len(where) > 1} == {}
