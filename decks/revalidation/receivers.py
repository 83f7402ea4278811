"""How revalidation reacts to what the catalog announces (cards.signals); connected in DecksConfig.ready().

The catalog sits below the decks and never imports them: it sends rules_changed and
cards_changed after commit, and these receivers queue the re-judging of exactly the decks
the change affects.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from .services import decks_revalidate_enqueue


def revalidate_on_rules_changed(
    sender: object, *, ruler_ids: frozenset[int], geas_ids: frozenset[int], since: date | None, **kwargs: Any
) -> None:
    """Re-judge the decks of the rulers and geases whose rules changed (a Celery job)."""
    decks_revalidate_enqueue(ruler_ids=ruler_ids, geas_ids=geas_ids, since=since)


def revalidate_on_cards_changed(sender: object, *, card_ids: frozenset[int], since: date | None, **kwargs: Any) -> None:
    """Re-judge the decks playing the cards whose rules fields changed (a Celery job)."""
    decks_revalidate_enqueue(card_ids=card_ids, since=since)
