"""What a pasted deck list's line errors say (pure): templates marked for translation, with named
placeholders, worded by `_w` so the page can say them in the player's language (decks.wording)."""

from __future__ import annotations

from decks.rules.wording import Wording, gettext_noop


def _w(template: str, **values: object) -> Wording:
    """A line error's words: English, keeping the template and the values, so the page can word it
    in the player's language (decks.wording)."""
    return Wording(template, values)


# What a line error says (marked for translation; named placeholders, worded by _w).
_TOO_LONG = gettext_noop("The text is longer than %(n)s lines; the rest was not read.")
_NOT_A_HEADING = gettext_noop(
    "“%(heading)s” is not a heading this list knows (Ruler, Geas, Attribute, Rules date, Name, Resources)."
)
_NOT_A_CARD_LINE = gettext_noop("A card line is a count and a card name, like “4 Ember Squire”.")
_NOT_A_CARD = gettext_noop("“%(name)s” is not a card name.")
_BAD_COUNT = gettext_noop("The count must be from 1 to %(max)s, not %(count)s.")
_TOO_MANY_CARDS = gettext_noop("A deck keeps at most %(n)s different cards; this line was left out.")
_TOO_MANY_COPIES = gettext_noop("More than %(max)s copies of “%(name)s” in all; this line was left out.")
_TWICE = gettext_noop("%(heading)s is given twice; the first one counts.")
_NAME_REFUSED = gettext_noop("The name is not read: %(refusal)s")
_NOT_A_DATE = gettext_noop("“%(value)s” is not a date (YYYY-MM-DD).")
_UNKNOWN = {
    "ruler": gettext_noop("“%(value)s” is not a ruler."),
    "geas": gettext_noop("“%(value)s” is not a geas."),
    "attribute": gettext_noop("“%(value)s” is not a unit attribute."),
    "game": gettext_noop("“%(value)s” is not a game this site knows."),
}
# A heading as an error names it, in the player's language ("ルーラー が 2 回あります").
_HEADING_WORDS = {
    "ruler": gettext_noop("Ruler"),
    "geas": gettext_noop("Geas"),
    "attribute": gettext_noop("Attribute"),
    "rules_date": gettext_noop("Rules date"),
    "name": gettext_noop("Name"),
    "game": gettext_noop("Game"),
}
# What a list leaves as the draft has it, when it does not say it ("The list does not say its geas, attribute").
_KEPT = {
    "ruler": gettext_noop("ruler"),
    "geas": gettext_noop("geas"),
    "attribute": gettext_noop("attribute"),
    "rules_date": gettext_noop("rules date"),
}
_NOT_A_SECTION = gettext_noop("“%(heading)s” is not a section of this game's deck lists (%(known)s).")
