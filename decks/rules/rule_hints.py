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
from .wording import Wording, gettext_noop


def _w(template: str, **values: object) -> Wording:
    """A hint: its template (marked for translation) and values; `nth` is the English ordinal of `n`."""
    if "n" in values:
        values["nth"] = ordinal(int(str(values["n"])))
    return Wording(template, values)


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


_AMONG = {
    ALL: gettext_noop("would be a %(nth)s faction"),
    UNITS: gettext_noop("would be a %(nth)s faction among units"),
    NON_UNITS: gettext_noop("would be a %(nth)s faction among non-units"),
}


def hint_deck_size(named: bool, a: Addition) -> str | None:
    if a.section == MAIN and a.after.size > a.rules.deck.deck_size:
        return _w(gettext_noop("deck is full (%(size)s/%(want)s)"), size=a.before.size, want=a.rules.deck.deck_size)
    return None


def hint_card_type(named: bool, a: Addition) -> str | None:
    if not named:
        return None
    if a.section == MAIN:
        return _w(gettext_noop("energy cards go in the resources"))
    return _w(gettext_noop("only energy cards can be resource cards"))


def hint_max_factions(named: bool, a: Addition) -> str | None:
    if a.section != MAIN or a.card.faction is None:
        return None
    for scope, limit in a.rules.deck.max_factions.items():
        if limit is None or not in_scope(a.card, scope):
            continue
        if scope == ALL:
            present = set(a.before.factions)  # the deck's factions, counted once already
        else:
            present = {e.card.faction for e in a.deck.main if e.card.faction is not None and in_scope(e.card, scope)}
        if a.card.faction not in present and len(present) + 1 > limit:
            return _w(_AMONG[scope], n=len(present) + 1)
    return None


def hint_unit_attribute(named: bool, a: Addition) -> str | None:
    # With no attribute chosen yet every unit "lacks" it: that is a choice to make, not a card to avoid.
    if named and a.deck.attribute:
        return _w(gettext_noop("unit lacks the chosen attribute %(attribute)s"), attribute=a.deck.attribute)
    return None


def hint_max_copies(named: bool, a: Addition) -> str | None:
    if not named:
        return None
    limit = copy_limit(a.card, a.rules)
    who = _who(a.rules, "max_copies" if limit == a.rules.deck.max_copies else "max_copies_exceptions")
    return _w(
        gettext_noop("%(nth)s copy; %(who)s allows %(limit)s"), n=_copies(a.deck, a.card.name) + 1, who=who, limit=limit
    )


def hint_legend_cap(named: bool, a: Addition) -> str | None:
    if not a.card.legend or a.after.legends <= a.before.legends:
        return None
    if a.rules.deck.legend_cap == 0:
        return _w(gettext_noop("%(who)s allows no legendary cards"), who=_who(a.rules, "legend_cap"))
    return _w(gettext_noop("would be a %(nth)s legendary card"), n=a.after.legends)


def hint_legend_copies(named: bool, a: Addition) -> str | None:
    if not named:
        return None
    limit = a.rules.deck.legend_max_copies
    who = _who(a.rules, "legend_max_copies")
    if limit == 0:
        return _w(gettext_noop("%(who)s allows no legendary cards"), who=who)
    template = gettext_noop("%(nth)s copy of a legendary card; %(who)s allows %(limit)s")
    return _w(template, n=_copies(a.deck, a.card.name) + 1, who=who, limit=limit)


def hint_level_cap(named: bool, a: Addition) -> str | None:
    if a.after.level > a.before.level:
        return _w(
            gettext_noop("level total would be %(level)s/%(cap)s"), level=a.after.level, cap=a.rules.deck.level_cap
        )
    return None


def hint_cnt_cap(named: bool, a: Addition) -> str | None:
    if a.after.cnt > a.before.cnt:
        return _w(gettext_noop("CNT would be %(cnt)s/%(cap)s"), cnt=a.after.cnt, cap=a.rules.deck.cnt_cap)
    return None


def hint_negative_level(named: bool, a: Addition) -> str | None:
    if not named:
        return None
    return _w(gettext_noop("%(who)s allows no negative-level cards"), who=_who(a.rules, "allow_negative_levels"))


def hint_card_pool(named: bool, a: Addition) -> str | None:
    pool = a.rules.deck.card_pool
    if not named or pool is None:
        return None
    prefixes = pool.collector_number_prefixes
    if prefixes and not pool.factions and not pool.attributes:
        wanted = " or ".join(prefixes)
        if a.printing and a.section == MAIN and any(n.startswith(prefixes) for n in a.card.collector_numbers):
            # Another printing of the name is in the pool, this one is not (the 2020 World Masters).
            template = gettext_noop("%(ruler)s pool: %(printing)s is not an %(wanted)s printing")
            return _w(template, ruler=a.rules.ruler, printing=a.printing, wanted=wanted)
        return _w(gettext_noop("%(ruler)s pool: no %(wanted)s printing"), ruler=a.rules.ruler, wanted=wanted)
    allowed = [*sorted(pool.factions), *sorted(pool.attributes), *(f"{p}…" for p in prefixes)]
    listed = allowed[0] if len(allowed) == 1 else ", ".join(allowed[:-1]) + " or " + allowed[-1]
    return _w(gettext_noop("%(ruler)s pool: not %(listed)s"), ruler=a.rules.ruler, listed=listed)


def hint_faction_quota(named: bool, a: Addition) -> str | None:
    if not named or a.section != MAIN or a.card.faction is None:
        return None
    count = sum(e.count for e in a.deck.main if e.card.faction == a.card.faction) + 1
    quota = a.rules.deck.faction_quota
    template = gettext_noop("%(nth)s %(faction)s card; %(who)s allows %(quota)s per faction")
    return _w(template, n=count, faction=a.card.faction, who=_who(a.rules, "faction_quota"), quota=quota)


def hint_banned_card(named: bool, a: Addition) -> str | None:
    if not named:
        return None
    own = a.rules.own_deck.banned_cards if a.rules.own_deck is not None else frozenset()
    by_geas = a.rules.geas and a.card.name not in own
    if by_geas:
        return _w(gettext_noop("banned by %(geas)s"), geas=a.rules.geas)
    return _w(gettext_noop("banned by %(ruler)s"), ruler=a.rules.ruler)


def hint_resource_cards(named: bool, a: Addition) -> str | None:
    want = a.rules.deck.resource_cards
    if a.section == MAIN or a.after.resources <= want:
        return None
    if want == 0:
        return _w(gettext_noop("%(who)s prepares no resource cards"), who=_who(a.rules, "resource_cards"))
    return _w(gettext_noop("resources are full (%(count)s/%(want)s)"), count=a.before.resources, want=want)


def nothing_fits(before: Summary, rules: RulesInForce) -> tuple[Wording, ...]:
    """Why no copy of any card can be added, in the words of the deck-size and resource hints: both the deck
    and the resources are full (every card goes in one or the other); () when a copy of some card may fit.

    The card browser's "only cards this deck can use" then says so without judging a result (a full deck
    is common: it is where a finished deck stays)."""
    want = rules.deck.deck_size
    if before.size < want:
        return ()
    deck_full = _w(gettext_noop("deck is full (%(size)s/%(want)s)"), size=before.size, want=want)
    resources = rules.deck.resource_cards
    if resources == 0:
        return (deck_full,)
    if before.resources < resources:
        return ()
    return (
        deck_full,
        _w(gettext_noop("resources are full (%(count)s/%(want)s)"), count=before.resources, want=resources),
    )
