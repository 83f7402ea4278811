"""The editor's changes (decks/editor/services.py) in the sections of a game whose identity is a card: the
considering board and a set count, as Gate Ruler's; the board is the owner's, never judged, counted or in a version."""

from __future__ import annotations

import pytest

from decks.editor.services import DraftChange, deck_draft_change, editor_deck_change, editor_draft_change
from decks.models import MAX_LINE_COUNT, DeckCard, DeckVersion
from gatesite.errors import ApplicationError
from tests.decks.factories import gambit_draft, game_deck, runners_draft

pytestmark = pytest.mark.django_db


def change(draft, action, number, section="main", **kwargs):
    return deck_draft_change(draft=draft, change=DraftChange(action, number, section, **kwargs))


def test_it_considers_a_card_from_the_browser_without_touching_the_deck(game_catalog):
    draft = gambit_draft()

    considered = change(draft, "add", "RGT-040", "considering")

    assert considered.considering == {"RGT-040": 1}
    assert considered.main == draft.main
    assert considered.others == draft.others


def test_it_moves_a_copy_to_the_considering_board_and_into_the_cards_section(game_catalog):
    draft = runners_draft()

    out = change(draft, "to_considering", "GRT-013", "gates")
    back = change(out, "to_deck", "GRT-013", "gates")

    assert out.section("gates") == {"GRT-011": 1, "GRT-012": 1}
    assert out.considering == {"GRT-013": 1}
    assert back.section("gates") == draft.section("gates")
    assert back.considering == {}


def test_it_drops_a_card_from_the_board_and_refuses_one_that_is_not_there(game_catalog):
    draft = change(gambit_draft(), "add", "RGT-040", "considering")

    dropped = change(draft, "remove", "RGT-040", "considering")

    assert dropped.considering == {}
    with pytest.raises(ApplicationError, match=r"There is no RGT-040 in the considering board to take out\."):
        change(dropped, "remove", "RGT-040", "considering")
    with pytest.raises(ApplicationError, match=r"There is no RGT-040 in the considering board to take out\."):
        change(dropped, "to_deck", "RGT-040", "main")


def test_it_refuses_a_move_between_the_board_and_itself(game_catalog):
    draft = change(gambit_draft(), "add", "RGT-040", "considering")

    with pytest.raises(ApplicationError, match="into a section of the deck"):
        change(draft, "to_deck", "RGT-040", "considering")
    with pytest.raises(ApplicationError, match="from a section of the deck"):
        change(draft, "to_considering", "RGT-040", "considering")


def test_it_refuses_another_games_card_on_the_board(game_catalog):
    with pytest.raises(ApplicationError, match=r"No Ruler's Gambit card with collector number 'GRT-001'\."):
        change(gambit_draft(), "add", "GRT-001", "considering")


def test_it_sets_a_count_in_one_change_and_refuses_a_count_out_of_bounds(game_catalog):
    draft = gambit_draft()

    assert change(draft, "set_count", "RGT-011", value="1").main["RGT-011"] == 1
    assert "RGT-011" not in change(draft, "set_count", "RGT-011", value="0").main
    assert change(draft, "set_count", "RGT-040", "considering", value="3").considering == {"RGT-040": 3}
    with pytest.raises(ApplicationError, match="is not a number of copies"):
        change(draft, "set_count", "RGT-011", value=str(MAX_LINE_COUNT + 1))


def test_the_board_is_not_judged_nor_counted(game_catalog):
    legal = editor_draft_change(draft=gambit_draft(), change=DraftChange("rename", name="Embers")).state

    # A blue card and a second Kingdom on the board: the Fire Kingdom's deck stays legal, its meters as they were.
    state = editor_draft_change(
        draft=change(gambit_draft(), "add", "RGT-040", "considering"),
        change=DraftChange("add", "RGT-002", "considering"),
    ).state

    assert state.judgement.report.legal
    assert state.meters == legal.meters
    assert state.draft.odds_key() == legal.draft.odds_key()
    assert [(c.number, c.count, c.target_section) for c in state.considering] == [
        ("RGT-002", 1, "kingdom"),
        ("RGT-040", 1, "main"),
    ]


def test_a_saved_decks_board_is_saved_with_it_but_kept_out_of_its_versions(game_catalog, user):
    deck = game_deck(user, gambit_draft(), visibility="private")
    version = deck.version

    saved = editor_deck_change(deck=deck, change=DraftChange("add", "RGT-040", "considering"), base_version=version)

    assert saved.deck.version == version + 1
    rows = DeckCard.objects.filter(deck=deck, section="considering")
    assert [(row.printing.collector_number, row.count) for row in rows] == [("RGT-040", 1)]
    snapshot = DeckVersion.objects.filter(deck=deck).latest("version").snapshot
    assert "considering" not in snapshot
    assert snapshot["others"] == {"kingdom": {"RGT-001": 1}}


def test_a_ruler_choice_is_refused_in_a_game_whose_identity_is_a_card(game_catalog):
    with pytest.raises(ApplicationError, match="Unknown change 'set_ruler'"):
        deck_draft_change(draft=gambit_draft(), change=DraftChange("set_ruler", value="volnar"))


def test_a_section_the_game_does_not_have_is_refused(game_catalog):
    with pytest.raises(ApplicationError, match=r"A GateRunners deck has no section 'kingdom'\."):
        change(runners_draft(), "add", "GRT-001", "kingdom")
