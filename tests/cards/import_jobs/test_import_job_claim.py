from __future__ import annotations

import datetime
import threading

import pytest
from django.db import connection
from django.utils import timezone

from cards.import_jobs import (
    ImportJobLeaseLostError,
    _import_job_succeed,
    _JobProgress,
    import_job_claim,
    import_job_execute,
)
from cards.import_plan import catalog_plan
from cards.models import Card, ImportJob
from tests.cards.factories import ImportJobFactory, card_row, set_file

pytestmark = pytest.mark.django_db


def stale(**kwargs: object) -> ImportJob:
    """A job whose worker stopped: running, last heartbeat longer ago than the lease."""
    long_ago = timezone.now() - ImportJob.LEASE - datetime.timedelta(minutes=1)
    values = {"status": ImportJob.Status.RUNNING, "heartbeat_at": long_ago, "started_at": long_ago, "attempts": 1}
    return ImportJobFactory(**{**values, **kwargs})


def test_it_claims_a_queued_job_once():
    job = ImportJobFactory()

    first = import_job_claim(job_id=job.pk, task_id="task-1")
    second = import_job_claim(job_id=job.pk, task_id="task-2")

    assert first is not None
    assert (first.status, first.attempts, first.celery_task_id) == (ImportJob.Status.RUNNING, 1, "task-1")
    assert first.heartbeat_at is not None
    assert second is None  # another worker or a redelivered message got here first


@pytest.mark.parametrize("status", [ImportJob.Status.SUCCEEDED, ImportJob.Status.FAILED])
def test_it_never_claims_a_finished_job(status):
    job = ImportJobFactory(status=status, attempts=1)

    assert import_job_claim(job_id=job.pk) is None
    job.refresh_from_db()
    assert (job.status, job.attempts) == (status, 1)


def test_it_leaves_a_running_job_with_a_fresh_heartbeat_alone():
    job = ImportJobFactory(status=ImportJob.Status.RUNNING, heartbeat_at=timezone.now(), attempts=1)

    assert import_job_claim(job_id=job.pk) is None


def test_it_retakes_a_stale_running_job_and_runs_it_to_success():
    job = stale(file_content=set_file(card_row(1)))

    finished = import_job_execute(job_id=job.pk)

    assert finished is not None
    assert (finished.status, finished.attempts) == (ImportJob.Status.SUCCEEDED, 2)
    assert Card.objects.filter(name="Card 1").exists()


def test_it_fails_a_stale_job_out_of_attempts_with_the_reason():
    job = stale(attempts=ImportJob.MAX_ATTEMPTS)

    assert import_job_claim(job_id=job.pk) is None

    job.refresh_from_db()
    assert job.status == ImportJob.Status.FAILED
    assert f"Attempt {ImportJob.MAX_ATTEMPTS} of {ImportJob.MAX_ATTEMPTS}: the worker stopped responding" in job.error
    assert job.finished_at is not None


def test_it_stops_an_old_attempt_from_writing_after_its_job_was_retaken():
    job = stale()
    import_job_claim(job_id=job.pk)  # attempt 2 owns it now
    plan = catalog_plan(files=[])

    with pytest.raises(ImportJobLeaseLostError):
        _JobProgress(job.pk, 1)(1, 10)
    with pytest.raises(ImportJobLeaseLostError):
        _import_job_succeed(job.pk, 1, plan.result(dry_run=False), rows=0)

    job.refresh_from_db()
    assert (job.status, job.attempts) == (ImportJob.Status.RUNNING, 2)


@pytest.mark.django_db(transaction=True)
def test_it_lets_exactly_one_of_two_racing_workers_claim_a_job():
    if connection.vendor == "sqlite":
        pytest.skip("an in-memory SQLite test database does not take concurrent writers; the CI runs PostgreSQL")
    job = ImportJobFactory()
    barrier = threading.Barrier(2)
    claims: list[ImportJob | None] = []

    def worker() -> None:
        try:
            barrier.wait(timeout=10)
            claims.append(import_job_claim(job_id=job.pk))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert len(claims) == 2
    assert len([c for c in claims if c is not None]) == 1
    job.refresh_from_db()
    assert (job.status, job.attempts) == (ImportJob.Status.RUNNING, 1)
