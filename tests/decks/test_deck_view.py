"""decks/deck_view.py: a judged deck of any game as the read pages show it, shaped by its game's data."""

from __future__ import annotations

import pytest

from decks.deck_view import deck_view
from decks.models import DeckDraft
from tests.decks.factories import gambit_draft, legal_apprentice_main, runners_draft

pytestmark = pytest.mark.django_db


def test_a_rulers_deck_reads_by_card_type_with_its_ruler_and_level_curve(deck_catalog):
    view = deck_view(draft=DeckDraft(ruler="apprentice", main={**legal_apprentice_main(), "TS-100": 1}))

    assert view.ruled
    assert view.choice.ruler.slug == "apprentice"
    assert view.panel is None  # the ruler holds the rules: its data has none to list
    main = view.sections[0]
    assert (main.key, main.by_type, main.asked) == ("main", True, 50)
    assert [group.key for group in main.groups] == ["unit"]
    assert main.count == view.main_count == 51
    assert all(line.flagged is False for line in main.lines)  # deck-wide rules flag no one line
    assert [bar.label for bar in view.curve] == ["0", "1", "2"]
    assert sum(bar.count for bar in view.factions) == 51
    assert view.main_groups == main.groups


def test_a_rulers_resources_are_a_section_when_the_ruler_asks_for_them(deck_catalog):
    apprentice = deck_view(draft=DeckDraft(ruler="apprentice"))
    knight = deck_view(draft=DeckDraft(ruler="knight", resources={"TS-300": 3}))

    assert [s.key for s in apprentice.sections] == ["main"]
    resources = knight.sections[1]
    assert (resources.key, resources.by_type, resources.asked, resources.count) == ("resources", False, 3, 3)
    assert resources.lines[0].type_label == "Energy"


def test_a_card_identitys_deck_shows_each_section_of_its_data_and_its_rules_panel(game_catalog):
    view = deck_view(draft=gambit_draft())

    assert not view.ruled
    assert view.curve == []
    assert view.factions == []
    assert view.panel is not None
    assert view.panel.name == "Ruler's Gambit"
    assert [(s.key, s.label, s.count, s.by_type, s.asked) for s in view.sections] == [
        ("kingdom", "Kingdom", 1, False, None),
        ("main", "Main deck", 39, False, None),
    ]
    assert view.identity.name == "Fire Kingdom"
    assert view.identity_label == "Kingdom"
    kingdom = view.sections[0].lines[0]
    assert (kingdom.number, kingdom.name, kingdom.type_label) == ("RGT-001", "Fire Kingdom", "Kingdom-Ruler")
    assert kingdom.fields == "Colour: Red · COST: 1 · LP: 20"
    assert kingdom.dom_id == "kingdom-RGT-001"


def test_the_lines_of_a_card_a_violation_names_are_flagged_and_a_size_rule_flags_none(game_catalog):
    view = deck_view(draft=runners_draft(others={"hero": {"GRT-101": 1}, "gates": {}}))

    hero = next(s for s in view.sections if s.key == "hero")
    gates = next(s for s in view.sections if s.key == "gates")
    main = next(s for s in view.sections if s.key == "main")
    assert {v.rule for v in view.report.violations} >= {"card_type", "gates"}
    assert [(line.number, line.flagged) for line in hero.lines] == [("GRT-101", True)]
    assert hero.lines[0].rules == ("card_type",)
    assert gates.lines == ()
    assert gates.count == 0
    # A violation names a card by name: its copies in the main deck are flagged too; the Gates' size flags none.
    assert [line.number for line in main.lines if line.flagged] == ["GRT-101"]
