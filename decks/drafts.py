"""The one adapter between decks and the rules engine: any deck becomes the engine's input here.

Every way a deck reaches the engine goes through this module: a saved deck (made a draft by
decks.saved_drafts.deck_draft_of), the editor's session draft, a share link and a pasted deck list
(both become a DeckDraft), the body
of the validate and deck APIs (deck lines by collector number or name: draft_section_of_lines),
and the revalidation job's rows (deck_snapshot_of, game_snapshot_of). A DeckDraft is the common form: copies per
collector number, per section.

**Cards the catalog does not know** (the one rule, stated once):
- in what a player or a client *types* (an API body's line, a pasted list's line), an unknown card
  is an error that names its line (ApplicationError here; decks.decklists words its own per line);
- in a deck already *stored* (a saved deck, a session draft, a share link, a past version), whose
  printings were known when it was stored, a printing since removed from the catalog is left out
  of the judgement and listed in `DraftJudgement.missing`, so the deck can still be opened and
  fixed.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from types import MappingProxyType

from django.utils.translation import gettext

from cards.catalog import catalog_memory
from cards.game_catalog import GameCatalog, game_catalog_get
from cards.games import UnknownGameError, default_game, default_game_slug, game_get
from cards.models import Geas, Printing, Ruler
from cards.rules_selectors import RulesChoice, rules_choice_get
from cards.selectors import attribute_exists, card_facts_rows, joined_values
from decks.rules.engine import validate_deck
from decks.rules.games import GameDefinition
from decks.rules.judge import judge
from decks.rules.types import CardFacts, DeckEntry, DeckSnapshot, Report
from gatesite.clock import site_today
from gatesite.errors import ApplicationError

from .models import MAX_LINE_COUNT, MAX_LINES, DeckDraft, Section

# The most printings besides the deck's own that one judgement looks up (the card browser's page).
MAX_ALSO = 200
# The sections the engine judges; the considering board is the owner's scratch space.
JUDGED_SECTIONS = (Section.MAIN, Section.RESOURCES)


@dataclass(frozen=True)
class DeckListLine:
    """One line of a deck list as a client sends it: a card by collector number or by name."""

    count: int
    number: str | None = None
    name: str | None = None


@dataclass(frozen=True)
class DraftJudgement:
    """A draft resolved against the catalog and judged by its game's rules (in force on its date).

    `choice` is the ruler and geas chosen for a game whose identity is a ruler (Gate Ruler), None for
    a game whose identity is a card (its `identity`, the card of the game's identity section).
    """

    draft: DeckDraft
    choice: RulesChoice | None
    deck: DeckSnapshot
    report: Report
    # The engine's facts for every printing the draft names that the catalog has (and for the
    # printings deck_draft_judge was asked to look up `also`).
    facts: dict[str, CardFacts]
    # Collector numbers the draft names that the catalog does not have (left out of the deck).
    missing: tuple[str, ...]
    game: GameDefinition = field(default_factory=default_game)
    # The date judged by when there is no ruler's choice (a game's rules do not change by date).
    judged: date | None = None

    @property
    def on(self) -> date:
        """The date the deck was judged on."""
        if self.choice is not None:
            return self.choice.on
        return self.judged or site_today()

    @property
    def ruler(self) -> Ruler | None:
        return self.choice.ruler if self.choice is not None else None

    @property
    def geas(self) -> Geas | None:
        return self.choice.geas if self.choice is not None else None

    @property
    def identity(self) -> CardFacts | None:
        """The deck's identity card (its Kingdom-Ruler, its Hero) when its identity section holds exactly one."""
        for section in self.game.sections:
            entries = self.deck.section(section.key) if section.identity else ()
            if len(entries) == 1:
                return entries[0].card
        return None

    def identity_name(self) -> str:
        """What lists call the deck's identity: the ruler's name, the identity card's, or ""."""
        if self.choice is not None:
            return self.choice.ruler.name
        card = self.identity
        return card.name if card is not None else ""


# ---------------------------------------------------------------- the catalog, as the engine sees it


def printing_of_names(names: Collection[str]) -> dict[str, str]:
    """One collector number for each card name the catalog has (its lowest), remembered while the catalog is unchanged."""
    if not names:
        return {}
    known = catalog_memory().number_of_name
    missing = [n for n in names if n not in known]
    if missing:
        known.update(
            Printing.objects.filter(card__name__in=missing, card__game=default_game_slug())
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
        for row in card_facts_rows(missing):
            number, card_id, name, card_type, faction, level, cnt, legend, text, attributes, printed, printing_id = row
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
            memory.printing_ids[number] = printing_id
    return {number: known[number] for number in wanted if number in known}


def printing_ids_by_number(numbers: Iterable[str]) -> dict[str, int]:
    """The Printing ids of collector numbers (any game's), from the catalog memory where card_facts_by_number
    put them, else one query. Unknown numbers are left out."""
    known = catalog_memory().printing_ids
    wanted = set(numbers)
    ids = {number: known[number] for number in wanted if number in known}
    if len(ids) < len(wanted):
        ids.update(
            Printing.objects.filter(collector_number__in=wanted - ids.keys()).values_list("collector_number", "pk")
        )
    return ids


# ---------------------------------------------------------------- another game's catalog, as the engine sees it

# Each game's CardFacts by collector number, made once per read of its catalog (cards.game_catalog).
_game_facts: dict[str, tuple[GameCatalog, Mapping[str, CardFacts]]] = {}


def _game_of(slug: str | None) -> GameDefinition:
    """The game of this slug (the default game for None); ApplicationError naming an unknown one."""
    try:
        return game_get(slug) if slug is not None else default_game()
    except UnknownGameError as exc:
        raise ApplicationError(f"game: {exc}", field="game") from None


def game_card_facts(game: GameDefinition) -> Mapping[str, CardFacts]:
    """Every card of a game besides the default one, as the engine's facts by collector number.

    The catalog's game fields (cards.game_catalog) go into CardFacts.fields; the printings of a
    name share one CardFacts object. Only this game's cards: another game's printing is unknown here.
    """
    catalog = game_catalog_get(game=game.slug)
    known = _game_facts.get(game.slug)
    if known is not None and known[0] is catalog:
        return known[1]
    by_name = {
        name: CardFacts(
            name=name,
            type=fact["type"],
            text=fact["text"],
            collector_numbers=fact["collector_numbers"],
            fields=fact["fields"],
        )
        for name, fact in catalog.by_name.items()
    }
    facts = MappingProxyType({number: by_name[fact["name"]] for number, fact in catalog.by_number.items()})
    _game_facts[game.slug] = (catalog, facts)
    return facts


def _game_lines_resolve(
    game: GameDefinition, lines: Sequence[DeckListLine]
) -> tuple[dict[str, str], Mapping[str, CardFacts]]:
    """As _lines_resolve, within one game's catalog: a name counts as its lowest collector number."""
    by_name = game_catalog_get(game=game.slug).by_name
    number_of_name = {
        ln.name: by_name[ln.name]["collector_numbers"][0] for ln in lines if ln.name and ln.name in by_name
    }
    return number_of_name, game_card_facts(game)


def draft_section_of_lines(
    *, section: str, lines: Sequence[DeckListLine], bounded: bool = False, game: str | None = None
) -> dict[str, int]:
    """A section of a typed deck list (cards by collector number or name) as copies per collector number.

    A card named by name counts as its lowest collector number (printing_of_names). Both lookups
    go through the catalog memory, so a list of known cards costs no query. ApplicationError names
    the first line that is not in the catalog of the deck's `game` (default: Gate Ruler) and, when
    `bounded` (a deck to be saved), a section past a saved deck's sizes.
    """
    definition = _game_of(game)
    if definition.default:
        number_of_name, facts = _lines_resolve(lines)
        return _section_counts(section, lines, number_of_name, facts, bounded=bounded)
    number_of_name, facts = _game_lines_resolve(definition, lines)
    return _section_counts(section, lines, number_of_name, facts, bounded=bounded, game=definition.name)


def _lines_resolve(
    lines: Sequence[DeckListLine], numbers: set[str] | None = None
) -> tuple[dict[str, str], dict[str, CardFacts]]:
    """The collector number of each name the lines give, and the facts of every printing they name
    (`numbers`: the collector numbers the lines give, when the caller has them already)."""
    if numbers is None:
        numbers = {ln.number for ln in lines if ln.number}
    number_of_name = printing_of_names({ln.name for ln in lines if ln.name})
    facts = card_facts_by_number(numbers.union(number_of_name.values()) if number_of_name else numbers)
    return number_of_name, facts


def _section_counts(
    section: str,
    lines: Sequence[DeckListLine],
    number_of_name: Mapping[str, str],
    facts: Mapping[str, CardFacts],
    *,
    bounded: bool,
    game: str = "",
) -> dict[str, int]:
    """`game`: the name of a game besides the default one, said in the error (Gate Ruler's words are unchanged)."""
    counts: dict[str, int] = {}
    for i, line in enumerate(lines):
        number = line.number if line.number in facts else number_of_name.get(line.name or "")
        if number is None:
            where = {"line": f"{section}[{i}]", "number": line.number, "name": line.name, "game": game}
            if game:
                message = (
                    gettext("%(line)s: no %(game)s card with collector number '%(number)s'.")
                    if line.number
                    else gettext("%(line)s: no %(game)s card with name '%(name)s'.")
                )
            else:
                message = (
                    gettext("%(line)s: no card with collector number '%(number)s'.")
                    if line.number
                    else gettext("%(line)s: no card with name '%(name)s'.")
                )
            raise ApplicationError(message % where, field=f"{section}[{i}]")
        counts[number] = counts.get(number, 0) + line.count
        if bounded and counts[number] > MAX_LINE_COUNT:
            raise ApplicationError(
                gettext("%(line)s: a deck keeps at most %(n)s copies of one printing (%(number)s).")
                % {"line": f"{section}[{i}]", "n": MAX_LINE_COUNT, "number": number},
                field=f"{section}[{i}]",
            )
    if bounded and len(counts) > MAX_LINES:
        raise ApplicationError(
            gettext("%(section)s: a deck keeps at most %(n)s different printings.")
            % {"section": section, "n": MAX_LINES},
            field=section,
        )
    return counts


# ---------------------------------------------------------------- a draft -> the engine


# Entries made already, by their card's identity, count and printing. Making a frozen dataclass is
# slow in Python (~6 k instructions, three object.__setattr__ calls): 16 of them were a seventh of
# the validate API's work over ping's, and a saved deck's 40-odd a part of every editor click.
# Keyed by id(card): the entry holds its card, so no other object can take that id while it is
# remembered. Bounded: emptied when full (a new catalog version makes new facts objects).
_ENTRIES: dict[tuple[int, int, str | None], DeckEntry] = {}
MAX_ENTRIES = 50_000


def deck_entry(card: CardFacts, count: int, printing: str | None) -> DeckEntry:
    """DeckEntry(card, count, printing), the same object for the same card object, count and printing."""
    key = (id(card), count, printing)
    entry = _ENTRIES.get(key)
    if entry is None:
        if len(_ENTRIES) >= MAX_ENTRIES:
            _ENTRIES.clear()
        entry = _ENTRIES[key] = DeckEntry(card, count, printing)
    return entry


def deck_snapshot_of(
    *,
    sections: Mapping[str, Mapping[str, int]],
    attribute: str | None,
    facts: Mapping[str, CardFacts],
    chosen: Collection[str] | None = None,
) -> DeckSnapshot:
    """The engine's deck: copies per collector number of the judged sections; printings without facts are left out.

    `chosen`: the printings the player named by collector number, when some were resolved from a
    card name only (a typed list); those others stand for any printing of their name (a ruler's
    card pool accepts them if any printing is in it). None: every printing was chosen (a draft).
    """

    remembered = _ENTRIES.get

    def entries(section: str) -> tuple[DeckEntry, ...]:
        # deck_entry written out, and a list made into a tuple (quicker than tuple() of a generator):
        # this runs on every judgement.
        made = []
        for number, count in sorted(sections.get(section, {}).items()):
            card = facts.get(number)
            if card is None:
                continue
            printing = number if chosen is None or number in chosen else None
            entry = remembered((id(card), count, printing))
            made.append(entry if entry is not None else deck_entry(card, count, printing))
        return tuple(made)

    return DeckSnapshot(main=entries(Section.MAIN), resources=entries(Section.RESOURCES), attribute=attribute or None)


def deck_draft_judge(*, draft: DeckDraft, today: date | None = None, also: Iterable[str] = ()) -> DraftJudgement:
    """Resolve and judge a draft: the rules (2-4 queries) and its cards (1 query, none when remembered).

    `also`: more collector numbers whose facts to fetch in the same query (the card browser's
    printings, for the editor's hints); they join `facts`, not the deck.
    """
    game = _game_of(draft.game)
    on = draft.rules_date or today or site_today()
    if game.identity != "ruler":
        return _game_draft_judge(game, draft, on, also)
    choice = rules_choice_get(ruler_slug=draft.ruler, geas_slug=draft.geas, on=on)
    numbers = draft.numbers()
    facts = card_facts_by_number(numbers.union(list(dict.fromkeys(also))[:MAX_ALSO]))
    sections = {section: draft.section(section) for section in JUDGED_SECTIONS}
    deck = deck_snapshot_of(sections=sections, attribute=draft.attribute, facts=facts)
    missing = tuple(sorted(numbers - set(facts)))
    return DraftJudgement(draft, choice, deck, validate_deck(deck, choice.rules), facts, missing, game)


def game_snapshot_of(
    *,
    game: GameDefinition,
    sections: Mapping[str, Mapping[str, int]],
    facts: Mapping[str, CardFacts],
    chosen: Collection[str] | None = None,
) -> DeckSnapshot:
    """A deck of a game whose identity is a card: each of its data's sections (the considering board is not judged)."""
    return DeckSnapshot.of_sections(
        {
            key: tuple(
                DeckEntry(facts[number], count, number if chosen is None or number in chosen else None)
                for number, count in sorted(sections.get(key, {}).items())
                if number in facts
            )
            for key in game.section_keys()
        }
    )


def _game_draft_judge(game: GameDefinition, draft: DeckDraft, on: date, also: Iterable[str]) -> DraftJudgement:
    """A draft of a game whose identity is a card, judged by its data's rules (no ruler, no date-bound rules)."""
    known = game_card_facts(game)
    numbers = draft.numbers()
    wanted = numbers.union(list(dict.fromkeys(also))[:MAX_ALSO])
    facts = {number: known[number] for number in wanted if number in known}
    sections = {key: draft.section(key) for key in game.section_keys()}
    deck = game_snapshot_of(game=game, sections=sections, facts=facts)
    missing = tuple(sorted(numbers - set(facts)))
    return DraftJudgement(draft, None, deck, judge(game, deck), facts, missing, game, on)


def deck_judge(
    *,
    ruler: str,
    geas: str | None,
    on: date,
    attribute: str | None,
    main: Sequence[DeckListLine],
    resources: Sequence[DeckListLine],
) -> DraftJudgement:
    """Judge a typed deck list (the validate API's body) against the rules in force on a date.

    ApplicationError names an unknown ruler, geas, attribute or card (the first, in that order).
    """
    choice = rules_choice_get(ruler_slug=ruler, geas_slug=geas, on=on)
    if attribute and not attribute_exists(attribute):
        raise ApplicationError(gettext("Unknown attribute '%(value)s'.") % {"value": attribute}, field="attribute")
    known = _known_printings_counts(main, resources)
    if known is not None:  # every line names a printing the catalog memory has: all of them chosen
        main_counts, resource_counts, facts = known
        chosen: set[str] | None = None
    else:
        # One lookup for both sections: every card the list names, with its facts. The printings the
        # lines name by collector number are the ones the player chose (deck_snapshot_of's `chosen`).
        lines = (*main, *resources)
        chosen = {line.number for line in lines if line.number}
        number_of_name, facts = _lines_resolve(lines, chosen)
        main_counts = _section_counts("main", main, number_of_name, facts, bounded=False)
        resource_counts = _section_counts("resources", resources, number_of_name, facts, bounded=False)
    draft = DeckDraft(
        ruler=ruler, geas=geas, attribute=attribute or "", rules_date=on, main=main_counts, resources=resource_counts
    )
    sections = {Section.MAIN: main_counts, Section.RESOURCES: resource_counts}
    deck = deck_snapshot_of(sections=sections, attribute=draft.attribute, facts=facts, chosen=chosen)
    return DraftJudgement(draft, choice, deck, validate_deck(deck, choice.rules), facts, ())


def _known_printings_counts(
    main: Sequence[DeckListLine], resources: Sequence[DeckListLine]
) -> tuple[dict[str, int], dict[str, int], dict[str, CardFacts]] | None:
    """Copies per collector number of both sections and the facts of their printings, as _lines_resolve
    and _section_counts make them, when every line names by collector number a printing that this
    process's catalog memory has (the usual body of the validate API, judged in one pass); else None."""
    known = catalog_memory().facts
    facts: dict[str, CardFacts] = {}
    main_counts: dict[str, int] = {}
    resource_counts: dict[str, int] = {}
    for lines, counts in ((main, main_counts), (resources, resource_counts)):
        for line in lines:
            number = line.number
            card = known.get(number) if number is not None else None
            if card is None:
                return None
            facts[number] = card
            counts[number] = counts.get(number, 0) + line.count
    return main_counts, resource_counts, facts


def game_deck_judge(*, game: str, on: date, sections: Mapping[str, Sequence[DeckListLine]]) -> DraftJudgement:
    """Judge a typed deck list of a game whose identity is a card (the validate API's body for that game).

    ApplicationError names an unknown game, a section the game does not have, or the first line
    naming a card that is not in this game's catalog (a card of another game included).
    """
    definition = _game_of(game)
    keys = definition.section_keys()
    for key in sections:
        if key not in keys:
            raise ApplicationError(
                f"{key}: {definition.name} deck lists have no section '{key}' (its sections: {', '.join(keys)}).",
                field=key,
            )
    every = [line for lines in sections.values() for line in lines]
    number_of_name, facts = _game_lines_resolve(definition, every)
    counts = {
        key: _section_counts(key, lines, number_of_name, facts, bounded=False, game=definition.name)
        for key, lines in sections.items()
    }
    draft = DeckDraft(rules_date=on, game=definition.slug).with_section("main", counts.get("main", {}))
    for key, section_counts in counts.items():
        draft = draft.with_section(key, section_counts)
    chosen = {line.number for line in every if line.number}
    deck = game_snapshot_of(game=definition, sections=counts, facts=facts, chosen=chosen)
    used = {number: facts[number] for number in draft.numbers()}
    return DraftJudgement(draft, None, deck, judge(definition, deck), used, (), definition, on)
