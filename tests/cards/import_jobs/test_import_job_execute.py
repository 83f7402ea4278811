"""import_job_execute through the import_job_run task: a real worker over Redis when REDIS_URL is set, eager otherwise."""

from __future__ import annotations

import datetime
import time

import pytest

from cards import import_jobs, services
from cards.import_jobs import import_job_create
from cards.models import Card, Erratum, ImportJob, Printing
from cards.tasks import import_job_run
from tests.cards.factories import AttributeFactory, CardFactory, FactionFactory, card_row, set_file
from tests.cards.services.test_card_catalog_import import table_snapshot

pytestmark = pytest.mark.django_db(transaction=True)


def wait_for(job: ImportJob, timeout: float = 60) -> ImportJob:
    """The job once finished (the worker runs it in another thread; eagerly, it is already done)."""
    deadline = time.monotonic() + timeout
    while True:
        job = ImportJob.objects.get(pk=job.pk)
        if job.is_finished:
            return job
        if time.monotonic() > deadline:
            pytest.fail(f"job still {job.status} after {timeout} s")
        time.sleep(0.05)


def upload(raw: bytes, *, name: str = "set.json", dry_run: bool = False, **kwargs: object) -> ImportJob:
    return wait_for(import_job_create(file=raw, file_name=name, dry_run=dry_run, **kwargs))


@pytest.fixture
def red_knight():
    """An existing card the files below change."""
    card = CardFactory(name="Card 1", faction=FactionFactory(name="Red", slug="red"), atk=1, hp=3, text="Old.")
    card.attributes.set([AttributeFactory(name="Human")])
    return card


def test_it_applies_a_file(celery_worker_on_redis):
    job = upload(set_file(card_row(1), card_row(2, name="Card 2"), card_row(3, name="Card 1")))

    assert job.status == ImportJob.Status.SUCCEEDED
    assert (job.rows_done, job.rows_total, job.attempts) == (3, 3, 1)
    assert job.started_at is not None
    assert job.finished_at is not None
    assert job.celery_task_id
    assert job.counts["cards_created"] == 2
    assert job.counts["printings_created"] == 3
    assert job.counts["errata"] == 0
    assert [c["name"] for c in job.diff["new_cards"]["items"]] == ["Card 1", "Card 2"]
    assert job.diff["new_printings"]["total"] == 3
    assert sorted(Printing.objects.values_list("collector_number", "card__name")) == [
        ("T01-001", "Card 1"),
        ("T01-002", "Card 2"),
        ("T01-003", "Card 1"),
    ]


def test_it_shows_the_diff_of_a_dry_run_and_writes_nothing(celery_worker_on_redis, red_knight):
    before = table_snapshot()

    job = upload(set_file(card_row(1, atk=3, text="New."), card_row(2, name="Card 2")), dry_run=True)

    assert job.status == ImportJob.Status.SUCCEEDED
    assert table_snapshot() == before
    assert Erratum.objects.count() == 0
    assert job.counts["cards_created"] == 1
    assert job.counts["cards_updated"] == 1
    assert job.diff["changed_cards"] == {
        "total": 1,
        "items": [
            {
                "name": "Card 1",
                "card_id": red_knight.pk,
                "changes": [{"field": "atk", "old": 1, "new": 3}, {"field": "text", "old": "Old.", "new": "New."}],
            }
        ],
    }
    assert job.diff["new_cards"]["items"] == [{"name": "Card 2", "type": "unit", "faction": "Red", "level": 2}]
    assert job.diff["new_printings"]["total"] == 2
    assert job.diff["new_sets"]["items"] == [{"code": "T01", "name": "Test Set", "release_date": "2021-03-20"}]


def test_it_does_nothing_when_a_job_runs_again(celery_worker_on_redis, red_knight):
    job = upload(set_file(card_row(1, text="New."), card_row(2, name="Card 2")))
    after_first = table_snapshot()
    errata = list(Erratum.objects.values_list("id", "field"))

    assert import_job_run.delay(job.pk).get(timeout=60) is None

    again = ImportJob.objects.get(pk=job.pk)
    assert (again.status, again.attempts, again.finished_at) == (job.status, 1, job.finished_at)
    assert table_snapshot() == after_first
    assert sorted(f for _, f in errata) == ["atk", "text"]
    assert list(Erratum.objects.values_list("id", "field")) == errata


def test_it_finds_nothing_to_change_when_the_same_file_comes_again(celery_worker_on_redis, red_knight):
    raw = set_file(card_row(1, text="New."), card_row(2, name="Card 2"))
    first = upload(raw)
    after_first = table_snapshot()

    errata = Erratum.objects.count()

    second = upload(raw)

    assert second.status == ImportJob.Status.SUCCEEDED
    assert second.file_sha256 == first.file_sha256
    assert table_snapshot() == after_first
    assert Erratum.objects.count() == errata == 2
    assert second.counts["cards_unchanged"] == 2
    assert second.counts["printings_unchanged"] == 2
    assert [k for k, v in second.counts.items() if k.endswith(("_created", "_updated")) and v] == []
    assert all(section["total"] == 0 for section in second.diff.values())


