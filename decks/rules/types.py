"""Plain values the engine works on: cards, decks, violations. No Django here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import FrozenInstanceError, dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .wording import Wording

if TYPE_CHECKING:
    # Only for the annotation: ruleset imports this module.
    from .ruleset import RulesInForce

# One shared empty mapping: the default of every card's fields and every deck's other sections
# (read-only, so sharing it is safe, and no dict is made per card).
_EMPTY: Mapping[str, Any] = MappingProxyType({})

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
    # The game's own card fields ({"colours": ("red",), "cost": 2}), as its data file declares
    # them (decks/rules/games.py); empty for Gate Ruler, whose facts are the fields above.
    # Left out of the hash (a mapping has none) so cards stay usable as keys.
    fields: Mapping[str, object] = field(default_factory=lambda: _EMPTY, hash=False)


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
    # A game's other sections by key ("kingdom", "hero", "gates"); Gate Ruler's two sections are
    # `main` and `resources` above, so every Gate Ruler caller keeps reading them as before.
    sections: Mapping[str, tuple[DeckEntry, ...]] = field(default_factory=lambda: _EMPTY, hash=False)

    @classmethod
    def of_sections(cls, sections: Mapping[str, tuple[DeckEntry, ...]]) -> DeckSnapshot:
        """A deck from its sections by key: `main` and `resources` go to their own fields."""
        others = {k: tuple(v) for k, v in sections.items() if k not in (MAIN, RESOURCES)}
        return cls(tuple(sections.get(MAIN, ())), tuple(sections.get(RESOURCES, ())), None, MappingProxyType(others))

    def section(self, key: str) -> tuple[DeckEntry, ...]:
        """The entries of one section, by its key in the game's data; () for a section the deck leaves empty."""
        if key == MAIN:
            return self.main
        if key == RESOURCES:
            return self.resources
        return self.sections.get(key, ())


def in_scope(card: CardFacts, scope: str) -> bool:
    """Whether a faction limit of this scope ("all", "units", "non_units") counts the card."""
    return scope == ALL or (scope == UNITS) == (card.type == UNIT)


class Violation:
    """A broken rule: its code, its message (in English; `wording` keeps its template and values so it can
    be worded in another language), the cards to blame and where the rule comes from.

    A frozen value, as a frozen dataclass of (rule, message, cards, source, wording) would be: equal
    and hashed by the first four. Made by `later`, its message is worded only when first read (or
    compared): the card browser's hints run the faction limit's check for each card shown and read
    only the cards it blames, never the message, which wording dozens of factions would cost.
    """

    __slots__ = ("_later", "_message", "_wording", "cards", "rule", "source")
    __match_args__ = ("rule", "message", "cards", "source", "wording")

    rule: str
    cards: tuple[str, ...]
    source: str
    _message: str | None
    _wording: Wording | None
    _later: tuple[str, Mapping[str, object]] | None

    def __init__(
        self, rule: str, message: str, cards: tuple[str, ...] = (), source: str = "", wording: Wording | None = None
    ) -> None:
        _set(self, "rule", rule)
        _set(self, "_message", message)
        _set(self, "cards", cards)
        _set(self, "source", source)
        _set(self, "_wording", wording)
        _set(self, "_later", None)

    @classmethod
    def worded(cls, rule: str, wording: Wording, cards: tuple[str, ...] = (), source: str = "") -> Violation:
        """A violation whose message is `wording` (template plus values; its str is the English text).

        `source` may be a Wording too (ruleset.source_of gives one), to be worded like the message."""
        return cls(rule, wording, cards, source, wording)

    @classmethod
    def later(
        cls, rule: str, template: str, values: Mapping[str, object], cards: tuple[str, ...] = (), source: str = ""
    ) -> Violation:
        """`worded(rule, Wording(template, values), cards, source)`, the Wording made when first needed."""
        self = cls.__new__(cls)
        _set(self, "rule", rule)
        _set(self, "_message", None)
        _set(self, "cards", cards)
        _set(self, "source", source)
        _set(self, "_wording", None)
        _set(self, "_later", (template, values))
        return self

    def _worded(self) -> Wording:
        later = self._later
        assert later is not None
        wording = Wording(*later)
        _set(self, "_wording", wording)
        _set(self, "_message", wording)
        _set(self, "_later", None)
        return wording

    @property
    def message(self) -> str:
        message = self._message
        return self._worded() if message is None else message

    @property
    def wording(self) -> Wording | None:
        return self._worded() if self._later is not None else self._wording

    def _key(self) -> tuple[str, str, tuple[str, ...], str]:
        return (self.rule, self.message, self.cards, self.source)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Violation)
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"{type(self).__qualname__}(rule={self.rule!r}, message={self.message!r}, cards={self.cards!r}, "
            f"source={self.source!r}, wording={self.wording!r})"
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[object, ...]:
        # Pickled (cached reports) worded, as the dataclass was.
        return (type(self), (self.rule, self.message, self.cards, self.source, self.wording))


# Setting a slot of a frozen value, as a frozen dataclass's __init__ does.
_set = object.__setattr__


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
