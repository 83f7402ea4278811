"""Fold text so a player finds a card however they type it (pure, no Django).

Full-width and half-width forms are unified (NFKC), case is folded, katakana become
hiragana, and long-vowel marks and middle dots are dropped: 「ドラゴン」, 「どらごん」,
「ﾄﾞﾗｺﾞﾝ」 and 「ド・ラ・ゴ・ン」 all fold to 「どらごん」.
"""

from __future__ import annotations

import unicodedata

_KATAKANA_TO_HIRAGANA = {code: code - 0x60 for code in range(0x30A1, 0x30F7)}
# Dropped: the long-vowel mark, the katakana and Latin middle dots.
_IGNORED = dict.fromkeys(map(ord, "\u30fc\u30fb\u00b7"), None)
# Hyphen look-alikes (as in the Japanese ruler names "D\u20104") become "-".
_HYPHENS = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2212"), "-")


def fold(text: str) -> str:
    """The searchable form of a text: compare folded query against folded card text."""
    if text.isascii():  # most English text: nothing to normalise, and 6x faster
        return text.lower()
    normalized = unicodedata.normalize("NFKC", text).casefold()
    return normalized.translate(_KATAKANA_TO_HIRAGANA).translate(_IGNORED).translate(_HYPHENS)


def card_search_text(*, name: str, name_ja: str, text: str) -> str:
    """What free-text search looks in: English and Japanese names and the card text, folded."""
    return fold("\n".join(part for part in (name, name_ja, text) if part))
