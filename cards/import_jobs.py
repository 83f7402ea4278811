"""Import jobs: an uploaded (or command-line) set file queued, claimed by one worker, run, and reaped if its worker dies.

The job row is the only state shared between the web process, the workers and the command:
a conditional UPDATE claims it, a heartbeat keeps the lease, and the attempt number fences
off a worker that lost it. The catalog writes themselves are cards.services'.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from datetime import date, datetime
from pathlib import PurePath
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.files.base import File
from django.db import DatabaseError, connection, transaction
from django.db.models import F, Q
from django.template.defaultfilters import filesizeformat
from django.utils import timezone

from gatesite.outbox.services import task_send_on_commit

from .import_plan import ImportResult, Progress, catalog_plan
from .importers.parsing import check_file_content, parse_card_file
from .importers.records import ImportFileError, ParsedFile, RowError
from .models import ImportJob, ImportJobFile
from .services import catalog_apply_locked, catalog_plan_only_new

logger = logging.getLogger(__name__)

# Bad rows kept in a job's error report; the message says how many there were.
ERROR_REPORT_LIMIT = 1000
# Seconds between progress writes (they double as the job's heartbeat).
PROGRESS_EVERY = 0.5
# Seconds between the heartbeats a running job's own thread writes, whatever the job is doing
# (waiting for the catalog lock, writing): a sixth of ImportJob.LEASE.
HEARTBEAT_EVERY = 10.0


class ImportJobLeaseLostError(Exception):
    """This worker's claim on the job is gone (stale and taken by another attempt, or failed)."""


def import_job_create(
    *,
    file: bytes | File,
    file_name: str,
    user: Any = None,
    dry_run: bool = False,
    errata_effective_date: date | None = None,
) -> ImportJob:
    """Check an uploaded set file, store it in a queued job and enqueue the job once committed.

    Refuses (ImportFileError) a file over settings.IMPORT_MAX_BYTES, with another extension
    than .json/.csv, empty, binary or not UTF-8; its rows are checked when the job runs.
    """
    limit: int = settings.IMPORT_MAX_BYTES
    size = len(file) if isinstance(file, bytes) else file.size
    if size is not None and size > limit:
        raise ImportFileError([_too_big(file_name, size, limit)])
    if isinstance(file, bytes):
        content = file
    else:
        file.seek(0)
        content = b"".join(file.chunks())
    if len(content) > limit:  # a size the upload did not tell
        raise ImportFileError([_too_big(file_name, len(content), limit)])
    errors = check_file_content(file_name, content)
    if errors:
        raise ImportFileError(errors)
    job = ImportJob.objects.create(
        created_by=user if user is not None and user.is_authenticated else None,
        file_name=file_name[:255],
        file_sha256=hashlib.sha256(content).hexdigest(),
        file_size=len(content),
        file_content=content,
        dry_run=dry_run,
        errata_effective_date=errata_effective_date,
    )
    _import_job_enqueue(job.pk)
    return job


@transaction.atomic
def import_job_create_for_files(
    *, files: Sequence[tuple[str, bytes]], dry_run: bool = False, only_new: bool = False, enqueue: bool = True
) -> ImportJob:
    """Store set files read on this machine (manage.py import_cards) in one queued job: imported together, all or nothing.

    The files keep the names given (error messages name them); the job's file fields describe
    them all. No size limit: IMPORT_MAX_BYTES guards uploads through the admin. `only_new`
    adds only what the catalog lacks (cards.services.catalog_plan_only_new). With
    `enqueue=False` the caller runs the job itself (import_job_execute, in-process); if it
    dies, import_jobs_reap hands the job to a worker like any other.
    """
    errors = [error for name, content in files for error in check_file_content(name, content)]
    if errors:
        raise ImportFileError(errors)
    checksum = hashlib.sha256()
    for _, content in files:  # one file's checksum is the admin upload's, so the two can be compared
        checksum.update(content)
    job = ImportJob.objects.create(
        file_name=_files_label([name for name, _ in files]),
        file_sha256=checksum.hexdigest(),
        file_size=sum(len(content) for _, content in files),
        file_content=b"",
        dry_run=dry_run,
        only_new=only_new,
    )
    ImportJobFile.objects.bulk_create(
        ImportJobFile(job=job, position=position, name=name, content=content)
        for position, (name, content) in enumerate(files)
    )
    if enqueue:
        _import_job_enqueue(job.pk)
    return job


