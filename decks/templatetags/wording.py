"""`{{ violation|worded }}`: an engine message, hint or label in the player's language (decks/wording.py)."""

from __future__ import annotations

from django import template

from decks.wording import game_name, word, word_stored

register = template.Library()

register.filter("worded", word)
register.filter("game_name", game_name)
# A saved deck's verdict reason: English text, worded again from the engine template it matches.
register.filter("stored_worded", word_stored)
