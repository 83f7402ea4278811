"""A judged deck of any game as the read pages show it: the deck page and a past version's, the share
link's page, the registration sheet and the text import's preview.

Each section of the game's data under its label with its lines, the verdict, and the game's rules
panel where its data holds the rules. What a game whose identity is a ruler shows besides (its
ruler, geas and rules date, its main deck by card type, the level curve and the faction bars) is
there because the game's data says its identity is a ruler, not because the code knows the game.
The editor draws its lines, groups and charts with the same pieces (decks/editor/state.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from functools import cache, cached_property

from django.utils.translation import gettext, gettext_noop, pgettext

from cards.card_face import field_and_value
from cards.games import games
from cards.rules_selectors import RulesChoice
from decks.drafts import DraftJudgement, deck_draft_judge
from decks.models import DeckDraft
from decks.rules.games import GameDefinition
from decks.rules.hints import natural_section
from decks.rules.kinds import rule_line_labels
from decks.rules.panel import RulesPanel, rules_panel
from decks.rules.registry import line_label as registry_line_label
from decks.rules.ruleset import RulesInForce
from decks.rules.types import ENERGY, EVENT, FIELD, MAIN, UNIT, CardFacts, DeckEntry, DeckSnapshot, Report
from decks.rules.wording import Label, Wording
from decks.wording import game_name, word


def dom_safe(text: str) -> str:
    """Text usable inside an HTML id (collector numbers are letters, digits and dashes already)."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", text)


# Violations that name (nearly) every card of the deck: not worth highlighting each card for.
_UNHIGHLIGHTED = frozenset({"deck_size", "level_cap"})
# A ruler's main deck by card type; marked for translation, the templates translate them ({% translate group.label %}).
TYPE_GROUPS = (
    (UNIT, gettext_noop("Units")),
    (EVENT, gettext_noop("Events")),
    (FIELD, gettext_noop("Fields")),
    (ENERGY, gettext_noop("Energy (not allowed in the deck)")),
)


def line_label(rule: str) -> str:
    """What a flagged deck line says of a rule (the rule registry's words, decks.rules.registry); the
    validation panel has the full message, and the code stays in data-rule for scripts and tests.
    A code without words yet is shown as words."""
    return registry_line_label(rule) or _game_line_labels().get(rule) or rule.replace("_", " ").capitalize()


@cache
def _game_line_labels() -> dict[str, Wording]:
    """Every game's rule codes that flag lines, with their words (a code two games share says the same of a line:
    check_rules keeps a code to one kind within a game, and the games' files use one code for one idea)."""
    labels: dict[str, Wording] = {}
    for game in games().values():
        for code, label in rule_line_labels(game).items():
            labels.setdefault(code, label)
    return labels


@dataclass(frozen=True)
class DeckLine:
    """One printing in one section of a deck."""

    number: str
    section: str
    count: int
    facts: CardFacts
    # Codes of the violations that name this card.
    rules: tuple[str, ...] = ()
    # The card's type as its game's data calls it ("Unit"), and the game's own card fields in words
    # ("Colours: red · Cost: 2"); both from the facts and the game, so a line's facts decide them.
    type_label: Label | str = ""
    fields: str = ""

    @property
    def name(self) -> str:
        return self.facts.name

    @property
    def flagged(self) -> bool:
        return any(rule not in _UNHIGHLIGHTED for rule in self.rules)

    @property
    def problems(self) -> list[tuple[str, str]]:
        """(code, words) of each rule the line is flagged by; deck-wide rules are left to the panel."""
        return [(rule, line_label(rule)) for rule in self.rules if rule not in _UNHIGHLIGHTED]

    @property
    def target_section(self) -> str:
        """Where the card goes out of the considering board."""
        return natural_section(self.facts)

    @property
    def key(self) -> str:
        """Section and collector number, as the change buttons name a line ("main 2025PS01-001")."""
        return f"{self.section} {self.number}"

    @property
    def dom_id(self) -> str:
        return f"{self.section}-{dom_safe(self.number)}"

    @property
    def meta(self) -> str:
        """Level · faction · CNT · Legend · the game's fields · collector number, in one string (one template lookup)."""
        f = self.facts
        parts = [
            f"Lv {f.level}" if f.level is not None else "",
            game_name(f.faction) if f.faction else "",
            "CNT" if f.cnt else "",
            gettext("Legend") if f.legend else "",
            self.fields,
            self.number,
        ]
        return " · ".join(p for p in parts if p)


