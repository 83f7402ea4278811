"""The game's names in Japanese, where the catalog has them: rulers, factions, cards.

Rule messages name rulers, factions and cards in English (the engine's words); shown in
Japanese, each name is looked up here and left in English when no source gives a Japanese
one (never a blank). Read once per catalog token (cards.catalog), only when Japanese is asked for.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable

from django.utils.translation import get_language

from decks.rules.wording import Label

from .catalog import catalog_token
from .models import Card, Faction, Ruler

_lock = threading.Lock()
_remembered: tuple[str, dict[str, str]] | None = None


def japanese_names() -> dict[str, str]:
    """English name -> Japanese name, for every ruler, faction and card that has one."""
    global _remembered
    token = catalog_token()
    remembered = _remembered
    if remembered is not None and remembered[0] == token:
        return remembered[1]
    names: dict[str, str] = {}
    for model in (Card, Faction, Ruler):
        names.update(model.objects.exclude(name_ja="").order_by().values_list("name", "name_ja"))
    with _lock:
        _remembered = (token, names)
    return names


def japanese_name(name: str) -> str:
    """The Japanese name of a ruler, faction or card, or the English name when none is known."""
    return japanese_names().get(name) or name


def localized_name(name: str) -> str:
    """A ruler's, faction's or card's name in the active language (English when no translation exists); a game's
    name (a Label of its data file) as the data gives it in that language."""
    if isinstance(name, Label):
        return label_text(name)
    return japanese_name(name) if active_language() == "ja" else name


def label_text(label: str) -> str:
    """A label of a game's data (a section's, a card type's, a field's: a Label) in the active language; a plain
    string as it is."""
    if isinstance(label, Label):
        return label.in_language(active_language())
    return label


def active_language() -> str:
    """The active language's code without its region ("ja", "en")."""
    return (get_language() or "en").split("-")[0]


# Kana, CJK ideographs and full-width forms: a name written in Japanese.
JAPANESE_SCRIPT = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")


def choice_word(key: str, label: str) -> str:
    """What a search error lists for a choice a player may type: its key in English ("unit"), its label where the
    data gives one in the active language (ユニット; the search reads either)."""
    if isinstance(label, Label) and (language := active_language()) != "en":
        return label.texts.get(language) or key
    return key


def script_language(text: str) -> str:
    """The language a text of the data is written in, by its script: "ja" with any kana or kanji, else "en" (a card's
    text, written in one language by its source: a page marks it so, for screen readers and translators)."""
    # Most texts are ASCII: told by one C-level check, not a scan for kana (once per result row drawn).
    if not text or text.isascii():
        return "en"
    return "ja" if JAPANESE_SCRIPT.search(text) else "en"


def attribute_names_ordered(names: Iterable[str]) -> list[str]:
    """A card's or a list's attribute names, those in the player's language first, each part sorted.

    Attributes have no stored translation: the card files name each one in a single language
    (the practice set and most real cards in English, a few real cards in Japanese, e.g.
    テクノロジー), and no source in data/ or /work/shared/data/ pairs the two. So a list cannot be
    in one language; it reads in the player's language first and ends with the names known
    only in the other, never a guessed translation (docs/design.md, "Attribute names").
    """
    players_ja = active_language() == "ja"
    return sorted(names, key=lambda name: (bool(JAPANESE_SCRIPT.search(name)) != players_ja, name))
