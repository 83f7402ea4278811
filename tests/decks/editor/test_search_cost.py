"""What a search in the editor's card browser costs the server: its queries, counted (never timed),
and that drawing only the results (the deck judged, not drawn) answers what the whole editor state did.

The counts are the ones measured when the search was made cheaper (docs/benchmarks.md, "Third
round: search"); a test fails when a search needs more.
"""

from __future__ import annotations

import re

import pytest

from decks.editor import views
from decks.editor.state import deck_editor_state
from decks.models import DeckDraft
from decks.saved_drafts import OwnedDraft, deck_draft_of
from decks.selectors import deck_get_for_owner
from decks.services import deck_create_from_draft
from tests.decks.factories import gambit_draft, game_deck, legal_apprentice_main, runners_draft

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
# A saved deck's search: the session, the user, the deck with its lines (one query: two before), the
# catalog's token (none on PostgreSQL, whose notifications tell it) and the page's cards (the cards
# themselves from the catalog memory).
SAVED_SEARCH_QUERIES = 5
# A draft's search: the session, the catalog's token and the page's cards.
DRAFT_SEARCH_QUERIES = 3
SEARCHES = (
    {"q": ""},
    {"q": "squire"},
    {"q": "squire", "view": "grid"},
    {"q": "", "usable": "1"},
    {"q": "", "offset": "5"},
    {"q": "", "faction": "volnar", "level_max": "1"},
    {"q": "lv<=two"},
    {"q": "t:ev"},
)


@pytest.fixture
def saved(deck_catalog, user, client):
    client.force_login(user)
    draft = DeckDraft(
        ruler="apprentice",
        geas="oath-of-the-lone-banner",
        main={**legal_apprentice_main(), "TS-200": 1},
        resources={"TS-300": 1},
        considering={"TS-150": 2},
    )
    return deck_create_from_draft(owner=user, draft=draft)


def search(client, path, params):
    response = client.get(path, params, headers=HX)
    assert response.status_code == 200
    return response


def test_a_saved_decks_search_keeps_its_queries(client, saved, django_assert_max_num_queries):
    path = f"/decks/{saved.public_id}/cards/"
    answers(client, path)  # the catalog memory filled with the results' cards

    for params in SEARCHES:
        with django_assert_max_num_queries(SAVED_SEARCH_QUERIES):
            html = search(client, path, params).content.decode()
        assert 'id="card-results"' in html


def test_a_drafts_search_keeps_its_queries(client, deck_catalog, django_assert_max_num_queries):
    client.post("/decks/new/change/", {"op": "add main TS-002"}, headers=HX)
    answers(client, "/decks/new/cards/")

    for params in SEARCHES:
        with django_assert_max_num_queries(DRAFT_SEARCH_QUERIES):
            html = search(client, "/decks/new/cards/", params).content.decode()
        assert 'id="card-results"' in html
    assert 'data-number="TS-002"' in search(client, "/decks/new/cards/", {"q": "squire 2"}).content.decode()


def answers(client, path):
    return [(r.content, r.headers.get("HX-Replace-Url")) for r in (search(client, path, params) for params in SEARCHES)]


def test_a_saved_decks_search_answers_as_the_whole_editor_state_did(client, saved, monkeypatch):
    path = f"/decks/{saved.public_id}/cards/"
    cheap = answers(client, path)

    # The search as it was: the deck's model instance, then its lines, then the whole editor state.
    monkeypatch.setattr(
        views,
        "deck_draft_for_owner",
        lambda *, public_id, user: OwnedDraft(
            public_id, 0, deck_draft_of(deck=deck_get_for_owner(public_id=public_id, user=user))
        ),
    )
    monkeypatch.setattr(views, "deck_judged", deck_editor_state)

    assert answers(client, path) == cheap
    assert b"Old Wyrm" in cheap[0][0]
    assert b'data-addable="false"' in cheap[0][0]


def test_a_drafts_search_answers_as_the_whole_editor_state_did(client, deck_catalog, monkeypatch):
    for op in ("add main TS-001", "add main TS-001", "add main TS-200", "add considering TS-150"):
        client.post("/decks/new/change/", {"op": op}, headers=HX)
    cheap = answers(client, "/decks/new/cards/")

    monkeypatch.setattr(views, "deck_judged", deck_editor_state)

    assert answers(client, "/decks/new/cards/") == cheap
    assert b"2 in deck" in cheap[0][0]


# ---------------------------------------------------------------- the games whose identity is a card: the same shape

GAME_SEARCHES = ({"q": ""}, {"q": "imp"}, {"q": "t:hero"}, {"q": "", "offset": "30"}, {"q": "lv<=x"}, {"type": "unit"})


def game_answers(client, path):
    responses = [client.get(path, params, headers=HX) for params in GAME_SEARCHES]
    assert all(r.status_code == 200 for r in responses)
    # The form's CSRF token is masked afresh in every answer: the same token, other bytes.
    return [re.sub(rb'name="csrfmiddlewaretoken" value="[^"]+"', b"CSRF", r.content) for r in responses]


@pytest.mark.parametrize("draft", [gambit_draft, runners_draft])
def test_a_saved_game_decks_search_answers_as_the_whole_editor_state_did(
    client, rules, game_catalog, user, monkeypatch, django_assert_max_num_queries, draft
):
    client.force_login(user)
    deck = game_deck(user, draft(), visibility="private")
    path = f"/decks/{deck.public_id}/game/cards/"
    cheap = game_answers(client, path)
    with django_assert_max_num_queries(SAVED_SEARCH_QUERIES):
        client.get(path, {"q": ""}, headers=HX)

    # The search as it was: the deck's model instance (its version in the form), its lines, the editor's state.
    monkeypatch.setattr(
        views,
        "deck_draft_for_owner",
        lambda *, public_id, user: OwnedDraft(
            public_id, 0, deck_draft_of(deck=deck_get_for_owner(public_id=public_id, user=user))
        ),
    )
    monkeypatch.setattr(views, "deck_judged", deck_editor_state)

    assert game_answers(client, path) == cheap
    # The results' buttons post the page's #change-form, which carries the deck's version: they carry none.
    assert b'form="change-form"' in cheap[0]
    assert b'name="base_version"' not in cheap[0]
    assert any(b'data-addable="false"' in answer for answer in cheap)


def test_a_game_drafts_search_answers_as_the_whole_editor_state_did(client, rules, game_catalog, monkeypatch):
    client.get("/decks/new/", {"game": "rulers-gambit"})
    client.post("/decks/new/game/change/", {"op": "add kingdom RGT-001"}, headers=HX)
    cheap = game_answers(client, "/decks/new/game/cards/")

    monkeypatch.setattr(views, "deck_judged", deck_editor_state)

    assert game_answers(client, "/decks/new/game/cards/") == cheap
    assert b'value="add kingdom RGT-001"' in cheap[0]
