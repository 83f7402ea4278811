"""Writes of deck lists: a confirmed pasted list saved over a deck."""

from __future__ import annotations

from decks.models import Deck
from decks.services import deck_update

from .selectors import TextImport


def deck_text_import_save(*, deck: Deck, result: TextImport, base_version: int) -> Deck:
    """Save the draft a confirmed pasted list makes as the deck's next version.

    StaleDeck if the deck was saved since the preview was read (`base_version`); the caller
    shows the preview again against the deck as it is now.
    """
    if result.draft is None or result.state is None:
        raise ValueError("A blocked text import has nothing to save.")
    return deck_update(deck=deck, draft=result.draft, base_version=base_version, judgement=result.state.judgement)
