from __future__ import annotations

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from cards.models import Attribute, Card, CardSet, Faction, ImportJob, ImportJobFile, Printing
from cards.tasks import CardImportRejectedError, import_files

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"
SAMPLES = [str(DATA / "cards_small.json"), str(DATA / "cards_small.csv")]
FIRST_RUN = (
    "Imported 2 files: 8 cards (8 new, 0 updated, 0 unchanged), "
    "10 printings (10 new, 0 updated, 0 unchanged), "
    "2 sets (2 new, 0 updated, 0 unchanged); 4 new factions, 6 new attributes."
)


@pytest.fixture
def bad_csv(tmp_path: Path) -> Path:
    path = tmp_path / "bad.csv"
    path.write_text(
        "set_code,set_name,number,name,type,faction,level,cnt\n"
        "T09,Bad Set,T09-001,Fine,unit,Red,1,no\n"
        "T09,Bad Set,T09-002,Broken,unit,Red,two,no\n"
        "T09,Bad Set,T09-003,Also Broken,unit,Red,1,perhaps\n",
        encoding="utf-8",
    )
    return path


def import_cards(*paths: str) -> str:
    out = StringIO()
    call_command("import_cards", *paths, stdout=out)
    return out.getvalue().strip()


def test_it_imports_files_and_prints_a_summary():
    assert import_cards(*SAMPLES) == FIRST_RUN
    assert (Card.objects.count(), Printing.objects.count()) == (8, 10)


def test_it_is_a_no_op_on_second_run():
    import_cards(*SAMPLES)

    assert import_cards(*SAMPLES) == (
        "Imported 2 files: 8 cards (0 new, 0 updated, 8 unchanged), "
        "10 printings (0 new, 0 updated, 10 unchanged), "
        "2 sets (0 new, 0 updated, 2 unchanged); 0 new factions, 0 new attributes."
    )


def test_it_names_file_row_and_field_of_every_bad_row_and_writes_nothing(bad_csv):
    with pytest.raises(CommandError) as excinfo:
        import_cards(*SAMPLES, str(bad_csv))

    assert str(excinfo.value).splitlines() == [
        "Nothing imported.",
        f"{bad_csv}: row 3, field \"level\": 'two' is not an integer",
        f"{bad_csv}: row 4, field \"cnt\": 'perhaps' is not a boolean (true/false, 1/0 or yes/no)",
    ]
    assert CardSet.objects.count() == 0
    assert Card.objects.count() == 0
    assert Printing.objects.count() == 0
    assert Faction.objects.count() == Attribute.objects.count() == 0


def test_it_creates_and_runs_one_import_job_for_all_its_files():
    import_cards(*SAMPLES)

    job = ImportJob.objects.get()
    assert (job.status, job.dry_run, job.created_by, job.attempts) == (ImportJob.Status.SUCCEEDED, False, None, 1)
    assert job.file_name == "cards_small.json, cards_small.csv"
    assert [(f.position, f.name) for f in ImportJobFile.objects.filter(job=job)] == [
        (0, str(Path(SAMPLES[0]).resolve())),
        (1, str(Path(SAMPLES[1]).resolve())),
    ]
    assert job.file_size == sum(Path(p).stat().st_size for p in SAMPLES)
    assert (job.counts["cards_created"], job.counts["printings_created"]) == (8, 10)
    assert (job.rows_done, job.rows_total) == (10, 10)
    assert job.diff["new_cards"]["total"] == 8


def test_it_records_a_rejected_import_as_a_failed_job(bad_csv):
    with pytest.raises(CommandError):
        import_cards(*SAMPLES, str(bad_csv))

    job = ImportJob.objects.get()
    assert job.status == ImportJob.Status.FAILED
    assert job.error.startswith("Nothing imported.\n")
    assert [(e["row"], e["field"]) for e in job.error_report] == [("row 3", "level"), ("row 4", "cnt")]


def test_it_runs_the_job_itself_and_enqueues_nothing(monkeypatch):
    sent = []
    monkeypatch.setattr("cards.import_jobs.task_send_on_commit", lambda task, **kwargs: sent.append(kwargs))
    monkeypatch.setattr("cards.tasks.import_job_run.delay", sent.append)

    import_cards(*SAMPLES)

    assert sent == []
    assert ImportJob.objects.get().status == ImportJob.Status.SUCCEEDED


def test_it_names_a_file_it_cannot_read(tmp_path):
    missing = tmp_path / "nope.json"

    with pytest.raises(CommandError, match=f"{missing}: cannot read file"):
        import_cards(str(missing))


def test_it_requires_a_file():
    with pytest.raises(CommandError, match="FILE"):
        call_command("import_cards")


def test_its_task_returns_the_counts():
    counts = import_files.delay(SAMPLES).get(timeout=10)

    assert counts["cards_created"] == 8
    assert counts["printings_created"] == 10


def test_its_task_fails_with_the_readable_report(bad_csv):
    with pytest.raises(CardImportRejectedError) as excinfo:
        import_files.delay([str(bad_csv)]).get(timeout=10)

    assert str(excinfo.value).startswith(f'{bad_csv}: row 3, field "level": ')


@pytest.mark.django_db(transaction=True)
def test_it_runs_through_the_configured_broker(celery_worker_on_redis, bad_csv):
    assert import_cards(*SAMPLES) == FIRST_RUN

    with pytest.raises(CommandError, match=r"row 3, field \"level\""):
        import_cards(str(bad_csv))


@pytest.mark.slow
def test_it_exits_non_zero_on_a_bad_file(tmp_path, bad_csv):
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    # A throwaway database: the check must never touch the developer's db.sqlite3.
    env.update(DEBUG="1", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")

    # Migrated: the command records the failed import as a job.
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=REPO, env=env, timeout=120, check=True)

    process = subprocess.run(
        [sys.executable, "manage.py", "import_cards", str(bad_csv)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert process.returncode == 1
    assert f"{bad_csv}: row 3, field \"level\": 'two' is not an integer" in process.stderr
