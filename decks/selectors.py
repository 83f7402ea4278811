"""Reads for decks: judge deck lists and drafts, and shape a draft for the editor."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Exists, F, OuterRef, Q, QuerySet, Sum
from django.http import Http404
from django.utils import timezone

from cards.catalog import catalog_memory
from cards.models import Attribute, Card, CardSet, Faction, Geas, GeasRevision, Printing, Ruler
from cards.selectors import (
    RulesChoice,
    attribute_exists,
    card_facts,
    card_facts_rows,
    joined_values,
    rules_choice_get,
)
from decks.deck_link import DeckLinkError, LinkedDeck, decode_deck_link, encode_deck_link
from decks.deck_text import LineError, ParsedDeck, TextCard, Vocabulary, format_deck_text, parse_deck_text
from decks.rules.engine import validate_deck
from decks.rules.hints import AttributeProposal, addition_blockers, natural_section, propose_attribute
from decks.rules.meters import Meter, deck_meters
from decks.rules.ruleset import RulesInForce
from decks.rules.types import ENERGY, EVENT, FIELD, UNIT, CardFacts, DeckEntry, DeckSnapshot, Report
from gatesite.errors import ApplicationError

from .history import CARD_SECTIONS, Changelog, Comparison, deck_changelog, deck_compare
from .models import MAX_LINE_COUNT, SECTIONS, Deck, DeckCard, DeckDraft, DeckTag, DeckVersion, Section, Visibility


@dataclass(frozen=True)
class DeckListLine:
    """One line of a deck list as a client sends it: a card by collector number or by name."""

    count: int
    number: str | None = None
    name: str | None = None


@dataclass(frozen=True)
class DeckJudgement:
    choice: RulesChoice
    deck: DeckSnapshot
    report: Report


def deck_entries_resolve(
    *, main: Sequence[DeckListLine], resources: Sequence[DeckListLine]
) -> tuple[tuple[DeckEntry, ...], tuple[DeckEntry, ...]]:
    """Look up every card of a deck list; an unknown card raises ApplicationError naming its line.

    Cards named by name are looked up through one of their printings. Both lookups go through
    this process's catalog memory (cards.catalog), so a list of known cards costs no query
    but the catalog token's; otherwise one query for the names (if any) and one for the facts.
    """
    lines = [*main, *resources]
    number_of_name = printing_of_names({ln.name for ln in lines if ln.name})
    facts = card_facts_by_number({ln.number for ln in lines if ln.number} | set(number_of_name.values()))

    def resolve(section: str, items: Sequence[DeckListLine]) -> tuple[DeckEntry, ...]:
        entries = []
        for i, line in enumerate(items):
            card = facts.get(line.number) if line.number else facts.get(number_of_name.get(line.name or "", ""))
            if card is None:
                ref = f"collector number '{line.number}'" if line.number else f"name '{line.name}'"
                raise ApplicationError(f"{section}[{i}]: no card with {ref}.", field=f"{section}[{i}]")
            entries.append(DeckEntry(card, line.count, line.number))
        return tuple(entries)

    return resolve("main", main), resolve("resources", resources)


def deck_judge(
    *,
    ruler: str,
    geas: str | None,
    on: date,
    attribute: str | None,
    main: Sequence[DeckListLine],
    resources: Sequence[DeckListLine],
) -> DeckJudgement:
    """Judge a deck list against the rules in force on a date."""
    choice = rules_choice_get(ruler_slug=ruler, geas_slug=geas, on=on)
    if attribute and not attribute_exists(attribute):
        raise ApplicationError(f"Unknown attribute '{attribute}'.", field="attribute")
    main_entries, resource_entries = deck_entries_resolve(main=main, resources=resources)
    deck = DeckSnapshot(main=main_entries, resources=resource_entries, attribute=attribute or None)
    return DeckJudgement(choice, deck, validate_deck(deck, choice.rules))


# ---------------------------------------------------------------- saved decks and drafts


def deck_get_for_owner(*, public_id: str, user: Any, write: bool = False) -> Deck:
    """The deck with this public id if `user` owns it.

    Http404 if there is no such deck; for someone else's deck, Http404 when reading in the editor
    and when writing to a private deck (its existence is not revealed), PermissionDenied (403) when
    writing to an unlisted or public one.
    """
    deck = Deck.objects.select_related("ruler", "geas").filter(public_id=public_id).first()
    if deck is None:
        raise Http404("No such deck.")
    if not user.is_authenticated or deck.owner_id != user.pk:
        if write and deck.visibility != Visibility.PRIVATE:
            raise PermissionDenied("Only the owner can change this deck.")
        raise Http404("No such deck.")
    return deck


def deck_get_for_viewer(*, public_id: str, user: Any) -> Deck:
    """The deck with this public id as `user` may read it: their own deck, or an unlisted or public one.

    Http404 for no such deck and for someone else's private deck (its existence is not revealed).
    """
    deck = Deck.objects.select_related("ruler", "geas", "owner").filter(public_id=public_id).first()
    if deck is None or (deck.visibility == Visibility.PRIVATE and not deck_is_owned_by(deck=deck, user=user)):
        raise Http404("No such deck.")
    return deck


def deck_is_owned_by(*, deck: Deck, user: Any) -> bool:
    return bool(user.is_authenticated and deck.owner_id == user.pk)


def deck_list_for_owner(*, user: Any) -> QuerySet[Deck]:
    """The owner's decks, last changed first, with their ruler, geas and main-deck size."""
    return (
        Deck.objects.filter(owner=user)
        .select_related("ruler", "geas")
        .annotate(size=Sum("cards__count", filter=Q(cards__section=Section.MAIN), default=0))
        .order_by("-updated_at")
    )


