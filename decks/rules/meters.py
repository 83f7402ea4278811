"""Meters: where a deck stands against each constraint of the rules in force (pure, no Django).

One meter per constraint the ruler actually has: deck size 47/50, level total 43/50 (or
43 / unlimited), CNT 12/16, factions 2/2 with their names, legendary cards 1/2, resources
3/3, cards per faction under a quota, cards outside a card pool. Each meter knows whether
the deck is over (or, for counts that must be exact, short of) its limit; each rule's meters
come from its entry in the registry.
"""

from __future__ import annotations

from .registry import RULES
from .rule_meters import OK, OVER, UNDER, Meter
from .ruleset import RulesInForce
from .tally import Tally
from .types import DeckSnapshot

__all__ = ["OK", "OVER", "UNDER", "Meter", "deck_meters"]

# The deck's totals first (size, level, CNT), then what it is made of: the rules' meters in panel order.
_METERED = sorted((rule for rule in RULES if rule.meter is not None), key=lambda rule: rule.meter_rank)


def deck_meters(deck: DeckSnapshot, rules: RulesInForce) -> list[Meter]:
    """The meters for a deck under the rules in force, in the order the rules list them."""
    # Counted as the judgement counts it (the same tally, Tally.of): the names' printings only under a card
    # pool, whose meter is their only reader.
    tally = Tally.of(deck, rules)
    return [meter for rule in _METERED if rule.meter is not None for meter in rule.meter(tally, rules)]
