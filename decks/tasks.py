"""Celery tasks of decks: thin wrappers over decks.revalidation (statistics' are in decks.stats.tasks).

Every task is idempotent (a verdict recomputed from the deck), hence acks_late: a redelivered
message after a worker died just does the work again.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from celery import shared_task


@shared_task(name="decks.revalidate", acks_late=True)
def decks_revalidate(
    ruler_ids: list[int] | None = None,
    geas_ids: list[int] | None = None,
    card_ids: list[int] | None = None,
    since: str | None = None,
) -> dict[str, Any]:
    """Re-judge the decks a rules or card change affects; `since` (YYYY-MM-DD) dates new verdicts."""
    from .revalidation import decks_revalidate as revalidate

    result = revalidate(
        ruler_ids=ruler_ids or (),
        geas_ids=geas_ids or (),
        card_ids=card_ids or (),
        since=date.fromisoformat(since) if since else None,
    )
    return result.as_dict()


@shared_task(name="decks.revalidate_revisions_taking_effect", acks_late=True)
def decks_revalidate_revisions_taking_effect() -> dict[str, Any]:
    """Beat, daily: decks judged by today's rules change verdict when a dated revision comes into force."""
    from .revalidation import decks_revalidate_revisions_taking_effect as revalidate

    return revalidate().as_dict()
