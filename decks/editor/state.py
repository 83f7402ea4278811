"""What the editor shows of a draft: its judged lines, meters, charts, rules pickers and filters.

The read pages show a judged deck through decks/deck_view.py, whose lines, groups and charts this
module reuses. Reads only: the changes are in decks/editor/services.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from django.utils.translation import get_language, gettext

from cards.games import game_get
from cards.models import Attribute, CardSet, CardType, Faction, Geas, GeasRevision, Ruler
from cards.names import JAPANESE_SCRIPT
from cards.rules_selectors import RulesChoice
from decks.card_facts import catalog_card_facts
from decks.deck_view import TYPE_GROUPS as _TYPE_GROUPS
from decks.deck_view import Bar, DeckLine, LineGroup, card_fields_in_words
from decks.deck_view import dom_safe as dom_safe  # decks/editor/browser.py uses it from here
from decks.deck_view import faction_breakdown as _faction_breakdown
from decks.deck_view import level_curve as _level_curve
from decks.deck_view import level_key as _level_key
from decks.deck_view import line_label as line_label
from decks.drafts import DraftJudgement, deck_draft_judge
from decks.models import DeckDraft
from decks.rules.game_tally import Judging
from decks.rules.games import GameDefinition
from decks.rules.hints import AttributeProposal, propose_attribute
from decks.rules.judge import game_meters, game_natural_section, judging, main_size_meter
from decks.rules.meters import Meter, deck_meters
from decks.rules.panel import RulesPanel, rules_panel
from decks.rules.ruleset import RulesInForce
from decks.rules.types import DeckEntry, Report
from decks.rules.wording import Label
from decks.wording import game_name, word

# The earliest year a rules date may name: Gate Ruler's rules begin in 2020, and an earlier year is a year
# half-typed (a date field gives 0002, then 0020, as its year is typed). The service refuses it and
# static/decks/editor.js does not apply it while the year is being typed (the field's data-earliest-year).
EARLIEST_RULES_YEAR = 1900


@dataclass(frozen=True)
class JudgedDeck:
    """A draft of any game judged, and the copies of each card name in it: what the card browser's results need.

    A search shows only its results and their hints: it judges the deck but draws none of the
    editor's other regions (deck_judged); the editor's page and its changes draw them all
    (DeckEditorState). `counted`: the deck's tally for the hints of a game whose identity is a card
    (decks.rules.judge.judging, made once per judgement); None for a ruler's game, whose hints count
    the deck by its ruler's rules (decks/editor/browser.py).
    """

    judgement: DraftJudgement
    # Copies of each card name in the deck's judged sections (what the card browser says is "in deck").
    copies: dict[str, int]
    counted: Judging | None
    # The game's data says its identity is a ruler, its rules dated: the ruler's pickers and charts show (a
    # field, not a property: the templates and the browser ask it many times a click).
    ruled: bool

    @property
    def draft(self) -> DeckDraft:
        return self.judgement.draft

    @property
    def game(self) -> GameDefinition:
        return self.judgement.game

    @property
    def choice(self) -> RulesChoice | None:
        return self.judgement.choice

    @property
    def rules(self) -> RulesInForce:
        """The ruler's rules in force (a ruler's game only)."""
        choice = self.judgement.choice
        if choice is None:
            raise AttributeError("a game whose identity is a card has no ruler's rules")
        return choice.rules

    @property
    def report(self) -> Report:
        return self.judgement.report


@dataclass(frozen=True)
class SectionLine(DeckLine):
    """A line of a section of a game whose identity is a card: the section its type belongs in (where "Into deck"
    puts it from the considering board) and its game (the line's card peek shows that game's fields)."""

    target: str = ""
    game: str = ""

    @property
    def definition(self) -> GameDefinition:
        return game_get(self.game)

    @property
    def meta(self) -> str:
        return " · ".join(p for p in (word(self.type_label), self.fields, self.number) if p)

    @property
    def target_section(self) -> str:
        return self.target


@dataclass(frozen=True)
class FirstStep:
    """A section the game's data asks an exact number of cards for (a Kingdom-Ruler; a Hero, 3 Gates), still short:
    the editor offers its cards to pick from, before the main deck."""

    key: str
    label: Label | str
    have: int
    wanted: int
    # (collector number, name) of each card whose type belongs in the section, by name.
    cards: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class DeckEditorState(JudgedDeck):
    """Everything the editor shows of a draft of any game: one place turns a draft into the page.

    A ruler's game shows its resources, level curve, faction bars and attribute proposal (empty
    for another game); a game whose identity is a card shows its data's rules panel (`panel`).
    """

    meters: list[Meter]
    groups: list[LineGroup]
    resources: list[DeckLine]
    considering: list[DeckLine]
    show_resources: bool
    curve: list[Bar]
    factions: list[Bar]
    proposal: AttributeProposal | None
    panel: RulesPanel | None = None
    # The main deck's size against its size rule (a game whose identity is a card); None: its data sets none.
    main_size: Meter | None = None
    first_steps: tuple[FirstStep, ...] = ()
    # The cards of the main deck, what its size rule asks (None: no such rule; "40+": at least that many) and what
    # the rules pane holds in a word (the ruler's name or the game's): the phone tab's and the deck heading's.
    main_count: int = 0
    size: int | None = None
    # The size is a least number (met at or above it: "41 · at least 40", never 41/40 as if over).
    at_least: bool = False
    judged_by: str = ""
    problems: int = 0

    @property
    def profile(self) -> Any:
        """The ruler object in force (patched by the geas): life, ATK, STK, zones, setup, …"""
        return self.rules.profile

    @property
    def earliest_rules_year(self) -> int:
        return EARLIEST_RULES_YEAR


def deck_judged(*, draft: DeckDraft, today: date | None = None, also: Iterable[str] = ()) -> JudgedDeck:
    """Judge a draft for the card browser: the judgement and the copies of each name, nothing drawn.

    `also`: printings the card browser shows, whose facts deck_card_hints will need (fetched
    with the draft's, see deck_draft_judge).
    """
    judgement = deck_draft_judge(draft=draft, today=today, also=also)
    ruled = judgement.choice is not None
    return JudgedDeck(judgement=judgement, copies=_copies(judgement), counted=_counted(judgement), ruled=ruled)


def _counted(judgement: DraftJudgement) -> Judging | None:
    return judging(judgement.game, judgement.deck) if judgement.choice is None else None


def _copies(judgement: DraftJudgement) -> dict[str, int]:
    copies: dict[str, int] = {}
    deck = judgement.deck
    if judgement.choice is not None:
        entries: Iterable[DeckEntry] = (*deck.main, *deck.resources)
    else:
        entries = [entry for key in judgement.game.section_keys() for entry in deck.section(key)]
    for entry in entries:
        copies[entry.card.name] = copies.get(entry.card.name, 0) + entry.count
    return copies


def deck_editor_state(*, draft: DeckDraft, today: date | None = None, also: Iterable[str] = ()) -> DeckEditorState:
    """Judge a draft and shape it for the editor: grouped deck, meters, charts, attribute proposal.

    `also`: printings the card browser shows, whose facts deck_card_hints will need (fetched
    with the draft's, see deck_draft_judge).
    """
    judgement = deck_draft_judge(draft=draft, today=today, also=also)
    if judgement.choice is None:
        return _sections_state(judgement)
    report, rules = judgement.report, judgement.choice.rules
    named: dict[str, list[str]] = {}
    for violation in report.violations:
        for name in violation.cards:
            named.setdefault(name, []).append(violation.rule)

    def lines(section: str) -> list[DeckLine]:
        out = []
        for number, count in draft.section(section).items():
            facts = judgement.facts.get(number)
            if facts is None:
                continue
            rules_named = tuple(dict.fromkeys(named.get(facts.name, ()))) if section != "considering" else ()
            out.append(DeckLine(number, section, count, facts, rules_named))
        out.sort(key=lambda ln: (_level_key(ln.facts.level), ln.facts.name, ln.number))
        return out

    main = lines("main")
    groups = [
        LineGroup(card_type, label, [ln for ln in main if ln.facts.type == card_type])
        for card_type, label in _TYPE_GROUPS
    ]
    resources = lines("resources")
    return DeckEditorState(
        judgement=judgement,
        copies=_copies(judgement),
        counted=None,
        ruled=True,
        meters=deck_meters(judgement.deck, rules),
        groups=[g for g in groups if g.lines],
        resources=resources,
        considering=lines("considering"),
        show_resources=rules.deck.resource_cards > 0 or bool(resources),
        curve=_level_curve(judgement.deck),
        factions=_faction_breakdown(judgement.deck),
        proposal=propose_attribute(judgement.deck, rules),
        main_count=report.summary.size,
        size=rules.deck.deck_size,
        judged_by=game_name(rules.ruler),
        problems=len(report.violations),
    )


def _sections_state(judgement: DraftJudgement) -> DeckEditorState:
    """A draft of a game whose identity is a card, for the editor: each of its data's sections, the considering
    board, its meters rule by rule and its rules panel (no query while the game's catalog is remembered)."""
    game, draft = judgement.game, judgement.draft
    counted = judging(game, judgement.deck)
    main_size = main_size_meter(counted)
    named: dict[str, list[str]] = {}
    for violation in judgement.report.violations:
        for name in violation.cards:
            named.setdefault(name, []).append(violation.rule)

    def lines(section: str) -> list[SectionLine]:
        out: list[SectionLine] = []
        for number, count in draft.section(section).items():
            card = judgement.facts.get(number)
            if card is None:
                continue
            rules_named = tuple(dict.fromkeys(named.get(card.name, ()))) if section != "considering" else ()
            label = game.type_label(card.type)
            target = game_natural_section(game, card)
            words = card_fields_in_words(game, card)
            out.append(SectionLine(number, section, count, card, rules_named, label, words, target, game.slug))
        out.sort(key=lambda ln: (ln.type_label, ln.facts.name.casefold(), ln.number))
        return out

    return DeckEditorState(
        judgement=judgement,
        copies=_copies(judgement),
        counted=counted,
        ruled=False,
        meters=game_meters(counted),
        groups=[LineGroup(section.key, section.label, lines(section.key)) for section in game.sections],
        resources=[],
        considering=lines("considering"),
        show_resources=False,
        curve=[],
        factions=[],
        proposal=None,
        panel=rules_panel(game),
        main_size=main_size,
        first_steps=first_steps(game, draft),
        main_count=sum(entry.count for entry in judgement.deck.main),
        size=main_size.limit if main_size is not None else None,
        at_least=bool(main_size is not None and main_size.at_least),
        judged_by=game_name(game.name),
        problems=len(judgement.report.violations),
    )


def first_steps(game: GameDefinition, draft: DeckDraft) -> tuple[FirstStep, ...]:
    """The sections besides the main deck whose size rule asks an exact number of cards the draft does not hold
    yet, each with the cards that go in it (from the game's data and remembered catalog: no query)."""
    wanted = {
        rule.params["section"]: int(rule.params["exactly"])
        for rule in game.rules
        if rule.kind == "section_size" and "exactly" in rule.params and rule.params.get("section") != "main"
    }
    steps = []
    for section in game.sections:
        have = sum(draft.section(section.key).values())
        if section.key not in wanted or have >= wanted[section.key]:
            continue
        cards = {
            facts.name: number
            for number, facts in sorted(catalog_card_facts(game).items(), reverse=True)
            if game_natural_section(game, facts) == section.key
        }
        shown = tuple(sorted(((number, name) for name, number in cards.items()), key=lambda card: card[1]))
        steps.append(FirstStep(section.key, section.label, have, wanted[section.key], shown))
    return tuple(steps)


@dataclass(frozen=True)
class GeasOption:
    slug: str
    name: str
    in_force: bool
    effective_from: date | None
    changes: tuple[str, ...]


_JAPANESE = JAPANESE_SCRIPT  # an attribute named in Japanese (the real cards' attributes are)


@dataclass(frozen=True)
class NameGroup:
    """Names in one language; `label` names the language when a picker shows more than one group."""

    label: str
    lang: str
    names: list[str]


def names_by_language(names: Iterable[str]) -> list[NameGroup]:
    """Attribute names in one language per list, the player's first.

    The catalog names attributes in English (the practice set) or in Japanese (the real cards),
    with no translation between them: a picker shows each language as its own group rather
    than one list mixing both.
    """
    split: dict[str, list[str]] = {"en": [], "ja": []}
    for name in names:
        split["ja" if _JAPANESE.search(name) else "en"].append(name)
    labels = {"en": gettext("English names"), "ja": gettext("Japanese names")}
    players = "ja" if (get_language() or "").startswith("ja") else "en"
    order = [players, *(lang for lang in split if lang != players)]
    groups = [NameGroup(labels[lang], lang, split[lang]) for lang in order if split[lang]]
    if len(groups) == 1:
        return [replace(groups[0], label="")]
    return groups


@dataclass(frozen=True)
class RulesOptions:
    """What the rules pickers offer: every ruler, the geases targeting the chosen one, attributes."""

    rulers: list[Ruler]
    geases: list[GeasOption]
    attributes: list[str]

    @property
    def attribute_groups(self) -> list[NameGroup]:
        return names_by_language(self.attributes)


def deck_rules_options(*, choice: RulesChoice) -> RulesOptions:
    """Two queries, three for rulers that choose a unit attribute."""
    rulers = list(Ruler.objects.only("slug", "name", "code", "position"))
    revisions: dict[int, list[GeasRevision]] = {}
    geases: dict[int, Geas] = {}
    for revision in (
        GeasRevision.objects.filter(geas__ruler=choice.ruler)
        .select_related("geas")
        .order_by("geas__name", "effective_from")
    ):
        geases[revision.geas_id] = revision.geas
        revisions.setdefault(revision.geas_id, []).append(revision)
    options = []
    for geas_id, geas in geases.items():
        in_force = [r for r in revisions[geas_id] if r.effective_from <= choice.on]
        shown = in_force[-1] if in_force else revisions[geas_id][0]
        changes = tuple(
            str(entry.get("text", ""))
            for section in ("modifications", "additions")
            for entry in shown.data.get(section, [])
        )
        options.append(GeasOption(geas.slug, geas.name, bool(in_force), shown.effective_from, changes))
    attributes: list[str] = []
    if choice.rules.deck.unit_attribute_choice:
        attributes = list(Attribute.objects.values_list("name", flat=True))
    return RulesOptions(rulers, options, attributes)


@dataclass(frozen=True)
class FilterChoices:
    factions: list[tuple[str, str]]
    attributes: list[str]
    sets: list[tuple[str, str]]
    types: list[tuple[str, str]]

    @property
    def attribute_groups(self) -> list[NameGroup]:
        return names_by_language(self.attributes)


def card_filter_choices(game: GameDefinition) -> FilterChoices:
    """The card browser's filter options: a ruler's game's factions, attributes and sets (three small queries);
    the type of card for every game (its data's types, or the catalog's)."""
    return editor_offers(game).filter_choices(game)


def _column_filter_choices(game: GameDefinition) -> FilterChoices:
    return FilterChoices(
        factions=list(Faction.objects.values_list("slug", "name")),
        attributes=list(Attribute.objects.values_list("name", flat=True)),
        sets=list(CardSet.objects.values_list("code", "name")),
        types=[("", gettext("Any type")), *CardType.choices],
    )


def _field_filter_choices(game: GameDefinition) -> FilterChoices:
    return FilterChoices([], [], [], [("", gettext("Any type")), *((t.key, t.label) for t in game.card_types)])


# The changes of a ruler's game's rules choice (decks/editor/services.py applies them).
SET_RULER = "set_ruler"
SET_GEAS = "set_geas"
SET_ATTRIBUTE = "set_attribute"
SET_RULES_DATE = "set_rules_date"


@dataclass(frozen=True)
class EditorOffers:
    """What the editor offers that differs by how a game's deck identity is chosen, decided once
    (editor_offers): a ruler's game has a rules choice to change and the catalog's columns to filter
    by, and its cards' section follows from their type ("+ Add"); a game whose identity is a card has
    its data's types to filter by, and the browser's add button names the section."""

    rules_changes: frozenset[str]
    filter_choices: Callable[[GameDefinition], FilterChoices]
    # What the card browser's add button calls the section a card goes in ("": the button says "+ Add").
    section_label: Callable[[GameDefinition, str], str]


_BY_RULER = EditorOffers(
    frozenset({SET_RULER, SET_GEAS, SET_ATTRIBUTE, SET_RULES_DATE}), _column_filter_choices, lambda game, key: ""
)
_BY_CARD = EditorOffers(frozenset(), _field_filter_choices, lambda game, key: game.section(key).label)
_EDITOR_OFFERS = {"ruler": _BY_RULER, "card": _BY_CARD}


def editor_offers(game: GameDefinition) -> EditorOffers:
    """The one place the editor asks how a game's identity is chosen (an unknown kind reads as a card)."""
    return _EDITOR_OFFERS.get(game.identity, _BY_CARD)
