"""A game's catalog as the rules engine sees it: the facts of its printings by collector number, a collector number
for each card name, and the rules chosen for a deck of a game whose identity is a ruler.

decks.drafts builds every deck's engine input from these. What differs by the game's identity kind is decided here
once, in one table (_FACTS_SOURCES): a ruler's game's facts are the catalog's own columns, read through this
process's catalog memory; any other game's are its card fields, read from its whole remembered catalog.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from types import MappingProxyType

from django.utils.translation import gettext_noop

from cards.catalog import catalog_memory
from cards.game_catalog import GameCatalog, game_catalog_get
from cards.models import Printing
from cards.rules_selectors import RulesChoice, rules_choice_get
from cards.selectors import card_facts_rows, joined_values
from decks.rules.games import GameDefinition
from decks.rules.types import CardFacts


def card_facts_by_number(game: GameDefinition, numbers: Iterable[str]) -> dict[str, CardFacts]:
    """The engine's facts of a game's printings, by collector number; unknown numbers (another game's
    included) are left out. Printings of one name share one CardFacts object.

    This runs on every change in the editor and every validate request, so no model instances are
    made: a game whose facts are the catalog's columns reads them from this process's catalog
    memory (cards.catalog), which fetches what it lacks in one query (cards.selectors.card_facts_rows);
    any other game's come from its whole catalog, read once per catalog version (catalog_card_facts).
    """
    return facts_source(game).facts(game, numbers)


def _column_facts(game: GameDefinition, numbers: Iterable[str]) -> dict[str, CardFacts]:
    """card_facts_by_number of a game whose facts are the catalog's columns: the catalog memory's."""
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


def _field_facts(game: GameDefinition, numbers: Iterable[str]) -> dict[str, CardFacts]:
    """card_facts_by_number of a game whose facts are its card fields: its whole catalog's."""
    known = catalog_card_facts(game)
    return {number: known[number] for number in set(numbers) if number in known}


def _column_facts_known(game: GameDefinition) -> Mapping[str, CardFacts]:
    return catalog_memory().facts  # those the catalog memory has fetched so far


def _column_numbers_of_names(game: GameDefinition, names: Collection[str]) -> dict[str, str]:
    known = catalog_memory().number_of_name  # remembered while the catalog is unchanged
    missing = [n for n in names if n not in known]
    if missing:
        known.update(
            Printing.objects.filter(card__name__in=missing, card__game=game.slug)
            .order_by("-collector_number")
            .values_list("card__name", "collector_number")
        )
    return {name: known[name] for name in names if name in known}


def _field_numbers_of_names(game: GameDefinition, names: Collection[str]) -> dict[str, str]:
    by_name = game_catalog_get(game=game.slug).by_name
    return {name: by_name[name]["collector_numbers"][0] for name in names if name in by_name}


def _ruler_choice(ruler: str, geas: str | None, on: date) -> RulesChoice:
    return rules_choice_get(ruler_slug=ruler, geas_slug=geas, on=on)


def _no_choice(ruler: str, geas: str | None, on: date) -> None:
    return None


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


# The CardFacts by collector number of each game whose facts are its card fields, made once per read
# of its catalog (cards.game_catalog).
_CARD_FIELD_FACTS: dict[str, tuple[GameCatalog, Mapping[str, CardFacts]]] = {}


def catalog_card_facts(game: GameDefinition) -> Mapping[str, CardFacts]:
    """Every card of a game whose facts are its card fields (CardFacts.fields), by collector number."""
    catalog = game_catalog_get(game=game.slug)
    known = _CARD_FIELD_FACTS.get(game.slug)
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
    _CARD_FIELD_FACTS[game.slug] = (catalog, facts)
    return facts


@dataclass(frozen=True)
class _FactsSource:
    """Where the adapter finds a game's card facts and rules choice: what differs by how the game's deck
    identity is chosen, decided once (facts_source) so that every judge takes the same path."""

    # card_facts_by_number; the facts the process holds without a query; one number per card name.
    facts: Callable[[GameDefinition, Iterable[str]], dict[str, CardFacts]]
    known: Callable[[GameDefinition], Mapping[str, CardFacts]]
    numbers_of_names: Callable[[GameDefinition, Collection[str]], dict[str, str]]
    # The rules chosen by a ruler (and geas) in force on a date; None where a card is the identity.
    choice: Callable[[str, str | None, date], RulesChoice | None]
    # What a typed line naming no card of the game says (msgids, worded in the request's language).
    no_card_numbered: str
    no_card_named: str


# A game whose identity is a ruler (Gate Ruler) is judged by the ruler's (and geas's) rules in force on a
# date, and its cards' facts (faction, level, CNT, legend, attributes: what those rules read) are the
# catalog's own indexed columns; any other game's are the card fields its data declares.
_BY_COLUMNS = _FactsSource(
    _column_facts,
    _column_facts_known,
    _column_numbers_of_names,
    _ruler_choice,
    # The words clients of the validate API have matched since before there were other games.
    gettext_noop("%(line)s: no card with collector number '%(number)s'."),
    gettext_noop("%(line)s: no card with name '%(name)s'."),
)
_BY_FIELDS = _FactsSource(
    _field_facts,
    catalog_card_facts,
    _field_numbers_of_names,
    _no_choice,
    gettext_noop("%(line)s: no %(game)s card with collector number '%(number)s'."),
    gettext_noop("%(line)s: no %(game)s card with name '%(name)s'."),
)
_FACTS_SOURCES = {"ruler": _BY_COLUMNS, "card": _BY_FIELDS}


def facts_source(game: GameDefinition) -> _FactsSource:
    """The one place the adapter asks how a game's identity is chosen (an unknown kind reads as a card)."""
    return _FACTS_SOURCES.get(game.identity, _BY_FIELDS)


def rules_choice_of(game: GameDefinition, *, ruler: str, geas: str | None, on: date) -> RulesChoice | None:
    """The rules a deck of the game is judged by, as chosen: a ruler's (and geas's) in force on `on`
    (ApplicationError names what is wrong), None for a game whose identity is a card."""
    return facts_source(game).choice(ruler, geas, on)


def numbers_of_names(game: GameDefinition, names: Collection[str]) -> dict[str, str]:
    """One collector number for each card name the game's catalog has (its lowest)."""
    if not names:
        return {}
    return facts_source(game).numbers_of_names(game, names)
