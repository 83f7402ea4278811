"""The owner's visibility form: on the deck page and in the editor's save area."""

from __future__ import annotations

import pytest
from django.urls import reverse

from decks.models import DeckDraft, Visibility
from decks.services import deck_create_from_draft

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck(deck_catalog, user):
    return deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main={"TS-001": 1}), name="Mine")


def post(client, deck, **data):
    return client.post(reverse("deckpages:visibility", args=[deck.public_id]), data)


def test_it_goes_back_where_the_form_was(client, deck, user):
    client.force_login(user)
    editor = reverse("decks:edit", args=[deck.public_id])

    response = post(client, deck, visibility="unlisted", next=editor)

    assert response.status_code == 302
    assert response["Location"] == editor
    deck.refresh_from_db()
    assert deck.visibility == Visibility.UNLISTED
    html = client.get(editor).content.decode()
    assert "is now unlisted (anyone with the link)" in html


def test_it_never_goes_back_to_another_site(client, deck, user):
    client.force_login(user)

    response = post(client, deck, visibility="public", next="https://evil.example/")

    assert response["Location"] == reverse("deckpages:page", args=[deck.public_id])


def test_an_unknown_visibility_changes_nothing_and_says_so(client, deck, user):
    client.force_login(user)

    response = post(client, deck, visibility="everyone")
    html = client.get(response["Location"]).content.decode()

    deck.refresh_from_db()
    assert deck.visibility == Visibility.PRIVATE
    assert "Visibility not changed" in html


def test_the_editor_offers_the_form_and_the_deck_page_link(client, deck, user):
    client.force_login(user)
    editor = reverse("decks:edit", args=[deck.public_id])

    html = client.get(editor).content.decode()
    # A rename redraws the header from the change URL (a card change only its save status): the
    # form still comes back to the editor page.
    change = client.post(
        reverse("decks:change", args=[deck.public_id]),
        {"action": "rename", "name": deck.name, "base_version": deck.version},
        headers={"HX-Request": "true"},
    ).content.decode()

    for page in (html, change):
        assert f'action="/d/{deck.public_id}/visibility/"' in page
        assert f'name="next" value="{editor}"' in page
        assert '<option value="private" selected>' in page
    assert f'href="/d/{deck.public_id}/" data-testid="share-link"' in html


def test_the_deck_page_shows_the_form_with_the_current_visibility(client, deck, user):
    client.force_login(user)
    post(client, deck, visibility="public")

    html = client.get(reverse("deckpages:page", args=[deck.public_id])).content.decode()

    assert '<option value="public" selected>' in html
    assert 'data-testid="visibility">Public (listed in browse)<' in html
