"""Sample decks: find a deck that validate_deck judges legal for the rules in force.

Pure Python, no Django: give it the cards (CardFacts) and the rules, get back a DeckSnapshot or None.
Used to seed demo decks and in tests.

How it works, for each allowed choice of factions in turn:

1. Keep the cards the rules allow at all (pool, bans, negative levels, legends, the chosen
   unit attribute, the factions of this choice).
2. Walk the cards in order of preference (legends first, then cards with a raised copy
   limit, then cards whose level is closest to the average level the level cap allows)
   and add copies one at a time. A copy is kept only if the deck can still be finished
   legally: the cheapest completion (lowest levels first, within the copy, legend, CNT
   and faction-quota limits) must reach the deck size without going over the level cap.
3. The finished deck is checked with validate_deck; the first legal one is returned.

Everything is sorted by name, so the same cards and rules always give the same deck.
"""

from __future__ import annotations

import itertools
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .checks import copy_limit
from .engine import validate_deck
from .ruleset import RulesInForce
from .types import ENERGY, EVENT, FIELD, UNIT, CardFacts, DeckEntry, DeckSnapshot, in_scope

# The average card level aimed at when the ruler has no level cap.
UNCAPPED_TARGET_LEVEL = 2.0

# A choice of factions: for each limited scope ("all", "units", "non_units"), the factions allowed.
FactionChoice = Mapping[str, frozenset[str]]


def build_legal_deck(
    cards: Sequence[CardFacts],
    rules: RulesInForce,
    *,
    attribute: str | None = None,
) -> DeckSnapshot | None:
    """A deck of these cards that the rules in force judge legal, or None if none is found.

    For rulers whose units must share a chosen attribute, pass ``attribute``, or leave it
    None to let the builder choose (see choose_attribute). For other rulers it is ignored.
    """
    cards = _unique_by_name(cards)
    if not rules.deck.unit_attribute_choice:
        return _build(cards, rules, None)
    candidates = [attribute] if attribute else _attribute_candidates(cards, rules)
    for candidate in candidates:
        deck = _build(cards, rules, candidate)
        if deck is not None:
            return deck
    return None


def choose_attribute(cards: Sequence[CardFacts], rules: RulesInForce) -> str | None:
    """The unit attribute to build around: the most common one among the allowed units that
    gives a legal deck. None if the ruler chooses no attribute, or no attribute works."""
    if not rules.deck.unit_attribute_choice:
        return None
    deck = build_legal_deck(cards, rules)
    return deck.attribute if deck else None


def _unique_by_name(cards: Iterable[CardFacts]) -> list[CardFacts]:
    seen: dict[str, CardFacts] = {}
    for card in cards:
        seen.setdefault(card.name, card)
    return sorted(seen.values(), key=lambda c: c.name)


def _attribute_candidates(cards: Sequence[CardFacts], rules: RulesInForce) -> list[str]:
    counts: dict[str, int] = {}
    for card in _allowed_cards(cards, rules, None):
        if card.type == UNIT:
            for attr in card.attributes:
                counts[attr] = counts.get(attr, 0) + 1
    return sorted(counts, key=lambda a: (-counts[a], a))


def _build(cards: Sequence[CardFacts], rules: RulesInForce, attribute: str | None) -> DeckSnapshot | None:
    resources = _resources(cards, rules)
    if resources is None:
        return None
    allowed = _allowed_cards(cards, rules, attribute)
    for choice in _faction_choices(allowed, rules):
        pool = [c for c in allowed if _fits_choice(c, choice)]
        counts = _fill(pool, rules)
        if counts is None:
            continue
        deck = DeckSnapshot(main=_entries(counts, pool, rules), resources=resources, attribute=attribute)
        if validate_deck(deck, rules).legal:
            return deck
    return None


def _in_pool(card: CardFacts, rules: RulesInForce) -> bool:
    """Whether the ruler's card pool (if any) allows the card through any of its printings."""
    pool = rules.deck.card_pool
    if pool is None:
        return True
    if card.faction in pool.factions or not pool.attributes.isdisjoint(card.attributes):
        return True
    return _pool_printing(card, rules) is not None


def _pool_printing(card: CardFacts, rules: RulesInForce) -> str | None:
    """For a ruler with a collector-number pool, name a printing that is in it."""
    pool = rules.deck.card_pool
    if pool is None or not pool.collector_number_prefixes:
        return None
    for number in card.collector_numbers:
        if number.startswith(pool.collector_number_prefixes):
            return number
    return None


def max_copies(card: CardFacts, rules: RulesInForce) -> int:
    """How many copies of a name the rules allow: the first copy-limit exception whose
    text the card contains, else the ruler's limit; lower for a legendary card."""
    limit = copy_limit(card, rules)
    if card.legend and rules.deck.legend_max_copies is not None:
        limit = min(limit, rules.deck.legend_max_copies)
    return limit


def _allowed_cards(cards: Sequence[CardFacts], rules: RulesInForce, attribute: str | None) -> list[CardFacts]:
    """The cards that may go into the main deck at all, whatever else is in it."""
    deck = rules.deck
    out = []
    for card in cards:
        if card.type == ENERGY or card.level is None:
            continue
        if card.name in deck.banned_cards or max_copies(card, rules) <= 0:
            continue
        if _level(card) < 0 and not deck.allow_negative_levels:
            continue
        if card.legend and deck.legend_cap == 0:
            continue
        if attribute and card.type == UNIT and attribute not in card.attributes:
            continue
        if _in_pool(card, rules):
            out.append(card)
    return out


def _level(card: CardFacts) -> int:
    # Only energy cards have no level, and they never reach the main deck.
    return card.level or 0


