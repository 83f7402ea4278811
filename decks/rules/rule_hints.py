"""One add-ability hint per deck-construction rule: why one more copy of a card breaks it, in a few words.

Each takes whether the rule's violation (in the deck with one more copy) names the card, and the
addition; it returns the reason, or None when the copy is no reason for that violation (see
hints.addition_blockers, which asks the hint of every rule in the registry).
"""

from __future__ import annotations

from dataclasses import dataclass

from .checks import copy_limit
from .ruleset import RulesInForce
from .types import ALL, MAIN, NON_UNITS, UNITS, CardFacts, DeckSnapshot, Summary, in_scope


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass(frozen=True, slots=True)
class Addition:
    """One more copy of a card, and the deck judged before and after it."""

    deck: DeckSnapshot
    rules: RulesInForce
    card: CardFacts
    printing: str | None
    section: str
    before: Summary
    after: Summary


def _who(rules: RulesInForce, field: str) -> str:
    """Who sets a limit: the geas when it changed that rule, else the ruler."""
    return rules.geas if rules.geas and field in rules.changed else rules.ruler


def _copies(deck: DeckSnapshot, name: str) -> int:
    return sum(e.count for e in deck.main if e.card.name == name)


_AMONG = {ALL: "", UNITS: " among units", NON_UNITS: " among non-units"}


def hint_deck_size(named: bool, a: Addition) -> str | None:
    if a.section == MAIN and a.after.size > a.rules.deck.deck_size:
        return f"deck is full ({a.before.size}/{a.rules.deck.deck_size})"
    return None


def hint_card_type(named: bool, a: Addition) -> str | None:
    if not named:
        return None
    return "energy cards go in the resources" if a.section == MAIN else "only energy cards can be resource cards"


def hint_max_factions(named: bool, a: Addition) -> str | None:
    if a.section != MAIN or a.card.faction is None:
        return None
    for scope, limit in a.rules.deck.max_factions.items():
        if limit is None or not in_scope(a.card, scope):
            continue
        present = {e.card.faction for e in a.deck.main if e.card.faction is not None and in_scope(e.card, scope)}
        if a.card.faction not in present and len(present) + 1 > limit:
            return f"would be a {ordinal(len(present) + 1)} faction{_AMONG[scope]}"
    return None


def hint_unit_attribute(named: bool, a: Addition) -> str | None:
    # With no attribute chosen yet every unit "lacks" it: that is a choice to make, not a card to avoid.
    if named and a.deck.attribute:
        return f"unit lacks the chosen attribute {a.deck.attribute}"
    return None


def hint_max_copies(named: bool, a: Addition) -> str | None:
    if not named:
        return None
    limit = copy_limit(a.card, a.rules)
    who = _who(a.rules, "max_copies" if limit == a.rules.deck.max_copies else "max_copies_exceptions")
    return f"{ordinal(_copies(a.deck, a.card.name) + 1)} copy; {who} allows {limit}"


def hint_legend_cap(named: bool, a: Addition) -> str | None:
    if not a.card.legend or a.after.legends <= a.before.legends:
        return None
    if a.rules.deck.legend_cap == 0:
        return f"{_who(a.rules, 'legend_cap')} allows no legendary cards"
    return f"would be a {ordinal(a.after.legends)} legendary card"


def hint_legend_copies(named: bool, a: Addition) -> str | None:
    if not named:
        return None
    limit = a.rules.deck.legend_max_copies
    who = _who(a.rules, "legend_max_copies")
    if limit == 0:
        return f"{who} allows no legendary cards"
    return f"{ordinal(_copies(a.deck, a.card.name) + 1)} copy of a legendary card; {who} allows {limit}"


def hint_level_cap(named: bool, a: Addition) -> str | None:
    if a.after.level > a.before.level:
        return f"level total would be {a.after.level}/{a.rules.deck.level_cap}"
    return None


def hint_cnt_cap(named: bool, a: Addition) -> str | None:
    if a.after.cnt > a.before.cnt:
        return f"CNT would be {a.after.cnt}/{a.rules.deck.cnt_cap}"
    return None


def hint_negative_level(named: bool, a: Addition) -> str | None:
    return f"{_who(a.rules, 'allow_negative_levels')} allows no negative-level cards" if named else None


def hint_card_pool(named: bool, a: Addition) -> str | None:
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


def hint_faction_quota(named: bool, a: Addition) -> str | None:
    if not named or a.section != MAIN or a.card.faction is None:
        return None
    count = sum(e.count for e in a.deck.main if e.card.faction == a.card.faction) + 1
    quota = a.rules.deck.faction_quota
    return f"{ordinal(count)} {a.card.faction} card; {_who(a.rules, 'faction_quota')} allows {quota} per faction"


def hint_banned_card(named: bool, a: Addition) -> str | None:
    if not named:
        return None
    own = a.rules.own_deck.banned_cards if a.rules.own_deck is not None else frozenset()
    by_geas = a.rules.geas and a.card.name not in own
    return f"banned by {a.rules.geas if by_geas else a.rules.ruler}"


def hint_resource_cards(named: bool, a: Addition) -> str | None:
    want = a.rules.deck.resource_cards
    if a.section == MAIN or a.after.resources <= want:
        return None
    if want == 0:
        return f"{_who(a.rules, 'resource_cards')} prepares no resource cards"
    return f"resources are full ({a.before.resources}/{want})"
