"""What changed between two saved versions of a deck, and how two decks differ (pure: plain values in and out).

Both work on DeckVersion snapshots (DeckDraft.to_snapshot(): `ruler`, `geas`, `attribute`,
`rules_date`, `name`, `description`, and `main`/`resources` as copies per collector number; a
deck of another game also has `others`, its other sections by key: "kingdom", "hero", "gates").
Cards are compared by NAME: swapping a card for another printing of it changes nothing a
player reads in the list, so it is no change here. The caller passes the names of the
collector numbers (a number it has no name for stands for itself).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cards.games import UnknownGameError, default_game_slug, game_get
from decks.rules.wording import Wording, gettext_noop

CARD_SECTIONS = ("main", "resources")
_FIELDS = (
    ("name", gettext_noop("Name")),
    ("ruler", gettext_noop("Ruler")),
    ("geas", gettext_noop("Geas")),
    ("attribute", gettext_noop("Attribute")),
    ("rules_date", gettext_noop("Rules date")),
    ("description", gettext_noop("Description")),
)
MINUS = "\u2212"  # a real minus sign reads better than a hyphen in "−1 Sky Lancer"


@dataclass(frozen=True)
class CardDelta:
    """Copies of one card (by name) in one section, before and after."""

    name: str
    section: str
    before: int
    after: int
    # What the deck's game calls the section ("Kingdom"), in every language; the key where the game has none.
    section_label: str = ""

    @property
    def delta(self) -> int:
        return self.after - self.before

    @property
    def text(self) -> str:
        values = {"sign": "+" if self.delta > 0 else MINUS, "n": abs(self.delta), "name": self.name}
        if self.section == "resources":
            return Wording(gettext_noop("%(sign)s%(n)s %(name)s (resources)"), values)
        if self.section != "main":
            section = self.section_label or self.section
            return Wording(gettext_noop("%(sign)s%(n)s %(name)s (%(section)s)"), {**values, "section": section})
        return Wording(gettext_noop("%(sign)s%(n)s %(name)s"), values)


@dataclass(frozen=True)
class FieldChange:
    """A change to the deck's rules choice or its name/description; values are display strings ("" = none)."""

    field: str
    label: str
    before: str
    after: str

    @property
    def text(self) -> str:
        if self.field == "description":
            return Wording(gettext_noop("Description changed"))
        if self.field == "rules_date":
            today = Wording(gettext_noop("today"))
            values = {"before": self.before or today, "after": self.after or today}
            return Wording(gettext_noop("Rules date: %(before)s → %(after)s"), values)
        none = Wording(gettext_noop("none"))
        # The label is a Wording too, so it is shown in the player's language.
        values = {"field": Wording(self.label), "before": self.before or none, "after": self.after or none}
        return Wording(gettext_noop("%(field)s: %(before)s → %(after)s"), values)


@dataclass(frozen=True)
class Changelog:
    """The changes one save made; `created` for a deck's first version (no earlier one to compare with)."""

    fields: tuple[FieldChange, ...]
    cards: tuple[CardDelta, ...]
    created: bool = False

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(change.text for change in self.fields) + tuple(delta.text for delta in self.cards)

    @property
    def is_empty(self) -> bool:
        return not self.fields and not self.cards


