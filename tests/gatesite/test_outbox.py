"""gatesite.outbox: a task the broker refuses waits in the database and is sent when the broker is back."""

from __future__ import annotations

import time

import pytest

from cards.models import ImportJob
from gatesite.celery import ping
from gatesite.outbox.models import OutboxTask
from gatesite.outbox.services import outbox_send, task_send, task_send_on_commit
from tests.cards.factories import ImportJobFactory, card_row, set_file

pytestmark = pytest.mark.django_db


def test_a_task_the_broker_refuses_waits_in_the_outbox(broker_down):
    started = time.monotonic()

    assert task_send(ping) is None

    kept = OutboxTask.objects.get()
    assert (kept.task, kept.kwargs, kept.attempts) == ("gatesite.ping", {}, 1)
    assert "refused" in kept.last_error.lower() or "connect" in kept.last_error.lower()
    assert time.monotonic() - started < 5  # a brief try, not Celery's 20 s of result-backend retries


def test_after_a_refusal_the_next_tasks_go_straight_to_the_outbox(broker_down, monkeypatch):
    task_send(ping)
    monkeypatch.setattr(ping, "apply_async", lambda *a, **k: pytest.fail("the broker was tried again at once"))

    task_send(ping)

    assert OutboxTask.objects.count() == 2


def test_it_is_sent_after_the_commit_only(broker_down, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        task_send_on_commit(ping)
        assert not OutboxTask.objects.exists()
    assert OutboxTask.objects.count() == 1


def test_the_outbox_keeps_its_tasks_while_the_broker_is_down(broker_down):
    OutboxTask.objects.create(task="gatesite.ping", kwargs={})
    OutboxTask.objects.create(task="gatesite.ping", kwargs={})

    assert outbox_send() == {"sent": 0, "waiting": 2, "unknown": 0}

    assert list(OutboxTask.objects.values_list("attempts", flat=True)) == [2, 1]  # stopped at the first refusal


def test_a_kept_import_runs_once_the_broker_is_back():
    # Without REDIS_URL tasks run in-process: "sent" is "run" here.
    job = ImportJobFactory(file_content=set_file(card_row(1)))
    OutboxTask.objects.create(task="cards.import_job_run", kwargs={"job_id": job.pk})

    assert outbox_send() == {"sent": 1, "waiting": 0, "unknown": 0}

    job.refresh_from_db()
    assert job.status == ImportJob.Status.SUCCEEDED
    assert not OutboxTask.objects.exists()


def test_a_task_of_an_unknown_name_is_kept_and_said_so():
    OutboxTask.objects.create(task="cards.no_such_task", kwargs={})

    assert outbox_send() == {"sent": 0, "waiting": 0, "unknown": 1}

    assert OutboxTask.objects.get().last_error == "no task named 'cards.no_such_task'"


def test_the_periodic_task_records_the_workers_heartbeat():
    from gatesite.outbox.selectors import worker_last_seen
    from gatesite.outbox.tasks import outbox_send as periodic

    assert worker_last_seen() is None
    periodic.delay()
    assert worker_last_seen() is not None


def test_a_worker_starting_sends_the_outbox_task(monkeypatch):
    from celery.signals import worker_ready

    from gatesite.outbox.tasks import outbox_send as periodic

    sent = []
    monkeypatch.setattr(periodic, "apply_async", lambda **kwargs: sent.append(kwargs))

    worker_ready.send(sender=None)

    assert len(sent) == 1


def test_a_worker_starting_with_the_broker_down_starts_all_the_same(broker_down):
    from celery.signals import worker_ready

    worker_ready.send(sender=None)  # no exception: beat sends the outbox task again later
