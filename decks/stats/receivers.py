"""What statistics does when decks announce a change, and its section of the card page (connected in StatsConfig.ready())."""

from __future__ import annotations

from typing import Any

from cards.card_page import CardPageSection
from cards.models import Card
from decks.models import Deck

from .selectors import card_statistics
from .services import statistics_deck_saved


def deck_changed_receive(sender: Any, *, deck: Deck, was_counted: bool = False, **kwargs: Any) -> None:
    """decks.signals.deck_changed: the figures go stale if the deck is, or was, counted in them."""
    statistics_deck_saved(deck=deck, was_counted=was_counted)


def card_page_statistics(card: Card) -> CardPageSection:
    """The card page's "In public decks" section (a hook the catalog's card page asks, cards.card_page)."""
    return CardPageSection("stats/_card_statistics.html", {"stats": card_statistics(card=card)})
