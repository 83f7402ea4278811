"""How large a deck may grow, for every entry point (pure, no Django: the share link and text readers use it too).

A deck never needs more than a few hundred cards. Every way a deck comes in (the validate and
deck APIs, an editor change, a pasted list, a share link) refuses a line past these bounds with
a message naming the line, so a session, a row and a judgement stay small.
"""

from __future__ import annotations

# Copies of one printing in one section.
MAX_LINE_COUNT = 99
# Different printings in one section (an API body or link: lines of a section).
MAX_LINES = 300
