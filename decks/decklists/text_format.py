"""Decks as plain text, the writing half (pure, no Django): the list format_deck_text writes
for Gate Ruler, and format_game_deck_text for a game whose sections come from its data.

A game's list (text.parse_deck_text reads it back)::

    # Blue Wall
    Game: Ruler's Gambit

    # Unit (30)
    2 Tide Warden
    ...

    Kingdom:
    1 Azure Kingdom

The main deck comes first, with no heading (lines before any heading are the main deck); each
other section follows under its heading from the game's data (`Kingdom:`, `Hero:`, `Gates:`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

# Type -> heading of its group in the written list, in the order the groups are written.
TYPE_HEADINGS = {"unit": "Units", "event": "Events", "field": "Fields", "energy": "Energy"}


@dataclass(frozen=True)
class TextWords:
    """The words a written list uses, in one language (English by default; the page's language is the caller's:
    decks.decklists.selectors). The reader (text.parse_deck_text) knows every language's."""

    ruler: str = "Ruler"
    geas: str = "Geas"
    attribute: str = "Attribute"
    rules_date: str = "Rules date"
    resources: str = "Resources"
    game: str = "Game"
    other: str = "Other"
    # What follows a heading ("Ruler: …"; Japanese writes "ルーラー：…", the colon full width and no space).
    colon: str = ": "
    type_headings: Mapping[str, str] = field(default_factory=lambda: dict(TYPE_HEADINGS))

    def line(self, heading: str, value: str) -> str:
        return f"{heading}{self.colon}{value}"

    def alone(self, heading: str) -> str:
        """A heading on a line of its own ("Kingdom:")."""
        return f"{heading}{self.colon.rstrip()}"


@dataclass(frozen=True)
class TextCard:
    """One card of a deck as the text shows it: copies, name, and what groups and orders it."""

    count: int
    name: str
    type: str = ""
    level: int | None = None


def format_deck_text(
    *,
    ruler: str,
    main: Iterable[TextCard],
    resources: Iterable[TextCard] = (),
    geas: str | None = None,
    attribute: str = "",
    rules_date: date | None = None,
    name: str = "",
    words: TextWords | None = None,
) -> str:
    """The deck as text: headings, then the deck grouped by type, then the resources.

    Copies of one name in several printings are written as one line (the text names cards,
    not printings). Within a group, cards go by level, then name.
    """
    w = words or TextWords()
    out = []
    if name:
        out.append(f"# {_one_line(name)}")
    out.append(w.line(w.ruler, ruler))
    if geas:
        out.append(w.line(w.geas, geas))
    if attribute:
        out.append(w.line(w.attribute, attribute))
    if rules_date:
        out.append(w.line(w.rules_date, rules_date.isoformat()))
    groups: dict[str, list[TextCard]] = {}
    for card in _merged(main):
        groups.setdefault(card.type if card.type in TYPE_HEADINGS else "", []).append(card)
    for card_type in [*TYPE_HEADINGS, ""]:
        cards = groups.get(card_type)
        if not cards:
            continue
        heading = w.type_headings.get(card_type, w.other)
        out += ["", f"# {heading} ({sum(c.count for c in cards)})"]
        out += [f"{c.count} {c.name}" for c in _ordered(cards)]
    extra = _merged(resources)
    if extra:
        out += ["", f"{w.alone(w.resources)}  # {sum(c.count for c in extra)}"]
        out += [f"{c.count} {c.name}" for c in _ordered(extra)]
    return "\n".join(out) + "\n"


def _merged(cards: Iterable[TextCard]) -> list[TextCard]:
    by_name: dict[str, TextCard] = {}
    for card in cards:
        seen = by_name.get(card.name)
        by_name[card.name] = (
            card if seen is None else TextCard(seen.count + card.count, card.name, seen.type, seen.level)
        )
    return list(by_name.values())


def _ordered(cards: Iterable[TextCard]) -> list[TextCard]:
    return sorted(cards, key=lambda c: (c.level is None, c.level or 0, c.name))


def _one_line(text: str) -> str:
    return " ".join(text.split())


def format_game_deck_text(
    *,
    game: str,
    main: Iterable[TextCard],
    sections: Sequence[tuple[str, Iterable[TextCard]]] = (),
    type_labels: Mapping[str, str] | None = None,
    name: str = "",
    words: TextWords | None = None,
) -> str:
    """A deck of a game other than Gate Ruler as text: the `Game:` line, the main deck grouped by
    type (in `type_labels`' order, with its labels), then each other (heading, cards) section."""
    w = words or TextWords()
    labels = dict(type_labels or {})
    out = [f"# {_one_line(name)}"] if name else []
    out.append(w.line(w.game, game))
    groups: dict[str, list[TextCard]] = {}
    for card in _merged(main):
        groups.setdefault(card.type if card.type in labels else "", []).append(card)
    for card_type in [*labels, ""]:
        cards = groups.get(card_type)
        if cards:
            out += ["", f"# {labels.get(card_type, w.other)} ({sum(c.count for c in cards)})"]
            out += [f"{c.count} {c.name}" for c in _ordered(cards)]
    for heading, cards in sections:
        merged = _merged(cards)
        if merged:
            out += ["", w.alone(heading)]
            out += [f"{c.count} {c.name}" for c in _ordered(merged)]
    return "\n".join(out) + "\n"
