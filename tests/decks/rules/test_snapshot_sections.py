"""DeckSnapshot's sections by key and CardFacts' game fields: Gate Ruler's callers see no change."""

from __future__ import annotations

from decks.rules.types import CardFacts, DeckEntry, DeckSnapshot


def test_main_and_resources_stay_fields_and_other_sections_are_read_by_key():
    spark, hero = CardFacts("Spark", "energy"), CardFacts("Wayfinder", "hero", fields={"health": 20})
    deck = DeckSnapshot.of_sections({"main": (DeckEntry(spark, 2),), "resources": (), "hero": (DeckEntry(hero, 1),)})

    assert deck.main == (DeckEntry(spark, 2),)
    assert deck.section("main") is deck.main
    assert deck.section("hero") == (DeckEntry(hero, 1),)
    assert deck.section("gates") == ()
    assert "main" not in deck.sections


def test_a_gate_ruler_snapshot_built_as_before_has_no_other_sections_and_cards_stay_hashable():
    card = CardFacts("Ember Squire", "unit", level=1)
    deck = DeckSnapshot((DeckEntry(card, 4),), (), "Dragon")

    assert deck.sections == {}
    assert card.fields == {}
    assert {card: 1}[CardFacts("Ember Squire", "unit", level=1)] == 1
    assert CardFacts("X", "unit", fields={"colours": ("red",)}) != CardFacts("X", "unit", fields={"colours": ("blue",)})
