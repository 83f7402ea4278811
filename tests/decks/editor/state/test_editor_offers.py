"""decks.editor.state.editor_offers: what the editor offers by the game's identity kind, decided in one place."""

from __future__ import annotations

from cards.games import default_game, game_get
from decks.editor.services import SET_ATTRIBUTE, SET_GEAS, SET_RULER, SET_RULES_DATE
from decks.editor.state import editor_offers


def test_a_ruler_game_takes_its_rules_changes_and_its_add_button_names_no_section():
    offers = editor_offers(default_game())

    assert offers.rules_changes == {SET_RULER, SET_GEAS, SET_ATTRIBUTE, SET_RULES_DATE}
    assert offers.section_label(default_game(), "resources") == ""


def test_a_card_identity_game_takes_no_rules_change_and_its_add_button_names_the_section():
    game = game_get("gaterunners")
    offers = editor_offers(game)

    assert offers.rules_changes == frozenset()
    assert offers.section_label(game, "hero") == "Hero"
