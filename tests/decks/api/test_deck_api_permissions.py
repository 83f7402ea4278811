"""Who may do what through the deck API: owner / other player / anonymous × private / unlisted /
public × read / write / delete. A private deck answers 404 to anyone but its owner (its existence
does not leak); a readable deck answers 403 to another player's write and 401 to an anonymous one."""

from __future__ import annotations

import json

import pytest

from decks.models import Deck, DeckDraft, Visibility
from decks.services import deck_create_from_draft
from tests.decks.factories import legal_apprentice_main

pytestmark = pytest.mark.django_db

OWNER, OTHER, ANONYMOUS = "owner", "other", "anonymous"
PRIVATE, UNLISTED, PUBLIC = Visibility.PRIVATE, Visibility.UNLISTED, Visibility.PUBLIC

# (who, visibility) -> (read, write, delete) status codes.
MATRIX = {
    (OWNER, PRIVATE): (200, 200, 204),
    (OWNER, UNLISTED): (200, 200, 204),
    (OWNER, PUBLIC): (200, 200, 204),
    (OTHER, PRIVATE): (404, 404, 404),
    (OTHER, UNLISTED): (200, 403, 403),
    (OTHER, PUBLIC): (200, 403, 403),
    (ANONYMOUS, PRIVATE): (404, 404, 404),
    (ANONYMOUS, UNLISTED): (200, 401, 401),
    (ANONYMOUS, PUBLIC): (200, 401, 401),
}
CASES = [(who, visibility, i) for (who, visibility) in MATRIX for i in range(3)]


@pytest.fixture
def deck_of(deck_catalog, user):
    def make(visibility: str) -> Deck:
        deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main=legal_apprentice_main()))
        Deck.objects.filter(pk=deck.pk).update(visibility=visibility)
        return deck

    return make


@pytest.fixture
def client_of(client, user, other_user):
    def make(who: str):
        if who != ANONYMOUS:
            client.force_login(user if who == OWNER else other_user)
        return client

    return make


@pytest.mark.parametrize(("who", "visibility", "action"), CASES)
def test_the_permission_matrix(client_of, deck_of, who, visibility, action):
    deck = deck_of(visibility)
    client = client_of(who)
    url = f"/api/v1/decks/{deck.public_id}/"
    expected = MATRIX[(who, visibility)][action]

    if action == 0:
        response = client.get(url)
    elif action == 1:
        response = client.patch(url, json.dumps({"version": 1, "name": "Changed"}), content_type="application/json")
    else:
        response = client.delete(url)

    assert response.status_code == expected, response.content
    deck_after = Deck.objects.filter(pk=deck.pk).first()
    if action == 0:
        if expected == 200:
            assert response.json()["public_id"] == deck.public_id
        else:
            assert response.json() == {"detail": "No such deck."}  # the same answer as for no deck at all
    elif action == 1:
        assert deck_after.name == ("Changed" if expected == 200 else deck.name)
    else:
        assert (deck_after is None) == (expected == 204)


@pytest.mark.parametrize("who", [OWNER, OTHER, ANONYMOUS])
def test_a_private_deck_and_a_missing_one_answer_alike(client_of, deck_of, who):
    client = client_of(who)
    private = deck_of(PRIVATE)

    missing = client.get("/api/v1/decks/doesnotexist1/")
    hidden = client.get(f"/api/v1/decks/{private.public_id}/")

    assert missing.status_code == 404
    assert missing.json() == {"detail": "No such deck."}
    if who != OWNER:
        assert (hidden.status_code, hidden.json()) == (missing.status_code, missing.json())


@pytest.mark.parametrize(
    ("who", "listed"), [(OWNER, {PRIVATE, UNLISTED, PUBLIC}), (OTHER, set()), (ANONYMOUS, {PUBLIC})]
)
def test_the_list_shows_what_each_may_see(client_of, deck_of, who, listed):
    decks = {visibility: deck_of(visibility).public_id for visibility in (PRIVATE, UNLISTED, PUBLIC)}
    client = client_of(who)

    shown = {d["public_id"] for d in client.get("/api/v1/decks/").json()["results"]}
    shown_public = {d["public_id"] for d in client.get("/api/v1/decks/", {"public": "true"}).json()["results"]}

    assert shown == {decks[v] for v in listed}
    assert shown_public == {decks[PUBLIC]}  # unlisted decks are never listed


def test_only_signed_in_players_create_decks(client, deck_catalog):
    response = client.post(
        "/api/v1/decks/", json.dumps({"ruler": "apprentice", "main": []}), content_type="application/json"
    )

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert not Deck.objects.exists()