def deck_draft_of(*, deck: Deck) -> DeckDraft:
    """A saved deck as a draft (expects deck_get_for_owner's select_related); one query."""
    sections: dict[str, dict[str, int]] = {s: {} for s in SECTIONS}
    for number, section, count in DeckCard.objects.filter(deck=deck).values_list(
        "printing__collector_number", "section", "count"
    ):
        sections[section][number] = count
    return DeckDraft(
        ruler=deck.ruler.slug,
        geas=deck.geas.slug if deck.geas else None,
        attribute=deck.attribute,
        rules_date=deck.rules_date,
        name=deck.name,
        description=deck.description,
        main=sections["main"],
        resources=sections["resources"],
        considering=sections["considering"],
    )


def deck_draft_new() -> DeckDraft:
    """An empty draft for the first ruler of the rules; ApplicationError if no rules are loaded."""
    slug = Ruler.objects.values_list("slug", flat=True).first()
    if slug is None:
        raise ApplicationError("No rulers are loaded yet (run `manage.py load_rules`).")
    return DeckDraft(ruler=slug)


@dataclass(frozen=True)
class DraftJudgement:
    """A draft resolved against the catalog and judged by the rules in force on its date."""

    draft: DeckDraft
    choice: RulesChoice
    deck: DeckSnapshot
    report: Report
    # The engine's facts for every printing the draft names that the catalog has (and for the
    # printings deck_draft_judge was asked to look up `also`).
    facts: dict[str, CardFacts]
    # Collector numbers the draft names that the catalog does not have (left out of the deck).
    missing: tuple[str, ...]


def deck_draft_judge(*, draft: DeckDraft, today: date | None = None, also: Iterable[str] = ()) -> DraftJudgement:
    """Resolve and judge a draft: the rules (2-4 queries) and its cards (1 query).

    `also`: more collector numbers whose facts to fetch in the same query (the card browser's
    printings, for deck_card_hints); they join `facts`, not the deck.
    """
    on = draft.rules_date or today or timezone.localdate()
    choice = rules_choice_get(ruler_slug=draft.ruler, geas_slug=draft.geas, on=on)
    numbers = draft.numbers()
    facts = card_facts_by_number(numbers.union(list(dict.fromkeys(also))[:MAX_HINTS]))

    def entries(section: str) -> tuple[DeckEntry, ...]:
        return tuple(
            DeckEntry(facts[number], count, number)
            for number, count in sorted(draft.section(section).items())
            if number in facts
        )

    deck = DeckSnapshot(main=entries("main"), resources=entries("resources"), attribute=draft.attribute or None)
    missing = tuple(sorted(numbers - set(facts)))
    return DraftJudgement(draft, choice, deck, validate_deck(deck, choice.rules), facts, missing)


def printing_of_names(names: Collection[str]) -> dict[str, str]:
    """One collector number for each card name the catalog has, remembered while the catalog is unchanged."""
    if not names:
        return {}
    known = catalog_memory().number_of_name
    missing = [n for n in names if n not in known]
    if missing:
        known.update(
            Printing.objects.filter(card__name__in=missing)
            .order_by("-collector_number")
            .values_list("card__name", "collector_number")
        )
    return {name: known[name] for name in names if name in known}


def card_facts_by_number(numbers: Iterable[str]) -> dict[str, CardFacts]:
    """The engine's facts (as cards.selectors.card_facts makes them) for printings, by collector number.

    From this process's catalog memory (cards.catalog), which fetches what it lacks in one query
    and no model instances (cards.selectors.card_facts_rows): this runs on every change in the
    editor and every validate request. Printings of one name share one CardFacts object.
    Unknown numbers are left out.
    """
    memory = catalog_memory()
    known, by_card = memory.facts, memory.facts_by_card
    wanted = set(numbers)
    missing = [n for n in wanted if n not in known]
    if missing:
        for number, card_id, name, card_type, faction, level, cnt, legend, text, attributes, printed in card_facts_rows(
            missing
        ):
            card = by_card.get(card_id)
            if card is None:
                card = by_card[card_id] = CardFacts(
                    name=name,
                    type=card_type,
                    faction=faction,
                    attributes=frozenset(joined_values(attributes)),
                    level=level,
                    cnt=bool(cnt),
                    legend=bool(legend),
                    text=text,
                    collector_numbers=tuple(sorted(joined_values(printed))),
                )
            known[number] = card
    return {number: known[number] for number in wanted if number in known}


# ---------------------------------------------------------------- the editor