def _files_label(names: list[str]) -> str:
    label = ", ".join(PurePath(name).name for name in names)
    return label if len(label) <= 255 else label[:254] + "…"


def _too_big(file_name: str, size: int, limit: int) -> RowError:
    def show(n: int) -> str:
        return filesizeformat(n).replace("\xa0", " ")

    return RowError(file_name, "", None, f"the file is {show(size)}; the limit is {show(limit)}")


def import_job_claim(*, job_id: int, task_id: str = "") -> ImportJob | None:
    """Take a queued job, or a running one whose worker stopped (stale heartbeat); None if not ours."""
    now = timezone.now()
    claimable = Q(status=ImportJob.Status.QUEUED) | Q(
        status=ImportJob.Status.RUNNING,
        heartbeat_at__lt=now - ImportJob.LEASE,
        attempts__lt=ImportJob.MAX_ATTEMPTS,
    )
    # A conditional UPDATE: if it changes no row, another worker or a redelivered message
    # got here first (or the job is done). Taking a stale job bumps attempts, which fences
    # off the old attempt's writes.
    claimed = ImportJob.objects.filter(claimable, pk=job_id).update(
        status=ImportJob.Status.RUNNING,
        attempts=F("attempts") + 1,
        started_at=now,
        heartbeat_at=now,
        finished_at=None,
        rows_done=0,
        error="",
        error_report=[],
        celery_task_id=task_id[:255],
    )
    if claimed != 1:
        _import_job_fail_if_exhausted(job_id=job_id, now=now)
        return None
    return ImportJob.objects.get(pk=job_id)


def import_job_execute(*, job_id: int, task_id: str = "", progress: Progress | None = None) -> ImportJob | None:
    """Run a queued import job; None when it was not ours to run (see import_job_claim).

    1. Claim the job (conditional UPDATE).
    2. Parse the stored file(s): every bad row is reported and the job fails, nothing written.
    3. Plan against the catalog, writing progress (rows done / total) and the heartbeat
       to the job row as it goes: autocommitted, outside any write transaction. `progress`,
       if given, is told too (the command's progress bar).
    4. A dry run stores the diff and ends. An apply writes the catalog changes, the errata
       and the job's final status in one transaction: a worker killed mid-import leaves the
       catalog as it was, and the job is retried or failed once its heartbeat goes stale.
    Any other error fails the job with the reason; nothing of it is written either.
    """
    job = import_job_claim(job_id=job_id, task_id=task_id)
    if job is None:
        return None
    attempt = job.attempts
    try:
        with _Heartbeat(job_id, attempt):
            _import_job_run(job, _JobProgress(job_id, attempt, also=progress))
    except ImportJobLeaseLostError:
        logger.warning("Import job %s: attempt %s lost its lease; its work was discarded.", job_id, attempt)
        return None
    except ImportFileError as exc:
        _import_job_fail(job_id, attempt, error=f"Nothing imported.\n{exc.message}", report=exc.errors)
    except SoftTimeLimitExceeded:
        limit = settings.CELERY_TASK_SOFT_TIME_LIMIT
        _import_job_fail(
            job_id, attempt, error=f"The import took longer than {limit} s and was stopped; nothing imported."
        )
    except Exception as exc:
        logger.exception("Import job %s failed", job_id)
        _import_job_fail(job_id, attempt, error=f"Nothing imported: {type(exc).__name__}: {exc}")
    return ImportJob.objects.defer("file_content").get(pk=job_id)


def _import_job_run(job: ImportJob, progress: _JobProgress) -> None:
    """Steps 2-4 of import_job_execute for a claimed job; raises what import_job_execute records."""
    parsed = _import_job_files_parse(job)
    plan = catalog_plan(files=parsed, progress=progress)
    if job.only_new:
        catalog_plan_only_new(plan)
    rows = len(plan.printings)
    if job.dry_run or plan.is_empty:
        _import_job_succeed(job.pk, job.attempts, plan.result(dry_run=job.dry_run), rows=rows)
        return
    with transaction.atomic():
        result = catalog_apply_locked(
            files=parsed, errata_effective_date=job.errata_effective_date, job_id=job.pk, only_new=job.only_new
        )
        # Inside the transaction: if the lease was lost, this raises and rolls back.
        _import_job_succeed(job.pk, job.attempts, result, rows=rows)