def test_it_records_errata_with_the_given_effective_date(celery_worker_on_redis, red_knight):
    job = upload(
        set_file(card_row(1, atk=3, text="New.", attributes=["Human", "Knight"], name_ja="一")),
        errata_effective_date=datetime.date(2024, 2, 1),
    )

    assert job.counts["errata"] == 3
    errata = {e.field: e for e in Erratum.objects.filter(card=red_knight)}
    assert sorted(errata) == ["atk", "attributes", "text"]  # name_ja is a translation, not an erratum
    assert (errata["atk"].old_value, errata["atk"].new_value) == (1, 3)
    assert (errata["text"].old_value, errata["text"].new_value) == ("Old.", "New.")
    assert (errata["attributes"].old_value, errata["attributes"].new_value) == (["Human"], ["Human", "Knight"])
    assert {e.effective_date for e in errata.values()} == {datetime.date(2024, 2, 1)}
    assert {e.job_id for e in errata.values()} == {job.pk}
    red_knight.refresh_from_db()
    assert (red_knight.atk, red_knight.text, red_knight.name_ja) == (3, "New.", "一")


def test_it_dates_errata_by_the_release_of_the_set_without_a_given_date(celery_worker_on_redis, red_knight):
    upload(set_file(card_row(1, atk=1, text="New.")))

    (erratum,) = Erratum.objects.all()
    assert (erratum.field, erratum.effective_date) == ("text", datetime.date(2021, 3, 20))


def test_it_fails_a_bad_file_listing_every_bad_row_and_writes_nothing(celery_worker_on_redis, red_knight):
    before = table_snapshot()
    raw = (
        b"set_code,set_name,number,name,type,faction,level,cnt\n"
        b"T09,Bad Set,T09-001,Fine,unit,Red,1,no\n"
        b"T09,Bad Set,T09-002,Broken,unit,Red,two,no\n"
        b"T09,Bad Set,T09-003,Also Broken,unit,Red,1,perhaps\n"
        b"T09,Bad Set,T09-004,Card 1,sorcery,Red,1,no\n"
    )

    job = upload(raw, name="bad.csv")

    assert job.status == ImportJob.Status.FAILED
    assert job.error_report == [
        {"file": "bad.csv", "row": "row 3", "field": "level", "message": "'two' is not an integer"},
        {
            "file": "bad.csv",
            "row": "row 4",
            "field": "cnt",
            "message": "'perhaps' is not a boolean (true/false, 1/0 or yes/no)",
        },
        {
            "file": "bad.csv",
            "row": "row 5",
            "field": "type",
            "message": "'sorcery' is not a card type (unit, event, field, energy)",
        },
    ]
    assert job.counts == {"bad_rows": 3}
    assert job.error.startswith('Nothing imported.\nbad.csv: row 3, field "level"')
    assert table_snapshot() == before


def test_it_fails_malformed_json(celery_worker_on_redis):
    job = upload(b'{"set": {"code": "T01", "name": "x"}, "cards": [')

    assert job.status == ImportJob.Status.FAILED
    assert job.error_report[0]["message"].startswith("malformed JSON: ")
    assert Card.objects.count() == 0


def test_it_changes_nothing_when_a_write_fails_midway(celery_worker_on_redis, red_knight, monkeypatch):
    before = table_snapshot()
    real_printings_upsert = services._printings_upsert

    def write_then_fail(plan):
        real_printings_upsert(plan)  # sets, cards and printings are written by now
        assert Printing.objects.count() == 3
        raise RuntimeError("disk full")

    monkeypatch.setattr(services, "_printings_upsert", write_then_fail)

    job = upload(set_file(card_row(1, text="New."), card_row(2, name="Card 2"), card_row(3, name="Card 3")))

    assert job.status == ImportJob.Status.FAILED
    assert job.error == "Nothing imported: RuntimeError: disk full"
    assert table_snapshot() == before
    assert Erratum.objects.count() == 0


def test_it_fails_the_job_when_the_soft_time_limit_strikes(celery_worker_on_redis, monkeypatch):
    from celery.exceptions import SoftTimeLimitExceeded

    def too_slow(**kwargs):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(import_jobs, "catalog_plan", too_slow)

    job = upload(set_file(card_row(1)))

    assert job.status == ImportJob.Status.FAILED
    assert "took longer than" in job.error
    assert Card.objects.count() == 0