def _faction_choices(cards: Sequence[CardFacts], rules: RulesInForce) -> list[FactionChoice]:
    """Every way to pick the most factions the limits allow, in a deterministic order.

    The list starts at an offset taken from the ruler's (and geas's) name, so that demo
    decks for different rulers show different factions.
    """
    per_scope = []
    for scope, limit in sorted(rules.deck.max_factions.items()):
        if limit is None:
            continue
        factions = sorted({c.faction for c in cards if c.faction and in_scope(c, scope)})
        size = min(limit, len(factions))
        per_scope.append([(scope, frozenset(combo)) for combo in itertools.combinations(factions, size)])
    choices: list[FactionChoice] = [dict(combo) for combo in itertools.product(*per_scope)]
    start = zlib.crc32(f"{rules.ruler}|{rules.geas or ''}".encode()) % len(choices)
    return choices[start:] + choices[:start]


def _fits_choice(card: CardFacts, choice: FactionChoice) -> bool:
    return card.faction is None or all(
        card.faction in factions for scope, factions in choice.items() if in_scope(card, scope)
    )


@dataclass(slots=True)
class _Partial:
    """A deck being filled: copies per name and the running totals the limits are about."""

    counts: dict[str, int] = field(default_factory=dict)
    size: int = 0
    level: int = 0
    cnt: int = 0
    legends: int = 0
    per_faction: dict[str, int] = field(default_factory=dict)

    def copy(self) -> _Partial:
        return _Partial(
            dict(self.counts),
            self.size,
            self.level,
            self.cnt,
            self.legends,
            dict(self.per_faction),
        )

    def room(self, card: CardFacts, rules: RulesInForce) -> int:
        """How many more copies of the card fit, by copy, legend, CNT and quota limits."""
        deck = rules.deck
        have = self.counts.get(card.name, 0)
        cap = deck.legend_cap
        if card.legend and have == 0 and cap is not None and self.legends >= cap:
            return 0
        room = min(max_copies(card, rules) - have, deck.deck_size - self.size)
        if card.cnt and deck.cnt_cap is not None:
            room = min(room, deck.cnt_cap - self.cnt)
        if card.faction and deck.faction_quota is not None:
            room = min(room, deck.faction_quota - self.per_faction.get(card.faction, 0))
        return max(room, 0)

    def add(self, card: CardFacts, n: int) -> None:
        if n <= 0:
            return
        if card.legend and card.name not in self.counts:
            self.legends += 1
        self.counts[card.name] = self.counts.get(card.name, 0) + n
        self.size += n
        self.level += _level(card) * n
        self.cnt += n if card.cnt else 0
        if card.faction:
            self.per_faction[card.faction] = self.per_faction.get(card.faction, 0) + n


def _complete_cheaply(
    partial: _Partial,
    cheapest: Sequence[CardFacts],
    rules: RulesInForce,
    closed: set[str],
) -> _Partial | None:
    """Fill the rest of the deck with the lowest-level cards not yet closed; None if the
    deck cannot reach its size within the level cap that way."""
    filled = partial.copy()
    want = rules.deck.deck_size
    for card in cheapest:
        if filled.size >= want:
            break
        if card.name not in closed:
            filled.add(card, filled.room(card, rules))
    cap = rules.deck.level_cap
    if filled.size != want or (cap is not None and filled.level > cap):
        return None
    return filled


def _fill(cards: Sequence[CardFacts], rules: RulesInForce) -> dict[str, int] | None:
    """Copies per name for a full deck of these cards within every limit, or None."""
    deck = rules.deck
    cheapest = sorted(cards, key=lambda c: (_level(c), c.name))
    partial = _Partial()
    closed: set[str] = set()
    if _complete_cheaply(partial, cheapest, rules, closed) is None:
        return None

    target = deck.level_cap / deck.deck_size if deck.level_cap is not None else UNCAPPED_TARGET_LEVEL

    def preference(card: CardFacts) -> tuple[object, ...]:
        return (
            not card.legend,
            -max_copies(card, rules),
            abs(_level(card) - target),
            _level(card),
            card.name,
        )

    for card in sorted(cards, key=preference):
        if partial.size >= deck.deck_size:
            break
        while partial.room(card, rules) > 0:
            trial = partial.copy()
            trial.add(card, 1)
            if _complete_cheaply(trial, cheapest, rules, closed) is None:
                break
            partial = trial
        closed.add(card.name)

    if partial.size < deck.deck_size:
        finished = _complete_cheaply(partial, cheapest, rules, set())
        if finished is None:
            return None
        partial = finished
    return partial.counts


_TYPE_ORDER = {UNIT: 0, EVENT: 1, FIELD: 2}


def _entries(counts: Mapping[str, int], cards: Sequence[CardFacts], rules: RulesInForce) -> tuple[DeckEntry, ...]:
    """Deck entries sorted for reading: units, events, fields; by level, then name."""
    chosen = [c for c in cards if counts.get(c.name, 0) > 0]
    chosen.sort(key=lambda c: (_TYPE_ORDER.get(c.type, 9), _level(c), c.name))
    return tuple(DeckEntry(card, counts[card.name], _pool_printing(card, rules)) for card in chosen)


def _resources(cards: Sequence[CardFacts], rules: RulesInForce) -> tuple[DeckEntry, ...] | None:
    """The energy cards prepared besides the deck, spread over the energy names; None if
    the ruler needs some and there are none."""
    want = rules.deck.resource_cards
    if want == 0:
        return ()
    energy = [c for c in cards if c.type == ENERGY]
    energy = [c for c in energy if _in_pool(c, rules)] or energy
    if not energy:
        return None
    counts = [0] * len(energy)
    for i in range(want):
        counts[i % len(energy)] += 1
    return tuple(DeckEntry(card, n, _pool_printing(card, rules)) for card, n in zip(energy, counts, strict=True) if n)
