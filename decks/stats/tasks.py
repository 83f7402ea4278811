"""Celery tasks of statistics: thin wrappers over decks.stats.services.

The task names keep their "decks." prefix from before statistics was its own app: beat
schedules (settings, django_celery_beat rows) and messages already queued name them so.
Every task is idempotent (a recompute from source rows, a log row whose duplicate is harmless),
hence acks_late: a redelivered message after a worker died just does the work again.
"""

from __future__ import annotations

from celery import shared_task


@shared_task(name="decks.statistics_recompute", acks_late=True)
def statistics_recompute(trigger: str = "schedule") -> int | None:
    """Recompute every statistic (beat: nightly; admins: "Recompute statistics now"); the run id."""
    from .services import statistics_recompute as recompute

    run = recompute(trigger=trigger)
    return run.pk if run else None


@shared_task(name="decks.statistics_refresh_if_stale", acks_late=True)
def statistics_refresh_if_stale() -> int | None:
    """Beat, every few minutes: recompute only if a public deck changed since the last run."""
    from .services import statistics_refresh_if_stale as refresh

    run = refresh()
    return run.pk if run else None


@shared_task(name="decks.statistics_deck_changed", acks_late=True)
def statistics_deck_changed(deck_id: int) -> None:
    """After a public deck's save commits: the figures are stale (see decks.stats.services)."""
    from .services import statistics_change_record

    statistics_change_record(deck_id=deck_id)
