"""Reads every deck feature shares: a deck as its owner, a viewer or a writer may get it, and its card lines."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet, Sum
from django.http import Http404

from cards.models import Attribute, Card, CardSet, Faction, Geas, GeasRevision, Printing, Ruler
from cards.rules_selectors import RulesChoice
from cards.selectors import card_facts
from decks.rules.hints import AttributeProposal, addition_blockers, natural_section, propose_attribute
from decks.rules.meters import Meter, deck_meters
from decks.rules.ruleset import RulesInForce
from decks.rules.types import ENERGY, EVENT, FIELD, UNIT, CardFacts, Report
from decks.rules.types import Deck as RulesDeck

from .drafts import DraftJudgement, card_facts_by_number, deck_draft_judge
from .models import Deck, DeckCard, DeckDraft, Section, Visibility

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


def _level_curve(deck: RulesDeck) -> list[Bar]:
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


def _faction_breakdown(deck: RulesDeck) -> list[Bar]:
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
