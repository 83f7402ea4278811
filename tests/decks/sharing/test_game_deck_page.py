"""The deck page /d/<id>/ of a Ruler's Gambit and a GateRunners deck: sections by the game's labels,
the verdict with the game's rules panel and its assumptions."""

from __future__ import annotations

import re

import pytest

from decks.models import Deck
from decks.saved_drafts import deck_draft_of
from tests.decks.factories import gambit_draft, game_deck, runners_draft

pytestmark = pytest.mark.django_db


def test_a_rulers_gambit_deck_page(client, game_catalog, user):
    deck = game_deck(user, gambit_draft())

    response = client.get(f"/d/{deck.public_id}/")

    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-testid="game">Ruler&#x27;s Gambit<' in html
    assert 'data-testid="identity">Fire Kingdom<' in html
    assert 'data-section="kingdom">Kingdom (1)<' in html
    assert 'data-section="main">Main deck (39)<' in html
    assert 'data-legal="true"' in html
    assert "Not stated in the rules; this site assumes" in html
    assert response.context["page"].summary == "Ruler's Gambit · Kingdom: Fire Kingdom · 39 cards · Legal"


def test_a_gaterunners_deck_page_shows_what_breaks(client, game_catalog, user):
    draft = runners_draft(others={"hero": {"GRT-001": 1}, "gates": {"GRT-011": 1, "GRT-012": 1}})
    deck = game_deck(user, draft)

    html = client.get(f"/d/{deck.public_id}/").content.decode()

    assert 'data-section="hero">Hero (1)<' in html
    assert 'data-section="gates">Gates (2)<' in html
    assert 'data-legal="false"' in html
    assert '<li data-rule="gates"><span class="violation-message">' in html
    assert 'data-testid="draw-pattern"' in html


def test_a_past_version_of_a_game_deck(client, game_catalog, user):
    deck = game_deck(user, gambit_draft())

    response = client.get(f"/d/{deck.public_id}/v/1/")

    assert response.status_code == 200
    assert 'data-testid="identity">Fire Kingdom<' in response.content.decode()


def test_copy_to_my_decks_keeps_the_game_and_opens_the_copy_in_the_editor(client, game_catalog, user, other_user):
    deck = game_deck(user, runners_draft())
    client.force_login(other_user)

    response = client.post(f"/d/{deck.public_id}/copy/")

    copy = Deck.objects.get(owner=other_user)
    assert response.status_code == 302
    assert response["Location"] == f"/decks/{copy.public_id}/edit/"
    assert copy.game == "gaterunners"
    assert copy.forked_from == deck
    assert deck_draft_of(deck=copy).others == runners_draft().others


def test_the_owner_of_a_game_deck_may_edit_it_from_its_page(client, game_catalog, user):
    deck = game_deck(user, gambit_draft())
    client.force_login(user)

    html = client.get(f"/d/{deck.public_id}/").content.decode()

    assert f'href="/decks/{deck.public_id}/edit/" data-testid="edit-deck"' in html


def test_a_game_deck_page_in_japanese(client, game_catalog, user):
    draft = runners_draft(others={"hero": {"GRT-001": 1}, "gates": {"GRT-011": 1, "GRT-012": 1}})
    deck = game_deck(user, draft)

    html = client.get(f"/d/{deck.public_id}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()

    assert 'data-testid="verdict">使用不可:問題 ' in html  # the Gate Ruler page's words, not English
    assert "のルールで判定。" in html
    assert "のデッキ</h2>" in html
    assert "Judged by the rules of" not in html
    assert "At the last save or revalidation" not in html


def test_a_game_deck_pages_rules_panel_says_each_assumption_once(client, game_catalog, user):
    deck = game_deck(user, gambit_draft())

    html = client.get(f"/d/{deck.public_id}/").content.decode()

    assert html.count('data-testid="rules-panel"') == 1
    assert "this site assumes: Not stated in the rules" not in html  # the data's text already says so
    assert html.count("Not stated in the rules; this site") == html.count('data-testid="assumption"')


def test_a_game_decks_registration_sheet_in_japanese(client, game_catalog, user):
    deck = game_deck(user, gambit_draft())

    html = client.get(f"/d/{deck.public_id}/sheet/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()

    assert "コレクター番号" in html
    assert 'data-testid="sheet-main-total">39</td><td colspan="3">枚</td>' in html
    assert "のルールで、印刷時に Gatesite が判定。" in html
    assert "Collector no." not in html


def test_the_game_deck_page_peeks_at_each_card_too(client, game_catalog, user):
    deck = game_deck(user, runners_draft(considering={"GRT-014": 1}))

    html = client.get(f"/d/{deck.public_id}/").content.decode()

    assert 'aria-describedby="peek-hero-GRT-001"' in html
    assert '<div class="card-peek" id="peek-hero-GRT-001" role="tooltip">' in html
    assert "<div><dt>Power</dt><dd>2</dd></div>" in re.sub(r">\s+<", "><", html)
    assert "West Gate" not in html  # the owner's considering board is not part of the deck shown
