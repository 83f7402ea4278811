"""decks/editor/game_state.py: the considering board beside a game deck, each card with the section it goes in."""

from __future__ import annotations

import pytest

from decks.editor.game_state import game_editor_state
from tests.decks.factories import runners_draft

pytestmark = pytest.mark.django_db


def test_the_board_lists_each_card_by_type_then_name_with_the_section_it_goes_in(game_catalog):
    state = game_editor_state(draft=runners_draft(considering={"GRT-120": 2, "GRT-014": 1, "GRT-002": 1}))

    shown = [(c.name, c.count, c.section, c.section_label) for c in state.considering]

    assert shown == [
        ("West Gate", 1, "gates", "Gates"),
        ("Pathseeker", 1, "hero", "Hero"),
        ("Runner 20", 2, "main", "Main deck"),
    ]
    assert state.considering[0].facts.name == "West Gate"  # what its peek shows


def test_a_boards_card_no_longer_in_the_catalog_is_left_out_and_named_missing(game_catalog):
    state = game_editor_state(draft=runners_draft(considering={"GRT-999": 1}))

    assert state.considering == []
    assert state.judgement.missing == ("GRT-999",)
    assert state.judgement.report.legal
