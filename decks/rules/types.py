"""Plain values the engine works on: cards, decks, violations. No Django here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .wording import Wording

if TYPE_CHECKING:
    # Only for the annotation: ruleset imports this module.
    from .ruleset import RulesInForce

UNIT = "unit"
EVENT = "event"
FIELD = "field"
ENERGY = "energy"
CARD_TYPES = (UNIT, EVENT, FIELD, ENERGY)

# The sections of a deck: the deck itself and the resource cards prepared besides it.
MAIN = "main"
RESOURCES = "resources"

# The parts of a deck a faction limit can apply to (a ruler's max_factions keys).
ALL = "all"
UNITS = "units"
NON_UNITS = "non_units"
FACTION_SCOPES = (ALL, UNITS, NON_UNITS)


@dataclass(frozen=True, slots=True)
class CardFacts:
    """What deck construction needs to know of one card (one name, all its printings)."""

    name: str
    type: str
    faction: str | None = None
    attributes: frozenset[str] = frozenset()
    level: int | None = None
    cnt: bool = False
    legend: bool = False
    text: str = ""
    collector_numbers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class DeckEntry:
    card: CardFacts
    count: int
    # The printing the player chose, when they named one; pools may depend on it.
    printing: str | None = None


@dataclass(frozen=True, slots=True)
class DeckSnapshot:
    """A deck as the engine sees it: plain values, whatever it was read from (saved deck, draft, text, link)."""

    main: tuple[DeckEntry, ...] = ()
    resources: tuple[DeckEntry, ...] = ()
    attribute: str | None = None


def in_scope(card: CardFacts, scope: str) -> bool:
    """Whether a faction limit of this scope ("all", "units", "non_units") counts the card."""
    return scope == ALL or (scope == UNITS) == (card.type == UNIT)


@dataclass(frozen=True, slots=True)
class Violation:
    rule: str
    # In English; `wording` keeps its template and values so it can be worded in another language.
    message: str
    cards: tuple[str, ...] = ()
    source: str = ""
    wording: Wording | None = field(default=None, compare=False)

    @classmethod
    def worded(cls, rule: str, wording: Wording, cards: tuple[str, ...] = (), source: str = "") -> Violation:
        """A violation whose message is `wording` (template plus values; its str is the English text).

        `source` may be a Wording too (ruleset.source_of gives one), to be worded like the message."""
        return cls(rule, wording, cards, source, wording)


@dataclass(frozen=True, slots=True)
class Summary:
    size: int
    level: int
    cnt: int
    legends: int
    factions: tuple[str, ...]
    resources: int


@dataclass(frozen=True, slots=True)
class Report:
    violations: tuple[Violation, ...]
    summary: Summary
    # The rules the deck was judged by.
    rules: RulesInForce | None = field(repr=False, compare=False, default=None)

    @property
    def legal(self) -> bool:
        return not self.violations

    def rules_broken(self) -> set[str]:
        return {v.rule for v in self.violations}
