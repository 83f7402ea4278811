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


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {plural or word + 's'}"


def check_deck_size(t: Tally, r: RulesInForce) -> list[Violation]:
    want = r.deck.deck_size
    if t.size == want:
        return []
    template = (
        gettext_noop("The deck has %(size)s card; %(ruler)s's deck must have exactly %(want)s.")
        if t.size == 1
        else gettext_noop("The deck has %(size)s cards; %(ruler)s's deck must have exactly %(want)s.")
    )
    wording = Wording(template, {"size": t.size, "ruler": r.ruler, "want": want})
    return [Violation.worded("deck_size", wording, (), r.source_of("deck_size"))]


def check_card_type(t: Tally, r: RulesInForce) -> list[Violation]:
    out = []
    energy = [n for n, card in t.cards.items() if card.type == ENERGY]
    if energy:
        energy.sort()
        out.append(
            Violation(
                "card_type",
                f"Energy cards are not put into the deck: {', '.join(energy)}.",
                tuple(energy),
                "card types",
            )
        )
    not_energy = sorted({e.card.name for e in t.deck.resources if e.card.type != ENERGY})
    if not_energy:
        out.append(
            Violation(
                "card_type",
                f"Only energy cards can be resource cards: {', '.join(not_energy)}.",
                tuple(not_energy),
                "card types",
            )
        )
    return out


