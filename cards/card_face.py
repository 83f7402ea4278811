"""What a card face shows (templates/cards/_card_face.html), for a card of any game.

Gate Ruler's cards have columns of their own (level, ATK/HP/STK, CNT, legend); the other games'
cards keep their fields in Card.fields, described by their game's data (cards/games.py), so the
face takes every label from that data and names no game here. Which of the two a game's cards
have follows from how its deck identity is chosen, decided once (_facts_shown) for the face, the
card page's rows and the type's words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from django.utils.text import slugify
from django.utils.translation import gettext, pgettext

from decks.rules.games import GameDefinition

from .games import default_game_slug, game_get
from .models import Card, CardType, field_value_display
from .names import attribute_names_ordered, label_text, localized_name

# The field shown large in the corner, where Gate Ruler shows the level: the first of these the card has.
CORNER_KEYS = ("cost", "level")


@dataclass(frozen=True, slots=True)
class CardFace:
    template: ClassVar[str] = "cards/_card_face_fields.html"
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
        labels = {c.key: label_text(c.label) for c in field.choices}
        label = label_text(field.label)
        if field.kind == "bool":
            marks.extend([label] if value else [])
        elif field.kind == "int" and corner is None and field.key in CORNER_KEYS:
            corner = (label, value)
        elif field.kind == "int":
            stats.append((label, value))
        elif field.many and isinstance(value, list | tuple):
            colours.extend((str(v), labels.get(v, str(v))) for v in value)
        else:
            tags.append(field_and_value(label, labels.get(value, value)))
    return CardFace(game.slug, name, type_label, corner, tuple(stats), tuple(marks), tuple(colours), tuple(tags))


def card_game_fields(card: Card) -> list[tuple[str, str]]:
    """(label, value) of each field of the card's game that its type has, labels and choices from the game's data."""
    game = game_get(card.game)
    rows = []
    for field in game.card_fields:
        if card.type not in field.types:
            continue
        value = card.fields.get(field.key)
        labels = {c.key: label_text(c.label) for c in field.choices}
        if isinstance(value, list):
            value = [labels.get(v, v) for v in value]
        elif isinstance(value, str):
            value = labels.get(value, value)
        rows.append((label_text(field.label), field_value_display(value)))
    return rows


def field_and_value(label: str, value: object) -> str:
    """A card's field and its value in a line of words ("Race: Golem"; Japanese 種族:ゴーレム)."""
    # Translators: a card's field and its value on a deck line or a card face ("COST: 2").
    return pgettext("card field", "%(field)s: %(value)s") % {"field": label, "value": value}


def card_type_label(card: Card) -> str:
    """What players call the card's type, in their language where the catalog's types are the site's own."""
    game = game_get(card.game)
    return _facts_shown(game).type_label(card, game)


def _fields_face(card: Card | None, facts: Any = None, facts_game: Any = None) -> CardFace:
    """The fields of another game's card face (templates/cards/_card_face.html), labelled by its game's data:
    the card's, or with no card (a deck line's peek) its CardFacts' in `facts_game` (a GameDefinition), no query."""
    if card:
        return card_face_facts(card=card, type_label=card_type_label(card))
    return card_face_of(
        game=facts_game,
        name=facts.name,
        card_type=facts.type,
        fields=facts.fields,
        type_label=label_text(facts_game.type_label(facts.type)),
    )


@dataclass(frozen=True)
class GateRulerFace:
    """What a Gate Ruler face shows; its faction's slug colours it."""

    template: ClassVar[str] = "cards/_card_face_columns.html"
    game: str
    name: str
    name_ja: str
    type_label: str
    level: int | None
    cnt: bool
    legend: bool
    slug: str
    faction: str | None
    attributes: list[str]
    # (label, value) of ATK, HP, STK: those the card has (none when drawn from facts alone).
    stats: list[tuple[str, int]]


