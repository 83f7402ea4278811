"""The catalog API answers conditional requests: an ETag from the catalog's version, 304 while it holds."""

from __future__ import annotations

import pytest

from cards.import_jobs import import_job_create_for_files, import_job_execute
from tests.cards.factories import card_row, set_file

pytestmark = pytest.mark.django_db

CATALOG_URLS = [
    "/api/v1/rulers/",
    "/api/v1/rulers/apprentice/",
    "/api/v1/geases/",
    "/api/v1/cards/",
    "/api/v1/cards/T01-001/",
]


@pytest.fixture
def imported(rules):
    job = import_job_create_for_files(files=[("t01.json", set_file(card_row(1)))], enqueue=False)
    import_job_execute(job_id=job.pk)


@pytest.mark.parametrize("url", CATALOG_URLS)
def test_it_answers_304_to_the_etag_it_gave(client, imported, url):
    first = client.get(url)
    assert first.status_code == 200, first.content
    assert "no-cache" in first["Cache-Control"]
    assert "public" in first["Cache-Control"]

    again = client.get(url, headers={"If-None-Match": first["ETag"]})

    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == first["ETag"]


@pytest.mark.parametrize("url", CATALOG_URLS)
def test_a_new_import_changes_the_etag_and_the_answer(client, imported, url):
    before = client.get(url)
    job = import_job_create_for_files(files=[("t01.json", set_file(card_row(1), card_row(2)))], enqueue=False)
    import_job_execute(job_id=job.pk)

    after = client.get(url, headers={"If-None-Match": before["ETag"]})

    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert client.get(url, headers={"If-None-Match": after["ETag"]}).status_code == 304


def test_the_remembered_answer_shows_a_new_import(client, imported):
    assert client.get("/api/v1/cards/").json()["count"] == 1
    job = import_job_create_for_files(files=[("t01.json", set_file(card_row(1), card_row(2)))], enqueue=False)
    import_job_execute(job_id=job.pk)

    assert client.get("/api/v1/cards/").json()["count"] == 2


def test_the_etag_follows_the_rules_date_and_the_query(client, imported):
    etags = {client.get("/api/v1/rulers/", {"as_of": day})["ETag"] for day in ("2021-06-01", "2024-01-01")}
    etags |= {client.get("/api/v1/cards/", {"name": "x"})["ETag"], client.get("/api/v1/cards/")["ETag"]}

    assert len(etags) == 4


def test_an_unknown_ruler_is_still_404(client, rules):
    response = client.get("/api/v1/rulers/nobody/")

    assert response.status_code == 404
    assert "nobody" in response.json()["detail"]


def test_json_and_the_browsable_api_have_their_own_etags(client, imported):
    json_answer = client.get("/api/v1/rulers/", headers={"Accept": "application/json"})
    html_answer = client.get("/api/v1/rulers/", headers={"Accept": "text/html"})

    assert json_answer["ETag"] != html_answer["ETag"]
    assert "Accept" in json_answer["Vary"]
    stale = client.get("/api/v1/rulers/", headers={"Accept": "text/html", "If-None-Match": json_answer["ETag"]})
    assert stale.status_code == 200
