"""What every way a deck comes in must keep (pure, no Django: the share link and text readers use it too).

A deck never needs more than a few hundred cards. Every entry point (the validate and deck APIs,
an editor change, a pasted list, a share link) refuses a line past these bounds with a message
naming the line, so a session, a row and a judgement stay small. And a deck's name, description
and tags refuse the characters that make a text display as something it is not.
"""

from __future__ import annotations

import re

# Copies of one printing in one section.
MAX_LINE_COUNT = 99
# Different printings in one section (an API body or link: lines of a section).
MAX_LINES = 300

# Bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069, U+061C) and
# zero-width or invisible formatting characters (U+200B-U+200F, U+2060-U+2064, U+FEFF, U+180E):
# a deck named "\u202egnirts" reads backwards, "Ember\u200b Rush" passes for another deck's name.
_SPOOFING = re.compile("[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


def spoofing_refusal(text: str) -> str | None:
    """Why `text` may not be a deck's name, description or tag (a character that changes how it
    displays), or None when it may."""
    match = _SPOOFING.search(text)
    if match is None:
        return None
    return f"Invisible or text-direction control characters are not allowed (U+{ord(match.group()):04X})."