def dom_safe(text: str) -> str:
    """Text usable inside an HTML id (collector numbers are letters, digits and dashes already)."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", text)


# Violations that name (nearly) every card of the deck: not worth highlighting each card for.
_UNHIGHLIGHTED = frozenset({"deck_size", "level_cap"})
_TYPE_GROUPS = ((UNIT, "Units"), (EVENT, "Events"), (FIELD, "Fields"), (ENERGY, "Energy (not allowed in the deck)"))


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
            f.faction or "",
            "CNT" if f.cnt else "",
            "Legend" if f.legend else "",
            self.number,
        ]
        return " · ".join(p for p in parts if p)


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
    detail: str = ""


@dataclass(frozen=True)
class DeckEditorState:
    """Everything the editor shows of a draft: one place turns a draft into the page."""

    judgement: DraftJudgement
    meters: list[Meter]
    groups: list[LineGroup]
    resources: list[DeckLine]
    considering: list[DeckLine]
    show_resources: bool
    curve: list[Bar]
    factions: list[Bar]
    proposal: AttributeProposal | None
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

    @property
    def profile(self) -> Any:
        """The ruler object in force (patched by the geas): life, ATK, STK, zones, setup, …"""
        return self.judgement.choice.rules.profile

    @property
    def main_count(self) -> int:
        return self.report.summary.size


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
    copies: dict[str, int] = {}
    for entry in (*judgement.deck.main, *judgement.deck.resources):
        copies[entry.card.name] = copies.get(entry.card.name, 0) + entry.count
    return DeckEditorState(
        judgement=judgement,
        meters=deck_meters(judgement.deck, rules),
        groups=[g for g in groups if g.lines],
        resources=resources,
        considering=lines("considering"),
        show_resources=rules.deck.resource_cards > 0 or bool(resources),
        curve=_level_curve(judgement.deck),
        factions=_faction_breakdown(judgement.deck),
        proposal=propose_attribute(judgement.deck, rules),
        copies=copies,
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
        Bar(faction, total, round(100 * total / size), f"{units.get(faction, 0)} units, {others.get(faction, 0)} other")
        for faction, total in sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
    ]


@dataclass(frozen=True)
class GeasOption:
    slug: str
    name: str
    in_force: bool
    effective_from: date | None
    changes: tuple[str, ...]


@dataclass(frozen=True)
class RulesOptions:
    """What the rules pickers offer: every ruler, the geases targeting the chosen one, attributes."""

    rulers: list[Ruler]
    geases: list[GeasOption]
    attributes: list[str]


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


def card_filter_choices() -> FilterChoices:
    """The card browser's filter options (three small queries)."""
    return FilterChoices(
        factions=list(Faction.objects.values_list("slug", "name")),
        attributes=list(Attribute.objects.values_list("name", flat=True)),
        sets=list(CardSet.objects.values_list("code", "name")),
    )


# ---------------------------------------------------------------- the card browser


@dataclass(frozen=True)
class CardHint:
    """Whether one more copy of a printing can be added to the deck, and if not why."""

    number: str
    in_deck: int
    blockers: list[str]
    # The deck already holds more copies of the card than its rules allow (a max_copies violation).
    over_limit: bool

    @property
    def addable(self) -> bool:
        return not self.blockers

    @property
    def ref(self) -> str:
        """The collector number as it appears in element ids ("why-<ref>")."""
        return dom_safe(self.number)


@dataclass(frozen=True)
class BrowserRow(CardHint):
    """A search result with what adding one more copy to the deck would mean."""

    card: Card
    facts: CardFacts
    # `number` is the printing the add button adds; these are the card's other printings.
    other_numbers: tuple[str, ...]
    section: str

    @property
    def meta(self) -> str:
        """Type · level · faction · attributes · CNT · Legend · ATK/HP/STK, in one string."""
        f, card = self.facts, self.card
        parts = [
            card.get_type_display(),
            f"Lv {f.level}" if f.level is not None else "",
            f.faction or "",
            *sorted(f.attributes),
            "CNT" if f.cnt else "",
            "Legend" if f.legend else "",
            f"{card.atk}/{card.hp}/{card.stk}" if card.atk is not None else "",
        ]
        return " · ".join(p for p in parts if p)


@dataclass(frozen=True)
class CardBrowserPage:
    rows: list[BrowserRow]
    # The number of matches; a lower bound when total_capped (cards.selectors.CARD_SEARCH_COUNT_CAP).
    total: int
    offset: int
    limit: int
    error: str | None = None
    total_capped: bool = False

    @property
    def total_label(self) -> str:
        """The number of matches as shown: "17" or, past the count's cap, "1000+"."""
        return f"{self.total}+" if self.total_capped else str(self.total)

    @property
    def shown(self) -> str:
        """The printings on this page, for the hints a change redraws (decks.selectors.deck_card_hints)."""
        return " ".join(row.number for row in self.rows)

    @property
    def first(self) -> int:
        return self.offset + 1 if self.rows else 0

    @property
    def last(self) -> int:
        return self.offset + len(self.rows)

    @property
    def next_offset(self) -> int | None:
        more = self.offset + self.limit < self.total or (self.total_capped and len(self.rows) == self.limit)
        return self.offset + self.limit if more else None

    @property
    def previous_offset(self) -> int | None:
        return max(0, self.offset - self.limit) if self.offset > 0 else None


# Results per page of the card browser. Each result is judged against the deck (its add-ability
# hint) on every search and again on every change: 30 rather than 60 took about a quarter off a
# change's server time (docs/benchmarks.md), and a phone shows fewer than 30 anyway.
BROWSER_PAGE_SIZE = 30


def deck_card_browser(
    *,
    state: DeckEditorState,
    query: str = "",
    offset: int = 0,
    limit: int = BROWSER_PAGE_SIZE,
    **filters: Any,
) -> CardBrowserPage:
    """One page of card search results, each with its add-ability hints against the deck.

    `filters` are card_search's (faction, type, level_min, level_max, attribute, cnt, legend,
    set_code). The hints judge the deck once and each result once more (~30 µs each).
    """
    from cards.selectors import card_search

    result = card_search(query=query, limit=limit, offset=offset, **filters)
    in_main = {e.card.name: e.printing for e in state.judgement.deck.main}
    over = _over_limit(state)
    rows = []
    for card in result.cards:
        facts = card_facts(card)
        number = in_main.get(facts.name) or _preferred_printing(facts, state.rules)
        if number is None:
            continue  # a card with no printing cannot be added (the importer never makes one)
        rows.append(
            BrowserRow(
                number=number,
                in_deck=state.copies.get(facts.name, 0),
                blockers=_blockers(state, facts, number),
                over_limit=facts.name in over,
                card=card,
                facts=facts,
                other_numbers=tuple(n for n in facts.collector_numbers if n != number),
                section=natural_section(facts),
            )
        )
    return CardBrowserPage(rows, result.total, offset, limit, result.error, result.total_capped)


