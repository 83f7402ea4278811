from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from cards.card_face import card_fact_rows, card_type_label, face_of
from cards.card_page import CardPageSection
from cards.names import script_language

register = template.Library()


@register.simple_tag(takes_context=True)
def card_page_section(context: template.Context, section: CardPageSection) -> SafeString:
    """Render a registered section (cards.card_page) as if its template were included here with its context."""
    with context.push(**section.context):
        rendered: SafeString = context.template.engine.get_template(section.template).render(context)
    return rendered


# A card of any game: its face (_card_face.html), the card page's rows of facts, its type in words.
register.simple_tag(face_of)
register.simple_tag(card_fact_rows)
register.filter("type_label", card_type_label)
# The language a card's text is written in ("ja" or "en"), for its lang attribute.
register.filter("text_lang", script_language)
