"""The deck counted once: what every check, meter and summary reads (pure, no Django)."""

from __future__ import annotations

from dataclasses import dataclass

from .ruleset import RulesInForce
from .types import CardFacts, DeckSnapshot, Summary


@dataclass(slots=True)
class Tally:
    """The deck counted once, so each check is one pass over a few dozen names."""

    deck: DeckSnapshot
    cards: dict[str, CardFacts]
    counts: dict[str, int]
    # Collector numbers the player named for each card (None: named by card name only); empty
    # when counted for rules without a card pool (see of).
    printings: dict[str, set[str | None]]
    size: int
    level: int
    cnt: int
    resources: int
    faction_counts: dict[str, int]

    @classmethod
    def of(cls, deck: DeckSnapshot, rules: RulesInForce | None = None) -> Tally:
        """Count the deck; given the rules, `printings` is filled only if they have a card pool (its only reader)."""
        cards: dict[str, CardFacts] = {}
        counts: dict[str, int] = {}
        printings: dict[str, set[str | None]] = {}
        faction_counts: dict[str, int] = {}
        size = level = cnt = 0
        # Half the cost of counting a 50-name deck went into these sets (docs/benchmarks.md).
        with_printings = rules is None or rules.deck.card_pool is not None
        for entry in deck.main:
            card, count = entry.card, entry.count
            name = card.name
            if name in counts:
                counts[name] += count
                if with_printings:
                    printings[name].add(entry.printing)
            else:
                cards[name] = card
                counts[name] = count
                if with_printings:
                    printings[name] = {entry.printing}
            size += count
            if card.level:
                level += card.level * count
            if card.cnt:
                cnt += count
            if card.faction is not None:
                faction_counts[card.faction] = faction_counts.get(card.faction, 0) + count
        resources = sum(entry.count for entry in deck.resources)
        return cls(deck, cards, counts, printings, size, level, cnt, resources, faction_counts)

    def summary(self) -> Summary:
        """The deck's totals, as a report carries them."""
        return Summary(
            size=self.size,
            level=self.level,
            cnt=self.cnt,
            legends=sum(1 for card in self.cards.values() if card.legend),
            factions=tuple(sorted(self.faction_counts)),
            resources=self.resources,
        )
