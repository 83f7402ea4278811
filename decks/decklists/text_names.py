"""How a pasted deck list's names are matched (pure): folded aliases to canonical names, and the near miss a
line's "Did you mean …?" offers (in the language the player wrote the name in)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence

from cards.folding import fold

# Closeness (difflib ratio of folded names) from which a name is offered as "Did you mean …?".
SUGGESTION_CUTOFF = 0.6


class Names:
    """Folded aliases → canonical names, with near-miss suggestions."""

    def __init__(self, aliases: Mapping[str, str]) -> None:
        self.by_key: dict[str, str] = {}
        # A Japanese alias as written (a card's Japanese name): the suggestion for a near miss of it.
        self.japanese: dict[str, str] = {}
        for alias, canonical in aliases.items():
            if alias:
                key = name_key(alias)
                self.by_key.setdefault(key, canonical)
                if _JAPANESE.search(alias):
                    self.japanese.setdefault(key, alias)
        self._keys = list(self.by_key)

    def get(self, text: str) -> str | None:
        return self.by_key.get(name_key(text))

    def suggest(self, text: str) -> str | None:
        key = name_key(text)
        if not key:
            return None
        close = difflib.get_close_matches(key, self._keys, n=1, cutoff=SUGGESTION_CUTOFF)
        if not close:
            return None
        # A Japanese name misspelt is answered with that Japanese name, an English one with the canonical name.
        return self.japanese.get(close[0]) or self.by_key[close[0]]


# Kana and kanji: a name written in Japanese.
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00b4": "'", "`": "'"})


def name_key(text: str) -> str:
    """How names are compared: folded (case, width, kana), quotes unified, spaces collapsed."""
    return " ".join(fold(text.translate(_QUOTES)).split())


def suggestions_for(names: Sequence[str], text: str) -> str | None:
    """The known name closest to `text` (the parser's "Did you mean …?"), for callers with a bare list."""
    return Names({n: n for n in names}).suggest(text)
