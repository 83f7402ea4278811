"""Add-ability hints: why one more copy of a card cannot go into a deck (pure, no Django).

The card browser shows, for every result, whether one more copy can be added and, if not,
why. The answer comes from the engine itself: judge the deck with one more copy and keep
the violations that the addition creates or makes worse, each said in a few words by its
rule's hint ("5th copy; Apprentice allows 4", "level total would be 52/50"). A violation the
deck already has and the copy does not worsen (the deck is still short of 50 cards, a level
total already over the cap and a level-0 card) is no reason not to add it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .registry import RULES, rule_get
from .rule_hints import Addition
from .ruleset import RulesInForce
from .tally import Tally, with_one_more
from .types import ENERGY, MAIN, RESOURCES, UNIT, CardFacts, DeckSnapshot, Report

__all__ = [
    "MAIN",
    "RESOURCES",
    "Additions",
    "AttributeProposal",
    "addition_blockers",
    "judge_tally",
    "natural_section",
    "propose_attribute",
    "with_one_more",
]


def natural_section(card: CardFacts) -> str:
    """Where a card goes when a player adds it: energy cards to the resources, the rest to the deck."""
    return RESOURCES if card.type == ENERGY else MAIN


def judge_tally(tally: Tally, rules: RulesInForce) -> Report:
    """validate_deck for a deck already counted (engine.validate_deck counts, then does this)."""
    violations = [violation for rule in RULES for violation in rule.check(tally, rules)]
    return Report(tuple(violations), tally.summary(), rules)


@dataclass(frozen=True, slots=True)
class Additions:
    """A deck counted and judged once, against which many cards are tested one more copy at a time.

    The card browser asks this of every result shown after every change: each card's test
    derives the deck's tally with one more copy (Tally.plus_one) instead of counting the whole
    deck again, then runs the rules on it; the answers are addition_blockers' own.
    """

    rules: RulesInForce
    tally: Tally
    report: Report

    @classmethod
    def of(cls, deck: DeckSnapshot, rules: RulesInForce, report: Report | None = None) -> Additions:
        tally = Tally.of(deck, rules)
        return cls(rules, tally, report if report is not None else judge_tally(tally, rules))

    def blockers(self, card: CardFacts, printing: str | None, section: str | None = None) -> list[str]:
        """Why one more copy of `card` (as `printing`, if named) cannot be added; [] if it can."""
        section = section or natural_section(card)
        before, deck = self.report, self.tally.deck
        after = judge_tally(self.tally.plus_one(card, printing, section, self.rules), self.rules)
        addition = Addition(deck, self.rules, card, printing, section, before.summary, after.summary)
        reasons: list[str] = []
        for violation in after.violations:
            rule = rule_get(violation.rule)
            if rule is None or rule.hint is None:
                # A rule without a hint yet: blame the copy if the violation is new.
                reason = None if violation in before.violations else violation.message
            else:
                reason = rule.hint(card.name in violation.cards, addition)
            if reason and reason not in reasons:
                reasons.append(reason)
        return reasons


def addition_blockers(
    deck: DeckSnapshot,
    rules: RulesInForce,
    card: CardFacts,
    printing: str | None,
    *,
    section: str | None = None,
    report: Report | None = None,
) -> list[str]:
    """Why one more copy of `card` (as `printing`, if named) cannot be added; [] if it can.

    `section` defaults to where the card naturally goes (natural_section). To test many cards
    against one deck, use Additions.of(deck, rules).blockers: the deck is then counted once.
    """
    return Additions.of(deck, rules, report).blockers(card, printing, section)


@dataclass(frozen=True, slots=True)
class AttributeProposal:
    """The unit attribute to choose, and the units (by name) that would then have to go."""

    attribute: str
    removals: int
    lacking: tuple[str, ...]

    @property
    def keeps_units(self) -> bool:
        return self.removals == 0


def propose_attribute(
    deck: DeckSnapshot,
    rules: RulesInForce,
    candidates: Iterable[str] = (),
) -> AttributeProposal | None:
    """For rulers whose units share a chosen attribute (Centurion, Vanquisher): the attribute
    that keeps the deck's units legal, or else needs the fewest unit copies removed.

    Candidates are the attributes of the deck's units plus any given; ties go to the
    attribute already chosen, then by name. None when the ruler chooses no attribute or
    the deck has no units yet.
    """
    if not rules.deck.unit_attribute_choice:
        return None
    units: dict[str, tuple[CardFacts, int]] = {}
    for entry in deck.main:
        if entry.card.type == UNIT:
            card, count = units.get(entry.card.name, (entry.card, 0))
            units[entry.card.name] = (card, count + entry.count)
    if not units:
        return None
    options = set(candidates)
    for card, _count in units.values():
        options |= card.attributes

    def removals(attribute: str) -> int:
        return sum(count for card, count in units.values() if attribute not in card.attributes)

    best = min(sorted(options), key=lambda a: (removals(a), a != deck.attribute))
    lacking = tuple(sorted(name for name, (card, _) in units.items() if best not in card.attributes))
    return AttributeProposal(best, removals(best), lacking)
