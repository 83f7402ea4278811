"""A game's cards as plain facts, for the deck adapter of the games besides Gate Ruler.

The engine's CardFacts has no game fields yet (decks/rules/types.py is the engine's), so this
answers plain mappings: for each card its name, type, collector numbers and game fields, by
collector number and by name. Kept per process while the catalog's token is unchanged (see
cards.catalog), like the Gate Ruler facts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .catalog import catalog_token
from .games import game_get
from .models import Printing


@dataclass(frozen=True, slots=True)
class GameCatalog:
    """Every card of one game: `by_number` (every collector number) and `by_name` give the same fact mappings."""

    game: str
    by_number: Mapping[str, Mapping[str, Any]]
    by_name: Mapping[str, Mapping[str, Any]]


_remembered: dict[str, tuple[str, GameCatalog]] = {}


def game_catalog_get(*, game: str) -> GameCatalog:
    """The game's cards (UnknownGameError for a game no data file defines); one query when the catalog changed."""
    slug = game_get(game).slug
    token = catalog_token()
    known = _remembered.get(slug)
    if known is not None and known[0] == token:
        return known[1]
    catalog = _game_catalog_read(slug)
    _remembered[slug] = (token, catalog)
    return catalog


def _game_catalog_read(slug: str) -> GameCatalog:
    rows = (
        Printing.objects.filter(card__game=slug)
        .order_by("card__name", "collector_number")
        .values_list("collector_number", "card__name", "card__type", "card__fields", "card__text")
    )
    numbers: dict[str, list[str]] = {}
    cards: dict[str, tuple[str, dict[str, Any], str]] = {}
    for number, name, card_type, fields, text in rows:
        numbers.setdefault(name, []).append(number)
        cards[name] = (card_type, fields or {}, text)
    by_name: dict[str, Mapping[str, Any]] = {}
    by_number: dict[str, Mapping[str, Any]] = {}
    for name, (card_type, fields, text) in cards.items():
        fact = MappingProxyType(
            {
                "name": name,
                "game": slug,
                "type": card_type,
                "collector_numbers": tuple(numbers[name]),
                "fields": MappingProxyType({k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}),
                "text": text,
            }
        )
        by_name[name] = fact
        by_number.update(dict.fromkeys(numbers[name], fact))
    return GameCatalog(slug, MappingProxyType(by_number), MappingProxyType(by_name))
