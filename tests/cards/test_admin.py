from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model

from cards.models import RulerRevision

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, rules):
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "correct horse battery")
    client.force_login(admin)
    return client


@pytest.mark.parametrize(
    "url", ["/admin/cards/ruler/", "/admin/cards/rulerrevision/", "/admin/cards/geas/", "/admin/cards/geasrevision/"]
)
def test_it_lists_the_rules_for_admins(admin_client, url):
    assert admin_client.get(url).status_code == 200


@pytest.mark.parametrize(("model", "owner"), [("rulerrevision", "ruler"), ("geasrevision", "geas")])
def test_a_revisions_form_asks_for_its_owner_first(admin_client, model, owner):
    html = admin_client.get(f"/admin/cards/{model}/add/").content.decode()

    names = [f'name="{name}"' for name in (owner, "effective_from", "document", "source", "data")]
    positions = [html.index(name) for name in names]
    assert positions == sorted(positions)
    assert "Key of the rules document" in html  # the help both kinds of revision share


def test_it_shows_a_ruler_with_its_revisions(admin_client):
    from cards.models import Ruler

    highlander = Ruler.objects.get(slug="highlander")
    response = admin_client.get(f"/admin/cards/ruler/{highlander.pk}/change/")

    assert response.status_code == 200
    assert b"2020-11-26" in response.content
    assert b"2023-12-04" in response.content


def test_it_lets_an_admin_edit_a_revision_and_the_validator_uses_it(admin_client):
    revision = RulerRevision.objects.get(ruler__slug="apprentice", effective_from="2023-12-04")
    data = {**revision.data, "deck_construction": {**revision.data["deck_construction"], "level_cap": 45}}
    response = admin_client.post(
        f"/admin/cards/rulerrevision/{revision.pk}/change/",
        {
            "ruler": revision.ruler_id,
            "effective_from": "2023-12-04",
            "document": revision.document,
            "source": revision.source,
            "data": json.dumps(data),
        },
    )

    assert response.status_code == 302
    revision.refresh_from_db()
    assert revision.data["deck_construction"]["level_cap"] == 45
    body = admin_client.get("/api/v1/rulers/apprentice/").json()
    assert body["deck_construction"]["level_cap"] == 45


def test_it_refuses_rules_data_the_engine_cannot_read(admin_client):
    revision = RulerRevision.objects.get(ruler__slug="apprentice", effective_from="2023-12-04")
    broken = {**revision.data, "deck_construction": {**revision.data["deck_construction"], "cnt_cap": "sixteen"}}
    response = admin_client.post(
        f"/admin/cards/rulerrevision/{revision.pk}/change/",
        {
            "ruler": revision.ruler_id,
            "effective_from": "2023-12-04",
            "document": revision.document,
            "source": revision.source,
            "data": json.dumps(broken),
        },
    )

    assert response.status_code == 200
    assert b"deck_construction.cnt_cap: expected an integer or null" in response.content
    revision.refresh_from_db()
    assert revision.data["deck_construction"]["cnt_cap"] == 16


def test_it_keeps_anonymous_and_non_staff_users_out(client, rules, user):
    assert client.get("/admin/cards/ruler/").status_code == 302
    client.force_login(user)
    assert client.get("/admin/cards/ruler/").status_code == 302
