"""Celery tasks of My decks: thin wrappers over decks.library.services (the names are beat's: keep them)."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="decks.trash_purge", acks_late=True)
def decks_trash_purge() -> int:
    """Beat, daily: delete for good the decks trashed more than 30 days ago; idempotent (a rerun finds none)."""
    from .services import decks_trash_purge as purge

    return purge()