def _over_limit(state: DeckEditorState) -> set[str]:
    """The card names the deck holds too many copies of, from the deck's own report."""
    return {name for v in state.report.violations if v.rule == "max_copies" for name in v.cards}


def _blockers(state: DeckEditorState, facts: CardFacts, number: str) -> list[str]:
    return addition_blockers(state.judgement.deck, state.rules, facts, number, report=state.report)


MAX_HINTS = 200


def deck_card_hints(*, state: DeckEditorState, numbers: Sequence[str]) -> list[CardHint]:
    """Fresh add-ability hints for printings the browser shows (after a change to the deck).

    Cheaper than searching again: the printings' facts in one flat query (none when the state
    was made with them, deck_editor_state(also=...)), then one judgement per card. Unknown
    numbers are skipped; at most MAX_HINTS are judged.
    """
    numbers = list(dict.fromkeys(numbers))[:MAX_HINTS]
    known = state.judgement.facts
    facts = {**card_facts_by_number(n for n in numbers if n not in known), **known}
    over = _over_limit(state)
    return [
        CardHint(
            number,
            state.copies.get(facts[number].name, 0),
            _blockers(state, facts[number], number),
            over_limit=facts[number].name in over,
        )
        for number in numbers
        if number in facts
    ]


def _preferred_printing(facts: CardFacts, rules: RulesInForce) -> str | None:
    """The printing to add: one in the ruler's collector-number pool if there is one, else the first."""
    pool = rules.deck.card_pool
    if pool is not None and pool.collector_number_prefixes:
        for number in facts.collector_numbers:
            if number.startswith(pool.collector_number_prefixes):
                return number
    return facts.collector_numbers[0] if facts.collector_numbers else None


# ---------------------------------------------------------------- text import and export, share links


def deck_text_vocabulary() -> Vocabulary:
    """Every name a pasted deck list may use (decks.deck_text): cards, rulers, geases, attributes. Four queries."""
    cards: dict[str, str] = {}
    for name, name_ja in Card.objects.order_by().values_list("name", "name_ja"):
        cards[name] = name
        if name_ja:
            cards.setdefault(name_ja, name)
    rulers: dict[str, str] = {}
    for slug, name, name_ja, code in Ruler.objects.values_list("slug", "name", "name_ja", "code"):
        for alias in (name, name_ja, slug, code, f"{code} {name}" if code else ""):
            if alias:
                rulers.setdefault(alias, name)
    geases: dict[str, str] = {}
    for slug, name in Geas.objects.values_list("slug", "name"):
        geases[name] = name
        geases.setdefault(slug, name)
    return Vocabulary(
        cards=cards,
        rulers=rulers,
        geases=geases,
        attributes=list(Attribute.objects.values_list("name", flat=True)),
    )


def deck_draft_text(*, draft: DeckDraft) -> str:
    """A draft (or a saved deck's, see deck_draft_of) as the plain-text list players paste (decks.deck_text)."""
    facts = card_facts_by_number(draft.numbers())
    ruler = Ruler.objects.filter(slug=draft.ruler).values_list("name", flat=True).first() or draft.ruler
    geas = None
    if draft.geas:
        geas = Geas.objects.filter(slug=draft.geas).values_list("name", flat=True).first() or draft.geas

    def cards(section: str) -> list[TextCard]:
        return [
            TextCard(count, facts[number].name, facts[number].type, facts[number].level)
            for number, count in draft.section(section).items()
            if number in facts
        ]

    return format_deck_text(
        ruler=ruler,
        geas=geas,
        attribute=draft.attribute,
        rules_date=draft.rules_date,
        name=draft.name,
        main=cards("main"),
        resources=cards("resources"),
    )


def deck_draft_validate_body(*, draft: DeckDraft) -> dict[str, Any]:
    """A draft as the body POST /api/v1/decks/validate/ takes (printings by collector number)."""
    return {
        "ruler": draft.ruler,
        "geas": draft.geas,
        "as_of": draft.rules_date.isoformat() if draft.rules_date else None,
        "attribute": draft.attribute or None,
        "main": [{"number": n, "count": c} for n, c in sorted(draft.main.items())],
        "resources": [{"number": n, "count": c} for n, c in sorted(draft.resources.items())],
    }


@dataclass(frozen=True)
class TextImport:
    """What pasting a deck list would make of a draft, before the player confirms it.

    `draft` is the draft the text makes (None when a blocking line, a ruler or geas that
    cannot be used, leaves nothing to confirm); `errors` every line left out; `kept` what the
    text does not say and the current draft keeps.
    """

    parsed: ParsedDeck
    draft: DeckDraft | None
    state: DeckEditorState | None
    errors: tuple[LineError, ...]
    kept: tuple[str, ...]

    @property
    def blocked(self) -> bool:
        return self.draft is None

    @property
    def fingerprint(self) -> str:
        """Names this exact result, so a confirm can tell the result has not changed since the preview."""
        if self.draft is None:
            return ""
        raw = json.dumps(self.draft.to_session(), sort_keys=True).encode()
        return hashlib.sha256(raw).hexdigest()[:32]


# Headings that decide which rules judge the deck: with one of them wrong there is no deck to confirm.
_BLOCKING_FIELDS = frozenset({"ruler", "geas", "attribute", "rules_date", "heading"})


