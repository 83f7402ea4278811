"""The engine's words in the player's language: one place that words a Wording.

The engine (decks/rules/) stays free of Django: each message, hint and label it returns is a
Wording (decks/rules/wording.py), a str in English that keeps its template and values. Here the
template is translated with the active language's catalog (locale/), then filled: the names of
rulers, factions and cards in the values are shown in Japanese where the catalog has them
(cards.names), lists are joined the language's way, and Wordings nested in the values (a
source's field name, a card pool's parts) are worded the same way.
"""

from __future__ import annotations

from django.utils.translation import get_language, gettext, pgettext

from cards.names import active_language, label_text, localized_name
from decks.rules.types import Violation
from decks.rules.wording import Label, Wording
from decks.stored_wording import stored_wording

# The values that hold a game name (a ruler's, a geas's, a faction's or a card's), or a list of them.
NAME_KEYS = frozenset({"ruler", "who", "geas", "faction", "factions", "name", "cards"})


def word(text: object) -> str:
    """A message, hint, label or violation in the active language (plain strings through gettext)."""
    if isinstance(text, Violation):
        text = text.wording if text.wording is not None else text.message
    if isinstance(text, Label):
        # The game's data words it per language (data/games/*.json): no catalog.
        return label_text(text)
    if isinstance(text, Wording):
        if _english():
            # The engine words in English already: its templates are the msgids (English has no catalog,
            # locale/ holds ja only), its names the English ones. The panels word dozens per change.
            return str.__str__(text)
        values = {key: _value(key, value) for key, value in text.values.items()}
        if "nth" in values and "n" in text.values and _japanese():
            # The engine's ordinal is English ("3rd"); a Japanese template counts with the plain number (3 番目).
            values["nth"] = str(text.values["n"])
        return gettext(text.template) % values if values else gettext(text.template)
    if isinstance(text, str):
        return gettext(text) if text else text
    return str(text)


def word_stored(text: str) -> str:
    """A violation message stored in English (a saved deck's verdict reason) in the active language."""
    if not text or not _japanese():
        return text
    wording = stored_wording(text)
    return word(wording) if wording is not None else text


def game_name(name: str) -> str:
    """A game's, ruler's, faction's or card's name in the active language (English when no translation exists); a
    label made of names (a Wording: two factions played together, "All rulers") worded."""
    if isinstance(name, Wording):
        return word(name)
    return localized_name(name)


def worded_list(items: object) -> str:
    """Messages or labels, each worded, joined as the player's language joins a list ("A, B"; Japanese 「A、B」)."""
    return _value("", tuple(items)) if isinstance(items, (list, tuple)) else word(items)


def _value(key: str, value: object) -> str:
    if isinstance(value, (Wording, Label)):
        return word(value)
    if isinstance(value, tuple):
        # Translators: how a list of names is joined ("A, B, C"; Japanese uses 、).
        return pgettext("list separator", ", ").join(_value(key, v) for v in value)
    if key in NAME_KEYS and isinstance(value, str):
        return game_name(value)
    return str(value)


def _japanese() -> bool:
    return active_language() == "ja"


def _english() -> bool:
    """The source language (settings.LANGUAGE_CODE, "en"): gettext gives every template back unchanged."""
    language = get_language()
    return language is None or language == "en" or language.startswith("en-")
