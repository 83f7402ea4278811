"""The one adapter between decks and the rules engine: any deck becomes the engine's input here.

Every way a deck reaches the engine goes through this module: a saved deck (made a draft by
decks.saved_drafts.deck_draft_of), the editor's session draft, a share link and a pasted deck list
(both become a DeckDraft), the body
of the validate and deck APIs (deck lines by collector number or name: draft_section_of_lines),
and the revalidation job's rows (deck_snapshot_of). A DeckDraft is the common form: copies per
collector number, per section. Every game takes the same path to `judge(game, deck, rules)`; what
differs comes from the game's data: a game whose identity is a ruler is judged by the ruler's (and
geas's) rules in force on the deck's date, and its cards' facts are the catalog's own columns.

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

from cards.games import UnknownGameError, default_game, game_get
from cards.models import Geas, Ruler
from cards.rules_selectors import RulesChoice
from cards.selectors import attribute_exists
from decks.rules.games import GameDefinition
from decks.rules.judge import judge
from decks.rules.types import MAIN, RESOURCES, CardFacts, DeckEntry, DeckSnapshot, Report
from gatesite.clock import site_today
from gatesite.errors import ApplicationError

from .card_facts import card_facts_by_number, facts_source, numbers_of_names
from .models import MAX_LINE_COUNT, MAX_LINES, DeckDraft

# The most printings besides the deck's own that one judgement looks up (the card browser's page).
MAX_ALSO = 200


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


def _definition_of(slug: str | None) -> GameDefinition:
    """The game of this slug (the default game for None); ApplicationError naming an unknown one."""
    try:
        return game_get(slug) if slug is not None else default_game()
    except UnknownGameError as exc:
        raise ApplicationError(f"game: {exc}", field="game") from None


# ---------------------------------------------------------------- typed lines -> copies per printing


def draft_section_of_lines(
    *, section: str, lines: Sequence[DeckListLine], bounded: bool = False, game: str | None = None
) -> dict[str, int]:
    """A section of a typed deck list (cards by collector number or name) as copies per collector number.

    A card named by name counts as its lowest collector number. Both lookups go through what this
    process remembers of the catalog, so a list of known cards costs no query. ApplicationError names
    the first line that is not in the catalog of the deck's `game` (default: the default game) and,
    when `bounded` (a deck to be saved), a section past a saved deck's sizes.
    """
    definition = _definition_of(game)
    number_of_name, facts = _lines_resolve(definition, lines)
    return _section_counts(definition, section, lines, number_of_name, facts, bounded=bounded)


def _lines_resolve(
    game: GameDefinition, lines: Sequence[DeckListLine], numbers: set[str] | None = None
) -> tuple[dict[str, str], dict[str, CardFacts]]:
    """The collector number of each name the lines give, and the facts of every printing they name
    (`numbers`: the collector numbers the lines give, when the caller has them already)."""
    if numbers is None:
        numbers = {ln.number for ln in lines if ln.number}
    number_of_name = numbers_of_names(game, {ln.name for ln in lines if ln.name})
    facts = card_facts_by_number(game, numbers.union(number_of_name.values()) if number_of_name else numbers)
    return number_of_name, facts


def _section_counts(
    game: GameDefinition,
    section: str,
    lines: Sequence[DeckListLine],
    number_of_name: Mapping[str, str],
    facts: Mapping[str, CardFacts],
    *,
    bounded: bool,
) -> dict[str, int]:
    counts: dict[str, int] = {}
    for i, line in enumerate(lines):
        number = line.number if line.number in facts else number_of_name.get(line.name or "")
        if number is None:
            where = {"line": f"{section}[{i}]", "number": line.number, "name": line.name, "game": game.name}
            source = facts_source(game)
            message = gettext(source.no_card_numbered if line.number else source.no_card_named)
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


def _known_printings_counts(
    known: Mapping[str, CardFacts], sections: Mapping[str, Sequence[DeckListLine]]
) -> tuple[dict[str, dict[str, int]], dict[str, CardFacts]] | None:
    """Copies per collector number of each section and the facts of their printings, as _lines_resolve
    and _section_counts make them, when every line names by collector number a printing of `known`
    (the usual body of the validate API, judged in one pass); else None."""
    facts: dict[str, CardFacts] = {}
    every: dict[str, dict[str, int]] = {}
    for key, lines in sections.items():
        every[key] = counts = {}
        for line in lines:
            number = line.number
            card = known.get(number) if number is not None else None
            if card is None:
                return None
            facts[number] = card
            counts[number] = counts.get(number, 0) + line.count
    return every, facts


# ---------------------------------------------------------------- a deck -> the engine


# Entries made already, by their card's identity, count and printing: making a frozen dataclass is
# slow in Python, and every judgement makes one per line. Keyed by id(card): the entry holds its
# card, so no other object can take that id while it is remembered. Bounded: emptied when full (a
# new catalog version makes new facts objects).
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
    game: GameDefinition,
    sections: Mapping[str, Mapping[str, int]],
    facts: Mapping[str, CardFacts],
    attribute: str | None = None,
    chosen: Collection[str] | None = None,
) -> DeckSnapshot:
    """The engine's deck: copies per collector number of each of the game's sections (the considering
    board is not judged); printings without facts are left out.

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

    others = {key: entries(key) for key in game.section_keys() if key != MAIN and key != RESOURCES}
    main, resources = entries(MAIN), entries(RESOURCES)
    if not others:
        return DeckSnapshot(main=main, resources=resources, attribute=attribute or None)
    return DeckSnapshot(main=main, resources=resources, attribute=attribute or None, sections=MappingProxyType(others))