def deck_text_import(*, text: str, draft: DeckDraft, today: date | None = None) -> TextImport:
    """Read a pasted deck list against the catalog and make the draft it describes (nothing is saved).

    1. Parse the text with every known name (decks.deck_text.parse_deck_text).
    2. Headings: a text that names its ruler describes the whole deck, so a missing Geas,
       Attribute or Rules date line means none; a text without a Ruler line keeps the
       draft's ruler, geas, attribute and rules date unless it gives them.
    3. Each card name becomes printings: the draft's own printings of that name in that section
       (keeping their split when the count is unchanged), else the newest printing in the
       ruler's collector-number pool, else the newest printing.
    4. The considering board, name and description stay the draft's.
    """
    parsed = parse_deck_text(text, deck_text_vocabulary(), max_count=MAX_LINE_COUNT)
    errors = list(parsed.errors)
    kept: list[str] = []
    if parsed.ruler is not None:
        ruler_slug = Ruler.objects.filter(name=parsed.ruler).values_list("slug", flat=True).get()
        geas_slug = _geas_slug(parsed.geas) if parsed.geas else None
        attribute = parsed.attribute or ""
        rules_date = parsed.rules_date
    else:
        kept.append("ruler")
        ruler_slug = draft.ruler
        geas_slug = _geas_slug(parsed.geas) if parsed.geas is not None else draft.geas
        attribute = parsed.attribute if parsed.attribute is not None else draft.attribute
        rules_date = parsed.rules_date if "rules_date" in parsed.heading_lines else draft.rules_date
        kept += [k.replace("_", " ") for k in ("geas", "attribute", "rules_date") if k not in parsed.heading_lines]
    if any(e.field in _BLOCKING_FIELDS for e in errors):
        return TextImport(parsed, None, None, tuple(errors), tuple(kept))
    try:
        choice = rules_choice_get(
            ruler_slug=ruler_slug, geas_slug=geas_slug, on=rules_date or today or timezone.localdate()
        )
    except ApplicationError as exc:
        where = "geas" if geas_slug and "geas" in parsed.heading_lines else "ruler"
        number = parsed.heading_lines.get(where, 0)
        errors.append(LineError(number, "", exc.message, field=where))
        return TextImport(parsed, None, None, tuple(errors), tuple(kept))
    sections = _text_printings(parsed=parsed, draft=draft, rules=choice.rules)
    missing = sorted({name for s in (parsed.main, parsed.resources) for name in s} - sections.pop("_named", set()))
    for line in parsed.lines:
        if line.name in missing:
            errors.append(LineError(line.number, "", f"“{line.name}” has no printing in the catalog.", field="card"))
    new = replace(
        draft,
        ruler=ruler_slug,
        geas=geas_slug,
        attribute=attribute,
        rules_date=rules_date,
        name=parsed.name if parsed.name is not None else draft.name,
        main=sections["main"],
        resources=sections["resources"],
    )
    state = deck_editor_state(draft=new, today=today)
    return TextImport(parsed, new, state, tuple(sorted(errors, key=lambda e: e.number)), tuple(kept))


def _geas_slug(name: str) -> str | None:
    return Geas.objects.filter(name=name).values_list("slug", flat=True).first() if name else None


def _text_printings(*, parsed: ParsedDeck, draft: DeckDraft, rules: RulesInForce) -> dict[str, Any]:
    """Copies per collector number for each section of a parsed text (see deck_text_import, step 3). One query."""
    names = {name for section in (parsed.main, parsed.resources) for name in section}
    rows = (
        Printing.objects.filter(Q(card__name__in=names) | Q(collector_number__in=draft.numbers()))
        .order_by(F("card_set__release_date").desc(nulls_last=True), "-collector_number")
        .values_list("card__name", "collector_number")
    )
    newest: dict[str, list[str]] = {}
    name_of: dict[str, str] = {}
    for name, number in rows:
        newest.setdefault(name, []).append(number)
        name_of[number] = name
    pool = rules.deck.card_pool
    prefixes = pool.collector_number_prefixes if pool is not None and pool.collector_number_prefixes else None
    out: dict[str, Any] = {"_named": {name for name in names if name in newest}}
    for section in ("main", "resources"):
        have: dict[str, dict[str, int]] = {}
        for number, count in draft.section(section).items():
            if number in name_of:
                have.setdefault(name_of[number], {})[number] = count
        counts: dict[str, int] = {}
        for name, total in parsed.section(section).items():
            printings = newest.get(name)
            if not printings:
                continue
            own = have.get(name)
            if own:
                counts.update(_split(own, total))
                continue
            in_pool = [n for n in printings if prefixes and n.startswith(prefixes)]
            number = (in_pool or printings)[0]
            counts[number] = counts.get(number, 0) + total
        out[section] = counts
    return out


def _split(own: dict[str, int], total: int) -> dict[str, int]:
    """`total` copies over the printings a deck already has: the same split if the count is unchanged,
    else more or fewer of its most-used printing first."""
    ordered = sorted(own.items(), key=lambda kv: (-kv[1], kv[0]))
    have = sum(own.values())
    if total >= have:
        first, count = ordered[0]
        return {**own, first: count + total - have}
    out: dict[str, int] = {}
    left = total
    for number, count in ordered:
        if left <= 0:
            break
        out[number] = min(count, left)
        left -= out[number]
    return out


def deck_draft_link(*, draft: DeckDraft) -> str:
    """The share code of a draft (decks.deck_link): the whole deck, no account or database row needed."""
    return encode_deck_link(
        LinkedDeck(
            ruler=draft.ruler,
            geas=draft.geas,
            attribute=draft.attribute,
            rules_date=draft.rules_date,
            main=draft.main,
            resources=draft.resources,
            name=draft.name,
        )
    )


