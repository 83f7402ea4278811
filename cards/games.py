"""The games the site serves, read once per process from data/games/*.json (decks.rules.games parses them).

No Django here: the importer's pure parsing reads a card's game from this module too. A fourth
game is a fourth file in data/games/ (docs/games.md); nothing here names a game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType

from decks.rules.games import GameDataError, GameDefinition, parse_game

GAMES_DIR = Path(__file__).resolve().parent.parent / "data" / "games"
# The columns that hold a game's slug and a card's type (cards.models: CardSet.game, Card.game, Card.type).
MAX_SLUG_LENGTH = 40
MAX_TYPE_LENGTH = 20


class UnknownGameError(LookupError):
    """A game slug that no data/games/*.json file defines; the message names it and the known games."""

    def __init__(self, slug: object) -> None:
        self.slug = slug
        super().__init__(f"unknown game {slug!r}; games are {', '.join(games())}")

    def __str__(self) -> str:
        return str(self.args[0])


def games_load(directory: Path = GAMES_DIR) -> Mapping[str, GameDefinition]:
    """Every game file of `directory`, by slug, in file-name order; GameDataError naming the bad file."""
    found: dict[str, GameDefinition] = {}
    for path in sorted(directory.glob("*.json")):
        try:
            game = parse_game(json.loads(path.read_text(encoding="utf-8")))
        except (ValueError, TypeError, AttributeError) as exc:  # JSON errors are ValueErrors too
            raise GameDataError(f"{path.name}: {exc}") from exc
        if game.slug != path.stem:
            raise GameDataError(f'{path.name}: its "game" is {game.slug!r}; name the file {game.slug}.json')
        _columns_check(path.name, game)
        found[game.slug] = game
    if sum(game.default for game in found.values()) != 1:
        raise GameDataError(f'{directory}: exactly one game must be the default ("default": true)')
    return MappingProxyType(found)


def _columns_check(file: str, game: GameDefinition) -> None:
    """The slug and card types must fit the catalog's columns, or an import would fail halfway."""
    if len(game.slug) > MAX_SLUG_LENGTH:
        raise GameDataError(f"{file}: the game's slug is longer than {MAX_SLUG_LENGTH} characters")
    for key in game.type_keys():
        if len(key) > MAX_TYPE_LENGTH:
            raise GameDataError(f"{file}: card type {key!r} is longer than {MAX_TYPE_LENGTH} characters")


@cache
def games() -> Mapping[str, GameDefinition]:
    """Every game by slug (read once per process)."""
    return games_load()


def game_get(slug: str) -> GameDefinition:
    """The game of this slug; UnknownGameError naming it and the games there are."""
    game = games().get(slug) if isinstance(slug, str) else None
    if game is None:
        raise UnknownGameError(slug)
    return game


def default_game() -> GameDefinition:
    """The game of every card, set file and request that names none (Gate Ruler)."""
    # Remembered with the mapping it was found in (games() reads the files once per process): every
    # judgement of a deck asks for it, a deck draft's and a judgement's default among them.
    global _default
    every = games()
    if _default is None or _default[0] is not every:
        _default = (every, next(game for game in every.values() if game.default))
    return _default[1]


_default: tuple[Mapping[str, GameDefinition], GameDefinition] | None = None


def default_game_slug() -> str:
    return default_game().slug
