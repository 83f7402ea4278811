"""The statistics are Gate Ruler's figures: another game's public decks are left out of them."""

from __future__ import annotations

import pytest

from decks.models import DeckDraft
from decks.services import deck_save
from decks.stats.models import CardInclusion, RulerShare
from decks.stats.services import statistics_recompute
from tests.decks.factories import gambit_draft, game_deck, legal_apprentice_main

pytestmark = pytest.mark.django_db


def test_a_rulers_gambit_deck_is_not_in_gate_rulers_figures(deck_catalog, game_catalog, user):
    deck_save(owner=user, draft=DeckDraft(ruler="apprentice", main=legal_apprentice_main()), visibility="public")
    game_deck(user, gambit_draft())

    run = statistics_recompute(min_pair_decks=1, min_pair_share=0)

    every_ruler = RulerShare.objects.get(run=run, ruler__isnull=True)
    assert every_ruler.decks == 1  # the Gate Ruler deck only
    included = set(CardInclusion.objects.filter(run=run).values_list("card__game", flat=True))
    assert included == {"gate-ruler"}


def test_each_other_game_has_its_own_figures(client, deck_catalog, game_catalog, user):
    from decks.stats.models import GameCardShare

    game_deck(user, gambit_draft())
    game_deck(user, gambit_draft(name="Tides", others={"kingdom": {"RGT-002": 1}}, main={"RGT-011": 1}))
    game_deck(user, gambit_draft(name="Private"), visibility="private")

    run = statistics_recompute(min_pair_decks=1, min_pair_share=0)

    rows = {(r.game, r.part, r.card.name if r.card else None): r for r in GameCardShare.objects.filter(run=run)}
    assert rows[("rulers-gambit", "decks", None)].decks == 2
    assert rows[("rulers-gambit", "identity", "Fire Kingdom")].share == 0.5
    imp = rows[("rulers-gambit", "main", "Ember Imp 1")]
    assert (imp.decks, imp.share, imp.avg_copies) == (2, 1.0, 1.5)
    assert ("gaterunners", "decks", None) not in rows  # no public GateRunners deck
    html = client.get("/stats/").content.decode()
    assert '<h2 id="game-rulers-gambit" data-game="rulers-gambit">Ruler&#x27;s Gambit</h2>' in html
    assert "2 public decks of Ruler&#x27;s Gambit" in html
    assert 'data-game="gaterunners"' not in html


def test_a_game_cards_page_shows_its_share_of_its_games_decks(client, game_catalog, user):
    game_deck(user, gambit_draft())
    game_deck(user, gambit_draft(name="Tides", main={"RGT-012": 2}))
    statistics_recompute(min_pair_decks=1, min_pair_share=0)

    html = client.get("/cards/RGT-030/").content.decode()

    assert "Played in 50.0% of public Ruler&#x27;s Gambit decks (1)" in html
    assert "<th>Ruler</th>" not in html


def test_the_api_gives_each_other_games_figures(client, deck_catalog, game_catalog, user):
    deck_save(owner=user, draft=DeckDraft(ruler="apprentice", main=legal_apprentice_main()), visibility="public")
    game_deck(user, gambit_draft())
    game_deck(user, gambit_draft(name="Tides", others={"kingdom": {"RGT-002": 1}}, main={"RGT-011": 1}))
    statistics_recompute(min_pair_decks=1, min_pair_share=0)

    body = client.get("/api/v1/statistics/").json()

    assert body["decks"] == 1  # Gate Ruler's figures stay Gate Ruler's
    [gambit] = body["games"]  # no public GateRunners deck: no figures for it
    assert (gambit["slug"], gambit["name"], gambit["decks"]) == ("rulers-gambit", "Ruler's Gambit", 2)
    assert gambit["identity_label"] == "Kingdom"
    assert {s["label"]: s["share"] for s in gambit["identity"]}["Fire Kingdom"] == 0.5
    imp = next(s for s in gambit["cards"] if s["label"] == "Ember Imp 1")
    assert (imp["decks"], imp["share"], imp["detail"]) == (2, 1.0, "avg 1.5 copies")
    assert imp["href"].startswith("/cards/")
