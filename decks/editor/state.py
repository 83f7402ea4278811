"""What the editor shows of a draft: its judged lines, meters, charts, rules pickers and filters.

The deck page and the text import show a judged deck the same way (decks.selectors imports
deck_editor_state from here). Reads only: the changes are in decks/editor/services.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from django.utils.translation import get_language, gettext, gettext_noop

from cards.models import Attribute, CardSet, Faction, Geas, GeasRevision, Ruler
from cards.names import JAPANESE_SCRIPT
from cards.rules_selectors import RulesChoice
from decks.drafts import DraftJudgement, deck_draft_judge
from decks.models import DeckDraft
from decks.rules.hints import AttributeProposal, natural_section, propose_attribute
from decks.rules.meters import Meter, deck_meters
from decks.rules.registry import line_label as registry_line_label
from decks.rules.ruleset import RulesInForce
from decks.rules.types import ENERGY, EVENT, FIELD, UNIT, CardFacts, DeckSnapshot, Report
from decks.wording import game_name


def dom_safe(text: str) -> str:
    """Text usable inside an HTML id (collector numbers are letters, digits and dashes already)."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", text)


# Violations that name (nearly) every card of the deck: not worth highlighting each card for.
_UNHIGHLIGHTED = frozenset({"deck_size", "level_cap"})
# Marked for translation; the templates translate them ({% translate group.label %}).
_TYPE_GROUPS = (
    (UNIT, gettext_noop("Units")),
    (EVENT, gettext_noop("Events")),
    (FIELD, gettext_noop("Fields")),
    (ENERGY, gettext_noop("Energy (not allowed in the deck)")),
)


def line_label(rule: str) -> str:
    """What a flagged deck line says of a rule (the rule registry's words, decks.rules.registry); the
    validation panel has the full message, and the code stays in data-rule for scripts and tests.
    A code without words yet is shown as words."""
    return registry_line_label(rule) or rule.replace("_", " ").capitalize()


@dataclass(frozen=True)
class DeckLine:
    """One printing in one section of the deck being edited."""

    number: str
    section: str
    count: int
    facts: CardFacts
    # Codes of the violations that name this card.
    rules: tuple[str, ...] = ()

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
        """Level · faction · CNT · Legend · collector number, in one string (one template lookup)."""
        f = self.facts
        parts = [
            f"Lv {f.level}" if f.level is not None else "",
            game_name(f.faction) if f.faction else "",
            "CNT" if f.cnt else "",
            gettext("Legend") if f.legend else "",
            self.number,
        ]
        return " · ".join(p for p in parts if p)

    @property
    def memo_key(self) -> tuple[Any, ...]:
        """What the line's remembered drawing is keyed by (decks/templatetags/editor_partials.py): every field,
        as a plain tuple (the dataclass's own hash and equality cost a Python call each, per line and click)."""
        return (self.number, self.section, self.count, self.rules, self.facts)


@dataclass(frozen=True)
class LineGroup:
    key: str
    label: str
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


@dataclass(frozen=True)
class JudgedDeck:
    """A draft judged, and the copies of each card name in it: what the card browser's results need.

    A search shows only its results and their hints: it judges the deck but draws none of the
    editor's other regions (deck_judged); the editor's page and its changes draw them all
    (DeckEditorState).
    """

    judgement: DraftJudgement
    # Copies of each card name in the deck and resources (what the card browser says is "in deck").
    copies: dict[str, int]

    @property
    def draft(self) -> DeckDraft:
        return self.judgement.draft

    @property
    def choice(self) -> RulesChoice:
        return self.judgement.choice

    @property
    def rules(self) -> RulesInForce:
        return self.judgement.choice.rules

    @property
    def report(self) -> Report:
        return self.judgement.report


@dataclass(frozen=True)
class DeckEditorState(JudgedDeck):
    """Everything the editor shows of a draft: one place turns a draft into the page."""

    meters: list[Meter]
    groups: list[LineGroup]
    resources: list[DeckLine]
    considering: list[DeckLine]
    show_resources: bool
    curve: list[Bar]
    factions: list[Bar]
    proposal: AttributeProposal | None

    @property
    def profile(self) -> Any:
        """The ruler object in force (patched by the geas): life, ATK, STK, zones, setup, …"""
        return self.judgement.choice.rules.profile

    @property
    def main_count(self) -> int:
        return self.report.summary.size


def deck_judged(*, draft: DeckDraft, today: date | None = None, also: Iterable[str] = ()) -> JudgedDeck:
    """Judge a draft for the card browser: the judgement and the copies of each name, nothing drawn.

    `also`: printings the card browser shows, whose facts deck_card_hints will need (fetched
    with the draft's, see deck_draft_judge).
    """
    judgement = deck_draft_judge(draft=draft, today=today, also=also)
    return JudgedDeck(judgement=judgement, copies=_copies(judgement))


def _copies(judgement: DraftJudgement) -> dict[str, int]:
    copies: dict[str, int] = {}
    for entry in (*judgement.deck.main, *judgement.deck.resources):
        copies[entry.card.name] = copies.get(entry.card.name, 0) + entry.count
    return copies


def deck_editor_state(*, draft: DeckDraft, today: date | None = None, also: Iterable[str] = ()) -> DeckEditorState:
    """Judge a draft and shape it for the editor: grouped deck, meters, charts, attribute proposal.

    `also`: printings the card browser shows, whose facts deck_card_hints will need (fetched
    with the draft's, see deck_draft_judge).
    """
    judgement = deck_draft_judge(draft=draft, today=today, also=also)
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
        meters=deck_meters(judgement.deck, rules),
        groups=[g for g in groups if g.lines],
        resources=resources,
        considering=lines("considering"),
        show_resources=rules.deck.resource_cards > 0 or bool(resources),
        curve=_level_curve(judgement.deck),
        factions=_faction_breakdown(judgement.deck),
        proposal=propose_attribute(judgement.deck, rules),
    )


def _level_key(level: int | None) -> int:
    return 10**6 if level is None else level


def _level_curve(deck: DeckSnapshot) -> list[Bar]:
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


def _faction_breakdown(deck: DeckSnapshot) -> list[Bar]:
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

    @property
    def attribute_groups(self) -> list[NameGroup]:
        return names_by_language(self.attributes)


def card_filter_choices() -> FilterChoices:
    """The card browser's filter options (three small queries)."""
    return FilterChoices(
        factions=list(Faction.objects.values_list("slug", "name")),
        attributes=list(Attribute.objects.values_list("name", flat=True)),
        sets=list(CardSet.objects.values_list("code", "name")),
    )
