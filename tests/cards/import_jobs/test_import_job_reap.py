"""import_jobs_reap: no job stays running (or queued) forever."""

from __future__ import annotations

import datetime

import pytest
import time_machine
from django.conf import settings
from django.utils import timezone

from cards.import_jobs import HEARTBEAT_EVERY, import_job_claim, import_jobs_reap
from cards.models import ImportJob
from tests.cards.factories import ImportJobFactory

pytestmark = pytest.mark.django_db

LONG_AGO = datetime.timedelta(minutes=1) + ImportJob.LEASE


@pytest.fixture
def enqueued(monkeypatch):
    sent: list[int] = []
    monkeypatch.setattr("cards.import_jobs.task_send_on_commit", lambda task, *, job_id: sent.append(job_id))
    return sent


def test_it_requeues_a_running_job_whose_worker_stopped(enqueued):
    heartbeat = timezone.now() - LONG_AGO
    job = ImportJobFactory(status=ImportJob.Status.RUNNING, heartbeat_at=heartbeat, attempts=1)

    assert import_jobs_reap() == {"requeued": 1, "failed": 0, "resent": 0}

    job.refresh_from_db()
    assert job.status == ImportJob.Status.QUEUED
    assert job.error.startswith("Attempt 1 of 3: the worker stopped responding (no heartbeat since ")
    assert enqueued == [job.pk]


def test_it_fails_a_stale_job_out_of_attempts(enqueued):
    job = ImportJobFactory(
        status=ImportJob.Status.RUNNING, heartbeat_at=timezone.now() - LONG_AGO, attempts=ImportJob.MAX_ATTEMPTS
    )

    assert import_jobs_reap() == {"requeued": 0, "failed": 1, "resent": 0}

    job.refresh_from_db()
    assert job.status == ImportJob.Status.FAILED
    assert job.error.endswith("Nothing imported.")
    assert enqueued == []


def test_it_leaves_live_and_finished_jobs_alone(enqueued):
    now = timezone.now()
    ImportJobFactory(status=ImportJob.Status.RUNNING, heartbeat_at=now, attempts=1)
    ImportJobFactory(status=ImportJob.Status.QUEUED)
    ImportJobFactory(status=ImportJob.Status.SUCCEEDED, heartbeat_at=now - LONG_AGO)
    ImportJobFactory(status=ImportJob.Status.FAILED, heartbeat_at=now - LONG_AGO)

    assert import_jobs_reap() == {"requeued": 0, "failed": 0, "resent": 0}
    assert enqueued == []


def test_it_resends_a_job_queued_too_long_once_a_lease(enqueued):
    job = ImportJobFactory(created_at=timezone.now() - LONG_AGO)

    assert import_jobs_reap()["resent"] == 1
    assert import_jobs_reap()["resent"] == 0  # not again before another lease has passed
    assert enqueued == [job.pk]
    job.refresh_from_db()
    assert job.status == ImportJob.Status.QUEUED


def reap_interval() -> float:
    return float(settings.CELERY_BEAT_SCHEDULE["cards-import-jobs-reap"]["schedule"])


def test_it_picks_up_a_killed_workers_job_within_two_minutes(enqueued):
    """Issue 14 (item 7): it took 617 s with a 10-minute lease; the worst case now is one lease and one reaper period."""
    killed = datetime.datetime(2026, 11, 23, 22, 0, tzinfo=datetime.UTC)  # the worker's last heartbeat
    job = ImportJobFactory(status=ImportJob.Status.RUNNING, heartbeat_at=killed, attempts=1)
    worst = ImportJob.LEASE + datetime.timedelta(seconds=reap_interval())

    # A reaper run just before the lease runs out still leaves the job to its (perhaps live) worker.
    assert import_jobs_reap(now=killed + ImportJob.LEASE - datetime.timedelta(seconds=1))["requeued"] == 0
    # The next run, one period later, at the latest, hands it on.
    assert import_jobs_reap(now=killed + worst)["requeued"] == 1

    assert worst <= datetime.timedelta(minutes=2)
    assert enqueued == [job.pk]
    with time_machine.travel(killed + worst, tick=False):
        claimed = import_job_claim(job_id=job.pk)
    assert claimed is not None
    assert claimed.attempts == 2


def test_it_records_each_recovery_on_the_job(enqueued):
    heartbeat = timezone.now() - LONG_AGO
    job = ImportJobFactory(status=ImportJob.Status.RUNNING, heartbeat_at=heartbeat, attempts=1)
    now = timezone.now()

    import_jobs_reap(now=now)
    import_job_claim(job_id=job.pk)  # the retry starts: its error is cleared, the record stays

    job.refresh_from_db()
    assert job.recoveries == [
        {"attempt": 1, "heartbeat_at": heartbeat.isoformat(), "detected_at": now.isoformat(), "outcome": "retried"}
    ]


def test_it_records_the_final_failure_after_the_earlier_retries(enqueued):
    earlier = {"attempt": 2, "heartbeat_at": None, "detected_at": "2026-11-23T21:00:00+00:00", "outcome": "retried"}
    job = ImportJobFactory(
        status=ImportJob.Status.RUNNING,
        heartbeat_at=timezone.now() - LONG_AGO,
        attempts=ImportJob.MAX_ATTEMPTS,
        recoveries=[earlier],
    )

    import_jobs_reap()

    job.refresh_from_db()
    assert [r["outcome"] for r in job.recoveries] == ["retried", "failed"]
    assert job.recoveries[-1]["attempt"] == ImportJob.MAX_ATTEMPTS


def test_the_lease_outlasts_several_heartbeats():
    # A live job beats every HEARTBEAT_EVERY s (and on progress): missing a few must not cost its lease.
    assert ImportJob.LEASE.total_seconds() >= 3 * HEARTBEAT_EVERY
    assert ImportJob.LEASE.total_seconds() >= 2 * reap_interval()
