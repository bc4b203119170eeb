"""The command line is an edge where names enter (docs/architecture.md "Names at the edges"): ``--variant`` and
``--ruleset`` are resolved here, once, by argparse, into :class:`~rig.variants.Variant` and
:class:`~rig.rulesets.RuleSet` objects; a bad name is argparse's clear error (exit 2, naming the known ones)."""

from __future__ import annotations

import argparse

from rig.errors import UnknownRuleSetError, UnknownVariantError
from rig.rulesets import RULESETS, RuleSet, default_ruleset_for, get_ruleset
from rig.variants import VARIANTS, Variant, get_variant

__all__ = ["variant_arg", "ruleset_arg", "ruleset_for", "VARIANT_METAVAR", "RULESET_METAVAR"]

#: what ``--help`` shows for the argument (as ``choices=`` showed it)
VARIANT_METAVAR = "{" + ",".join(sorted(VARIANTS)) + "}"
RULESET_METAVAR = "{" + ",".join(RULESETS) + "}"


def variant_arg(text: str) -> Variant:
    """``type=`` of a ``--variant`` option: the :class:`Variant` of that name.

    >>> variant_arg("International")
    <Variant international 10x10>
    """
    try:
        return get_variant(text)
    except UnknownVariantError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def ruleset_arg(text: str) -> RuleSet:
    """``type=`` of a ``--ruleset`` option: the :class:`RuleSet` of that id."""
    try:
        return get_ruleset(text)
    except UnknownRuleSetError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def ruleset_for(variant: Variant, ruleset: RuleSet | None) -> RuleSet:
    """The rule set a command records ``variant`` under: ``--ruleset`` when given (one of the variant's, else
    :class:`ValueError` naming them: another variant's would make a header no reader takes), else the variant's
    own (``rig.rulesets.default_ruleset_for``)."""
    if ruleset is None:
        return default_ruleset_for(variant)
    if ruleset.variant != variant:
        mine = ", ".join(r.id for r in RULESETS.values() if r.variant == variant)
        raise ValueError(f"rule set {ruleset.id} is for {ruleset.variant.name}, not {variant.name}; "
                         f"{variant.name} is played under {mine}")
    return ruleset