@dataclass(frozen=True)
class LineGroup:
    key: str
    label: Label | str
    lines: list[DeckLine]

    @property
    def count(self) -> int:
        return sum(line.count for line in self.lines)


@dataclass(frozen=True)
class Bar:
    label: str
    count: int
    percent: int
    # A faction's bar: how many of its copies are units and how many other cards (worded by the template).
    units: int = 0
    others: int = 0


def level_key(level: int | None) -> int:
    """Sorts lines by level, cards without one last."""
    return 10**6 if level is None else level


def level_curve(deck: DeckSnapshot) -> list[Bar]:
    """Copies per level in the main deck, from the lowest level (0 at most) to the highest."""
    per_level: dict[int, int] = {}
    for entry in deck.main:
        if entry.card.level is not None:
            per_level[entry.card.level] = per_level.get(entry.card.level, 0) + entry.count
    if not per_level:
        return []
    peak = max(per_level.values())
    return [
        Bar(str(level), per_level.get(level, 0), round(100 * per_level.get(level, 0) / peak))
        for level in range(min(0, *per_level), max(per_level) + 1)
    ]


def faction_breakdown(deck: DeckSnapshot) -> list[Bar]:
    """Copies per faction in the main deck, largest first, with the units/non-units split."""
    units: dict[str, int] = {}
    others: dict[str, int] = {}
    for entry in deck.main:
        faction = entry.card.faction or "No faction"
        bucket = units if entry.card.type == UNIT else others
        bucket[faction] = bucket.get(faction, 0) + entry.count
    size = sum(e.count for e in deck.main) or 1
    totals = {f: units.get(f, 0) + others.get(f, 0) for f in {*units, *others}}
    return [
        Bar(faction, total, round(100 * total / size), units.get(faction, 0), others.get(faction, 0))
        for faction, total in sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
    ]


def card_fields_in_words(game: GameDefinition, card: CardFacts) -> str:
    """The game's own card fields of a card in the player's language, as its data labels them ("Colour: Red · COST: 2")."""
    words = []
    for field in game.card_fields:
        value = card.fields.get(field.key)
        if value is None or value == () or (field.kind == "bool" and not value):
            continue
        if field.kind == "bool":
            words.append(word(field.label))
            continue
        labels = {choice.key: choice.label for choice in field.choices}
        values = value if isinstance(value, tuple | list) else (value,)
        # Translators: how a list of names is joined ("A, B, C"; Japanese uses 、).
        shown = pgettext("list separator", ", ").join(word(labels[v]) if v in labels else str(v) for v in values)
        words.append(field_and_value(word(field.label), shown))
    return " · ".join(words)


@dataclass(frozen=True)
class DeckSection:
    """One section of the game's data (Deck, Resources, Kingdom, Hero, Gates, Main deck) with its lines."""

    key: str
    label: Label | str
    lines: tuple[DeckLine, ...]
    # Whether the section reads by card type (a ruler's main deck); its lines grouped so (the types it has),
    # else one group of them all, so that the pages draw every section with one loop.
    by_type: bool = False
    groups: tuple[LineGroup, ...] = ()
    # How many cards the rules ask of the section, where its heading says so ("Resources (4/5)").
    asked: int | None = None

    @property
    def count(self) -> int:
        return sum(line.count for line in self.lines)


