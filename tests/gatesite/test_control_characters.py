"""No URL answers 500 for a NUL or another control character in its path or query (issue 24).

PostgreSQL refuses NUL in a text value (psycopg's DataError), SQLite takes it: the defect shows only
there, so this sweep runs in CI against PostgreSQL as well. Every URL pattern of the project, the
admin's and Django's included (found by walking the resolver, so a new URL is swept without being
listed here), gets each probe in each of its captured parameters, and every parameter a page or the
API reads from its query string; anonymously, as a signed-in player and as staff; GET, and POST for
the forms and clicks. A path id is then a 404 (no id has a control character), a query parameter a
400 naming it (gatesite/control_characters.py); nothing reaches the database.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.test import Client

from decks.models import DeckDraft, Visibility
from decks.services import deck_create_from_draft
from gatesite.urlmap import ADMIN_PARAMETERS, PARAMETERS, is_admin, template_names, url_fill, url_templates
from tests.cards.factories import CardFactory, FactionFactory, PrintingFactory
from tests.decks.factories import UserFactory, legal_apprentice_main

# NUL (PostgreSQL's refusal), another C0 control, DEL and a C1 control.
PROBES = ["x\x00y", "x\x01y", "x\x7fy", "x\x85y"]


@pytest.fixture
def players(rules):
    """Alice (who owns a public deck of 13 cards), staff, and the values a URL of theirs takes."""
    volnar = FactionFactory(name="Volnar")
    for i in range(1, 14):
        PrintingFactory(
            card=CardFactory(name=f"Ember Squire {i}", faction=volnar, level=1), collector_number=f"TS-{i:03d}"
        )
    alice = UserFactory(username="alice-nul")
    staff = UserFactory(username="staff-nul", is_staff=True, is_superuser=True)
    deck = deck_create_from_draft(owner=alice, draft=DeckDraft(ruler="apprentice", main=legal_apprentice_main()))
    deck.visibility = Visibility.PUBLIC
    deck.save()
    clients = {"anonymous": Client(raise_request_exception=False)}
    for who, user in (("alice", alice), ("staff", staff)):
        clients[who] = Client(raise_request_exception=False)
        clients[who].force_login(user)
    # A real value for each parameter a probe is not in, so the probe reaches as far as it can.
    values = {"public_id": deck.public_id, "version": "1", "number": "TS-001", "slug": "apprentice"}
    return clients, values


def _served(client: Client, method: str, url: str, **kwargs) -> int:
    return (client.get if method == "GET" else client.post)(url, **kwargs).status_code


# The URLs issue 24 found answering 500 on PostgreSQL.
ISSUE_URLS = [
    *("/d/x%00y/", "/d/x%00y/export.txt", "/d/x%00y/export.json", "/d/x%00y/sheet/", "/d/x%00y/v/1/"),
    *(f"/decks/x%00y/{page}/" for page in ("edit", "odds", "share", "import", "cards", "game/cards")),
    *("/cards/x%00y/", "/api/v1/cards/x%00y/"),
]


@pytest.mark.django_db
@pytest.mark.parametrize("url", [*ISSUE_URLS, "/d/x%01y/", "/cards/x%7Fy/", "/cards/x%C2%85y/", "/d/x%09y/"])
def test_a_path_with_a_control_character_is_a_404_with_no_query(client, django_assert_num_queries, url):
    with django_assert_num_queries(0):
        response = client.get(url)

    assert response.status_code == 404
    if url.startswith("/api/"):
        assert response.json() == {"detail": "Not found."}


@pytest.mark.django_db
@pytest.mark.parametrize("query", ["name=x%00y", "name=x%01y", "name=a%09b", "name=%C2%85", "x%00y=1"])
def test_a_query_parameter_with_a_control_character_is_a_400_naming_it(client, django_assert_num_queries, query):
    with django_assert_num_queries(0):
        response = client.get(f"/cards/?{query}")

    assert response.status_code == 400
    name = query.split("=")[0].replace("%00", "\\x00")
    assert f"“{name}”" in response.content.decode()


@pytest.mark.django_db
def test_the_api_names_the_parameter_in_its_json_error(client):
    response = client.get("/api/v1/cards/?game=gate-ruler&faction=%24%00")

    assert response.status_code == 400
    assert response.json()["field"] == "faction"
    assert "faction" in response.json()["error"]


@pytest.mark.django_db
def test_the_refusal_is_worded_in_the_players_language(client):
    response = client.get("/cards/?name=x%00y", headers={"accept-language": "ja"})

    assert response.status_code == 400
    assert "制御文字" in response.content.decode()


@pytest.mark.django_db
def test_a_search_without_control_characters_is_served(client):
    assert client.get("/cards/", {"name": "ドラゴン $1 «x»"}).status_code == 404  # looked up: no card has that name
    assert client.get("/api/v1/cards/", {"q": "ドラゴン", "faction": "Volnar"}).status_code == 200


def test_the_sweep_reaches_every_pattern():
    templates = set(url_templates())
    assert {"/d/{public_id}/v/{version}/", "/cards/{number}/", "/api/v1/cards/{number}/"} <= templates
    assert any(t.startswith("/admin/") and "{object_id}" in t for t in templates)
    assert len(templates) > 100  # the project's own, the admin's and django.contrib.auth's


def _clients_for(template: str, clients: dict[str, Client]) -> dict[str, Client]:
    """The admin's pages are for staff (the others are redirected to sign in before any id is read)."""
    if is_admin(template):
        return {"staff": clients["staff"]}
    return clients


@pytest.mark.slow
def test_a_control_character_in_any_path_parameter_is_a_404(players):
    clients, values = players
    failures = []
    for template in url_templates():
        for name in template_names(template):
            for probe in PROBES:
                url = url_fill(template, values, name, probe)
                for who, client in _clients_for(template, clients).items():
                    for method in ("GET", "POST"):
                        status = _served(client, method, url)
                        if status != 404:  # an id that cannot exist (a 500 on PostgreSQL before issue 24)
                            failures.append(f"{who} {method} {url!r}: {status}")
    assert not failures, "\n".join(failures)


@pytest.mark.slow
def test_a_control_character_in_any_query_parameter_is_a_400_and_no_form_answers_500(players):
    clients, values = players
    # NUL in one parameter at a time (the first refusal would hide the others); the other probes in
    # every parameter at once.
    failures = []
    for template in url_templates():
        url = url_fill(template, values)
        # The admin's pages read their own: the search, the order, the page and the filters kept.
        names = ADMIN_PARAMETERS if is_admin(template) else PARAMETERS
        queries = [f"{parameter}=%00" for parameter in names]
        queries += ["&".join(f"{parameter}={quote(probe)}" for parameter in names) for probe in PROBES[1:]]
        for who, client in _clients_for(template, clients).items():
            for query in queries:
                status = _served(client, "GET", f"{url}?{query}")
                if status != 400:  # naming the parameter (a 500 on PostgreSQL before issue 24)
                    failures.append(f"{who} GET {url}?{query}: {status}")
            if is_admin(template) or who == "staff":
                continue  # the admin's forms are Django's own, which refuse NUL in every field
            # A posted form: every field at once (a form refuses NUL field by field with its error).
            for probe in PROBES:
                status = _served(client, "POST", url, data=dict.fromkeys(PARAMETERS, probe))
                if status >= 500:
                    failures.append(f"{who} POST {url} with {probe!r} in every field: {status}")
    assert not failures, "\n".join(failures)