def _judged(
    game: GameDefinition,
    draft: DeckDraft,
    choice: RulesChoice | None,
    deck: DeckSnapshot,
    facts: dict[str, CardFacts],
    missing: tuple[str, ...],
    on: date,
) -> DraftJudgement:
    report = judge(game, deck, choice.rules if choice is not None else None)
    return DraftJudgement(draft, choice, deck, report, facts, missing, game, on)


def deck_draft_judge(*, draft: DeckDraft, today: date | None = None, also: Iterable[str] = ()) -> DraftJudgement:
    """Resolve and judge a draft of any game: the rules (2-4 queries for a game whose identity is a
    ruler) and its cards (1 query at most, none when remembered).

    `also`: more collector numbers whose facts to fetch in the same query (the card browser's
    printings, for the editor's hints); they join `facts`, not the deck.
    """
    game = _definition_of(draft.game)
    on = draft.rules_date or today or site_today()
    choice = facts_source(game).choice(draft.ruler, draft.geas, on)
    numbers = draft.numbers()
    facts = card_facts_by_number(game, numbers.union(list(dict.fromkeys(also))[:MAX_ALSO]))
    sections = {key: draft.section(key) for key in game.section_keys()}
    deck = deck_snapshot_of(game=game, sections=sections, attribute=draft.attribute, facts=facts)
    missing = tuple(sorted(numbers - set(facts)))
    return _judged(game, draft, choice, deck, facts, missing, on)


def deck_judge(
    *,
    on: date,
    game: str | None = None,
    ruler: str = "",
    geas: str | None = None,
    attribute: str | None = None,
    **sections: Sequence[DeckListLine],
) -> DraftJudgement:
    """Judge a typed deck list of any game (the validate API's body) against its rules in force on a date.

    `sections`: each section's lines by its key (main=…, resources=…, kingdom=…). `ruler`, `geas`
    and `attribute` are the choice of a game whose identity is a ruler. ApplicationError names an
    unknown game, a section the game does not have, an unknown ruler, geas or attribute, or the
    first line naming a card that is not in the game's catalog (a card of another game included),
    the first of these in that order.
    """
    definition = _definition_of(game)
    keys = definition.section_keys()
    for key in sections:
        if key not in keys:
            raise ApplicationError(
                f"{key}: {definition.name} deck lists have no section '{key}' (its sections: {', '.join(keys)}).",
                field=key,
            )
    source = facts_source(definition)
    choice = source.choice(ruler, geas, on)
    # Only a ruler's game's body has an attribute (another game's body model has no such field).
    if attribute and not attribute_exists(attribute):
        raise ApplicationError(gettext("Unknown attribute '%(value)s'.") % {"value": attribute}, field="attribute")
    known = _known_printings_counts(source.known(definition), sections)
    if known is not None:  # every line names a printing the process knows: all of them chosen
        counts, facts = known
        chosen: set[str] | None = None
    else:
        # One lookup for every section: every card the list names, with its facts. The printings the
        # lines name by collector number are the ones the player chose (deck_snapshot_of's `chosen`).
        every = [line for lines in sections.values() for line in lines]
        chosen = {line.number for line in every if line.number}
        number_of_name, facts = _lines_resolve(definition, every, chosen)
        counts = {
            key: _section_counts(definition, key, lines, number_of_name, facts, bounded=False)
            for key, lines in sections.items()
        }
    draft = DeckDraft.of_sections(
        counts, game=definition.slug, ruler=ruler, geas=geas, attribute=attribute or "", rules_date=on
    )
    deck = deck_snapshot_of(game=definition, sections=counts, attribute=draft.attribute, facts=facts, chosen=chosen)
    return _judged(definition, draft, choice, deck, facts, (), on)
