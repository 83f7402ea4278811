"""PURE: the characters that make a text display as something it is not.

One check for every text people type or import: a deck's name, description and tags
(decks.limits) and every text field of a card set file (cards.importers.parsing). It lives in
cards because the catalog sits below the decks: both may import it, cards never imports decks.
"""

from __future__ import annotations

import re
import unicodedata

# Bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069, U+061C) and
# zero-width or invisible formatting characters (U+200B-U+200F, U+2060-U+2064, U+FEFF, U+180E):
# a deck named "\u202egnirts" reads backwards, "Ember\u200b Rush" passes for another deck's name.
_SPOOFING = re.compile("[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


# A match of the first such character of a text, or None: what a hot loop calls (one C call).
spoofing_search = _SPOOFING.search


def spoofing_character(text: str) -> str | None:
    """The first character of `text` that changes how it displays, or None when there is none."""
    match = _SPOOFING.search(text)
    return None if match is None else match.group()


def code_point_label(char: str) -> str:
    """A character as people can look it up: "U+202E RIGHT-TO-LEFT OVERRIDE"."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X} {name}" if name else f"U+{ord(char):04X}"
