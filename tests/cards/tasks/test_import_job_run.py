"""The import_job_run task by id: a real worker over Redis when REDIS_URL is set, eager otherwise."""

from __future__ import annotations

import pytest
from django.utils import timezone

from cards.models import Card, ImportJob
from cards.tasks import import_job_run, import_jobs_reap
from tests.cards.factories import ImportJobFactory, card_row, set_file

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_runs_a_queued_job_and_answers_its_status(celery_worker_on_redis):
    job = ImportJobFactory(file_content=set_file(card_row(1), card_row(2, name="Card 2")))

    assert import_job_run.delay(job.pk).get(timeout=60) == "succeeded"

    job.refresh_from_db()
    assert job.status == ImportJob.Status.SUCCEEDED
    assert Card.objects.count() == 2


def test_it_answers_failed_for_a_bad_file(celery_worker_on_redis):
    job = ImportJobFactory(file_content=set_file(card_row(1, level="two")))

    assert import_job_run.delay(job.pk).get(timeout=60) == "failed"  # no exception: nothing to retry

    job.refresh_from_db()
    assert job.error_report == [
        {"file": "set.json", "row": "cards[0]", "field": "level", "message": '"two" is not an integer'}
    ]


@pytest.mark.parametrize(
    "state",
    [
        {"status": ImportJob.Status.RUNNING, "attempts": 1},  # another worker has it (fresh heartbeat)
        {"status": ImportJob.Status.SUCCEEDED, "attempts": 1},
        {"status": ImportJob.Status.FAILED, "attempts": 1},
    ],
)
def test_it_does_nothing_with_a_job_that_is_not_queued(celery_worker_on_redis, state):
    job = ImportJobFactory(file_content=set_file(card_row(1)), heartbeat_at=timezone.now(), **state)

    assert import_job_run.delay(job.pk).get(timeout=60) is None

    job.refresh_from_db()
    assert (job.status, job.attempts) == (state["status"], 1)
    assert Card.objects.count() == 0


def test_it_does_nothing_for_a_job_that_is_gone(celery_worker_on_redis):
    assert import_job_run.delay(987654).get(timeout=60) is None


def test_it_is_acknowledged_late_because_it_is_idempotent():
    assert import_job_run.acks_late is True


def test_the_reaper_task_answers_its_counts(celery_worker_on_redis):
    assert import_jobs_reap.delay().get(timeout=60) == {"requeued": 0, "failed": 0, "resent": 0}
