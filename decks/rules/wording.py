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

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType


def gettext_noop(template: str) -> str:
    """Mark a string for translation without translating it (the engine has no language)."""
    return template


def english(value: object) -> str:
    """A value as the English text shows it: a list of names (a tuple) joined with commas."""
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


# Wordings made before, by template and values: the editor judges a deck once for each card its browser
# shows, making the same few messages (the deck's size, a rule's source) dozens of times per change.
# A Wording never changes once made, so the one made first serves again. Bounded: cleared when full.
MAX_REMEMBERED = 10_000
_made: dict[tuple[str, tuple[tuple[str, object], ...]], Wording] = {}


def _identity(value: object) -> object:
    """A value as part of a Wording's key: a nested Wording by its template and values, not its English text
    (two wordings of one English text could read differently in another language)."""
    if isinstance(value, Wording):
        return (Wording, value.template, tuple((k, _identity(v)) for k, v in value.values.items()))
    if isinstance(value, tuple):
        return tuple(_identity(v) for v in value)
    if isinstance(value, Label):
        return (Label, value.key)
    # By type too: 1, 1.0 and True are equal keys but read "1", "1.0" and "True".
    return value if type(value) is str else (type(value), value)


_PLAIN = frozenset({str, int})


def _plain(values: Mapping[str, object]) -> bool:
    """Whether every value is a str, an int (not a bool) or a tuple of strs (names), each exactly."""
    types = set(map(type, values.values()))
    if types <= _PLAIN:
        return True
    if types - _PLAIN != {tuple}:
        return False
    return all(type(v) is not tuple or _STR.issuperset(map(type, v)) for v in values.values())


_STR = frozenset({str})


class Wording(str):
    """A message template (marked with gettext_noop) and the values it is filled with; its str is the English text."""

    template: str
    values: Mapping[str, object]

    def __new__(cls, template: str, values: Mapping[str, object] | None = None) -> Wording:
        key = None
        if values and cls is Wording:
            if _plain(values):
                # Only strs, ints and tuples of strs (no bool, no Wording): the values are their own
                # identity. This quick key (most wordings, and most of a change's ~200) cannot be
                # mistaken for the other's, which wraps every value but a str.
                key = (template, tuple(values.items()))
                made = _made.get(key)
            else:
                try:
                    key = (template, tuple((k, _identity(v)) for k, v in values.items()))
                    made = _made.get(key)
                except TypeError:  # a value that cannot be a key (a list): made afresh
                    key = made = None
            if made is not None:
                return made
        values = MappingProxyType(dict(values or {}))
        if not values:
            text = template
        elif any(isinstance(v, tuple) for v in values.values()):
            text = template % {k: english(v) for k, v in values.items()}
        else:
            # `%(name)s` shows str(value), which is english(value) for anything but a tuple.
            text = template % values
        self = super().__new__(cls, text)
        self.template = template
        self.values = values
        if key is not None:
            if len(_made) >= MAX_REMEMBERED:
                _made.clear()
            _made[key] = self
        return self

    def __reduce__(self) -> tuple[object, ...]:
        # Pickled (cached reports) as its template and values, not as the plain English text.
        return (Wording, (self.template, dict(self.values)))


class Label(str):
    """A word the game's data gives per language (a section's, a card type's, a colour's label; an assumption;
    a rule's source): its str is the English text, `texts` every language's, by language code ("en", "ja").

    Like a Wording it *is* its English text, so the engine compares, sorts and joins it as before; the
    Django side (decks/wording.py) shows it in the player's language. A language the data does not
    give reads the English text.
    """

    texts: Mapping[str, str]
    # Every language's text, in a fixed order: what tells two Labels of the same English text apart.
    key: tuple[tuple[str, str], ...]

    def __new__(cls, texts: Mapping[str, str]) -> Label:
        if not isinstance(texts.get("en"), str):
            raise ValueError(f"a label needs its English text ('en'), got {dict(texts)!r}")
        self = super().__new__(cls, texts["en"])
        self.texts = MappingProxyType(dict(texts))
        self.key = tuple(sorted(self.texts.items()))
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return (Label, (dict(self.texts),))

    def in_language(self, language: str) -> str:
        """The text in `language` (a code such as "ja"), the English text where the data gives none."""
        return self.texts.get(language) or self.texts["en"]

    def mapped(self, english: Callable[[str], str]) -> Label:
        """A Label made from this one, its English text changed by `english` (the other languages' as they are)."""
        return Label({**self.texts, "en": english(self.texts["en"])})


def plain_label(text: str) -> Label:
    """A label given in English only (a game file's plain string)."""
    return Label({"en": text})


def lower_case(label: str) -> str:
    """A label as a sentence's English shows it ("colour", not "Colour"); other languages' texts unchanged."""
    if isinstance(label, Label):
        return label.mapped(str.lower)
    return label.lower()


def either(items: Sequence[str]) -> str:
    """Items as "A or B" ("A, B or C"), each worded in the player's language (a label, a name)."""
    if len(items) == 1:
        return items[0]
    return Wording(gettext_noop("%(items)s or %(last)s"), {"items": tuple(items[:-1]), "last": items[-1]})


def chained(template: str, items: Sequence[str]) -> str:
    """Items joined two by two by a template of %(first)s and %(rest)s ("%(first)s; %(rest)s"), so a language
    joins them its own way; one item as it is."""
    joined = items[0]
    for item in items[1:]:
        joined = Wording(template, {"first": joined, "rest": item})
    return joined


def labels_joined(separator: str, labels: Sequence[str]) -> Label:
    """Labels (or plain keys) joined by a mark that reads the same in every language ("red/green")."""
    shown = [label if isinstance(label, Label) else plain_label(label) for label in labels]
    languages = {"en"}.union(*(label.texts for label in shown))
    return Label({language: separator.join(label.in_language(language) for label in shown) for language in languages})