@dataclass(frozen=True)
class DeckView:
    """A draft judged, with what the read pages show of it."""

    judgement: DraftJudgement
    sections: tuple[DeckSection, ...]
    # The game's rules in words with their sources; None where a ruler holds the rules (its data has none to list).
    panel: RulesPanel | None

    @property
    def game(self) -> GameDefinition:
        return self.judgement.game

    @property
    def draft(self) -> DeckDraft:
        return self.judgement.draft

    @property
    def report(self) -> Report:
        return self.judgement.report

    @property
    def ruled(self) -> bool:
        """Whether the deck's identity is a ruler (its game's data says so): the ruler, geas and rules date are shown."""
        return self.judgement.choice is not None

    @property
    def choice(self) -> RulesChoice | None:
        return self.judgement.choice

    @property
    def rules(self) -> RulesInForce | None:
        return self.judgement.choice.rules if self.judgement.choice is not None else None

    @property
    def identity(self) -> CardFacts | None:
        return self.judgement.identity

    @property
    def identity_label(self) -> str:
        """What the game calls its identity section ("Kingdom", "Hero")."""
        return next((s.label for s in self.game.sections if s.identity), "")

    @property
    def main_count(self) -> int:
        return sum(entry.count for entry in self.judgement.deck.main)

    @property
    def main_groups(self) -> tuple[LineGroup, ...]:
        """The main deck's type groups (a ruler's deck; () for a game whose main deck is one list)."""
        return next((s.groups for s in self.sections if s.key == MAIN and s.by_type), ())

    @cached_property
    def curve(self) -> list[Bar]:
        """Copies per level (a ruler's deck: its cards have levels)."""
        return level_curve(self.judgement.deck) if self.ruled else []

    @cached_property
    def factions(self) -> list[Bar]:
        """Copies per faction (a ruler's deck: its cards have factions)."""
        return faction_breakdown(self.judgement.deck) if self.ruled else []


def deck_view_of(judgement: DraftJudgement) -> DeckView:
    """The view of a judged draft: each of its game's sections, the lines sorted by type, level and name."""
    game = judgement.game
    named: dict[str, list[str]] = {}
    for violation in judgement.report.violations:
        for name in violation.cards:
            named.setdefault(name, []).append(violation.rule)
    rules = judgement.choice.rules if judgement.choice is not None else None
    type_labels = {card_type.key: card_type.label for card_type in game.card_types}

    def lines(key: str, entries: tuple[DeckEntry, ...]) -> tuple[DeckLine, ...]:
        made = [
            DeckLine(
                number=entry.printing or (entry.card.collector_numbers or ("",))[0],
                section=key,
                count=entry.count,
                facts=entry.card,
                rules=tuple(dict.fromkeys(named.get(entry.card.name, ()))),
                type_label=type_labels.get(entry.card.type) or game.type_label(entry.card.type),
                fields=card_fields_in_words(game, entry.card),
            )
            for entry in entries
        ]
        return tuple(
            sorted(made, key=lambda ln: (ln.type_label, level_key(ln.facts.level), ln.facts.name.casefold(), ln.number))
        )

    sections = []
    for section in game.sections:
        shown = lines(section.key, judgement.deck.section(section.key))
        groups: tuple[LineGroup, ...] = (LineGroup(section.key, section.label, list(shown)),)
        asked = None
        by_type = rules is not None and section.key == MAIN
        if by_type:
            # A ruler's main deck reads by card type, and its heading says the size the ruler asks.
            grouped = (
                LineGroup(card_type, label, [ln for ln in shown if ln.facts.type == card_type])
                for card_type, label in TYPE_GROUPS
            )
            groups = tuple(g for g in grouped if g.lines)
            asked = rules.deck.deck_size
        elif rules is not None:
            # A ruler's other section (resources): shown where the ruler asks for it or the deck has some.
            asked = rules.deck.resource_cards
            if not asked and not shown:
                continue
        sections.append(DeckSection(section.key, section.label, shown, by_type, groups, asked))
    return DeckView(judgement, tuple(sections), rules_panel(game) if rules is None else None)


def deck_view(*, draft: DeckDraft, today: date | None = None) -> DeckView:
    """Judge a draft and make its view; ApplicationError when its rules cannot judge it (an unknown game, ruler, …)."""
    return deck_view_of(deck_draft_judge(draft=draft, today=today))
