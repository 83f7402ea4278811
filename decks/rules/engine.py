"""validate_deck: a deck and the rules in force in, every violation out."""

from __future__ import annotations

from .checks import CHECKS, Tally
from .ruleset import RulesInForce
from .types import Deck, Report, Summary, Violation


def validate_deck(deck: Deck, rules: RulesInForce) -> Report:
    """Judge a deck by the rules in force; returns all violations at once, never raises."""
    tally = Tally.of(deck, rules)
    violations: list[Violation] = []
    for check in CHECKS:
        violations.extend(check(tally, rules))
    return Report(tuple(violations), summarize(tally), rules)


def summarize(tally: Tally) -> Summary:
    return Summary(
        size=tally.size,
        level=tally.level,
        cnt=tally.cnt,
        legends=sum(1 for card in tally.cards.values() if card.legend),
        factions=tuple(sorted(tally.faction_counts)),
        resources=tally.resources,
    )
