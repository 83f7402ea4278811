"""Meters: where a deck stands against each constraint of the rules in force (pure, no Django).

One meter per constraint the ruler actually has: deck size 47/50, level total 43/50 (or
43 / unlimited), CNT 12/16, factions 2/2 with their names, legendary cards 1/2, resources
3/3, cards per faction under a quota, cards outside a card pool. Each meter knows whether
the deck is over (or, for counts that must be exact, short of) its limit.
"""

from __future__ import annotations

from dataclasses import dataclass

from .checks import Tally, in_pool
from .ruleset import RulesInForce
from .types import UNIT, Deck

OK = "ok"
UNDER = "under"
OVER = "over"

_SCOPE_LABELS = {
    "all": "Factions",
    "units": "Factions among units",
    "non_units": "Factions among non-units",
}


@dataclass(frozen=True, slots=True)
class Meter:
    key: str
    label: str
    value: int
    # None: no limit (the meter then only informs).
    limit: int | None
    # The value must equal the limit (deck size, resources), not merely stay under it.
    exact: bool = False
    detail: str = ""

    @property
    def state(self) -> str:
        if self.limit is None:
            return OK
        if self.value > self.limit:
            return OVER
        if self.exact and self.value < self.limit:
            return UNDER
        return OK

    @property
    def over(self) -> bool:
        return self.state == OVER

    @property
    def text(self) -> str:
        return f"{self.value} / unlimited" if self.limit is None else f"{self.value}/{self.limit}"

    @property
    def percent(self) -> int:
        """How full the meter is, 0-100, for drawing a bar."""
        if self.limit is None:
            return 0
        if self.limit == 0:
            return 100 if self.value else 0
        return min(100, round(100 * self.value / self.limit))


def deck_meters(deck: Deck, rules: RulesInForce) -> list[Meter]:
    """The meters for a deck under the rules in force, in the order the rules list them."""
    d = rules.deck
    t = Tally.of(deck)
    meters = [
        Meter("size", "Deck size", t.size, d.deck_size, exact=True),
        Meter("level", "Level total", t.level, d.level_cap),
        Meter("cnt", "CNT cards", t.cnt, d.cnt_cap),
    ]
    for scope, limit in d.max_factions.items():
        names = sorted(_factions_in_scope(t, scope))
        key = "factions" if scope == "all" else f"factions_{scope}"
        meters.append(Meter(key, _SCOPE_LABELS[scope], len(names), limit, detail=", ".join(names)))
    if d.unit_attribute_choice:
        units = sum(t.counts[n] for n, card in t.cards.items() if card.type == UNIT)
        chosen = deck.attribute
        having = sum(t.counts[n] for n, c in t.cards.items() if c.type == UNIT and chosen in c.attributes)
        label = f"Units with {chosen}" if chosen else "Units with the chosen attribute (none chosen)"
        meters.append(Meter("attribute", label, having if chosen else 0, units, exact=True))
    legends = sorted(n for n, card in t.cards.items() if card.legend)
    meters.append(Meter("legends", "Legendary cards", len(legends), d.legend_cap, detail=", ".join(legends)))
    if d.resource_cards or t.resources:
        meters.append(Meter("resources", "Resource cards", t.resources, d.resource_cards, exact=True))
    if d.faction_quota is not None:
        if not t.faction_counts:
            meters.append(Meter("quota", "Cards per faction", 0, d.faction_quota))
        for faction, count in sorted(t.faction_counts.items()):
            meters.append(Meter(f"quota:{faction}", f"{faction} cards", count, d.faction_quota))
    if d.card_pool is not None:
        outside = sorted(n for n, card in t.cards.items() if not in_pool(card, t.printings[n], rules))
        meters.append(
            Meter(
                "pool",
                "Cards outside the pool",
                len(outside),
                0,
                detail=", ".join(outside) or d.card_pool.describe(),
            )
        )
    return meters


def _factions_in_scope(t: Tally, scope: str) -> set[str]:
    return {
        card.faction
        for card in t.cards.values()
        if card.faction is not None and (scope == "all" or (scope == "units") == (card.type == UNIT))
    }
