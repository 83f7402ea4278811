"""What a card face shows (templates/cards/_card_face.html), for a card of any game.

Gate Ruler's cards have columns of their own (level, ATK/HP/STK, CNT, legend); the other games'
cards keep their fields in Card.fields, described by their game's data (cards/games.py), so the
face takes every label from that data and names no game here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .games import game_get
from .models import Card

# The field shown large in the corner, where Gate Ruler shows the level: the first of these the card has.
CORNER_KEYS = ("cost", "level")


@dataclass(frozen=True, slots=True)
class CardFace:
    type_label: str
    corner: tuple[str, object] | None  # (label, value): level or cost
    stats: tuple[tuple[str, object], ...]  # (label, value): ATK/HP/STK, A/D/C, power/health, LP
    marks: tuple[str, ...]  # CNT, Legend, Instant: the yes/no fields that are yes
    colours: tuple[tuple[str, str], ...]  # (key, label): Ruler's Gambit's colours
    tags: tuple[str, ...]  # the other fields, labelled: "Race: Human", "Spell type: Equip"


def card_face_facts(*, card: Card, type_label: str) -> CardFace:
    """The face of a card of a game other than the default one, from the game's field list."""
    game = game_get(card.game)
    corner: tuple[str, object] | None = None
    stats: list[tuple[str, object]] = []
    marks: list[str] = []
    colours: list[tuple[str, str]] = []
    tags: list[str] = []
    for field in game.card_fields:
        value = card.fields.get(field.key)
        if card.type not in field.types or value is None or value == "":
            continue
        labels = {c.key: c.label for c in field.choices}
        if field.kind == "bool":
            marks.extend([field.label] if value else [])
        elif field.kind == "int" and corner is None and field.key in CORNER_KEYS:
            corner = (field.label, value)
        elif field.kind == "int":
            stats.append((field.label, value))
        elif field.many and isinstance(value, list):
            colours.extend((str(v), labels.get(v, str(v))) for v in value)
        else:
            tags.append(f"{field.label}: {labels.get(value, value)}")
    return CardFace(type_label, corner, tuple(stats), tuple(marks), tuple(colours), tuple(tags))
