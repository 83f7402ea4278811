"""How the decks react to what the catalog announces (cards.signals, cards.card_page); connected in DecksConfig.ready().

The catalog sits below the decks and never imports them: it sends rules_changed and
cards_changed after commit, and these receivers queue the re-judging of exactly the decks
the change affects (decks.revalidation). The card page's "In public decks" section is the
statistics' contribution to a page the catalog owns.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from cards.card_page import CardPageSection
from cards.models import Card


def revalidate_on_rules_changed(
    sender: object, *, ruler_ids: frozenset[int], geas_ids: frozenset[int], since: date | None, **kwargs: Any
) -> None:
    """Re-judge the decks of the rulers and geases whose rules changed (a Celery job)."""
    from .revalidation import decks_revalidate_enqueue

    decks_revalidate_enqueue(ruler_ids=ruler_ids, geas_ids=geas_ids, since=since)


def revalidate_on_cards_changed(sender: object, *, card_ids: frozenset[int], since: date | None, **kwargs: Any) -> None:
    """Re-judge the decks playing the cards whose rules fields changed (a Celery job)."""
    from .revalidation import decks_revalidate_enqueue

    decks_revalidate_enqueue(card_ids=card_ids, since=since)


def card_page_statistics(card: Card) -> CardPageSection:
    """The card page's "In public decks" section: inclusion overall and per ruler, and partners by lift."""
    from .statistics import card_statistics

    return CardPageSection("stats/_card_statistics.html", {"stats": card_statistics(card=card)})