def _import_job_files_parse(job: ImportJob) -> list[ParsedFile]:
    """The job's files parsed (its ImportJobFile rows in order, else its own file); ImportFileError lists every bad row."""
    stored = ImportJobFile.objects.filter(job_id=job.pk).order_by("position").values_list("name", "content")
    files = [(name, bytes(content)) for name, content in stored] or [(job.file_name, bytes(job.file_content))]
    job.file_content = b""  # the records are all we keep
    parsed: list[ParsedFile] = []
    errors: list[RowError] = []
    for name, content in files:
        try:
            parsed.append(parse_card_file(name, content))
        except ImportFileError as exc:
            errors.extend(exc.errors)
    if errors:
        raise ImportFileError(errors)
    return parsed


def import_jobs_reap(*, now: datetime | None = None) -> dict[str, int]:
    """Never stuck: retry or fail running jobs whose worker stopped, resend queued jobs whose message was lost.

    A running job with no heartbeat for ImportJob.LEASE goes back to the queue (another
    attempt) or, after ImportJob.MAX_ATTEMPTS, fails with the reason. Its catalog writes, if
    any were under way, were rolled back with its transaction.
    """
    now = now or timezone.now()
    stale = now - ImportJob.LEASE
    counts = {"requeued": 0, "failed": 0, "resent": 0}
    running = ImportJob.objects.filter(status=ImportJob.Status.RUNNING, heartbeat_at__lt=stale)
    for pk, attempts, heartbeat_at, recoveries in running.values_list("pk", "attempts", "heartbeat_at", "recoveries"):
        if attempts >= ImportJob.MAX_ATTEMPTS:
            counts["failed"] += _import_job_fail_if_exhausted(job_id=pk, now=now)
            continue
        # Conditional on the heartbeat seen: a worker that just woke up keeps its job.
        requeued = ImportJob.objects.filter(pk=pk, status=ImportJob.Status.RUNNING, heartbeat_at=heartbeat_at).update(
            status=ImportJob.Status.QUEUED,
            heartbeat_at=now,
            error=_stopped_message(attempts, heartbeat_at) + " Retrying.",
            recoveries=[*recoveries, _recovery(attempts, heartbeat_at, now, "retried")],
        )
        if requeued:
            counts["requeued"] += 1
            _import_job_enqueue(pk)
    # Queued for a whole lease without a worker taking it: the message may be lost. Resending
    # is harmless (the claim lets one run through) and bumping heartbeat_at limits it to once a lease.
    lost = ImportJob.objects.filter(status=ImportJob.Status.QUEUED).filter(
        Q(heartbeat_at__lt=stale) | Q(heartbeat_at__isnull=True, created_at__lt=stale)
    )
    for pk in lost.values_list("pk", flat=True):
        if ImportJob.objects.filter(pk=pk, status=ImportJob.Status.QUEUED).update(heartbeat_at=now):
            counts["resent"] += 1
            _import_job_enqueue(pk)
    return counts


def _import_job_enqueue(job_id: int) -> None:
    """Send the job to a worker after commit (a worker never looks for a row not there yet); with the broker
    down it waits in the outbox (gatesite.outbox) and is sent when the broker is back."""
    from .tasks import import_job_run

    task_send_on_commit(import_job_run, job_id=job_id)


def _stopped_message(attempt: int, heartbeat_at: datetime | None) -> str:
    since = f" since {heartbeat_at:%Y-%m-%d %H:%M:%S} UTC" if heartbeat_at else ""
    return f"Attempt {attempt} of {ImportJob.MAX_ATTEMPTS}: the worker stopped responding (no heartbeat{since})."


def _import_job_fail_if_exhausted(*, job_id: int, now: datetime) -> int:
    """A stale running job out of attempts fails with the reason; 1 if it did."""
    job = (
        ImportJob.objects.filter(
            pk=job_id,
            status=ImportJob.Status.RUNNING,
            heartbeat_at__lt=now - ImportJob.LEASE,
            attempts__gte=ImportJob.MAX_ATTEMPTS,
        )
        .values("attempts", "heartbeat_at", "recoveries")
        .first()
    )
    if job is None:
        return 0
    return ImportJob.objects.filter(
        pk=job_id, status=ImportJob.Status.RUNNING, attempts=job["attempts"], heartbeat_at=job["heartbeat_at"]
    ).update(
        status=ImportJob.Status.FAILED,
        finished_at=now,
        error=_stopped_message(job["attempts"], job["heartbeat_at"]) + " Nothing imported.",
        recoveries=[*job["recoveries"], _recovery(job["attempts"], job["heartbeat_at"], now, "failed")],
    )


