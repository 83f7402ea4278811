"""import_jobs._Heartbeat: a running job's own thread keeps its lease, fenced by the attempt."""

from __future__ import annotations

import datetime
import time

import pytest
import time_machine

from cards.import_jobs import _Heartbeat
from cards.models import ImportJob
from tests.cards.factories import ImportJobFactory

LAST = datetime.datetime(2026, 11, 23, 22, 0, tzinfo=datetime.UTC)


@pytest.mark.django_db
def test_it_bumps_the_heartbeat_of_its_own_attempt():
    job = ImportJobFactory(status=ImportJob.Status.RUNNING, heartbeat_at=LAST, attempts=1)
    later = LAST + datetime.timedelta(seconds=30)

    with time_machine.travel(later, tick=False):
        assert _Heartbeat(job.pk, 1).beat() is True

    job.refresh_from_db()
    assert job.heartbeat_at == later


@pytest.mark.django_db
@pytest.mark.parametrize(
    "state",
    [
        {"status": ImportJob.Status.RUNNING, "attempts": 2},  # a later attempt took the job over
        {"status": ImportJob.Status.QUEUED, "attempts": 1},  # the reaper handed it on
        {"status": ImportJob.Status.SUCCEEDED, "attempts": 1},
    ],
)
def test_it_never_keeps_alive_a_job_that_is_no_longer_its_own(state):
    job = ImportJobFactory(heartbeat_at=LAST, **state)

    assert _Heartbeat(job.pk, 1).beat() is False

    job.refresh_from_db()
    assert job.heartbeat_at == LAST


@pytest.mark.django_db(transaction=True)
def test_its_thread_beats_while_the_job_runs():
    job = ImportJobFactory(status=ImportJob.Status.RUNNING, heartbeat_at=LAST, attempts=1)

    # No reads meanwhile: SQLite's shared in-memory test database locks whole tables.
    with _Heartbeat(job.pk, 1, every=0.02, enabled=True) as heartbeat:
        time.sleep(0.3)

    assert ImportJob.objects.get(pk=job.pk).heartbeat_at > LAST
    assert heartbeat._thread is not None
    assert not heartbeat._thread.is_alive()  # stopped with the job


@pytest.mark.django_db(transaction=True)
def test_its_thread_stops_by_itself_once_the_job_is_not_its_own():
    job = ImportJobFactory(status=ImportJob.Status.SUCCEEDED, heartbeat_at=LAST, attempts=1)
    heartbeat = _Heartbeat(job.pk, 1, every=0.02, enabled=True).__enter__()

    heartbeat._thread.join(timeout=5)  # type: ignore[union-attr]

    assert not heartbeat._thread.is_alive()  # type: ignore[union-attr]
    assert ImportJob.objects.get(pk=job.pk).heartbeat_at == LAST
    heartbeat.__exit__(None, None, None)
