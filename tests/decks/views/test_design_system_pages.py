"""Every page is styled by the one design system: static/gatesite.css is linked from each, before the page's own sheets."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from decks.models import DeckDraft, Visibility
from decks.services import deck_create_from_draft, deck_visibility_set
from decks.sharing.services import deck_copy
from tests.decks.factories import legal_apprentice_main

pytestmark = pytest.mark.django_db

LINK = '<link rel="stylesheet" href="/static/gatesite.css">'


@pytest.fixture
def site(deck_catalog):
    owner = get_user_model().objects.create_superuser("designer", password="a-long-test-password")
    draft = DeckDraft(ruler="apprentice", main=legal_apprentice_main())
    deck = deck_visibility_set(
        deck=deck_create_from_draft(owner=owner, draft=draft, name="Squire rush"), visibility=Visibility.PUBLIC
    )
    return {"owner": owner, "deck": deck, "copy": deck_copy(source=deck, owner=owner)}


def _pages(site):
    deck, copy = site["deck"].public_id, site["copy"].public_id
    return [
        "/",
        "/decks/new/",
        f"/decks/{deck}/edit/",
        "/decks/",
        "/decks/browse/",
        f"/decks/compare/?a={deck}&b={copy}",
        f"/d/{deck}/",
        f"/d/{deck}/v/1/",
        f"/decks/{deck}/odds/",
        f"/decks/{deck}/import/",
        "/cards/TS-001/",
        "/stats/",
        "/accounts/password_change/",
    ]


def _stylesheets(html):
    return re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)


def test_every_page_links_the_design_system_first(client, site):
    client.force_login(site["owner"])
    for url in _pages(site):
        response = client.get(url)
        assert response.status_code == 200, url
        sheets = _stylesheets(response.content.decode())
        assert sheets[:1] == ["/static/gatesite.css"], f"{url}: stylesheets {sheets}"


@pytest.mark.parametrize("url", ["/accounts/login/", "/accounts/signup/"])
def test_the_signed_out_pages_link_it_too(client, url):
    assert LINK in client.get(url).content.decode()


def test_no_page_keeps_an_inline_style_block(client, site):
    """The base's old inline <style> and the statistics page's moved into gatesite.css."""
    client.force_login(site["owner"])
    for url in ["/", "/stats/", "/cards/TS-001/", "/decks/"]:
        assert "<style" not in client.get(url).content.decode(), url


def test_my_decks_marks_each_cell_for_the_stacked_phone_layout(client, site):
    client.force_login(site["owner"])
    html = client.get("/decks/").content.decode()
    assert '<table class="deck-rows" data-testid="deck-rows">' in html
    assert '<td data-game="gate-ruler" data-label="Game and ruler">' in html
    for label in ["Cards", "Legal?", "Visibility", "Tags", "Last change"]:
        assert f'<td data-label="{label}">' in html
    assert 'class="button-danger" aria-label="Delete Squire rush (moves it to the trash)"' in html


def test_compare_links_each_card_name_to_its_card_page(client, site):
    client.force_login(site["owner"])
    a, b = site["deck"].public_id, site["copy"].public_id
    html = client.get(f"/decks/compare/?a={a}&b={b}").content.decode()
    link = '<a href="/cards/?name=Ember%20Squire%201">Ember Squire 1</a>'
    assert link in html
    assert client.get("/cards/?name=Ember%20Squire%201")["Location"] == "/cards/TS-001/"