def deck_draft_from_link(*, code: str) -> DeckDraft:
    """The draft a share code carries; ApplicationError (the DeckLinkError's message) if it is not one."""
    try:
        linked = decode_deck_link(code)
    except DeckLinkError as exc:
        raise ApplicationError(str(exc)) from exc
    return DeckDraft(
        ruler=linked.ruler,
        geas=linked.geas,
        attribute=linked.attribute,
        rules_date=linked.rules_date,
        name=linked.name,
        main=dict(linked.main),
        resources=dict(linked.resources),
    )


# ---------------------------------------------------------------- deck pages: sharing, history, lists


def deck_get_for_change(*, public_id: str, user: Any) -> Deck:
    """The deck with this public id for a write by `user`, who must own it.

    Http404 where `user` may not even read it (someone else's private deck: its existence is not
    revealed); PermissionDenied (403) for someone else's unlisted or public deck.
    """
    deck = deck_get_for_viewer(public_id=public_id, user=user)
    if not deck_is_owned_by(deck=deck, user=user):
        raise PermissionDenied("Only the owner can change this deck.")
    return deck


def deck_is_readable_by(*, deck: Deck, user: Any) -> bool:
    return deck.visibility != Visibility.PRIVATE or deck_is_owned_by(deck=deck, user=user)


def deck_card_names(*, numbers: Iterable[str]) -> dict[str, str]:
    """Card names by collector number (one query; none for no numbers). Unknown numbers are left out."""
    numbers = set(numbers)
    if not numbers:
        return {}
    return dict(Printing.objects.filter(collector_number__in=numbers).values_list("collector_number", "card__name"))


def _rules_labels(*, snapshots: Sequence[Mapping[str, Any]], known: Mapping[str, str]) -> dict[str, str]:
    """Ruler and geas names by slug, looked up only when the snapshots change them (usually no query)."""
    rulers = {s.get("ruler") for s in snapshots} - {None, ""}
    geases = {s.get("geas") for s in snapshots} - {None, ""}
    labels = dict(known)
    if len(rulers) > 1 and rulers - set(labels):
        labels.update(Ruler.objects.filter(slug__in=rulers - set(labels)).values_list("slug", "name"))
    changed = len(geases) > 1 or (geases and any(not s.get("geas") for s in snapshots))
    if changed and geases - set(labels):
        labels.update(Geas.objects.filter(slug__in=geases - set(labels)).values_list("slug", "name"))
    return labels


@dataclass(frozen=True)
class HistoryEntry:
    """One saved version of a deck and what that save changed."""

    version: int
    created_at: Any
    changelog: Changelog


HISTORY_SHOWN = 10


def deck_history(
    *,
    deck: Deck,
    upto: int | None = None,
    limit: int = HISTORY_SHOWN,
    names: Mapping[str, str] | None = None,
    labels: Mapping[str, str] | None = None,
) -> list[HistoryEntry]:
    """The latest `limit` versions of a deck up to version `upto`, newest first, each with its changelog.

    One query for the versions (and the one before the oldest shown, to compare with), one for
    the names of cards `names` does not already give (none when it gives them all), one each
    for ruler and geas names the history changes and `labels` (by slug) does not give.
    """
    versions = DeckVersion.objects.filter(deck=deck)
    if upto is not None:
        versions = versions.filter(version__lte=upto)
    rows = list(versions.order_by("-version").values_list("version", "created_at", "snapshot")[: limit + 1])
    known = dict(names or {})
    numbers = {n for _, _, snap in rows for section in CARD_SECTIONS for n in (snap.get(section) or {})}
    known.update(deck_card_names(numbers=numbers - set(known)))
    labels = _rules_labels(snapshots=[snap for _, _, snap in rows], known=labels or {})
    entries = []
    for i, (version, created_at, snapshot) in enumerate(rows[:limit]):
        before = rows[i + 1][2] if i + 1 < len(rows) else None
        changelog = deck_changelog(before, snapshot, names=known, labels=labels)
        if before is None and version > 1:
            # The version before this one is past the limit: say nothing rather than "created".
            continue
        entries.append(HistoryEntry(version, created_at, changelog))
    return entries


def deck_version_get(*, deck: Deck, version: int) -> DeckVersion:
    """One saved version of a deck; Http404 if the deck has no such version."""
    found = DeckVersion.objects.filter(deck=deck, version=version).first()
    if found is None:
        raise Http404("No such version of this deck.")
    return found


@dataclass(frozen=True)
class DeckPage:
    """What a deck's page shows: the deck (as saved, or as one past version) judged afresh, and its history."""

    deck: Deck
    # None when the rules can no longer judge the deck (e.g. its geas is not in force); `problem` says why.
    state: DeckEditorState | None
    problem: str
    history: list[HistoryEntry]
    # The deck this one was copied from, when the viewer may read it.
    source: Deck | None
    is_owner: bool

    @property
    def description(self) -> str:
        """The description as saved in the version shown (a past version's may differ from today's)."""
        return self.state.draft.description if self.state else self.deck.description

    @property
    def summary(self) -> str:
        """One line for link previews: ruler (and geas, attribute) and the verdict with its rules date."""
        if self.state is None:
            return f"{self.deck.ruler.name} deck · cannot be judged: {self.problem}"
        choice = self.state.choice
        rules = choice.ruler.name + (f" with {choice.geas.name}" if choice.geas else "")
        if self.state.draft.attribute:
            rules += f" ({self.state.draft.attribute})"
        report = self.state.report
        count = len(report.violations)
        verdict = "Legal" if report.legal else f"Not legal ({count} problem{'s' if count != 1 else ''})"
        return f"{rules} · {self.state.main_count} cards · {verdict} under the rules of {choice.on:%Y-%m-%d}"


