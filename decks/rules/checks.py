"""One small function per deck-construction rule: (tally, rules) -> violations.

Each is declared with its rule in the registry (registry.py), which gives the order they run in.
Every check reads its limits from the rules in force, never from a ruler's name, and says
where the limit comes from (the ruler's own rule, or the geas that changed it).
"""

from __future__ import annotations

from functools import lru_cache

from .ruleset import RulesInForce
from .tally import Tally
from .types import ALL, ENERGY, NON_UNITS, UNIT, UNITS, CardFacts, Violation, in_scope
from .wording import Wording, gettext_noop


def _one_or_many(n: int, one: str, many: str) -> str:
    """The template for one thing or for several (both marked for translation by the caller)."""
    return one if n == 1 else many


def check_deck_size(t: Tally, r: RulesInForce) -> list[Violation]:
    want = r.deck.deck_size
    if t.size == want:
        return []
    template = (
        gettext_noop("The deck has %(size)s card; %(ruler)s's deck must have exactly %(want)s.")
        if t.size == 1
        else gettext_noop("The deck has %(size)s cards; %(ruler)s's deck must have exactly %(want)s.")
    )
    values = {"size": t.size, "ruler": r.ruler, "want": want}
    return [Violation.later("deck_size", template, values, (), r.source_of("deck_size"))]


def check_card_type(t: Tally, r: RulesInForce) -> list[Violation]:
    out = []
    energy = [n for n, card in t.cards.items() if card.type == ENERGY]
    if energy:
        energy.sort()
        wording = Wording(gettext_noop("Energy cards are not put into the deck: %(cards)s."), {"cards": tuple(energy)})
        out.append(Violation.worded("card_type", wording, tuple(energy), Wording(gettext_noop("card types"))))
    not_energy = sorted({e.card.name for e in t.deck.resources if e.card.type != ENERGY})
    if not_energy:
        wording = Wording(
            gettext_noop("Only energy cards can be resource cards: %(cards)s."), {"cards": tuple(not_energy)}
        )
        out.append(Violation.worded("card_type", wording, tuple(not_energy), Wording(gettext_noop("card types"))))
    return out


_SCOPE_WORDS = {
    ALL: gettext_noop("The deck has %(count)s factions (%(factions)s); %(ruler)s allows at most %(limit)s."),
    UNITS: gettext_noop(
        "The deck has %(count)s factions among units (%(factions)s); %(ruler)s allows at most %(limit)s."
    ),
    NON_UNITS: gettext_noop(
        "The deck has %(count)s factions among cards other than units (%(factions)s); "
        "%(ruler)s allows at most %(limit)s."
    ),
}


def check_max_factions(t: Tally, r: RulesInForce) -> list[Violation]:
    out = []
    for scope, limit in r.deck.max_factions.items():
        if limit is None:
            continue
        if scope == ALL:
            counts = t.faction_counts
        else:
            counts = {}
            for name, card in t.cards.items():
                if card.faction is not None and in_scope(card, scope):
                    counts[card.faction] = counts.get(card.faction, 0) + t.counts[name]
        if len(counts) <= limit:
            continue
        # The factions with the fewest cards are the ones the player most likely wants to cut: by count, most
        # first, then by name (a stable sort of the names sorted, `reverse` keeping equal counts in order).
        factions = sorted(counts)
        extra = set(sorted(factions, key=counts.__getitem__, reverse=True)[limit:])
        if scope == ALL:
            cards = sorted(n for n, card in t.cards.items() if card.faction in extra)
        else:
            cards = sorted(n for n, card in t.cards.items() if card.faction in extra and in_scope(card, scope))
        values = {"count": len(counts), "factions": tuple(factions), "ruler": r.ruler, "limit": limit}
        # Worded when read: the card browser's hints run this check for each card shown and read only `cards`.
        out.append(
            Violation.later("max_factions", _SCOPE_WORDS[scope], values, tuple(cards), r.source_of("max_factions"))
        )
    return out


def check_unit_attribute(t: Tally, r: RulesInForce) -> list[Violation]:
    if not r.deck.unit_attribute_choice:
        return []
    chosen = t.deck.attribute
    units = sorted(n for n, card in t.cards.items() if card.type == UNIT)
    if not chosen:
        template = gettext_noop("%(ruler)s needs a chosen unit attribute: every unit in the deck must have it.")
        wording = Wording(template, {"ruler": r.ruler})
        return [Violation.worded("unit_attribute", wording, tuple(units), r.source_of("unit_attribute_choice"))]
    missing = [n for n in units if chosen not in t.cards[n].attributes]
    if not missing:
        return []
    template = _one_or_many(
        len(missing),
        gettext_noop("%(count)s unit without the chosen attribute %(attribute)s: %(cards)s."),
        gettext_noop("%(count)s units without the chosen attribute %(attribute)s: %(cards)s."),
    )
    wording = Wording(template, {"count": len(missing), "attribute": chosen, "cards": tuple(missing)})
    return [Violation.worded("unit_attribute", wording, tuple(missing), r.source_of("unit_attribute_choice"))]


