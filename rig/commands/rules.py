"""``rig rules`` (a rule set's draw rules, limits, articles and its law on irregularities) and ``rig ballot``
(an FPD ballot opening)."""

from __future__ import annotations

import argparse

from rig.ballots import TABLES, get_ballot
from rig.errors import RigError
from rig.law import IRREGULARITY_TYPES, OBSERVATION_TYPES, book_for, laws
from rig.rulesets import RATES, RuleSet, default_ruleset_for, get_ruleset
from rig.variants import get_variant


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("rules", help="show a rule set's draw rules, counters, limits, articles and its law "
                                            "on irregularities")
    p.add_argument("--variant", help="portuguese, brazilian or international (its default rule set)")
    p.add_argument("--ruleset", help="fpd-2026, fpd-classic, fmjd, codex-64 or codex-100")
    p.add_argument("--rate", default="classical", choices=RATES, help="rate of play (CODEX 60.F)")
    p.set_defaults(func=run_rules)

    b = subparsers.add_parser("ballot", help="show an FPD ballot opening (Appendix A.2 / A.3)")
    b.add_argument("table", choices=[*TABLES, "2", "3"], help="two_move (or 2) or three_move (or 3)")
    b.add_argument("number", type=int)
    b.set_defaults(func=run_ballot)


def run_rules(args: argparse.Namespace) -> int:
    try:  # the command line is an edge: the names are resolved here, once (exit 2 naming a bad one)
        if args.ruleset:
            rs = get_ruleset(args.ruleset)
            if args.variant and get_variant(args.variant) != rs.variant:
                print(f"rig rules: {rs.id} is for {rs.variant.name}, not {args.variant}")
                return 2
        else:
            rs = default_ruleset_for(get_variant(args.variant or "portuguese"))
    except (RigError, ValueError, KeyError) as exc:
        print(f"rig rules: {exc}")
        return 2
    win, draw, loss = rs.scoring
    print(f"{rs.id}: {rs.title} ({rs.source}), variant {rs.variant.name}")
    print(f"  game end: no piece or no move loses ({rs.game_end_article})")
    print(f"  scoring: win {win:g}, draw {draw:g}, loss {loss:g} ({rs.scoring_article})")
    side = "same player to move" if rs.repetition_same_side_to_move else "position of the pieces"
    print(f"  {rs.label(rs.repetition_article)}: threefold repetition ({side}), limit 3 occurrences")
    for rule in rs.draw_rules:
        print(f"  {rs.label(rule.article)}: {rule.title}; limit {rule.limit_for(args.rate)} {rule.unit}")
        if rule.note:
            print(f"      {rule.note}")
    if rs.both_flags_article:
        print(f"  {rs.label(rs.both_flags_article)}: both flags fallen is a draw")
    print("  the rig reports a draw rule with its article; the arbiter decides")
    print_law(rs)
    return 0


def print_law(ruleset: RuleSet) -> None:
    """The rule set's law on irregularities (rig.law): per type its article, its consequence and the status
    once the opponent has played on."""
    book = book_for(ruleset)
    print(f"  irregularities under {book.title} (touch-move: {book.touch_move.value}):")
    width = max(len(law.type) for law in laws(ruleset))
    for law in laws(ruleset):
        penalty = f"; penalty: {law.penalty}" if law.penalty else ""
        then = "an observation for review, never an alarm" if law.observation else \
            f"{law.status_after_reply} once the opponent plays on"
        print(f"    {law.type:<{width}}  {law.article}: {law.consequence.description}{penalty}; {then}")
        print(f"    {'':<{width}}    {law.text}")
    absent = [k for k in IRREGULARITY_TYPES + OBSERVATION_TYPES if book.law(k) is None]
    if absent:
        print(f"    not irregular under this book: {', '.join(absent)}")


def run_ballot(args: argparse.Namespace) -> int:
    table = {"2": "two_move", "3": "three_move"}.get(args.table, args.table)
    try:
        ballot = get_ballot(table, args.number)
    except RigError as exc:
        print(f"rig ballot: {exc}")
        return 2
    print(ballot)
    return 0
