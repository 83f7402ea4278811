"""One meter per deck-construction rule that has one: where a deck stands against it (pure, no Django).

Each takes the counted deck and the rules in force and returns the rule's meters (one, several
or none); meters.deck_meters asks every rule in the registry, in the order of their meter_rank.
"""

from __future__ import annotations

from dataclasses import dataclass

from .checks import in_pool
from .ruleset import RulesInForce
from .tally import Tally
from .types import ALL, NON_UNITS, UNIT, UNITS, in_scope
from .wording import Wording, gettext_noop

OK = "ok"
UNDER = "under"
OVER = "over"


@dataclass(frozen=True, slots=True)
class Meter:
    key: str
    # A Wording (keyed by its template: decks/templatetags/editor_partials.py) or a plain label.
    label: Wording | str
    value: int
    # None: no limit (the meter then only informs).
    limit: int | None
    # The value must equal the limit (deck size, resources), not merely stay under it.
    exact: bool = False
    detail: Wording | str = ""
    # The limit is a least value (GateRunners' 40 cards or more): short of it is UNDER, past it OK.
    at_least: bool = False

    @property
    def state(self) -> str:
        if self.limit is None:
            return OK
        if self.at_least:
            return UNDER if self.value < self.limit else OK
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
        if self.limit is None:
            return Wording(gettext_noop("%(value)s / unlimited"), {"value": self.value})
        if self.at_least:
            # Not "41/40": past a least value the deck is not over, it has met it.
            return Wording(gettext_noop("%(value)s · at least %(limit)s"), {"value": self.value, "limit": self.limit})
        return f"{self.value}/{self.limit}"

    @property
    def percent(self) -> int:
        """How full the meter is, 0-100, for drawing a bar."""
        if self.limit is None:
            return 0
        if self.limit <= 0:
            return 100 if self.value > 0 else 0
        # Clamped: a deck's level total may be negative (cards of level -1), and a bar is never drawn below empty.
        return max(0, min(100, round(100 * self.value / self.limit)))


_SCOPE_LABELS = {
    ALL: gettext_noop("Factions"),
    UNITS: gettext_noop("Factions among units"),
    NON_UNITS: gettext_noop("Factions among non-units"),
}


# A meter names this many at most: a deck may hold dozens of cards at the copy limit, and a meter is one line.
NAMED = 3


def names_shown(key: str, names: list[str]) -> str:
    """A meter's list of names (at most NAMED, then "and N more"), kept as a Wording so the names can be shown
    in the player's language; "" for none."""
    if not names:
        return ""
    shown = Wording(f"%({key})s", {key: tuple(names[:NAMED])})
    if len(names) <= NAMED:
        return shown
    return Wording(gettext_noop("%(names)s and %(more)s more"), {"names": shown, "more": len(names) - NAMED})


def meter_deck_size(t: Tally, r: RulesInForce) -> list[Meter]:
    return [Meter("size", gettext_noop("Deck size"), t.size, r.deck.deck_size, exact=True)]


def meter_level_cap(t: Tally, r: RulesInForce) -> list[Meter]:
    return [Meter("level", gettext_noop("Level total"), t.level, r.deck.level_cap)]


def meter_cnt_cap(t: Tally, r: RulesInForce) -> list[Meter]:
    return [Meter("cnt", gettext_noop("CNT cards"), t.cnt, r.deck.cnt_cap)]


def meter_max_factions(t: Tally, r: RulesInForce) -> list[Meter]:
    meters = []
    for scope, limit in r.deck.max_factions.items():
        names = sorted({c.faction for c in t.cards.values() if c.faction is not None and in_scope(c, scope)})
        key = "factions" if scope == ALL else f"factions_{scope}"
        meters.append(Meter(key, _SCOPE_LABELS[scope], len(names), limit, detail=names_shown("factions", names)))
    return meters


def meter_unit_attribute(t: Tally, r: RulesInForce) -> list[Meter]:
    if not r.deck.unit_attribute_choice:
        return []
    units = sum(t.counts[n] for n, card in t.cards.items() if card.type == UNIT)
    chosen = t.deck.attribute
    having = sum(t.counts[n] for n, c in t.cards.items() if c.type == UNIT and chosen in c.attributes)
    label = (
        Wording(gettext_noop("Units with %(attribute)s"), {"attribute": chosen})
        if chosen
        else Wording(gettext_noop("Units with the chosen attribute (none chosen)"))
    )
    return [Meter("attribute", label, having if chosen else 0, units, exact=True)]


def meter_legend_cap(t: Tally, r: RulesInForce) -> list[Meter]:
    legends = sorted(n for n, card in t.cards.items() if card.legend)
    return [
        Meter(
            "legends",
            gettext_noop("Legendary cards"),
            len(legends),
            r.deck.legend_cap,
            detail=names_shown("cards", legends),
        )
    ]


def meter_resource_cards(t: Tally, r: RulesInForce) -> list[Meter]:
    if not (r.deck.resource_cards or t.resources):
        return []
    return [Meter("resources", gettext_noop("Resource cards"), t.resources, r.deck.resource_cards, exact=True)]


def meter_faction_quota(t: Tally, r: RulesInForce) -> list[Meter]:
    quota = r.deck.faction_quota
    if quota is None:
        return []
    if not t.faction_counts:
        return [Meter("quota", gettext_noop("Cards per faction"), 0, quota)]
    return [
        Meter(f"quota:{faction}", Wording(gettext_noop("%(faction)s cards"), {"faction": faction}), n, quota)
        for faction, n in sorted(t.faction_counts.items())
    ]


def meter_card_pool(t: Tally, r: RulesInForce) -> list[Meter]:
    pool = r.deck.card_pool
    if pool is None:
        return []
    outside = sorted(n for n, card in t.cards.items() if not in_pool(card, t.printings[n], r))
    return [
        Meter(
            "pool",
            gettext_noop("Cards outside the pool"),
            len(outside),
            0,
            detail=names_shown("cards", outside) or pool.describe(),
        )
    ]