def copy_limit(card: CardFacts, r: RulesInForce) -> int:
    """How many copies of a name the rules allow, before any legendary limit."""
    for exception in r.deck.max_copies_exceptions:
        if exception.text_contains in card.text:
            return exception.max_copies
    return r.deck.max_copies


def check_max_copies(t: Tally, r: RulesInForce) -> list[Violation]:
    floor = r.deck.lowest_copy_limit()
    # No name over the lowest limit: nothing to say (the card browser's hints ask this of every card shown).
    if not t.counts or max(t.counts.values()) <= floor:
        return []
    out = []
    for name, count in t.counts.items():
        if count <= floor:
            continue
        limit = copy_limit(t.cards[name], r)
        if count > limit:
            template = _one_or_many(
                count,
                gettext_noop("%(count)s copy of %(name)s; %(ruler)s allows at most %(limit)s."),
                gettext_noop("%(count)s copies of %(name)s; %(ruler)s allows at most %(limit)s."),
            )
            values = {"count": count, "name": name, "ruler": r.ruler, "limit": limit}
            source = r.source_of("max_copies_exceptions" if limit != r.deck.max_copies else "max_copies")
            out.append(Violation.later("max_copies", template, values, (name,), source))
    out.sort(key=lambda v: v.cards)
    return out


def check_legend_cap(t: Tally, r: RulesInForce) -> list[Violation]:
    cap = r.deck.legend_cap
    if cap is None or t.legends <= cap:
        return []
    legends = [n for n, card in t.cards.items() if card.legend]
    if len(legends) <= cap:
        return []
    legends.sort()
    if cap:
        template = _one_or_many(
            len(legends),
            gettext_noop("The deck has %(count)s legendary card (%(cards)s); %(ruler)s allows at most %(cap)s."),
            gettext_noop("The deck has %(count)s legendary cards (%(cards)s); %(ruler)s allows at most %(cap)s."),
        )
    else:
        template = _one_or_many(
            len(legends),
            gettext_noop("The deck has %(count)s legendary card (%(cards)s); %(ruler)s allows none."),
            gettext_noop("The deck has %(count)s legendary cards (%(cards)s); %(ruler)s allows none."),
        )
    values = {"count": len(legends), "cards": tuple(legends), "ruler": r.ruler, "cap": cap}
    return [Violation.later("legend_cap", template, values, tuple(legends), r.source_of("legend_cap"))]


def check_legend_copies(t: Tally, r: RulesInForce) -> list[Violation]:
    limit = r.deck.legend_max_copies
    if limit is None:
        return []
    over = sorted(n for n, card in t.cards.items() if card.legend and t.counts[n] > limit)
    return [
        Violation.worded(
            "legend_copies",
            Wording(
                _one_or_many(
                    t.counts[name],
                    gettext_noop("%(count)s copy of the legendary card %(name)s; %(ruler)s allows at most %(limit)s."),
                    gettext_noop(
                        "%(count)s copies of the legendary card %(name)s; %(ruler)s allows at most %(limit)s."
                    ),
                ),
                {"count": t.counts[name], "name": name, "ruler": r.ruler, "limit": limit},
            ),
            (name,),
            r.source_of("legend_max_copies"),
        )
        for name in over
    ]


def check_level_cap(t: Tally, r: RulesInForce) -> list[Violation]:
    cap = r.deck.level_cap
    if cap is None or t.level <= cap:
        return []
    cards = sorted(n for n, card in t.cards.items() if card.level)
    template = gettext_noop("Deck level %(level)s is over %(ruler)s's cap of %(cap)s.")
    values = {"level": t.level, "ruler": r.ruler, "cap": cap}
    return [Violation.later("level_cap", template, values, tuple(cards), r.source_of("level_cap"))]


def check_cnt_cap(t: Tally, r: RulesInForce) -> list[Violation]:
    cap = r.deck.cnt_cap
    if cap is None or t.cnt <= cap:
        return []
    cards = sorted(n for n, card in t.cards.items() if card.cnt)
    template = gettext_noop("The deck has %(cnt)s CNT cards; %(ruler)s's CNT cap is %(cap)s.")
    values = {"cnt": t.cnt, "ruler": r.ruler, "cap": cap}
    return [Violation.later("cnt_cap", template, values, tuple(cards), r.source_of("cnt_cap"))]


