"""Undo and redo in both editors (decks/editor/undo.py): each answer says the deck's state, and a restore is a change
like any other: judged, saved and versioned for a saved deck, refused when the deck changed elsewhere."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from decks.editor.undo import STATE_HEADER, draft_state_code
from decks.models import Deck, DeckDraft
from decks.saved_drafts import deck_draft_of
from decks.services import deck_create_from_draft
from tests.decks.editor.views.drafts import with_draft
from tests.decks.factories import gambit_draft, game_deck

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def page_state(html: str) -> str:
    match = re.search(r'id="undo-form"[^>]*data-state="([^"]+)"', html, re.S)
    assert match, "no undo form with the deck's state"
    return match.group(1)


def restore(client, url, code, **extra):
    return client.post(url, {"action": "restore", "state": code, **extra}, headers=HX)


def test_a_draft_s_page_and_every_change_say_its_state_and_an_undo_brings_the_old_one_back(client, deck_catalog):
    before = page_state(client.get("/decks/new/").content.decode())

    added = client.post("/decks/new/change/", {"op": "add main TS-001"}, headers=HX)
    considered = client.post("/decks/new/change/", {"op": "to_considering main TS-001"}, headers=HX)

    assert added[STATE_HEADER] not in (before, considered[STATE_HEADER])
    undone = restore(client, "/decks/new/change/", added[STATE_HEADER])
    assert undone.status_code == 200
    assert undone[STATE_HEADER] == added[STATE_HEADER]
    draft = DeckDraft.from_session(client.session["deck_draft"])
    assert (draft.main, draft.considering) == ({"TS-001": 1}, {})
    html = undone.content.decode()
    assert 'data-number="TS-001" data-section="main"' in html
    # A restore may bring other rules back: the pickers and the results are drawn again.
    assert re.search(r'id="rules-panel"[^>]*hx-swap-oob="true"', html)

    assert restore(client, "/decks/new/change/", before)[STATE_HEADER] == before
    assert DeckDraft.from_session(client.session["deck_draft"]).main == {}


def test_an_undo_brings_back_the_ruler_and_the_geas_it_dropped(client, deck_catalog):
    with_draft(client, DeckDraft(ruler="apprentice", main={"TS-001": 2}))
    before = page_state(client.get("/decks/new/").content.decode())
    client.post("/decks/new/change/", {"action": "set_ruler", "value": "knight"}, headers=HX)

    restore(client, "/decks/new/change/", before)

    draft = DeckDraft.from_session(client.session["deck_draft"])
    assert (draft.ruler, draft.main) == ("apprentice", {"TS-001": 2})


def test_a_code_it_did_not_write_is_refused_and_changes_nothing(client, deck_catalog):
    with_draft(client, DeckDraft(ruler="apprentice", main={"TS-001": 2}))

    response = restore(client, "/decks/new/change/", "1garbage")

    assert response.status_code == 422
    assert STATE_HEADER not in response
    assert "That undo step could not be read" in response.content.decode()
    assert DeckDraft.from_session(client.session["deck_draft"]).main == {"TS-001": 2}


def test_an_undo_of_a_saved_deck_is_saved_as_its_next_version(client, user, deck_catalog):
    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main={"TS-001": 2}), name="Squires")
    client.force_login(user)
    url = reverse("decks:change", args=[deck.public_id])
    before = page_state(client.get(reverse("decks:edit", args=[deck.public_id])).content.decode())
    client.post(url, {"op": "set_count main TS-001 4", "base_version": 1}, headers=HX)

    undone = restore(client, url, before, base_version=2)

    deck = Deck.objects.get(pk=deck.pk)
    assert undone.status_code == 200
    assert deck.version == 3
    assert deck_draft_of(deck=deck).main == {"TS-001": 2}
    assert deck.name == "Squires"
    assert 'data-testid="deck-version">3<' in undone.content.decode()


def test_an_undo_based_on_an_old_version_is_refused_as_any_change_is(client, user, deck_catalog):
    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main={"TS-001": 2}), name="Squires")
    client.force_login(user)
    url = reverse("decks:change", args=[deck.public_id])
    before = page_state(client.get(reverse("decks:edit", args=[deck.public_id])).content.decode())
    client.post(url, {"op": "add main TS-002", "base_version": 1}, headers=HX)  # another tab saved first

    response = restore(client, url, before, base_version=1)

    assert response.status_code == 409
    assert deck_draft_of(deck=Deck.objects.get(pk=deck.pk)).main == {"TS-001": 2, "TS-002": 1}


def test_the_other_games_editor_undoes_a_draft_s_change(client, rules, game_catalog):
    with_draft(client, gambit_draft())
    before = page_state(client.get("/decks/new/").content.decode())

    added = client.post("/decks/new/game/change/", {"op": "add main RGT-040", "game": "rulers-gambit"}, headers=HX)
    undone = restore(client, "/decks/new/game/change/", before, game="rulers-gambit")

    assert added[STATE_HEADER] != before
    assert undone.status_code == 200
    assert undone[STATE_HEADER] == before
    assert DeckDraft.from_session(client.session["deck_draft"]) == gambit_draft()


def test_the_other_games_editor_saves_an_undo_as_a_version(client, user, rules, game_catalog):
    deck = game_deck(user, gambit_draft())
    client.force_login(user)
    url = reverse("decks:game-change", args=[deck.public_id])
    before = page_state(client.get(reverse("decks:edit", args=[deck.public_id])).content.decode())
    client.post(url, {"op": "remove main RGT-011", "base_version": deck.version}, headers=HX)

    undone = restore(client, url, before, base_version=deck.version + 1)

    saved = Deck.objects.get(pk=deck.pk)
    assert undone.status_code == 200
    assert saved.version == deck.version + 2
    assert deck_draft_of(deck=saved).main == gambit_draft().main
    assert draft_state_code(deck_draft_of(deck=saved)) == before
