"""What statistics does when decks announce a change (connected in StatsConfig.ready())."""

from __future__ import annotations

from typing import Any

from decks.models import Deck

from .services import statistics_deck_saved


def deck_changed_receive(sender: Any, *, deck: Deck, was_counted: bool = False, **kwargs: Any) -> None:
    """decks.signals.deck_changed: the figures go stale if the deck is, or was, counted in them."""
    statistics_deck_saved(deck=deck, was_counted=was_counted)