def deck_page_get(*, public_id: str, user: Any, version: int | None = None, today: date | None = None) -> DeckPage:
    """The deck page (or a past version's page) as `user` may see it; Http404 like deck_get_for_viewer.

    Queries: the deck, its cards, the rules (1-2), the cards' facts, its versions, and the
    source deck when it is a copy; names of cards since removed cost one more.
    """
    deck = deck_get_for_viewer(public_id=public_id, user=user)
    if version is None:
        # The considering board is the owner's scratch space, not part of the shared deck.
        draft = replace(deck_draft_of(deck=deck), considering={})
    else:
        try:
            draft = DeckDraft.from_session(deck_version_get(deck=deck, version=version).snapshot)
        except (KeyError, TypeError, ValueError) as exc:
            raise Http404("This version of the deck cannot be read.") from exc
    state, problem = None, ""
    try:
        state = deck_editor_state(draft=draft, today=today)
    except ApplicationError as exc:
        problem = exc.message
    names = {number: facts.name for number, facts in state.judgement.facts.items()} if state else {}
    labels = {}
    if state:
        labels[state.choice.ruler.slug] = state.choice.ruler.name
        if state.choice.geas:
            labels[state.choice.geas.slug] = state.choice.geas.name
    history = deck_history(deck=deck, upto=version, limit=1 if version else HISTORY_SHOWN, names=names, labels=labels)
    source = None
    if deck.forked_from_id:
        source = Deck.objects.only("public_id", "name", "visibility", "owner_id").filter(pk=deck.forked_from_id).first()
        if source is not None and not deck_is_readable_by(deck=source, user=user):
            source = None
    return DeckPage(deck, state, problem, history, source, deck_is_owned_by(deck=deck, user=user))


def deck_search_for_owner(*, user: Any, query: str = "", tag: str = "", show_archived: bool = False) -> QuerySet[Deck]:
    """The owner's decks searched by deck name, ruler/geas name or a card name, or by tag.

    Archived decks are left out unless `show_archived`.
    """
    decks = deck_list_for_owner(user=user)
    if not show_archived:
        decks = decks.filter(archived=False)
    if tag:
        decks = decks.filter(tags__name=tag)
    if query:
        plays = DeckCard.objects.filter(deck=OuterRef("pk"), printing__card__name__icontains=query).exclude(
            section=Section.CONSIDERING
        )
        decks = decks.filter(
            Q(name__icontains=query) | Q(ruler__name__icontains=query) | Q(geas__name__icontains=query) | Exists(plays)
        )
    return decks


@dataclass(frozen=True)
class MyDecks:
    """My decks as listed: each deck with `tag_names` set, and every tag the owner uses (for the tag filter)."""

    decks: list[Deck]
    tags: list[str]


def my_decks_get(*, user: Any, query: str = "", tag: str = "", show_archived: bool = False) -> MyDecks:
    """deck_search_for_owner's decks with their tags: two queries (the decks; all the owner's tags)."""
    decks = list(deck_search_for_owner(user=user, query=query, tag=tag, show_archived=show_archived))
    by_deck: dict[int, list[str]] = {}
    for deck_id, name in DeckTag.objects.filter(deck__owner=user).order_by("name").values_list("deck_id", "name"):
        by_deck.setdefault(deck_id, []).append(name)
    for deck in decks:
        deck.tag_names = by_deck.get(deck.pk, [])  # type: ignore[attr-defined]
    return MyDecks(decks, sorted({name for names in by_deck.values() for name in names}))


def deck_public_list() -> QuerySet[Deck]:
    """Public, not archived decks: what browse lists (decks.filters.DeckFilter narrows and sorts it)."""
    return Deck.objects.filter(visibility=Visibility.PUBLIC, archived=False).select_related("ruler", "geas", "owner")


@dataclass(frozen=True)
class DeckComparison:
    a: Deck
    b: Deck
    comparison: Comparison


def deck_comparison_get(*, a: str, b: str, user: Any) -> DeckComparison:
    """Two decks `user` may read, compared card by card; Http404 as deck_get_for_viewer for either."""
    deck_a = deck_get_for_viewer(public_id=a, user=user)
    deck_b = deck_get_for_viewer(public_id=b, user=user)
    snapshot_a = deck_draft_of(deck=deck_a).to_snapshot()
    snapshot_b = deck_draft_of(deck=deck_b).to_snapshot()
    numbers = {n for snap in (snapshot_a, snapshot_b) for section in CARD_SECTIONS for n in snap[section]}
    return DeckComparison(deck_a, deck_b, deck_compare(snapshot_a, snapshot_b, names=deck_card_names(numbers=numbers)))


def deck_choices_for_owner(*, user: Any) -> list[tuple[str, str]]:
    """(public id, name) of the owner's decks by name, for pickers such as compare's (one query)."""
    return list(Deck.objects.filter(owner=user).order_by("name").values_list("public_id", "name"))


# ---------------------------------------------------------------- the deck API


def deck_api_queryset() -> QuerySet[Deck]:
    """Decks with everything a deck's API body shows, in the same query (owner, ruler, geas, source)."""
    return Deck.objects.select_related("owner", "ruler", "geas", "forked_from")


def deck_list_public() -> QuerySet[Deck]:
    """Public decks that are not archived: what anyone may list (GET /api/v1/decks/?public=true)."""
    return deck_api_queryset().filter(visibility=Visibility.PUBLIC, archived=False)


def deck_list_owned(*, user: Any) -> QuerySet[Deck]:
    """All of the user's decks, whatever their visibility, archived ones included."""
    return deck_api_queryset().filter(owner=user)


@dataclass(frozen=True)
class DeckCardLine:
    """One line of a saved deck as the API shows it."""

    number: str
    name: str
    count: int


