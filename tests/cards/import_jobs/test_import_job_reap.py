"""import_jobs_reap: no job stays running (or queued) forever."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from cards.import_jobs import import_jobs_reap
from cards.models import ImportJob
from tests.cards.factories import ImportJobFactory

pytestmark = pytest.mark.django_db

LONG_AGO = datetime.timedelta(minutes=1) + ImportJob.LEASE


@pytest.fixture
def enqueued(monkeypatch):
    sent: list[int] = []
    monkeypatch.setattr("cards.tasks.import_job_run.delay_on_commit", sent.append)
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
