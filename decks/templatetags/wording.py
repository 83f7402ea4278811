"""`{{ violation|worded }}`: an engine message, hint or label in the player's language (decks/wording.py)."""

from __future__ import annotations

from django import template

from cards.names import script_language
from cards.rules_phrases import rules_document, rules_text
from decks.wording import game_name, word, word_stored, worded_list

register = template.Library()

register.filter("worded", word)
register.filter("game_name", game_name)
register.filter("worded_list", worded_list)
# A saved deck's verdict reason: English text, worded again from the engine template it matches.
register.filter("stored_worded", word_stored)
# A text of the rules data (a ruler's zones, setup, deck rules; a geas's changes) in the player's language.
register.filter("rules_text", rules_text)
register.filter("text_lang", script_language)
register.filter("rules_document", rules_document)