_SCOPE_WORDS = {
    ALL: "",
    UNITS: " among units",
    NON_UNITS: " among cards other than units",
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
        # The factions with the fewest cards are the ones the player most likely wants to cut.
        ranked = sorted(counts, key=lambda f: (-counts[f], f))
        extra = set(ranked[limit:])
        cards = sorted(n for n, card in t.cards.items() if card.faction in extra and in_scope(card, scope))
        out.append(
            Violation(
                "max_factions",
                f"The deck has {len(counts)} factions{_SCOPE_WORDS[scope]} ({', '.join(sorted(counts))}); "
                f"{r.ruler} allows at most {limit}.",
                tuple(cards),
                r.source_of("max_factions"),
            )
        )
    return out


def check_unit_attribute(t: Tally, r: RulesInForce) -> list[Violation]:
    if not r.deck.unit_attribute_choice:
        return []
    chosen = t.deck.attribute
    units = sorted(n for n, card in t.cards.items() if card.type == UNIT)
    if not chosen:
        return [
            Violation(
                "unit_attribute",
                f"{r.ruler} needs a chosen unit attribute: every unit in the deck must have it.",
                tuple(units),
                r.source_of("unit_attribute_choice"),
            )
        ]
    missing = [n for n in units if chosen not in t.cards[n].attributes]
    if not missing:
        return []
    return [
        Violation(
            "unit_attribute",
            f"{_plural(len(missing), 'unit')} without the chosen attribute {chosen}: {', '.join(missing)}.",
            tuple(missing),
            r.source_of("unit_attribute_choice"),
        )
    ]


def copy_limit(card: CardFacts, r: RulesInForce) -> int:
    """How many copies of a name the rules allow, before any legendary limit."""
    for exception in r.deck.max_copies_exceptions:
        if exception.text_contains in card.text:
            return exception.max_copies
    return r.deck.max_copies


def check_max_copies(t: Tally, r: RulesInForce) -> list[Violation]:
    out = []
    floor = min([r.deck.max_copies, *(e.max_copies for e in r.deck.max_copies_exceptions)])
    for name, count in t.counts.items():
        if count <= floor:
            continue
        limit = copy_limit(t.cards[name], r)
        if count > limit:
            out.append(
                Violation(
                    "max_copies",
                    f"{_plural(count, 'copy', 'copies')} of {name}; {r.ruler} allows at most {limit}.",
                    (name,),
                    r.source_of("max_copies_exceptions" if limit != r.deck.max_copies else "max_copies"),
                )
            )
    out.sort(key=lambda v: v.cards)
    return out


def check_legend_cap(t: Tally, r: RulesInForce) -> list[Violation]:
    cap = r.deck.legend_cap
    if cap is None:
        return []
    legends = [n for n, card in t.cards.items() if card.legend]
    if len(legends) <= cap:
        return []
    legends.sort()
    allowed = f"at most {cap}" if cap else "none"
    return [
        Violation(
            "legend_cap",
            f"The deck has {_plural(len(legends), 'legendary card')} ({', '.join(legends)}); {r.ruler} allows {allowed}.",
            tuple(legends),
            r.source_of("legend_cap"),
        )
    ]


def check_legend_copies(t: Tally, r: RulesInForce) -> list[Violation]:
    limit = r.deck.legend_max_copies
    if limit is None:
        return []
    over = sorted(n for n, card in t.cards.items() if card.legend and t.counts[n] > limit)
    return [
        Violation(
            "legend_copies",
            f"{_plural(t.counts[name], 'copy', 'copies')} of the legendary card {name}; {r.ruler} allows at most {limit}.",
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
    return [
        Violation(
            "level_cap",
            f"Deck level {t.level} is over {r.ruler}'s cap of {cap}.",
            tuple(cards),
            r.source_of("level_cap"),
        )
    ]


def check_cnt_cap(t: Tally, r: RulesInForce) -> list[Violation]:
    cap = r.deck.cnt_cap
    if cap is None or t.cnt <= cap:
        return []
    cards = sorted(n for n, card in t.cards.items() if card.cnt)
    return [
        Violation(
            "cnt_cap",
            f"The deck has {t.cnt} CNT cards; {r.ruler}'s CNT cap is {cap}.",
            tuple(cards),
            r.source_of("cnt_cap"),
        )
    ]


def check_negative_level(t: Tally, r: RulesInForce) -> list[Violation]:
    if r.deck.allow_negative_levels:
        return []
    cards = sorted(n for n, card in t.cards.items() if card.level is not None and card.level < 0)
    if not cards:
        return []
    return [
        Violation(
            "negative_level",
            f"{r.ruler} cannot have cards with a negative level: {', '.join(cards)}.",
            tuple(cards),
            r.source_of("allow_negative_levels"),
        )
    ]


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
    every card on every judgement (half of such a judgement's time, docs/benchmarks.md)."""
    return any(n.startswith(prefixes) for n in numbers)


def check_card_pool(t: Tally, r: RulesInForce) -> list[Violation]:
    pool = r.deck.card_pool
    if pool is None:
        return []
    outside = sorted(n for n, card in t.cards.items() if not in_pool(card, t.printings[n], r))
    if not outside:
        return []
    return [
        Violation(
            "card_pool",
            f"{r.ruler} can only use {pool.describe()}; not in the pool: {', '.join(outside)}.",
            tuple(outside),
            r.source_of("card_pool"),
        )
    ]


def check_faction_quota(t: Tally, r: RulesInForce) -> list[Violation]:
    quota = r.deck.faction_quota
    if quota is None:
        return []
    return [
        Violation(
            "faction_quota",
            f"{count} cards from {faction}; {r.ruler} allows at most {quota} cards from each faction.",
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
        Violation(
            "banned_card",
            f"{name} cannot be in the deck.",
            (name,),
            # A ban the geas added is best explained by naming the geas alone.
            f"banned by {r.geas}" if r.geas and name not in own else f"{r.ruler}'s rule",
        )
        for name in sorted(r.deck.banned_cards.intersection(t.cards))
    ]


def check_resource_cards(t: Tally, r: RulesInForce) -> list[Violation]:
    want = r.deck.resource_cards
    if t.resources == want:
        return []
    names = tuple(sorted({e.card.name for e in t.deck.resources}))
    if want == 0:
        message = f"{r.ruler} prepares no resource cards; remove the {_plural(t.resources, 'resource card')}."
    else:
        message = f"{r.ruler} prepares exactly {want} resource cards besides the deck; there are {t.resources}."
    return [Violation("resource_cards", message, names, r.source_of("resource_cards"))]
