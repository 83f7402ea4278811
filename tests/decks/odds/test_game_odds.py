"""Draw odds of a Ruler's Gambit and a GateRunners deck: the game's draw pattern, going first and second."""

from __future__ import annotations

import re

import pytest

from decks.odds.selectors import deck_draw_odds
from tests.decks.factories import gambit_draft, game_deck, runners_draft

pytestmark = pytest.mark.django_db


def test_a_rulers_gambit_deck_sees_5_then_1_a_turn_and_the_first_player_skips_a_draw(game_catalog):
    odds = deck_draw_odds(draft=gambit_draft(), group="card:Ember Imp 1")

    assert odds.deck_size == 39
    assert odds.group.count == 2
    assert [(row.seen_first, row.seen_second) for row in odds.rows[:3]] == [(5, 6), (6, 7), (7, 8)]
    assert odds.first_turn_rulers == []
    assert any(group.key == "colours:red" for group in odds.groups)


def test_a_gaterunners_deck_sets_7_shields_aside_and_sees_6(game_catalog):
    odds = deck_draw_odds(draft=runners_draft(), group="type:unit")

    assert odds.deck_size == 40
    assert odds.group.count == 40
    assert odds.rows[0].seen_first == 6
    assert odds.rows[0].seen_second == 7
    assert odds.rows[0].first == 1


def test_the_odds_page_of_a_saved_game_deck(client, game_catalog, user):
    deck = game_deck(user, gambit_draft())

    response = client.get(f"/decks/{deck.public_id}/odds/", {"group": "card:Ember Imp 1", "k": 1})

    html = response.content.decode()
    assert response.status_code == 200
    assert 'data-testid="odds-table"' in html
    assert "A Ruler&#x27;s Gambit player sees 5 at setup, then 1 a turn" in html
    assert "going second" in html
    # Its help says what holds for its own draws: no Gate Ruler drive, ruler, Raider or loss on an empty deck.
    assert "means drawn from the deck into your hand" in html
    for gate_ruler_only in ("drive", "Raider", "first turn differs", "the game is lost"):
        assert gate_ruler_only not in html


def test_the_default_group_of_a_deck_of_units_is_a_card_not_all_units(game_catalog):
    # 39 red units (gambit_draft), 40 units (runners_draft): "Unit cards" would read 100 % every turn.
    gambit = deck_draw_odds(draft=gambit_draft())
    runners = deck_draw_odds(draft=runners_draft())

    assert (gambit.group.key, gambit.group.count) == ("card:Ember Imp 1", 2)
    assert runners.group.single_card
    assert runners.group.count == 2
    for odds in (gambit, runners):
        assert odds.rows[0].first < 1
        assert odds.rows[0].first < odds.rows[-1].first


def test_an_unknown_group_falls_back_to_the_default_not_the_first(game_catalog):
    odds = deck_draw_odds(draft=gambit_draft(), group="card:Gone Since")

    assert odds.group.key == "card:Ember Imp 1"
    assert odds.groups[0].key == "type:unit"


def test_the_odds_page_of_a_game_deck_shows_the_default_group_selected(client, game_catalog, user):
    deck = game_deck(user, gambit_draft())

    html = client.get(f"/decks/{deck.public_id}/odds/").content.decode()

    assert re.search(r'<option value="card:Ember Imp 1"[^>]*selected', html)
    assert not re.search(r'<option value="type:unit"[^>]*selected', html)
    assert "100%" not in html[html.index('data-testid="odds-table"') :]
