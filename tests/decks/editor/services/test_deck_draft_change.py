from __future__ import annotations

import datetime

import pytest

from decks.editor.services import DraftChange, deck_draft_change
from decks.models import MAX_LINE_COUNT, DeckDraft
from gatesite.errors import ApplicationError

pytestmark = pytest.mark.django_db


def change(draft: DeckDraft, action: str, **kwargs) -> DeckDraft:
    return deck_draft_change(draft=draft, change=DraftChange(action=action, **kwargs))


def test_it_adds_and_removes_copies(deck_catalog):
    draft = DeckDraft(ruler="apprentice")

    draft = change(draft, "add", number="TS-001")
    draft = change(draft, "add", number="TS-001")
    assert draft.main == {"TS-001": 2}

    draft = change(draft, "remove", number="TS-001")
    draft = change(draft, "remove", number="TS-001")
    assert draft.main == {}


def test_it_never_changes_the_draft_it_is_given(deck_catalog):
    draft = DeckDraft(ruler="apprentice", main={"TS-001": 1})

    change(draft, "add", number="TS-001")

    assert draft.main == {"TS-001": 1}


def test_it_adds_energy_to_the_resources_when_asked(deck_catalog):
    draft = change(DeckDraft(ruler="knight"), "add", number="TS-300", section="resources")

    assert draft.resources == {"TS-300": 1}
    assert draft.main == {}


def test_it_moves_a_copy_to_the_considering_board_and_back(deck_catalog):
    draft = DeckDraft(ruler="apprentice", main={"TS-001": 2})

    draft = change(draft, "to_considering", number="TS-001", section="main")
    assert (draft.main, draft.considering) == ({"TS-001": 1}, {"TS-001": 1})

    draft = change(draft, "to_deck", number="TS-001", section="main")
    assert (draft.main, draft.considering) == ({"TS-001": 2}, {})


def test_it_refuses_an_unknown_card(deck_catalog):
    with pytest.raises(ApplicationError, match="No Gate Ruler card with collector number 'NOPE-1'"):
        change(DeckDraft(ruler="apprentice"), "add", number="NOPE-1")


def test_it_refuses_to_remove_what_is_not_there(deck_catalog):
    with pytest.raises(ApplicationError, match="There is no TS-001 in the deck"):
        change(DeckDraft(ruler="apprentice"), "remove", number="TS-001")
    with pytest.raises(ApplicationError, match="considering board"):
        change(DeckDraft(ruler="apprentice"), "to_deck", number="TS-001", section="main")


def test_it_caps_a_line(deck_catalog):
    draft = DeckDraft(ruler="apprentice", main={"TS-001": MAX_LINE_COUNT})

    with pytest.raises(ApplicationError, match="at most 99 copies"):
        change(draft, "add", number="TS-001")


def test_it_sets_the_ruler_and_drops_a_geas_of_the_previous_one(deck_catalog):
    draft = DeckDraft(ruler="apprentice", geas="oath-of-the-lone-banner", main={"TS-001": 4})

    draft = change(draft, "set_ruler", value="knight")

    assert (draft.ruler, draft.geas, draft.main) == ("knight", None, {"TS-001": 4})


def test_it_sets_a_geas_only_for_its_ruler(deck_catalog):
    draft = change(DeckDraft(ruler="apprentice"), "set_geas", value="oath-of-the-lone-banner")
    assert draft.geas == "oath-of-the-lone-banner"

    with pytest.raises(ApplicationError, match="is an oath for Overlord, not for Apprentice"):
        change(DeckDraft(ruler="apprentice"), "set_geas", value="oath-of-the-true-king")

    assert change(draft, "set_geas", value="").geas is None


def test_it_sets_the_rules_date_unless_the_geas_is_not_in_force(deck_catalog):
    draft = change(DeckDraft(ruler="apprentice"), "set_rules_date", value="2021-01-01")
    assert draft.rules_date == datetime.date(2021, 1, 1)
    assert change(draft, "set_rules_date", value="").rules_date is None

    # Before a ruler's earliest recorded rules, the earliest are judged by (and the verdict says so).
    assert change(DeckDraft(ruler="berserker"), "set_rules_date", value="2021-01-01").rules_date == datetime.date(
        2021, 1, 1
    )
    with pytest.raises(ApplicationError, match="not in force on 2021-01-01"):
        change(DeckDraft(ruler="apprentice", geas="oath-of-the-lone-banner"), "set_rules_date", value="2021-01-01")
    with pytest.raises(ApplicationError, match="is not a date"):
        change(DeckDraft(ruler="apprentice"), "set_rules_date", value="yesterday")


def test_it_sets_a_known_attribute(deck_catalog):
    assert change(DeckDraft(ruler="centurion"), "set_attribute", value="Dragon").attribute == "Dragon"

    with pytest.raises(ApplicationError, match="Unknown attribute 'Nonexistent'"):
        change(DeckDraft(ruler="centurion"), "set_attribute", value="Nonexistent")


def test_it_renames(deck_catalog):
    draft = change(DeckDraft(ruler="apprentice"), "rename", name="  Dragons  ", description="Fly.")

    assert (draft.name, draft.description) == ("Dragons", "Fly.")


def test_it_refuses_an_unknown_ruler(deck_catalog):
    with pytest.raises(ApplicationError, match="Unknown ruler 'nobody'"):
        change(DeckDraft(ruler="apprentice"), "set_ruler", value="nobody")
