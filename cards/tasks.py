"""Celery tasks of the card catalog: thin wrappers that call services."""

from __future__ import annotations

from typing import Any

from celery import Task, shared_task


class CardImportRejectedError(Exception):
    """Bad set files, with the message listing every bad row.

    One string argument, so the exception survives Celery's JSON result serialisation
    and is rebuilt as this class by whoever waits on the result.
    """


# Idempotent (an upsert that writes nothing on a second run), hence acks_late.
@shared_task(name="cards.import_files", acks_late=True, bind=True)
def import_files(self: Task, paths: list[str], dry_run: bool = False) -> dict[str, Any]:
    """Import set files (paths as the worker sees them), job-less; see import_files_outcome.

    Kept for bench/import_cards.py, which times the worker on files it wrote; manage.py
    import_cards and the admin both create an ImportJob (cards.import_jobs) instead.
    While it works, the task's state is PROGRESS with {"done", "total"} rows.
    """
    return import_files_outcome(paths=list(paths), dry_run=dry_run, progress=_task_progress(self))


def import_files_outcome(*, paths: list[str], dry_run: bool, progress: Any = None) -> dict[str, Any]:
    """The counts of card_files_import plus "errata", "dry_run" and "diff" (JSON)."""
    from .importers.records import ImportFileError
    from .services import card_files_import

    try:
        result = card_files_import(paths=paths, dry_run=dry_run, progress=progress)
    except ImportFileError as exc:
        # Bad input does not get better on a retry: fail with the readable report.
        raise CardImportRejectedError(exc.message) from None
    return {**result.counts(), "errata": result.errata, "dry_run": result.dry_run, "diff": result.diff}


def _task_progress(task: Task) -> Any:
    """A progress callback publishing the task state, when there is a result backend to read it from."""
    if task.request.id is None or task.request.is_eager:
        return None

    def progress(done: int, total: int) -> None:
        task.update_state(state="PROGRESS", meta={"done": done, "total": total})

    return progress


# Idempotent: the job is claimed with a conditional UPDATE, so a redelivered message (or a
# second worker) finds it taken or finished and does nothing; hence acks_late. Failures are
# recorded on the job by the service, never retried blindly here: a job whose worker died is
# retried (or failed) by import_jobs_reap once its heartbeat is stale.
@shared_task(name="cards.import_job_run", acks_late=True, bind=True)
def import_job_run(self: Task, job_id: int) -> str | None:
    """Run one import job; returns its final status, or None if another worker had it."""
    from .import_jobs import import_job_execute

    job = import_job_execute(job_id=job_id, task_id=self.request.id or "")
    return job.status if job is not None else None


@shared_task(name="cards.import_jobs_reap")
def import_jobs_reap() -> dict[str, int]:
    """Periodic (beat): retry or fail import jobs whose worker stopped; resend lost queued jobs."""
    from .import_jobs import import_jobs_reap as reap

    return reap()
