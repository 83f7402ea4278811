"""decks/editor/state.py for a game whose identity is a card: each of its sections, and the considering board
beside the deck, each card with the section it goes in."""

from __future__ import annotations

import pytest

from decks.editor.state import deck_editor_state
from tests.decks.factories import gambit_draft, runners_draft

pytestmark = pytest.mark.django_db


def test_the_board_lists_each_card_by_type_then_name_with_the_section_it_goes_in(game_catalog):
    state = deck_editor_state(draft=runners_draft(considering={"GRT-120": 2, "GRT-014": 1, "GRT-002": 1}))

    shown = [(c.facts.name, c.count, c.target_section) for c in state.considering]

    assert shown == [("West Gate", 1, "gates"), ("Pathseeker", 1, "hero"), ("Runner 20", 2, "main")]
    assert state.considering[0].facts.name == "West Gate"  # what its peek shows


def test_a_boards_card_no_longer_in_the_catalog_is_left_out_and_named_missing(game_catalog):
    state = deck_editor_state(draft=runners_draft(considering={"GRT-999": 1}))

    assert state.considering == []
    assert state.judgement.missing == ("GRT-999",)
    assert state.judgement.report.legal


def test_the_deck_is_grouped_by_the_games_sections_with_no_ruler_and_no_charts(game_catalog):
    state = deck_editor_state(draft=gambit_draft())

    assert [group.key for group in state.groups] == ["kingdom", "main"]
    assert [line.number for line in state.groups[0].lines] == ["RGT-001"]
    assert not state.ruled
    assert state.choice is None
    assert state.curve == []
    assert state.factions == []
    assert state.proposal is None
    assert state.panel is not None
    assert (state.size, state.at_least) == (39, False)
    assert state.judged_by == "Ruler's Gambit"
    assert state.main_count == 39
