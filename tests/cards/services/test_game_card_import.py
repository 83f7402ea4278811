"""Importing cards of the games besides Gate Ruler into the catalog: their game and fields, errata,
dry runs and only-new imports as for Gate Ruler, and a name that is already another game's card."""

from __future__ import annotations

import datetime

import pytest

from cards.importers.parsing import parse_card_file
from cards.importers.records import ImportFileError
from cards.models import Card, CardSet, Erratum, Printing
from cards.services import card_catalog_import
from tests.cards.factories import CardFactory, card_row, game_set_file, gr_card_row, rg_card_row

pytestmark = pytest.mark.django_db


def run(raw: bytes, name: str = "set.json", **options: object):
    return card_catalog_import(files=[parse_card_file(name, raw)], **options)


def test_a_new_games_cards_are_stored_with_their_game_and_fields():
    run(
        game_set_file(
            "gaterunners", gr_card_row(1, instant=True), gr_card_row(2, type="hero", level=None, instant=None)
        )
    )

    unit = Card.objects.get(name="Runner Card 1")
    assert (unit.game, unit.type, unit.level, unit.faction_id) == ("gaterunners", "unit", None, None)
    assert unit.fields == {"level": 2, "power": 3, "health": 4, "instant": True}
    assert Card.objects.get(name="Runner Card 2").fields == {"power": 3, "health": 4}
    assert CardSet.objects.get(code="GRT").game == "gaterunners"
    assert Printing.objects.get(collector_number="GRT-001").card == unit


def test_a_changed_field_is_an_erratum():
    run(game_set_file("rulers-gambit", rg_card_row(1, cost=2)))

    result = run(
        game_set_file("rulers-gambit", rg_card_row(1, cost=3)), errata_effective_date=datetime.date(2025, 7, 1)
    )

    card = Card.objects.get(name="Gambit Card 1")
    assert card.fields["cost"] == 3
    assert result.cards.updated == 1
    erratum = Erratum.objects.get(card=card)
    assert (erratum.field, erratum.old_value["cost"], erratum.new_value["cost"]) == ("fields", 2, 3)
    assert "cost: 3" in erratum.new_display


def test_a_dry_run_writes_nothing_and_only_new_keeps_existing_fields():
    dry = run(game_set_file("rulers-gambit", rg_card_row(1)), dry_run=True)
    assert dry.cards.created == 1
    assert not Card.objects.exists()

    run(game_set_file("rulers-gambit", rg_card_row(1, cost=2)))
    kept = run(game_set_file("rulers-gambit", rg_card_row(1, cost=5), rg_card_row(2)), only_new=True)

    assert Card.objects.get(name="Gambit Card 1").fields["cost"] == 2
    assert (kept.cards.created, kept.kept_existing) == (1, 1)


def test_a_name_that_is_already_another_games_card_is_refused():
    CardFactory(name="Twin")

    with pytest.raises(ImportFileError) as caught:
        run(game_set_file("rulers-gambit", rg_card_row(1, name="Twin")), name="rg.json")

    assert str(caught.value) == (
        "rg.json: cards[0], field \"name\": 'Twin' is already a card of the game 'gate-ruler'; "
        "a card name is one card across the site"
    )
    assert Card.objects.get(name="Twin").game == "gate-ruler"
    assert not CardSet.objects.filter(code="RGT").exists()


def test_gate_ruler_files_still_import_as_gate_ruler_cards():
    run(game_set_file(None, card_row(1)))
    card = Card.objects.get(name="Card 1")
    assert (card.game, card.fields, card.level) == ("gate-ruler", {}, 2)
    assert CardSet.objects.get(code="T01").game == "gate-ruler"
    again = run(game_set_file("gate-ruler", card_row(1)))
    assert (again.cards.updated, again.sets.updated) == (0, 0)
