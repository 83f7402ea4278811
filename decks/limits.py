"""What every way a deck comes in must keep (pure, no Django: the share link and text readers use it too).

A deck never needs more than a few hundred cards. Every entry point (the validate and deck APIs,
an editor change, a pasted list, a share link) refuses a line past these bounds with a message
naming the line, so a session, a row and a judgement stay small. And a deck's name, description
and tags refuse the characters that make a text display as something it is not.
"""

from __future__ import annotations

from cards.displayed_text import spoofing_character

# Copies of one printing in one section.
MAX_LINE_COUNT = 99
# Different printings in one section (an API body or link: lines of a section).
MAX_LINES = 300


def spoofing_refusal(text: str) -> str | None:
    """Why `text` may not be a deck's name, description or tag (a character that changes how it
    displays, cards.displayed_text), or None when it may."""
    char = spoofing_character(text)
    if char is None:
        return None
    return f"Invisible or text-direction control characters are not allowed (U+{ord(char):04X})."