def gate_ruler_face(card: Card | None = None, facts: Any = None) -> GateRulerFace:
    """A Gate Ruler face from `facts` (the engine's CardFacts of a list's row) when given, so a list
    draws its faces with no query per row; else from the card's faction and attributes (fetch
    them with select_related / prefetch_related). A deck line has facts and no card: its face
    has no ATK/HP/STK, which are not deck-building facts."""
    card = card or None  # a variable the include did not pass comes as ""
    if facts:
        name = facts.faction
        # Faction.slug's own rule (cards.models.Faction.save): a Japanese-only name keeps its script.
        slug = (slugify(name) or slugify(name, allow_unicode=True)) if name else ""
        attributes = attribute_names_ordered(facts.attributes)
    else:
        assert card is not None, "the card face needs a card or its facts"
        name = card.faction.name if card.faction else None
        slug = card.faction.slug if card.faction else ""
        attributes = attribute_names_ordered(a.name for a in card.attributes.all())
    subject = card if card is not None else facts
    stats = (
        [] if card is None else [(k.upper(), v) for k in ("atk", "hp", "stk") if (v := getattr(card, k)) is not None]
    )
    return GateRulerFace(
        game=card.game if card is not None else default_game_slug(),
        name=subject.name,
        name_ja=card.name_ja if card is not None else "",
        type_label=card_type_label(card) if card is not None else str(CardType(facts.type).label),
        level=subject.level,
        cnt=subject.cnt,
        legend=subject.legend,
        slug=slug or "none",
        faction=name,
        attributes=attributes,
        stats=stats,
    )


@dataclass(frozen=True)
class _FactsShown:
    """How the card pages show a card's facts, by how its game's deck identity is chosen: a ruler's
    game's cards have the catalog's own columns (faction, level, CNT, ...), another game's the card
    fields its data declares."""

    # The face (a GateRulerFace or a CardFace, each naming its template) of a card or of a line's facts.
    face: Callable[[Card | None, Any, Any], GateRulerFace | CardFace]
    # The card page's (label, value) rows after the name: its game where that is not the site's own, type, facts.
    rows: Callable[[Card, GameDefinition], list[tuple[str, object]]]
    # What players call the card's type.
    type_label: Callable[[Card, GameDefinition], str]


def _yes_no(value: bool) -> str:
    return gettext("yes") if value else gettext("no")


def _column_rows(card: Card, game: GameDefinition) -> list[tuple[str, object]]:
    attributes = attribute_names_ordered(a.name for a in card.attributes.all())
    rows: list[tuple[str, object]] = [(gettext("Type"), card_type_label(card))]
    if card.faction:
        rows.append((gettext("Faction"), localized_name(card.faction.name)))
    if attributes:
        rows.append((gettext("Attributes"), ", ".join(attributes)))
    if card.level is not None:
        rows.append((gettext("Level"), card.level))
    rows.extend((key.upper(), value) for key in ("atk", "hp", "stk") if (value := getattr(card, key)) is not None)
    return [*rows, ("CNT", _yes_no(card.cnt)), (gettext("Legend"), _yes_no(card.legend))]


def _field_rows(card: Card, game: GameDefinition) -> list[tuple[str, object]]:
    return [(gettext("Game"), label_text(game.name)), (gettext("Type"), card_type_label(card)), *card_game_fields(card)]


_COLUMNS = _FactsShown(
    face=lambda card, facts, facts_game: gate_ruler_face(card, facts),
    rows=_column_rows,
    type_label=lambda card, game: str(card.get_type_display()),  # the model's choices, translated
)
_FIELDS = _FactsShown(
    face=_fields_face, rows=_field_rows, type_label=lambda card, game: label_text(game.type_label(card.type))
)
_FACTS_SHOWN = {"ruler": _COLUMNS, "card": _FIELDS}


def _facts_shown(game: GameDefinition) -> _FactsShown:
    """The one place the card pages ask how a game's identity is chosen (an unknown kind reads as a card)."""
    return _FACTS_SHOWN.get(game.identity, _FIELDS)


def face_of(card: Card | None, facts: Any = None, facts_game: Any = None) -> GateRulerFace | CardFace:
    """The face _card_face.html draws, of any game: the card's, else a line's `facts` of `facts_game` (a
    GameDefinition), else of the default game's facts; `.template` draws it."""
    game = game_get(card.game) if card else facts_game or game_get(default_game_slug())
    return _facts_shown(game).face(card, facts, facts_game)


def card_fact_rows(card: Card) -> list[tuple[str, object]]:
    """(label, value) of each fact the card page lists under the card's name, for a card of any game."""
    game = game_get(card.game)
    return _facts_shown(game).rows(card, game)
