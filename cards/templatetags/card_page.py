from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from cards.card_face import CardFace, card_face_facts
from cards.card_page import CardPageSection
from cards.games import game_get
from cards.models import Card, field_value_display

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
def card_face(card: Card) -> CardFace:
    """The fields of another game's card face (templates/cards/_card_face.html), labelled by its game's data."""
    return card_face_facts(card=card, type_label=type_label(card))