def deck_card_lines(*, deck: Deck) -> dict[str, list[DeckCardLine]]:
    """The deck's main deck and resources (not the owner's considering board), one query."""
    lines: dict[str, list[DeckCardLine]] = {Section.MAIN: [], Section.RESOURCES: []}
    rows = (
        DeckCard.objects.filter(deck=deck, section__in=lines.keys())
        .order_by("section", "printing__collector_number")
        .values_list("section", "printing__collector_number", "printing__card__name", "count")
    )
    for section, number, name, count in rows:
        lines[section].append(DeckCardLine(number, name, count))
    return lines


def deck_section_counts(*, section: str, lines: Sequence[DeckListLine]) -> dict[str, int]:
    """A section of a deck list (cards by collector number or name) as copies per collector number.

    Two queries at most. A card named by name counts as its first printing. ApplicationError
    names the first line that is not in the catalog, and a section past a draft's sizes.
    """
    from .models import MAX_LINE_COUNT, MAX_LINES

    names = {ln.name for ln in lines if ln.name}
    number_of_name: dict[str, str] = {}
    for name, number in (
        Printing.objects.filter(card__name__in=names)
        .order_by("-collector_number")
        .values_list("card__name", "collector_number")
    ):
        number_of_name[name] = number  # descending order: the lowest collector number wins
    wanted = {ln.number for ln in lines if ln.number}
    known = set(Printing.objects.filter(collector_number__in=wanted).values_list("collector_number", flat=True))
    counts: dict[str, int] = {}
    for i, line in enumerate(lines):
        number = line.number if line.number in known else number_of_name.get(line.name or "")
        if number is None:
            ref = f"collector number '{line.number}'" if line.number else f"name '{line.name}'"
            raise ApplicationError(f"{section}[{i}]: no card with {ref}.", field=f"{section}[{i}]")
        counts[number] = counts.get(number, 0) + line.count
        if counts[number] > MAX_LINE_COUNT:
            raise ApplicationError(
                f"{section}[{i}]: a deck keeps at most {MAX_LINE_COUNT} copies of one printing ({number}).",
                field=f"{section}[{i}]",
            )
    if len(counts) > MAX_LINES:
        raise ApplicationError(f"{section}: a deck keeps at most {MAX_LINES} different printings.", field=section)
    return counts


# ---------------------------------------------------------------- draw odds

# Imported here, not at the top, so that this section stays one appended block.
from cards.models import RulerRevision  # noqa: E402
from decks.rules import odds  # noqa: E402
from decks.rules.ruleset import RulesDataError  # noqa: E402


@dataclass(frozen=True)
class DeckDrawOdds:
    """A deck's draw odds for one group of cards, by the rules in force on the deck's date."""

    judgement: DraftJudgement
    pattern: odds.DrawPattern
    deck_size: int
    groups: list[odds.CardGroup]
    # None when the main deck is empty (nothing to ask about).
    group: odds.CardGroup | None
    # The card names of the main deck, for a picked set.
    names: list[str]
    picked: tuple[str, ...]
    k: int
    rows: tuple[odds.OddsRow, ...]
    # Rulers (in force on the deck's date) whose first turn of the game differs from the others.
    first_turn_rulers: list[str]


def deck_draw_odds(
    *, draft: DeckDraft, group: str = "", picked: Sequence[str] = (), k: int = 1, today: date | None = None
) -> DeckDrawOdds:
    """The odds of having seen at least k cards of a group by turns 1..6 (see decks.rules.odds).

    `group` is a key of decks.rules.odds.deck_groups, or "picked" for the `picked` card names;
    an unknown key (a card since removed) falls back to the first group. k is kept within
    1..the group's copies. 3-4 queries: the draft's judgement and the rulers' revisions.
    """
    judgement = deck_draft_judge(draft=draft, today=today)
    try:
        pattern = odds.draw_pattern(judgement.choice.rules.profile)
    except RulesDataError as exc:
        raise ApplicationError(f"The rules data is broken: {exc}") from exc
    deck = judgement.deck
    groups = odds.deck_groups(deck)
    chosen: odds.CardGroup | None = None
    if group == odds.PICKED:
        chosen = odds.picked_group(deck, picked)
    else:
        chosen = next((g for g in groups if g.key == group), groups[0] if groups else None)
    size = odds.deck_size_of(deck)
    k = max(1, min(k, chosen.count if chosen and chosen.count else 1))
    rows = odds.draw_odds(pattern, deck_size=size, group=chosen.count if chosen else 0, k=k)
    return DeckDrawOdds(
        judgement=judgement,
        pattern=pattern,
        deck_size=size,
        groups=groups,
        group=chosen,
        names=sorted({entry.card.name for entry in deck.main}),
        picked=tuple(picked) if group == odds.PICKED else (),
        k=k,
        rows=rows,
        first_turn_rulers=rulers_with_first_turn_exception(on=judgement.choice.on),
    )


def rulers_with_first_turn_exception(*, on: date) -> list[str]:
    """Rulers whose revision in force on a date sees a different number of cards on the game's first turn."""
    latest: dict[int, RulerRevision] = {}
    for revision in RulerRevision.objects.filter(effective_from__lte=on).select_related("ruler"):
        if revision.ruler_id not in latest or revision.effective_from > latest[revision.ruler_id].effective_from:
            latest[revision.ruler_id] = revision
    names = []
    for revision in latest.values():
        try:
            differs = odds.draw_pattern(revision.data).first_turn_differs
        except RulesDataError:
            continue  # a broken revision says nothing about turns; the deck's own rules report it
        if differs:
            names.append(str(revision.ruler))
    return names
