"""The deck page's history: an editing session is one version, the owner names versions, past pages link neighbours."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from django.urls import reverse

from decks.models import DeckDraft
from decks.saved_drafts import deck_draft_of
from decks.services import deck_create_from_draft, deck_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck(deck_catalog, user):
    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main={"TS-001": 1}), name="Mine")
    for count in (2, 3, 4):  # three clicks in the editor: one version
        deck = deck_update(
            deck=deck,
            draft=replace(deck_draft_of(deck=deck), main={"TS-001": count}),
            base_version=deck.version,
            autosave=True,
        )
    return deck


def test_the_history_shows_an_editing_session_as_one_change(client, user, deck):
    client.force_login(user)
    html = client.get(reverse("deckpages:page", args=[deck.public_id])).content.decode()

    assert re.findall(r'<li data-version="(\d+)">', html) == ["2", "1"]
    assert "+3 Ember Squire 1" in html


def test_the_owner_names_the_latest_version(client, user, deck):
    client.force_login(user)
    page = reverse("deckpages:page", args=[deck.public_id])
    assert 'id="version-name-input"' in client.get(page).content.decode()

    response = client.post(reverse("deckpages:version-name", args=[deck.public_id, 2]), {"name": "Locals"}, follow=True)

    html = response.content.decode()
    assert "Version 2 is named “Locals”." in html
    assert 'data-testid="version-name">Locals<' in html


def test_no_one_else_names_a_version(client, other_user, deck):
    client.force_login(other_user)

    response = client.post(reverse("deckpages:version-name", args=[deck.public_id, 2]), {"name": "Mine now"})

    assert response.status_code == 404
    assert deck.versions.get(number=2).name == ""


def test_a_past_version_links_the_versions_before_and_after_it_with_no_gaps(client, user, deck):
    deck_update(deck=deck, draft=replace(deck_draft_of(deck=deck), main={"TS-001": 1}), base_version=4)
    client.force_login(user)

    html = client.get(reverse("deckpages:version", args=[deck.public_id, 2])).content.decode()

    assert "Version 2 of 3" in html
    assert f'href="/d/{deck.public_id}/v/1/">Version 1</a>' in html
    assert f'href="/d/{deck.public_id}/v/3/">Version 3</a>' in html
    assert client.get(reverse("deckpages:version", args=[deck.public_id, 3])).status_code == 200
    # /v/4/ was version 2's link when links took the save counter: it leads there now.
    assert client.get(reverse("deckpages:version", args=[deck.public_id, 4]))["Location"].endswith("/v/2/")
    assert client.get(reverse("deckpages:version", args=[deck.public_id, 6])).status_code == 404
