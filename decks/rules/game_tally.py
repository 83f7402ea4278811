"""A deck of any game counted once: what every rule kind's check, hint and meter reads (pure, no Django).

The "can I add this?" hints of a card browser test each card against one tally of the deck
(a few dictionary look-ups per card), never a new judgement of the whole deck per card.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .engine import validate_deck
from .games import GameDefinition
from .ruleset import RulesInForce
from .types import MAIN, RESOURCES, CardFacts, DeckEntry, DeckSnapshot, Report, Summary
from .wording import Wording


def _sections(deck: DeckSnapshot) -> Iterator[tuple[str, tuple[DeckEntry, ...]]]:
    yield MAIN, deck.main
    yield RESOURCES, deck.resources
    yield from deck.sections.items()


@dataclass(slots=True)
class GameTally:
    """Copies of each card name per section, and each name's facts."""

    deck: DeckSnapshot
    cards: dict[str, CardFacts]
    # Section key -> card name -> copies, names in the order the deck first gives them.
    counts: dict[str, dict[str, int]]

    @classmethod
    def of(cls, deck: DeckSnapshot) -> GameTally:
        cards: dict[str, CardFacts] = {}
        counts: dict[str, dict[str, int]] = {}
        for key, entries in _sections(deck):
            section = counts.setdefault(key, {})
            for entry in entries:
                name = entry.card.name
                cards.setdefault(name, entry.card)
                section[name] = section.get(name, 0) + entry.count
        return cls(deck, cards, counts)

    def size(self, section: str) -> int:
        """Cards in a section."""
        return sum(self.counts.get(section, {}).values())

    def names(self, section: str) -> list[str]:
        """The card names in a section, in the deck's order."""
        return list(self.counts.get(section, {}))

    def copies(self, name: str, sections: Iterable[str]) -> int:
        """Copies of a card name over the given sections together."""
        return sum(self.counts.get(key, {}).get(name, 0) for key in sections)

    def summary(self) -> Summary:
        """The totals a report carries: the main deck's size (the Gate Ruler figures stay 0)."""
        return Summary(size=self.size(MAIN), level=0, cnt=0, legends=0, factions=(), resources=self.size(RESOURCES))


@dataclass(frozen=True, slots=True)
class Blocker:
    """Why one more copy of a card cannot go into a section: the rule's code and its few words."""

    rule: str
    wording: Wording

    def __str__(self) -> str:
        return str(self.wording)


@dataclass(slots=True)
class Judging:
    """One deck of one game being judged: the game, the deck counted once when a rule first reads the count, and
    for a game whose rules come from a ruler (kind ruler_rules) the rules in force and their report, made once.

    The count is lazy because a ruler's rules count the deck their own way (validate_deck): judging a Gate Ruler
    deck never reads it."""

    game: GameDefinition
    deck: DeckSnapshot
    rules: RulesInForce | None = None
    report: Report | None = None
    counted: GameTally | None = None

    @property
    def tally(self) -> GameTally:
        """The deck counted once (copies of each name per section)."""
        if self.counted is None:
            self.counted = GameTally.of(self.deck)
        return self.counted

    def rules_in_force(self) -> RulesInForce:
        """The rules in force; ValueError for a game judged by a ruler without them."""
        if self.rules is None:
            raise ValueError(f"{self.game.slug}: its rules come from a ruler; judge it with the rules in force")
        return self.rules

    def ruler_report(self) -> Report:
        """The ruler registry's report on the deck, by validate_deck."""
        if self.report is None:
            self.report = validate_deck(self.deck, self.rules_in_force())
        return self.report
