"""The new-deck page's game picker and the search hints of a game's own fields ({% load game_choice %})."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from cards.games import default_game_slug, games
from cards.names import label_text
from decks.rules.games import GameDefinition
from decks.rules.wording import Label

register = template.Library()


@register.inclusion_tag("decks/editor/_game_picker.html")
def game_picker(current: str = "") -> dict[str, Any]:
    """Every game, the one being built marked (default: the default game's); a link each to /decks/new/?game=<slug>."""
    return {"games": list(games().values()), "current": current or default_game_slug()}


@register.simple_tag
def search_keys(game: GameDefinition) -> str:
    """The game's search keys ("c: t: cost: …"), as typed in the search box."""
    return " ".join(f"{key}:" for key in game.search)


@register.simple_tag
def search_example(game: GameDefinition) -> str:
    """An example search in the game's own fields (the search box's placeholder): its data's `search_example`, in the
    player's language where the data gives it per language ({"en": "c:red …", "ja": "色:赤 …"})."""
    example = game.extra.get("search_example", "")
    if isinstance(example, Mapping) and isinstance(example.get("en"), str):
        return label_text(Label(example))
    return str(example)
