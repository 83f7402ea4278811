"""Who may do what with a deck, through the pages: owner / other player / anonymous × private / unlisted / public.

Reading (the deck page, a past version) and copying follow decks.selectors.deck_get_for_viewer:
someone else's private deck is a 404, so its existence does not leak. Writes (visibility, tags,
archive) are the owner's: a 404 where the deck is not even readable, 403 where it is, and a
login redirect for an anonymous visitor. Nothing is changed by a refused request.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from decks.models import Deck, DeckDraft, DeckTag, Visibility
from decks.services import deck_create_from_draft, deck_visibility_set

pytestmark = pytest.mark.django_db

VISIBILITIES = [Visibility.PRIVATE, Visibility.UNLISTED, Visibility.PUBLIC]
PERSONAS = ["owner", "other", "anonymous"]


@pytest.fixture
def deck(deck_catalog, user):
    return deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main={"TS-001": 2}), name="Alice's")


@pytest.fixture
def as_persona(client, user, other_user):
    def login(persona):
        if persona == "owner":
            client.force_login(user)
        elif persona == "other":
            client.force_login(other_user)
        return client

    return login


def readable(persona, visibility):
    return persona == "owner" or visibility != Visibility.PRIVATE


def expected_write_status(persona, visibility):
    if persona == "owner":
        return 302
    if persona == "anonymous":
        return 302  # to the login page
    return 403 if readable(persona, visibility) else 404


@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("persona", PERSONAS)
def test_reading_the_deck_page_and_a_past_version(deck, as_persona, persona, visibility):
    deck_visibility_set(deck=deck, visibility=visibility)
    client = as_persona(persona)

    page = client.get(reverse("deckpages:page", args=[deck.public_id]))
    version = client.get(reverse("deckpages:version", args=[deck.public_id, 1]))

    status = 200 if readable(persona, visibility) else 404
    assert (page.status_code, version.status_code) == (status, status)
    if status == 404:
        assert "Alice&#x27;s" not in page.content.decode()


@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("persona", PERSONAS)
def test_changing_the_visibility(deck, as_persona, persona, visibility):
    deck_visibility_set(deck=deck, visibility=visibility)
    target = Visibility.PUBLIC if visibility != Visibility.PUBLIC else Visibility.UNLISTED

    response = as_persona(persona).post(reverse("deckpages:visibility", args=[deck.public_id]), {"visibility": target})

    assert response.status_code == expected_write_status(persona, visibility)
    deck.refresh_from_db()
    assert deck.visibility == (target if persona == "owner" else visibility)
    if persona == "anonymous":
        assert response["Location"].startswith("/accounts/login/")


@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("persona", PERSONAS)
def test_tagging(deck, as_persona, persona, visibility):
    deck_visibility_set(deck=deck, visibility=visibility)
    DeckTag.objects.create(deck=deck, name="old")
    client = as_persona(persona)
    url = reverse("deckpages:tag", args=[deck.public_id])

    added = client.post(url, {"name": "new"})
    removed = client.post(url, {"name": "old", "remove": "1"})

    status = expected_write_status(persona, visibility)
    assert (added.status_code, removed.status_code) == (status, status)
    tags = set(deck.tags.values_list("name", flat=True))
    assert tags == ({"new"} if persona == "owner" else {"old"})


@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("persona", PERSONAS)
def test_archiving(deck, as_persona, persona, visibility):
    deck_visibility_set(deck=deck, visibility=visibility)

    response = as_persona(persona).post(reverse("deckpages:archive", args=[deck.public_id]), {"archived": "on"})

    assert response.status_code == expected_write_status(persona, visibility)
    deck.refresh_from_db()
    assert deck.archived is (persona == "owner")


@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("persona", PERSONAS)
def test_deleting(deck, as_persona, persona, visibility):
    deck_visibility_set(deck=deck, visibility=visibility)

    response = as_persona(persona).post(reverse("decks:delete", args=[deck.public_id]))

    if persona == "owner":
        assert response.status_code == 302
        assert not Deck.objects.filter(pk=deck.pk).exists()
    else:
        assert response.status_code == expected_write_status(persona, visibility)
        assert Deck.objects.filter(pk=deck.pk).exists()


@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("persona", PERSONAS)
def test_copying(deck, as_persona, persona, visibility, user, other_user):
    deck_visibility_set(deck=deck, visibility=visibility)

    response = as_persona(persona).post(reverse("deckpages:copy", args=[deck.public_id]))

    copies = Deck.objects.filter(forked_from=deck)
    deck.refresh_from_db()
    if persona == "anonymous":
        assert response.status_code == 302
        # Back to the deck page after logging in (the copy URL answers POSTs only).
        assert response["Location"] == f"/accounts/login/?next=/d/{deck.public_id}/"
        assert not copies.exists()
    elif readable(persona, visibility):
        copy = copies.get()
        assert response.status_code == 302
        assert response["Location"] == reverse("decks:edit", args=[copy.public_id])
        assert copy.owner == (user if persona == "owner" else other_user)
        assert deck.copies_count == 1
    else:
        assert response.status_code == 404
        assert not copies.exists()
        assert deck.copies_count == 0


@pytest.mark.parametrize("url_name", ["visibility", "tag", "archive", "copy"])
def test_writes_refuse_a_get(deck, client, user, url_name):
    client.force_login(user)

    assert client.get(reverse(f"deckpages:{url_name}", args=[deck.public_id])).status_code == 405


def test_writes_need_the_csrf_token(deck, user):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(user)

    response = client.post(reverse("deckpages:visibility", args=[deck.public_id]), {"visibility": "public"})

    assert response.status_code == 403
    deck.refresh_from_db()
    assert deck.visibility == Visibility.PRIVATE