def check_negative_level(t: Tally, r: RulesInForce) -> list[Violation]:
    if r.deck.allow_negative_levels:
        return []
    cards = sorted(n for n, card in t.cards.items() if card.level is not None and card.level < 0)
    if not cards:
        return []
    template = gettext_noop("%(ruler)s cannot have cards with a negative level: %(cards)s.")
    wording = Wording(template, {"ruler": r.ruler, "cards": tuple(cards)})
    return [Violation.worded("negative_level", wording, tuple(cards), r.source_of("allow_negative_levels"))]


def in_pool(card: CardFacts, printings: set[str | None], r: RulesInForce) -> bool:
    """Whether a card may be in the deck under the ruler's card pool, given the printings named."""
    pool = r.deck.card_pool
    if pool is None:
        return True
    if card.faction in pool.factions or not pool.attributes.isdisjoint(card.attributes):
        return True
    if not pool.collector_number_prefixes:
        return False
    prefixes = pool.collector_number_prefixes
    if pool.same_name:
        # Any printing of the name will do, by rule.
        return _printed_in_pool(card.collector_numbers, prefixes)
    # Every printing the player named must be in the pool; copies named by card name
    # only can be any printing of it.
    return all(
        _printed_in_pool(card.collector_numbers, prefixes) if p is None else p.startswith(prefixes) for p in printings
    )


@lru_cache(maxsize=8192)
def _printed_in_pool(numbers: tuple[str, ...], prefixes: tuple[str, ...]) -> bool:
    """Whether some printing starts with a pool prefix: remembered, as World Master decks ask it of
    every card on every judgement."""
    return any(n.startswith(prefixes) for n in numbers)


def check_card_pool(t: Tally, r: RulesInForce) -> list[Violation]:
    pool = r.deck.card_pool
    if pool is None:
        return []
    outside = sorted(n for n, card in t.cards.items() if not in_pool(card, t.printings[n], r))
    if not outside:
        return []
    template = gettext_noop("%(ruler)s can only use %(pool)s; not in the pool: %(cards)s.")
    wording = Wording(template, {"ruler": r.ruler, "pool": pool.describe(), "cards": tuple(outside)})
    return [Violation.worded("card_pool", wording, tuple(outside), r.source_of("card_pool"))]


def check_faction_quota(t: Tally, r: RulesInForce) -> list[Violation]:
    quota = r.deck.faction_quota
    if quota is None:
        return []
    return [
        Violation.worded(
            "faction_quota",
            Wording(
                gettext_noop(
                    "%(count)s cards from %(faction)s; %(ruler)s allows at most %(quota)s cards from each faction."
                ),
                {"count": count, "faction": faction, "ruler": r.ruler, "quota": quota},
            ),
            tuple(sorted(n for n, card in t.cards.items() if card.faction == faction)),
            r.source_of("faction_quota"),
        )
        for faction, count in sorted(t.faction_counts.items())
        if count > quota
    ]


def check_banned_card(t: Tally, r: RulesInForce) -> list[Violation]:
    if not r.deck.banned_cards:
        return []
    own = r.own_deck.banned_cards if r.own_deck else frozenset()
    return [
        Violation.worded(
            "banned_card",
            Wording(gettext_noop("%(name)s cannot be in the deck."), {"name": name}),
            (name,),
            # A ban the geas added is best explained by naming the geas alone.
            Wording(gettext_noop("banned by %(geas)s"), {"geas": r.geas})
            if r.geas and name not in own
            else Wording(gettext_noop("%(ruler)s's rule"), {"ruler": r.ruler}),
        )
        for name in sorted(r.deck.banned_cards.intersection(t.cards))
    ]


def check_resource_cards(t: Tally, r: RulesInForce) -> list[Violation]:
    want = r.deck.resource_cards
    if t.resources == want:
        return []
    names = tuple(sorted({e.card.name for e in t.deck.resources}))
    if want == 0:
        template = _one_or_many(
            t.resources,
            gettext_noop("%(ruler)s prepares no resource cards; remove the %(count)s resource card."),
            gettext_noop("%(ruler)s prepares no resource cards; remove the %(count)s resource cards."),
        )
    else:
        template = gettext_noop(
            "%(ruler)s prepares exactly %(want)s resource cards besides the deck; there are %(count)s."
        )
    wording = Wording(template, {"ruler": r.ruler, "want": want, "count": t.resources})
    return [Violation.worded("resource_cards", wording, names, r.source_of("resource_cards"))]
