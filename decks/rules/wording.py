"""Words the engine says, kept translatable without Django (pure).

The engine words every message in English, but it also keeps the wording's template and its
values, so a caller that knows the player's language (the Django side, decks/wording.py) can word
it again: `gettext(w.template) % w.values`. Templates use named placeholders (`%(size)s`) because
a translation may put the values in another order. `gettext_noop` is only a marker: Django's
`makemessages` (xgettext) finds the strings it wraps and lists them for translators.

A Wording *is* its English text (a str): everything that compared, joined, hashed or showed the
engine's plain English messages, hints and labels keeps doing so unchanged, and only the places
that show a message to a player need to know it can be worded again.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType


def gettext_noop(template: str) -> str:
    """Mark a string for translation without translating it (the engine has no language)."""
    return template


def english(value: object) -> str:
    """A value as the English text shows it: a list of names (a tuple) joined with commas."""
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


class Wording(str):
    """A message template (marked with gettext_noop) and the values it is filled with; its str is the English text."""

    template: str
    values: Mapping[str, object]

    def __new__(cls, template: str, values: Mapping[str, object] | None = None) -> Wording:
        values = MappingProxyType(dict(values or {}))
        if not values:
            text = template
        elif any(isinstance(v, tuple) for v in values.values()):
            text = template % {k: english(v) for k, v in values.items()}
        else:
            # `%(name)s` shows str(value), which is english(value) for anything but a tuple: made often
            # (the editor judges a deck once per card shown), so without a copy of the values.
            text = template % values
        self = super().__new__(cls, text)
        self.template = template
        self.values = values
        return self

    def __reduce__(self) -> tuple[object, ...]:
        # Pickled (cached reports) as its template and values, not as the plain English text.
        return (Wording, (self.template, dict(self.values)))
