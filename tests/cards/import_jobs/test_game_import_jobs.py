"""An uploaded set file of another game than Gate Ruler, imported by its queued job (the Celery task)."""

from __future__ import annotations

import pytest

from cards.models import Card, ImportJob
from tests.cards.factories import game_set_file, gr_card_row, rg_card_row
from tests.cards.import_jobs.test_import_job_execute import upload

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_uploaded_games_file_is_imported_by_its_job(celery_worker_on_redis):
    job = upload(game_set_file("gaterunners", gr_card_row(1)), name="gr.json")

    assert job.status == ImportJob.Status.SUCCEEDED
    assert job.counts["cards_created"] == 1
    assert job.diff["new_cards"]["items"][0]["game"] == "gaterunners"
    assert Card.objects.get(name="Runner Card 1").game == "gaterunners"


def test_an_uploaded_bad_games_file_fails_with_its_error_report(celery_worker_on_redis):
    raw = game_set_file("rulers-gambit", rg_card_row(1, colours=["pink"]), rg_card_row(2, type=None))
    job = upload(raw, name="rg.json")

    assert job.status == ImportJob.Status.FAILED
    assert job.error_report == [
        {
            "file": "rg.json",
            "row": "cards[0]",
            "field": "colours",
            "message": "'pink' is not a colour (blue, red, yellow, green, orange, purple)",
        },
        {"file": "rg.json", "row": "cards[1]", "field": "type", "message": "is required"},
    ]
    assert not Card.objects.exists()
