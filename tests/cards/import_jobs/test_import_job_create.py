from __future__ import annotations

import datetime
import hashlib

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from cards.import_jobs import import_job_create
from cards.importers.records import ImportFileError
from cards.models import ImportJob
from tests.cards.factories import card_row, set_file

pytestmark = pytest.mark.django_db


@pytest.fixture
def enqueued(monkeypatch):
    sent: list[int] = []
    monkeypatch.setattr("gatesite.outbox.services.task_send", lambda task, *, job_id: sent.append(job_id))
    return sent


def test_it_stores_the_file_in_a_queued_job_and_enqueues_it_on_commit(
    user, enqueued, django_capture_on_commit_callbacks
):
    raw = set_file(card_row(1))

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        job = import_job_create(
            file=SimpleUploadedFile("gb05.json", raw),
            file_name="gb05.json",
            user=user,
            dry_run=True,
            errata_effective_date=datetime.date(2024, 2, 1),
        )

    assert enqueued == []  # not before the job row is committed
    for callback in callbacks:
        callback()
    assert enqueued == [job.pk]
    job = ImportJob.objects.get(pk=job.pk)
    assert (job.status, job.file_name, job.file_size, job.created_by) == (
        ImportJob.Status.QUEUED,
        "gb05.json",
        len(raw),
        user,
    )
    assert bytes(job.file_content) == raw
    assert job.file_sha256 == hashlib.sha256(raw).hexdigest()
    assert (job.dry_run, job.errata_effective_date) == (True, datetime.date(2024, 2, 1))


def refused(raw: bytes, name: str) -> str:
    with pytest.raises(ImportFileError) as excinfo:
        import_job_create(file=raw, file_name=name)
    assert ImportJob.objects.count() == 0
    (error,) = excinfo.value.errors
    return str(error)


def test_it_refuses_a_file_over_the_size_limit(settings, enqueued):
    settings.IMPORT_MAX_BYTES = 1024

    assert refused(b"{" + b" " * 2559, "big.json") == "big.json: the file is 2.5 KB; the limit is 1.0 KB"


def test_it_refuses_an_upload_over_the_size_limit_before_reading_it(settings, enqueued):
    settings.IMPORT_MAX_BYTES = 10

    class Unreadable(SimpleUploadedFile):
        def chunks(self, chunk_size=None):
            pytest.fail("read a file that is too big")

    upload = Unreadable("big.csv", b"x" * 11)

    with pytest.raises(ImportFileError, match="the limit is 10 bytes"):
        import_job_create(file=upload, file_name="big.csv")


@pytest.mark.parametrize(
    ("name", "raw", "message"),
    [
        ("cards.txt", b"{}", "cards.txt: unsupported file type '.txt'; expected .json or .csv"),
        ("cards", b"{}", "cards: unsupported file type '(none)'; expected .json or .csv"),
        ("empty.csv", b" \n", "empty.csv: the file is empty"),
        ("image.json", b"\x89PNG\r\n\x1a\n\x00\x00", "image.json: binary data (a NUL byte at line 3), not a text file"),
        ("list.json", b"[1, 2]", 'list.json: expected a JSON object with "set" and "cards"'),
    ],
)
def test_it_refuses_a_file_of_the_wrong_type_or_content(enqueued, name, raw, message):
    assert refused(raw, name) == message


def test_it_refuses_text_that_is_not_utf8_naming_the_line(enqueued):
    raw = "number,name\nGR01-001,Pokémon\n".encode("latin-1")

    assert refused(raw, "latin.csv").startswith("latin.csv: not UTF-8 text: ")
    assert refused(raw, "latin.csv").endswith("(line 2)")
