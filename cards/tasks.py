"""Celery tasks of the card catalog: thin wrappers that call services."""

from __future__ import annotations

from celery import shared_task


class CardImportRejectedError(Exception):
    """Bad set files, with the message listing every bad row.

    One string argument, so the exception survives Celery's JSON result serialisation
    and is rebuilt as this class by whoever waits on the result.
    """


# Idempotent (an upsert that writes nothing on a second run), hence acks_late.
@shared_task(name="cards.import_files", acks_late=True)
def import_files(paths: list[str]) -> dict[str, int]:
    """Import set files (paths as the worker sees them); returns the counts of card_files_import."""
    from .importers.records import ImportFileError
    from .services import card_files_import

    try:
        result = card_files_import(paths=list(paths))
    except ImportFileError as exc:
        # Bad input does not get better on a retry: fail with the readable report.
        raise CardImportRejectedError(exc.message) from None
    return result.counts()
