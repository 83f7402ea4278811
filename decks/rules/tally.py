"""The deck counted once: what every check, meter and summary reads (pure, no Django)."""

from __future__ import annotations

from dataclasses import dataclass

from .ruleset import RulesInForce
from .types import _EMPTY, ENERGY, RESOURCES, UNIT, CardFacts, DeckEntry, DeckSnapshot, Summary

# What of the deck a rule's check reads (its `reads` in the registry), as what one more copy of a
# card can change (Tally.moved_by). A check reading nothing the copy changes says after the copy
# what it said before: the card browser's hints (hints.Additions) then need not run it again.
SIZE = "size"  # the deck's card count
COPIES = "copies"  # the copies of each name (every copy moves its own name's)
# The names with more copies than the lowest copy limit, and their copies (a copy moves them only when it
# takes its name past that limit, see moved_by: the copy limit's check reads no other name's copies).
PAST_LOWEST_LIMIT = "copies past the lowest limit"
NAMES = "names"  # which names the deck holds, with their facts
PRINTINGS = "printings"  # the printings named of each name (counted only under a card pool)
LEVELS = "levels"  # the level total and the names with a level
NEGATIVE_LEVELS = "negative levels"  # the names with a negative level
CNT_CARDS = "CNT cards"  # their number and names
LEGENDS = "legends"  # the legendary names and their copies
UNIT_NAMES = "units"  # the unit names, with their attributes
ENERGY_NAMES = "energy"  # the energy names in the deck (not the resources)
FACTIONS = "factions"  # the cards of each faction: their number and names
RESOURCE_CARDS = "resources"  # the resource cards: their number and names
ASPECTS = frozenset(
    {
        SIZE,
        COPIES,
        PAST_LOWEST_LIMIT,
        NAMES,
        PRINTINGS,
        LEVELS,
        NEGATIVE_LEVELS,
        CNT_CARDS,
        LEGENDS,
        UNIT_NAMES,
        ENERGY_NAMES,
    }
    | {FACTIONS, RESOURCE_CARDS}
)
_RESOURCE_COPY = frozenset({RESOURCE_CARDS})


def with_one_more(deck: DeckSnapshot, card: CardFacts, printing: str | None, section: str) -> DeckSnapshot:
    """The deck with one more copy of a card, as a new line at the end of `section` (main or resources)."""
    entry = DeckEntry(card, 1, printing)
    if section == RESOURCES:
        return DeckSnapshot(deck.main, (*deck.resources, entry), deck.attribute)
    return DeckSnapshot((*deck.main, entry), deck.resources, deck.attribute)


