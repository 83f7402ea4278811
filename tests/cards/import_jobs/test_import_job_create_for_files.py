from __future__ import annotations

import hashlib

import pytest

from cards.import_jobs import import_job_create_for_files, import_job_execute
from cards.importers.records import ImportFileError
from cards.models import Card, ImportJob, ImportJobFile
from tests.cards.factories import card_row, set_file

pytestmark = pytest.mark.django_db


@pytest.fixture
def enqueued(monkeypatch):
    sent: list[int] = []
    monkeypatch.setattr("gatesite.outbox.services.task_send", lambda task, *, job_id: sent.append(job_id))
    return sent


def test_it_stores_the_files_in_order_in_one_queued_job_and_enqueues_it_after_commit(
    enqueued, django_capture_on_commit_callbacks
):
    first, second = set_file(card_row(1)), set_file(card_row(2, name="Card 2"))

    with django_capture_on_commit_callbacks(execute=True):
        job = import_job_create_for_files(files=[("/data/t01.json", first), ("/data/t02.json", second)])

    assert (job.status, job.file_name, job.file_size) == (
        ImportJob.Status.QUEUED,
        "t01.json, t02.json",
        len(first) + len(second),
    )
    assert job.file_sha256 == hashlib.sha256(first + second).hexdigest()
    assert [(f.name, bytes(f.content)) for f in ImportJobFile.objects.filter(job=job)] == [
        ("/data/t01.json", first),
        ("/data/t02.json", second),
    ]
    assert enqueued == [job.pk]


def test_it_gives_one_file_the_checksum_an_upload_of_it_would_have(enqueued):
    content = set_file(card_row(1))

    job = import_job_create_for_files(files=[("t01.json", content)], enqueue=False)

    assert job.file_sha256 == hashlib.sha256(content).hexdigest()
    assert enqueued == []


def test_it_refuses_a_file_that_is_not_a_set_file_and_stores_nothing():
    with pytest.raises(ImportFileError, match=r"notes\.txt: unsupported file type '\.txt'"):
        import_job_create_for_files(files=[("t01.json", set_file(card_row(1))), ("notes.txt", b"hello")])

    assert ImportJob.objects.count() == 0


def test_its_files_are_imported_together_or_not_at_all():
    clash = set_file(card_row(1, name="Other"), card_set={"code": "T02", "name": "Second Set"})  # T01-001 again
    job = import_job_create_for_files(files=[("t01.json", set_file(card_row(1))), ("t02.json", clash)], enqueue=False)

    job = import_job_execute(job_id=job.pk)

    assert job.status == ImportJob.Status.FAILED
    assert "collector number 'T01-001' is already used" in job.error
    assert Card.objects.count() == 0


def test_an_only_new_job_keeps_existing_cards_whoever_runs_it(enqueued):
    first = import_job_create_for_files(files=[("t.json", set_file(card_row(1, level=3)))], enqueue=False)
    import_job_execute(job_id=first.pk)
    # Stored on the job, so a worker that retries it after the reaper still adds only what is new.
    job = import_job_create_for_files(
        files=[("t.json", set_file(card_row(1), card_row(2, name="Card 2")))], only_new=True, enqueue=False
    )

    ran = import_job_execute(job_id=job.pk)

    assert ran is not None
    assert ran.only_new
    assert (ran.counts["cards_created"], ran.counts["kept_existing"]) == (1, 1)
    assert Card.objects.get(name="Card 1").level == 3
    assert Card.objects.filter(name="Card 2").exists()