def snapshot_sections(snapshot: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """A snapshot's sections by key: the deck and resources, and a game's other sections ("kingdom", …)."""
    sections = {section: snapshot.get(section) or {} for section in CARD_SECTIONS}
    others = snapshot.get("others")
    if isinstance(others, Mapping):
        sections.update((str(key), counts) for key, counts in others.items() if isinstance(counts, Mapping))
    return sections


def snapshot_numbers(snapshot: Mapping[str, Any]) -> set[str]:
    """Every collector number a snapshot names, in any section."""
    return {number for counts in snapshot_sections(snapshot).values() for number in counts}


def _section_order(section: str) -> tuple[int, str]:
    # The deck, then its resources, then a game's other sections by key.
    return (CARD_SECTIONS.index(section), "") if section in CARD_SECTIONS else (len(CARD_SECTIONS), section)


def card_counts(snapshot: Mapping[str, Any], names: Mapping[str, str]) -> dict[tuple[str, str], int]:
    """Copies per (section, card name) of a snapshot's sections; printings of one name add up."""
    counts: dict[tuple[str, str], int] = {}
    for section, section_counts in snapshot_sections(snapshot).items():
        for number, count in section_counts.items():
            key = (section, names.get(number, number))
            counts[key] = counts.get(key, 0) + int(count)
    return counts


def _deltas(
    before: Mapping[tuple[str, str], int], after: Mapping[tuple[str, str], int], game: str | None = None
) -> list[CardDelta]:
    sections = _section_labels(game)
    deltas = [
        CardDelta(
            name, section, before.get((section, name), 0), after.get((section, name), 0), sections.get(section, "")
        )
        for section, name in {*before, *after}
        if before.get((section, name), 0) != after.get((section, name), 0)
    ]
    # The deck before its resources; within a section additions first, then by name.
    deltas.sort(key=lambda d: (_section_order(d.section), d.delta < 0, d.name.casefold(), d.name))
    return deltas


def deck_changelog(
    before: Mapping[str, Any] | None,
    after: Mapping[str, Any],
    *,
    names: Mapping[str, str],
    labels: Mapping[str, str] | None = None,
) -> Changelog:
    """The changes from snapshot `before` (None: `after` is the first version) to snapshot `after`.

    `labels` turns ruler and geas slugs into the names players read (a slug without one is shown as is).
    """
    labels = labels or {}
    game = after.get("game")
    if before is None:
        return Changelog(fields=(), cards=tuple(_deltas({}, card_counts(after, names), game)), created=True)
    fields = []
    for key, label in _FIELDS:
        old, new = str(before.get(key) or ""), str(after.get(key) or "")
        if old != new:
            if key in ("ruler", "geas"):
                old, new = labels.get(old, old), labels.get(new, new)
            fields.append(FieldChange(key, label, old, new))
    cards = _deltas(card_counts(before, names), card_counts(after, names), game)
    return Changelog(fields=tuple(fields), cards=tuple(cards))


def _section_labels(game: object) -> dict[str, str]:
    """The sections' labels of a snapshot's game (none for a game the site no longer has)."""
    try:
        definition = game_get(str(game)) if game else None
    except UnknownGameError:
        return {}
    return {section.key: section.label for section in definition.sections} if definition is not None else {}


@dataclass(frozen=True)
class CountDifference:
    name: str
    section: str
    a: int
    b: int
    # What the decks' game calls the section ("Resources", "Kingdom"), in every language; the key where none does.
    section_label: str = ""


@dataclass(frozen=True)
class Comparison:
    """Two decks side by side: cards only in A, only in B, in both with different counts, and in both alike."""

    only_a: tuple[CountDifference, ...]
    only_b: tuple[CountDifference, ...]
    different: tuple[CountDifference, ...]
    same: tuple[CountDifference, ...]


def deck_compare(a: Mapping[str, Any], b: Mapping[str, Any], *, names: Mapping[str, str]) -> Comparison:
    """Compare the cards (by name, per section) of two snapshots."""
    counts_a, counts_b = card_counts(a, names), card_counts(b, names)
    keys = sorted({*counts_a, *counts_b}, key=lambda k: (_section_order(k[0]), k[1].casefold(), k[1]))
    labels = {
        **_section_labels(b.get("game") or default_game_slug()),
        **_section_labels(a.get("game") or default_game_slug()),
    }
    rows = [
        CountDifference(
            name,
            section,
            counts_a.get((section, name), 0),
            counts_b.get((section, name), 0),
            labels.get(section, section),
        )
        for section, name in keys
    ]
    return Comparison(
        only_a=tuple(r for r in rows if r.b == 0),
        only_b=tuple(r for r in rows if r.a == 0),
        different=tuple(r for r in rows if r.a and r.b and r.a != r.b),
        same=tuple(r for r in rows if r.a and r.a == r.b),
    )
