"""import_cards --dry-run, its progress bar, and the errata a command-line import records (with its job)."""

from __future__ import annotations

import datetime
import io
from pathlib import Path

import pytest
from django.core.management import call_command

from cards.models import Card, Erratum, ImportJob, Printing
from tests.cards.factories import AttributeFactory, CardFactory, FactionFactory, card_row, set_file
from tests.cards.services.test_card_catalog_import import table_snapshot

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[1] / "data"
SAMPLES = [str(DATA / "cards_small.json"), str(DATA / "cards_small.csv")]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def import_cards(*args: str, stdout: io.StringIO | None = None, **options: object) -> str:
    out = stdout or io.StringIO()
    call_command("import_cards", *args, stdout=out, **options)
    return out.getvalue()


@pytest.fixture
def changed_file(tmp_path: Path) -> Path:
    CardFactory(
        name="Card 1",
        faction=FactionFactory(name="Red", slug="red"),
        attributes=[AttributeFactory(name="Human")],
        atk=1,
        hp=3,
        text="Old.",
    )
    path = tmp_path / "t01.json"
    path.write_bytes(set_file(card_row(1, atk=3, text="New."), card_row(2, name="Card 2")))
    return path


def test_it_prints_the_diff_of_a_dry_run_and_writes_nothing(changed_file):
    before = table_snapshot()

    out = import_cards(str(changed_file), "--dry-run")

    assert table_snapshot() == before
    assert Erratum.objects.count() == 0
    assert ImportJob.objects.get().dry_run is True
    assert out.splitlines() == [
        "Dry run: nothing written.",
        "Would import 1 file: 2 cards (1 new, 1 updated, 0 unchanged), "
        "2 printings (2 new, 0 updated, 0 unchanged), 1 sets (1 new, 0 updated, 0 unchanged); "
        "0 new factions, 0 new attributes.",
        "New sets (1):",
        "  T01 Test Set (2021-03-20)",
        "New cards (1):",
        "  Card 2 (unit, Red, level 2)",
        "Changed cards (1):",
        "  Card 1",
        "    atk: 1 → 3",
        '    text: "Old." → "New."',
        "New printings (2):",
        "  T01-001 Card 1 [T01, C]",
        "  T01-002 Card 2 [T01, C]",
    ]


def test_it_records_errata_with_its_job_dated_by_the_set(changed_file):
    out = import_cards(str(changed_file))

    assert out.splitlines()[1:] == [
        "Changed cards (1):",
        "  Card 1",
        "    atk: 1 → 3",
        '    text: "Old." → "New."',
        "2 errata recorded.",
    ]
    errata = {e.field: e for e in Erratum.objects.all()}
    assert sorted(errata) == ["atk", "text"]
    job = ImportJob.objects.get()
    assert (errata["text"].old_value, errata["text"].new_value, errata["text"].job) == ("Old.", "New.", job)
    assert errata["atk"].job == job
    assert errata["atk"].effective_date == datetime.date(2021, 3, 20)
    assert Card.objects.get(name="Card 1").text == "New."


def test_it_draws_a_progress_bar_on_a_terminal():
    out = import_cards(*SAMPLES, stdout=Terminal())

    assert "\rChecking rows [------------------------------] 0/10" in out
    assert "\rChecking rows [##############################] 10/10\n" in out
    assert out.rstrip().endswith("4 new factions, 6 new attributes.")
    assert Printing.objects.count() == 10


def test_it_prints_plain_progress_lines_when_asked_and_not_on_a_terminal():
    out = import_cards(*SAMPLES, verbosity=2)

    assert "\r" not in out
    assert out.splitlines()[:2] == ["Checked 0/10 rows", "Checked 10/10 rows"]


def test_it_prints_no_progress_by_default_off_a_terminal():
    assert import_cards(*SAMPLES).startswith("Imported 2 files: ")


@pytest.mark.django_db(transaction=True)
def test_it_dry_runs_through_the_configured_broker(celery_worker_on_redis, changed_file):
    before = table_snapshot()

    out = import_cards(str(changed_file), "--dry-run", stdout=Terminal())

    assert table_snapshot() == before
    assert '    text: "Old." → "New."' in out
