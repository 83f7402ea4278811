"""The one strictness of set files (issue 24) through every way in: the import_cards command, the
admin's upload and a queued job's run, for every game; a refused file writes nothing."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from cards.import_jobs import import_job_execute
from cards.models import Card, CardSet, ImportJob
from tests.cards.factories import ImportJobFactory, card_row, game_set_file, gr_card_row, rg_card_row

pytestmark = pytest.mark.django_db

ROWS = {"gate-ruler": card_row, "rulers-gambit": rg_card_row, "gaterunners": gr_card_row}
NAMES = {"gate-ruler": "Gate Ruler", "rulers-gambit": "Ruler's Gambit", "gaterunners": "GateRunners"}
RLO = "contains U+202E RIGHT-TO-LEFT OVERRIDE; invisible and text-direction control characters are not allowed"
DEEP_CARD = b'{"set": {"code": "T01", "name": "Deep"}, "cards": [{"number": "T01-001", "text": ' + (
    b"[" * 50_000 + b"]" * 50_000 + b"}]}"
)
TOO_DEEP = "the JSON nests deeper than 8 levels (line 1); a set file needs 4 (the file, its cards, a card, a list)"
UTF16 = "the file looks like UTF-16 text; save it as UTF-8, the only encoding read"


def import_cards(*paths: Path) -> str:
    out = StringIO()
    call_command("import_cards", *map(str, paths), stdout=out)
    return out.getvalue()


def refused(*paths: Path) -> list[str]:
    with pytest.raises(CommandError) as caught:
        import_cards(*paths)
    assert not Card.objects.exists()
    assert not CardSet.objects.exists()
    return str(caught.value).splitlines()


@pytest.mark.parametrize("game", ROWS)
def test_the_command_refuses_an_unknown_field_and_an_override_for_every_game(tmp_path: Path, game):
    row = ROWS[game]
    path = tmp_path / "set.json"
    path.write_bytes(game_set_file(game, row(1), row(2, evil_field=1), row(3, name="Card\u202e 3")))

    lines = refused(path)

    assert lines[0] == "Nothing imported."
    assert lines[1].startswith(f'{path}: cards[1], field "evil_field": is not a field of {NAMES[game]} cards')
    assert lines[2:] == [f'{path}: cards[2], field "name": {RLO}']


def test_the_command_refuses_a_deep_file_naming_it_before_any_job(tmp_path: Path):
    path = tmp_path / "deep.json"
    path.write_bytes(DEEP_CARD)

    assert refused(path) == ["Nothing imported.", f"{path}: {TOO_DEEP}"]
    assert not ImportJob.objects.exists()


def test_the_command_says_a_csv_with_only_a_header_has_no_cards(tmp_path: Path):
    path = tmp_path / "empty.csv"
    path.write_text("game,set_code,set_name,number,name,type\n", encoding="utf-8")

    assert refused(path) == ["Nothing imported.", f"{path}: the file has no cards, only a header row"]


def test_the_command_names_a_utf16_csv(tmp_path: Path):
    path = tmp_path / "utf16.csv"
    path.write_text("game,set_code,set_name,number,name,type\ngaterunners,S,Set,S-1,A,gate\n", encoding="utf-16")

    assert refused(path) == ["Nothing imported.", f"{path}: {UTF16}"]


def test_the_command_imports_a_uniform_export_with_instant_false_on_gates_and_heroes(tmp_path: Path):
    path = tmp_path / "gr.json"
    path.write_bytes(
        game_set_file(
            "gaterunners",
            gr_card_row(1),
            {**gr_card_row(2, type="hero", level=None), "instant": False, "level": None, "cost": None},
            {"number": "GRT-003", "name": "Gate 3", "type": "gate", "level": None, "cost": None, "power": None}
            | {"health": None, "instant": False, "rarity": "C", "text": ""},
        )
    )

    assert "3 cards (3 new" in import_cards(path)
    assert Card.objects.get(name="Gate 3").fields == {}


def test_a_queued_jobs_deep_file_fails_naming_it_not_with_a_recursion_error():
    # Stored without the upload's checks (as a job queued before them would be).
    job = ImportJobFactory(file_name="deep.json", file_content=DEEP_CARD)

    job = import_job_execute(job_id=job.pk)

    assert job is not None
    assert job.status == ImportJob.Status.FAILED
    assert job.error == f"Nothing imported.\ndeep.json: {TOO_DEEP}"
    assert not Card.objects.exists()


def test_a_queued_jobs_gate_ruler_file_with_an_unknown_field_fails_whole():
    raw = game_set_file(None, card_row(1), card_row(2, evil_field=1), card_row(3))
    job = ImportJobFactory(file_name="gr.json", file_content=raw)

    job = import_job_execute(job_id=job.pk)

    assert job is not None
    assert job.status == ImportJob.Status.FAILED
    assert [(e["row"], e["field"]) for e in job.error_report] == [("cards[1]", "evil_field")]
    assert not Card.objects.exists()


# --- the admin's upload -----------------------------------------------------------------


@pytest.fixture
def admin_client(client):
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "correct horse battery")
    client.force_login(admin)
    return client


def upload(client, captured, raw: bytes, name: str):
    with captured(execute=True):
        return client.post(
            "/admin/cards/importjob/import/",
            {"file": SimpleUploadedFile(name, raw), "mode": "apply", "errata_effective_date": ""},
        )


@pytest.mark.parametrize(
    ("name", "raw", "message"),
    [
        ("deep.json", DEEP_CARD, TOO_DEEP),
        ("utf16.json", game_set_file("gaterunners", gr_card_row(1)).decode().encode("utf-16"), UTF16),
    ],
)
def test_the_upload_form_refuses_a_deep_or_utf16_file_naming_it(
    admin_client, django_capture_on_commit_callbacks, name, raw, message
):
    response = upload(admin_client, django_capture_on_commit_callbacks, raw, name)

    assert response.status_code == 200
    assert f"{name}: {message}" in response.content.decode()
    assert not ImportJob.objects.exists()


@pytest.mark.parametrize("game", ROWS)
def test_an_uploaded_csv_with_a_zero_width_space_fails_naming_the_character(
    admin_client, django_capture_on_commit_callbacks, game
):
    row = {
        "gate-ruler": "T01-001,Card\u200b 1,unit,Red,2,,,,",
        "rulers-gambit": "RGT-001,Card\u200b 1,unit,,,red,2,,",
        "gaterunners": "GRT-001,Card\u200b 1,gate,,,,,,",
    }[game]
    raw = f"game,set_code,set_name,number,name,type,faction,level,colours,cost,instant,text\n{game},S1,Set,{row}\n"

    upload(admin_client, django_capture_on_commit_callbacks, raw.encode(), "set.csv")

    job = ImportJob.objects.get()
    assert job.status == ImportJob.Status.FAILED
    assert job.error_report == [
        {
            "file": "set.csv",
            "row": "row 2",
            "field": "name",
            "message": RLO.replace("U+202E RIGHT-TO-LEFT OVERRIDE", "U+200B ZERO WIDTH SPACE"),
        }
    ]
    assert not Card.objects.exists()
    assert json.dumps(job.counts) == '{"bad_rows": 1}'
