"""validate_deck: a deck and the rules in force in, every violation out."""

from __future__ import annotations

from .registry import RULES
from .ruleset import RulesInForce
from .tally import Tally
from .types import DeckSnapshot, Report, Violation


def validate_deck(deck: DeckSnapshot, rules: RulesInForce) -> Report:
    """Judge a deck by the rules in force; returns all violations at once, never raises."""
    tally = Tally.of(deck, rules)
    violations: list[Violation] = []
    for rule in RULES:
        violations.extend(rule.check(tally, rules))
    return Report(tuple(violations), tally.summary(), rules)