@dataclass(slots=True)
class Tally:
    """The deck counted once, so each check is one pass over a few dozen names.

    Never changed once made (plus_one makes another): Tally.of gives the same one to every caller
    counting the same deck under the same rules.
    """

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
    # The legendary names (a truthy `legend`), counted once: each card the browser's hints test asks it of the
    # deck with its copy (summary), and the legendary card cap's check needs no names when under the cap.
    legends: int

    @classmethod
    def of(cls, deck: DeckSnapshot, rules: RulesInForce | None = None) -> Tally:
        """Count the deck; given the rules, `printings` is filled only if they have a card pool (its only reader).

        The last count is remembered with the deck and the rules it was made of (the very objects): an
        editor's change counts its deck for the judgement, the meters and the card browser's hints.
        """
        global _last
        last = _last
        if last is not None and last[0] is deck and last[1] is rules:
            return last[2]
        tally = cls._counted(deck, rules)
        # Held, so that no other deck or rules can take their ids while remembered.
        _last = (deck, rules, tally)
        return tally

    @classmethod
    def _counted(cls, deck: DeckSnapshot, rules: RulesInForce | None) -> Tally:
        cards: dict[str, CardFacts] = {}
        counts: dict[str, int] = {}
        printings: dict[str, set[str | None]] = {}
        faction_counts: dict[str, int] = {}
        size = level = cnt = legends = 0
        # The printings are gathered only where a card pool reads them: these sets cost more than the counting.
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
                if card.legend:
                    legends += 1
            size += count
            if card.level:
                level += card.level * count
            if card.cnt:
                cnt += count
            if card.faction is not None:
                faction_counts[card.faction] = faction_counts.get(card.faction, 0) + count
        resources = sum(entry.count for entry in deck.resources)
        return cls(deck, cards, counts, printings, size, level, cnt, resources, faction_counts, legends)

    def plus_one(self, card: CardFacts, printing: str | None, section: str, rules: RulesInForce | None) -> Tally:
        """The tally of with_one_more(deck, …) without counting the deck again (the browser's hints
        test ~30 cards against one deck per change). Equal to Tally.of of that deck, field for field:
        only the counters the new copy moves are copied and changed; the rest are shared (never mutated).
        """
        # with_one_more, written out (the browser's hints make one per card shown).
        entry = DeckEntry(card, 1, printing)
        old = self.deck
        if section == RESOURCES:
            deck = DeckSnapshot(old.main, (*old.resources, entry), old.attribute, _EMPTY)
        else:
            deck = DeckSnapshot((*old.main, entry), old.resources, old.attribute, _EMPTY)
        if section == RESOURCES:
            return Tally(
                deck, self.cards, self.counts, self.printings, self.size, self.level, self.cnt,
                self.resources + 1, self.faction_counts, self.legends,
            )  # fmt: skip
        name = card.name
        legends = self.legends
        if name in self.cards:
            cards = self.cards
        else:
            cards = {**self.cards, name: card}
            if card.legend:
                legends += 1
        counts = {**self.counts, name: self.counts.get(name, 0) + 1}
        printings = self.printings
        if rules is None or rules.deck.card_pool is not None:
            printings = {**printings, name: {*printings.get(name, ()), printing}}
        factions = self.faction_counts
        if card.faction is not None:
            factions = {**factions, card.faction: factions.get(card.faction, 0) + 1}
        level = self.level + (card.level or 0)
        cnt = self.cnt + (1 if card.cnt else 0)
        return Tally(deck, cards, counts, printings, self.size + 1, level, cnt, self.resources, factions, legends)

    def moved_by(
        self, card: CardFacts, printing: str | None, section: str, rules: RulesInForce | None
    ) -> frozenset[str]:
        """The aspects (SIZE, NAMES, …) that one more copy changes: what plus_one changes, said as aspects.
        Never fewer than it changes (a check reading one it leaves out would be skipped wrongly);
        a few more only cost a check run for nothing."""
        if section == RESOURCES:
            return _RESOURCE_COPY
        name = card.name
        known = self.cards.get(name)
        if known is not None and known is not card and known != card:
            # Facts other than its name's in the deck (a catalog never gives two): the deck's copies
            # count with the facts of their own line, so say everything moved.
            return ASPECTS
        new = known is None
        moved = [SIZE, COPIES]
        # Most copies the browser tests are a name's first few: no copy limit can then be broken by them.
        if rules is None or self.counts.get(name, 0) + 1 > rules.deck.lowest_copy_limit():
            moved.append(PAST_LOWEST_LIMIT)
        if new:
            moved.append(NAMES)
        if (rules is None or rules.deck.card_pool is not None) and (new or printing not in self.printings[name]):
            moved.append(PRINTINGS)
        if card.level:
            moved.append(LEVELS)
            if card.level < 0:
                moved.append(NEGATIVE_LEVELS)
        if card.cnt:
            moved.append(CNT_CARDS)
        if card.legend:
            moved.append(LEGENDS)
        if card.type == UNIT:
            moved.append(UNIT_NAMES)
        elif card.type == ENERGY:
            moved.append(ENERGY_NAMES)
        if card.faction is not None:
            moved.append(FACTIONS)
        return frozenset(moved)

    def summary_with_one_more(self, card: CardFacts, section: str) -> Summary:
        """plus_one(card, …).summary() without the tally (the browser's hints read the totals with a copy of
        most cards they test, and the counts of few): the totals one more copy moves, moved."""
        if section == RESOURCES:
            return Summary(
                size=self.size, level=self.level, cnt=self.cnt, legends=self.legends,
                factions=tuple(sorted(self.faction_counts)), resources=self.resources + 1,
            )  # fmt: skip
        new = card.name not in self.cards
        factions = self.faction_counts.keys()
        if card.faction is not None and card.faction not in factions:
            factions = {*factions, card.faction}  # type: ignore[assignment]
        return Summary(
            size=self.size + 1,
            level=self.level + (card.level or 0),
            cnt=self.cnt + (1 if card.cnt else 0),
            legends=self.legends + (1 if new and card.legend else 0),
            factions=tuple(sorted(factions)),
            resources=self.resources,
        )

    def summary(self) -> Summary:
        """The deck's totals, as a report carries them."""
        return Summary(
            size=self.size,
            level=self.level,
            cnt=self.cnt,
            legends=self.legends,
            factions=tuple(sorted(self.faction_counts)),
            resources=self.resources,
        )


# The last deck counted: (deck, rules, its tally), see Tally.of.
_last: tuple[DeckSnapshot, RulesInForce | None, Tally] | None = None
