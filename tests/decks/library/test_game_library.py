"""My decks, browse and compare with decks of Ruler's Gambit and GateRunners beside Gate Ruler's."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from decks.models import DeckDraft
from decks.services import deck_save
from tests.decks.factories import gambit_draft, game_deck, legal_apprentice_main, runners_draft

pytestmark = pytest.mark.django_db

BROWSE = "/decks/browse/"


def names_in(html: str) -> list[str]:
    return sorted(re.findall(r'<td><a href="/d/[^"]+/">([^<]+)</a></td>', html))


@pytest.fixture
def three_games(deck_catalog, game_catalog, user):
    squires = DeckDraft(ruler="apprentice", name="Squires", main=legal_apprentice_main())
    return (
        deck_save(owner=user, draft=squires, visibility="public"),
        game_deck(user, gambit_draft()),
        game_deck(user, runners_draft(others={"hero": {"GRT-001": 1}})),
    )


def test_browse_filters_by_game_and_offers_the_ruler_filters_for_gate_ruler_only(client, three_games):
    def page(**query):
        return client.get(BROWSE, query).content.decode()

    assert names_in(page()) == ["Embers", "Runners", "Squires"]
    assert names_in(page(game="rulers-gambit")) == ["Embers"]
    assert names_in(page(game="gaterunners", legal="true")) == []  # no Gates
    assert names_in(page(game="gate-ruler")) == ["Squires"]
    assert 'id="f-ruler"' in page(game="gate-ruler")
    assert 'id="f-ruler"' not in page(game="gaterunners")
    assert '<td data-game="rulers-gambit">Ruler&#x27;s Gambit</td>' in page(game="rulers-gambit")


def test_browse_finds_a_game_deck_by_a_card_of_its_identity_section(client, three_games):
    assert names_in(client.get(BROWSE, {"card": "Fire Kingdom"}).content.decode()) == ["Embers"]


def test_the_decks_api_filters_by_game(client, three_games):
    results = client.get("/api/v1/decks/", {"public": "true", "game": "gaterunners"}).json()["results"]

    assert [deck["name"] for deck in results] == ["Runners"]
    assert client.get("/api/v1/decks/", {"public": "true", "game": "chess"}).status_code == 400


def test_my_decks_show_each_decks_game(client, three_games, user):
    client.force_login(user)

    html = client.get("/decks/").content.decode()

    # (On a phone each cell is labelled: data-label.)
    assert re.search(r'<td data-game="gaterunners" data-label="[^"]+">GateRunners', html)
    assert re.search(r'<td data-game="gate-ruler" data-label="[^"]+">Apprentice', html)
    embers = three_games[1]
    # Every game's deck opens in its editor from My decks.
    assert f'<td><a href="/decks/{embers.public_id}/edit/">Embers</a>' in html


def test_compare_two_decks_of_a_game_section_by_section(client, three_games, user):
    client.force_login(user)
    other = game_deck(user, gambit_draft(name="Tides", others={"kingdom": {"RGT-002": 1}}))

    html = client.get(reverse("deckpages:compare"), {"a": three_games[1].public_id, "b": other.public_id}).content
    html = re.sub(r"\s+<small>", " <small>", html.decode())

    assert 'Fire Kingdom</a> <small>(Kingdom)</small></td><td class="num">1</td><td class="num">—</td>' in html
    assert 'Tide Kingdom</a> <small>(Kingdom)</small></td><td class="num">—</td><td class="num">1</td>' in html


def test_a_game_decks_history_names_the_section_changed(client, three_games, user):
    from decks.saved_drafts import deck_draft_of
    from decks.services import deck_update

    deck = three_games[2]
    draft = deck_draft_of(deck=deck).with_section("gates", {"GRT-011": 1, "GRT-012": 1, "GRT-013": 1})
    deck_update(deck=deck, draft=draft, base_version=deck.version)

    html = client.get(f"/d/{deck.public_id}/").content.decode()

    assert "+1 East Gate (Gates)" in html
