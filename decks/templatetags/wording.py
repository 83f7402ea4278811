"""`{{ violation|worded }}`: an engine message, hint or label in the player's language (decks/wording.py)."""

from __future__ import annotations

from django import template

from decks.wording import game_name, word

register = template.Library()

register.filter("worded", word)
register.filter("game_name", game_name)