def _recovery(attempt: int, heartbeat_at: datetime | None, now: datetime, outcome: str) -> dict[str, Any]:
    """One entry of ImportJob.recoveries: which attempt's worker stopped, when it was last heard of and found out."""
    return {
        "attempt": attempt,
        "heartbeat_at": heartbeat_at.isoformat() if heartbeat_at else None,
        "detected_at": now.isoformat(),
        "outcome": outcome,
    }


def _import_job_succeed(job_id: int, attempt: int, result: ImportResult, *, rows: int) -> None:
    now = timezone.now()
    updated = ImportJob.objects.filter(pk=job_id, status=ImportJob.Status.RUNNING, attempts=attempt).update(
        status=ImportJob.Status.SUCCEEDED,
        counts={**result.counts(), "errata": result.errata, "kept_existing": result.kept_existing},
        diff=result.diff,
        rows_total=rows,
        rows_done=rows,
        finished_at=now,
        heartbeat_at=now,
    )
    if updated != 1:
        raise ImportJobLeaseLostError(job_id)


def _import_job_fail(job_id: int, attempt: int, *, error: str, report: Iterable[RowError] = ()) -> None:
    errors = list(report)
    now = timezone.now()
    ImportJob.objects.filter(pk=job_id, status=ImportJob.Status.RUNNING, attempts=attempt).update(
        status=ImportJob.Status.FAILED,
        error=error,
        error_report=[asdict(e) for e in errors[:ERROR_REPORT_LIMIT]],
        counts={"bad_rows": len(errors)} if errors else {},
        finished_at=now,
        heartbeat_at=now,
    )


class _JobProgress:
    """Writes rows done / total and the heartbeat to the job row, at most every PROGRESS_EVERY seconds.

    `also` (a progress bar) is told of every step, before the throttle.
    """

    def __init__(self, job_id: int, attempt: int, *, also: Progress | None = None) -> None:
        self.job_id = job_id
        self.attempt = attempt
        self.also = also
        self.last = float("-inf")

    def __call__(self, done: int, total: int) -> None:
        if self.also is not None:
            self.also(done, total)
        now = time.monotonic()
        if 0 < done < total and now - self.last < PROGRESS_EVERY:
            return
        self.last = now
        updated = ImportJob.objects.filter(
            pk=self.job_id, status=ImportJob.Status.RUNNING, attempts=self.attempt
        ).update(rows_done=done, rows_total=total, heartbeat_at=timezone.now())
        if updated != 1:  # the job was failed or retaken meanwhile: stop working on it
            raise ImportJobLeaseLostError(self.job_id)


class _Heartbeat:
    """Bumps a running job's heartbeat every HEARTBEAT_EVERY seconds from a thread, while the job runs.

    Progress writes stop while the job waits for the catalog lock or writes in its (long)
    transaction; this thread keeps the lease meanwhile, on a connection of its own, so the
    job's lease can be short and a killed worker's job is found within ImportJob.LEASE. Off
    on SQLite: one writer at a time (the import's transaction holds it), and no separate
    worker process there anyway (tasks run eagerly).
    """

    def __init__(self, job_id: int, attempt: int, *, every: float | None = None, enabled: bool | None = None) -> None:
        self.job_id = job_id
        self.attempt = attempt
        self.every = HEARTBEAT_EVERY if every is None else every
        self.enabled = connection.vendor != "sqlite" if enabled is None else enabled
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def beat(self) -> bool:
        """One heartbeat, fenced by the attempt; False once the job is no longer this attempt's."""
        return (
            ImportJob.objects.filter(pk=self.job_id, status=ImportJob.Status.RUNNING, attempts=self.attempt).update(
                heartbeat_at=timezone.now()
            )
            == 1
        )

    def _run(self) -> None:
        try:
            while not self._stop.wait(self.every):
                try:
                    if not self.beat():
                        return  # finished, failed or taken over: nothing left to keep alive
                except DatabaseError:
                    # A missed beat is fine (the lease allows several); the next one tries again.
                    logger.warning("Import job %s: heartbeat failed", self.job_id, exc_info=True)
        finally:
            connection.close()  # this thread's own connection

    def __enter__(self) -> _Heartbeat:
        if self.enabled:
            self._thread = threading.Thread(target=self._run, name=f"import-job-{self.job_id}-heartbeat", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
