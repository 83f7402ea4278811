"""What a card face shows (templates/cards/_card_face.html), for a card of any game.

Gate Ruler's cards have columns of their own (level, ATK/HP/STK, CNT, legend); the other games'
cards keep their fields in Card.fields, described by their game's data (cards/games.py), so the
face takes every label from that data and names no game here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from decks.rules.games import GameDefinition

from .games import game_get
from .models import Card

# The field shown large in the corner, where Gate Ruler shows the level: the first of these the card has.
CORNER_KEYS = ("cost", "level")


@dataclass(frozen=True, slots=True)
class CardFace:
    game: str  # the game's slug (the face's data-game)
    name: str
    type_label: str
    corner: tuple[str, object] | None  # (label, value): level or cost
    stats: tuple[tuple[str, object], ...]  # (label, value): ATK/HP/STK, A/D/C, power/health, LP
    marks: tuple[str, ...]  # CNT, Legend, Instant: the yes/no fields that are yes
    colours: tuple[tuple[str, str], ...]  # (key, label): Ruler's Gambit's colours
    tags: tuple[str, ...]  # the other fields, labelled: "Race: Human", "Spell type: Equip"


def card_face_facts(*, card: Card, type_label: str) -> CardFace:
    """The face of a card of a game other than the default one, from the game's field list."""
    return card_face_of(
        game=game_get(card.game), name=card.name, card_type=card.type, fields=card.fields, type_label=type_label
    )


def card_face_of(
    *, game: GameDefinition, name: str, card_type: str, fields: Mapping[str, object], type_label: str
) -> CardFace:
    """The face of a card of `game` from its type and fields: a card's (card_face_facts) or, with no query,
    the engine's CardFacts of a deck line (the editor's card peek)."""
    corner: tuple[str, object] | None = None
    stats: list[tuple[str, object]] = []
    marks: list[str] = []
    colours: list[tuple[str, str]] = []
    tags: list[str] = []
    for field in game.card_fields:
        value = fields.get(field.key)
        if card_type not in field.types or value is None or value == "":
            continue
        labels = {c.key: c.label for c in field.choices}
        if field.kind == "bool":
            marks.extend([field.label] if value else [])
        elif field.kind == "int" and corner is None and field.key in CORNER_KEYS:
            corner = (field.label, value)
        elif field.kind == "int":
            stats.append((field.label, value))
        elif field.many and isinstance(value, list | tuple):
            colours.extend((str(v), labels.get(v, str(v))) for v in value)
        else:
            tags.append(f"{field.label}: {labels.get(value, value)}")
    return CardFace(game.slug, name, type_label, corner, tuple(stats), tuple(marks), tuple(colours), tuple(tags))
