"""Add-ability hints: why one more copy of a card cannot go into a deck (pure, no Django).

The card browser shows, for every result, whether one more copy can be added and, if not,
why. The answer comes from the engine itself: judge the deck with one more copy and keep
the violations that the addition creates or makes worse, each said in a few words
("5th copy; Apprentice allows 4", "level total would be 52/50"). A violation the deck
already has and the copy does not worsen (the deck is still short of 50 cards, a level
total already over the cap and a level-0 card) is no reason not to add it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .checks import copy_limit
from .engine import validate_deck
from .ruleset import RulesInForce
from .types import ENERGY, UNIT, CardFacts, Deck, DeckEntry, Report, Summary

MAIN = "main"
RESOURCES = "resources"


def natural_section(card: CardFacts) -> str:
    """Where a card goes when a player adds it: energy cards to the resources, the rest to the deck."""
    return RESOURCES if card.type == ENERGY else MAIN


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def with_one_more(deck: Deck, card: CardFacts, printing: str | None, section: str) -> Deck:
    entry = DeckEntry(card, 1, printing)
    if section == RESOURCES:
        return Deck(deck.main, (*deck.resources, entry), deck.attribute)
    return Deck((*deck.main, entry), deck.resources, deck.attribute)


@dataclass(frozen=True, slots=True)
class _Addition:
    """One more copy of a card, and the deck judged before and after it."""

    deck: Deck
    rules: RulesInForce
    card: CardFacts
    printing: str | None
    section: str
    before: Summary
    after: Summary


def addition_blockers(
    deck: Deck,
    rules: RulesInForce,
    card: CardFacts,
    printing: str | None,
    *,
    section: str | None = None,
    report: Report | None = None,
) -> list[str]:
    """Why one more copy of `card` (as `printing`, if named) cannot be added; [] if it can.

    `section` defaults to where the card naturally goes (natural_section). Pass the deck's
    own `report` when judging many cards against one deck: it is then computed once.
    """
    section = section or natural_section(card)
    before = report if report is not None else validate_deck(deck, rules)
    after = validate_deck(with_one_more(deck, card, printing, section), rules)
    addition = _Addition(deck, rules, card, printing, section, before.summary, after.summary)
    reasons: list[str] = []
    for violation in after.violations:
        explain = _REASONS.get(violation.rule)
        if explain is None:
            # A rule these hints do not know yet: blame the copy if the violation is new.
            reason = None if violation in before.violations else violation.message
        else:
            reason = explain(card.name in violation.cards, addition)
        if reason and reason not in reasons:
            reasons.append(reason)
    return reasons


def _who(rules: RulesInForce, field: str) -> str:
    """Who sets a limit: the geas when it changed that rule, else the ruler."""
    return rules.geas if rules.geas and field in rules.changed else rules.ruler


def _copies(deck: Deck, name: str) -> int:
    return sum(e.count for e in deck.main if e.card.name == name)


def _in_scope(card: CardFacts, scope: str) -> bool:
    return scope == "all" or (scope == "units") == (card.type == UNIT)


_AMONG = {"all": "", "units": " among units", "non_units": " among non-units"}


# One function per rule code: (does the violation name the card?, the addition) -> words or None.


def _deck_size(named: bool, a: _Addition) -> str | None:
    if a.section == MAIN and a.after.size > a.rules.deck.deck_size:
        return f"deck is full ({a.before.size}/{a.rules.deck.deck_size})"
    return None


def _card_type(named: bool, a: _Addition) -> str | None:
    if not named:
        return None
    return "energy cards go in the resources" if a.section == MAIN else "only energy cards can be resource cards"


def _max_factions(named: bool, a: _Addition) -> str | None:
    if a.section != MAIN or a.card.faction is None:
        return None
    for scope, limit in a.rules.deck.max_factions.items():
        if limit is None or not _in_scope(a.card, scope):
            continue
        present = {e.card.faction for e in a.deck.main if e.card.faction is not None and _in_scope(e.card, scope)}
        if a.card.faction not in present and len(present) + 1 > limit:
            return f"would be a {ordinal(len(present) + 1)} faction{_AMONG[scope]}"
    return None


def _unit_attribute(named: bool, a: _Addition) -> str | None:
    # With no attribute chosen yet every unit "lacks" it: that is a choice to make, not a card to avoid.
    if named and a.deck.attribute:
        return f"unit lacks the chosen attribute {a.deck.attribute}"
    return None


def _max_copies(named: bool, a: _Addition) -> str | None:
    if not named:
        return None
    limit = copy_limit(a.card, a.rules)
    who = _who(a.rules, "max_copies" if limit == a.rules.deck.max_copies else "max_copies_exceptions")
    return f"{ordinal(_copies(a.deck, a.card.name) + 1)} copy; {who} allows {limit}"


def _legend_cap(named: bool, a: _Addition) -> str | None:
    if not a.card.legend or a.after.legends <= a.before.legends:
        return None
    if a.rules.deck.legend_cap == 0:
        return f"{_who(a.rules, 'legend_cap')} allows no legendary cards"
    return f"would be a {ordinal(a.after.legends)} legendary card"


def _legend_copies(named: bool, a: _Addition) -> str | None:
    if not named:
        return None
    limit = a.rules.deck.legend_max_copies
    who = _who(a.rules, "legend_max_copies")
    if limit == 0:
        return f"{who} allows no legendary cards"
    return f"{ordinal(_copies(a.deck, a.card.name) + 1)} copy of a legendary card; {who} allows {limit}"


def _level_cap(named: bool, a: _Addition) -> str | None:
    if a.after.level > a.before.level:
        return f"level total would be {a.after.level}/{a.rules.deck.level_cap}"
    return None


def _cnt_cap(named: bool, a: _Addition) -> str | None:
    if a.after.cnt > a.before.cnt:
        return f"CNT would be {a.after.cnt}/{a.rules.deck.cnt_cap}"
    return None


def _negative_level(named: bool, a: _Addition) -> str | None:
    return f"{_who(a.rules, 'allow_negative_levels')} allows no negative-level cards" if named else None


def _card_pool(named: bool, a: _Addition) -> str | None:
    pool = a.rules.deck.card_pool
    if not named or pool is None:
        return None
    prefixes = pool.collector_number_prefixes
    if prefixes and not pool.factions and not pool.attributes:
        wanted = " or ".join(prefixes)
        if a.printing and a.section == MAIN and any(n.startswith(prefixes) for n in a.card.collector_numbers):
            # Another printing of the name is in the pool, this one is not (the 2020 World Masters).
            return f"{a.rules.ruler} pool: {a.printing} is not an {wanted} printing"
        return f"{a.rules.ruler} pool: no {wanted} printing"
    allowed = [*sorted(pool.factions), *sorted(pool.attributes), *(f"{p}…" for p in prefixes)]
    listed = allowed[0] if len(allowed) == 1 else ", ".join(allowed[:-1]) + " or " + allowed[-1]
    return f"{a.rules.ruler} pool: not {listed}"


def _faction_quota(named: bool, a: _Addition) -> str | None:
    if not named or a.section != MAIN or a.card.faction is None:
        return None
    count = sum(e.count for e in a.deck.main if e.card.faction == a.card.faction) + 1
    quota = a.rules.deck.faction_quota
    return f"{ordinal(count)} {a.card.faction} card; {_who(a.rules, 'faction_quota')} allows {quota} per faction"


def _banned_card(named: bool, a: _Addition) -> str | None:
    if not named:
        return None
    own = a.rules.own_deck.banned_cards if a.rules.own_deck is not None else frozenset()
    by_geas = a.rules.geas and a.card.name not in own
    return f"banned by {a.rules.geas if by_geas else a.rules.ruler}"


def _resource_cards(named: bool, a: _Addition) -> str | None:
    want = a.rules.deck.resource_cards
    if a.section == MAIN or a.after.resources <= want:
        return None
    if want == 0:
        return f"{_who(a.rules, 'resource_cards')} prepares no resource cards"
    return f"resources are full ({a.before.resources}/{want})"


_REASONS: dict[str, Callable[[bool, _Addition], str | None]] = {
    "deck_size": _deck_size,
    "card_type": _card_type,
    "max_factions": _max_factions,
    "unit_attribute": _unit_attribute,
    "max_copies": _max_copies,
    "legend_cap": _legend_cap,
    "legend_copies": _legend_copies,
    "level_cap": _level_cap,
    "cnt_cap": _cnt_cap,
    "negative_level": _negative_level,
    "card_pool": _card_pool,
    "faction_quota": _faction_quota,
    "banned_card": _banned_card,
    "resource_cards": _resource_cards,
}


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
    deck: Deck,
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
