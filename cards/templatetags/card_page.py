from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import template
from django.utils.safestring import SafeString
from django.utils.text import slugify

from cards.card_face import CardFace, card_face_facts, card_face_of
from cards.card_page import CardPageSection
from cards.games import default_game_slug, game_get
from cards.models import Card, CardType, field_value_display
from cards.names import attribute_names_ordered

register = template.Library()


@register.simple_tag(takes_context=True)
def card_page_section(context: template.Context, section: CardPageSection) -> SafeString:
    """Render a registered section (cards.card_page) as if its template were included here with its context."""
    with context.push(**section.context):
        rendered: SafeString = context.template.engine.get_template(section.template).render(context)
    return rendered


@register.simple_tag
def card_game_fields(card: Card) -> list[tuple[str, str]]:
    """(label, value) of each field of the card's game that its type has, labels and choices from the game's data."""
    game = game_get(card.game)
    rows = []
    for field in game.card_fields:
        if card.type not in field.types:
            continue
        value = card.fields.get(field.key)
        labels = {c.key: c.label for c in field.choices}
        if isinstance(value, list):
            value = [labels.get(v, v) for v in value]
        elif isinstance(value, str):
            value = labels.get(value, value)
        rows.append((field.label, field_value_display(value)))
    return rows


@register.simple_tag
def card_game(card: Card) -> object:
    """The card's game (its name, whether it is the default, its type labels)."""
    return game_get(card.game)


@register.filter
def type_label(card: Card) -> str:
    game = game_get(card.game)
    if game.default:
        return str(card.get_type_display())  # the model's choices, translated
    return next((t.label for t in game.card_types if t.key == card.type), card.type)


@register.simple_tag
def card_face(card: Card | None, facts: Any = None, facts_game: Any = None) -> CardFace:
    """The fields of another game's card face (templates/cards/_card_face.html), labelled by its game's data:
    the card's, or with no card (a deck line's peek) its CardFacts' in `facts_game` (a GameDefinition), no query."""
    if card:
        return card_face_facts(card=card, type_label=type_label(card))
    return card_face_of(
        game=facts_game,
        name=facts.name,
        card_type=facts.type,
        fields=facts.fields,
        type_label=facts_game.type_label(facts.type),
    )


@register.simple_tag
def face_game(card: Card | None, facts_game: Any = None) -> object:
    """The game whose face _card_face.html draws: the card's, else `facts_game` (a line's), else the default game."""
    if card:
        return game_get(card.game)
    return facts_game or game_get(default_game_slug())


@dataclass(frozen=True)
class GateRulerFace:
    """What a Gate Ruler face shows; its faction's slug colours it."""

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


@register.simple_tag
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
        type_label=type_label(card) if card is not None else str(CardType(facts.type).label),
        level=subject.level,
        cnt=subject.cnt,
        legend=subject.legend,
        slug=slug or "none",
        faction=name,
        attributes=attributes,
        stats=stats,
    )
