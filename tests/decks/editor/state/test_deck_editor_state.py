from __future__ import annotations

import datetime

import pytest

from decks.editor.state import deck_editor_state
from decks.models import DeckDraft
from decks.saved_drafts import deck_draft_new, deck_draft_of
from decks.services import deck_create_from_draft
from gatesite.errors import ApplicationError
from tests.decks.factories import legal_apprentice_main

pytestmark = pytest.mark.django_db


def test_it_judges_a_legal_draft(deck_catalog):
    state = deck_editor_state(draft=DeckDraft(ruler="apprentice", main=legal_apprentice_main()))

    assert state.report.legal
    assert state.main_count == 50
    assert [g.label for g in state.groups] == ["Units"]
    assert state.groups[0].count == 50
    assert {m.key: m.text for m in state.meters}["level"] == "50/50"
    assert not state.show_resources


def test_it_groups_by_type_and_sorts_by_level_then_name(deck_catalog):
    draft = DeckDraft(ruler="apprentice", main={"TS-150": 1, "TS-100": 1, "TS-002": 2, "TS-001": 1})

    state = deck_editor_state(draft=draft)

    assert [(g.label, [ln.number for ln in g.lines]) for g in state.groups] == [
        ("Units", ["TS-001", "TS-002", "TS-100"]),
        ("Events", ["TS-150"]),
    ]


def test_it_flags_the_cards_a_violation_names(deck_catalog):
    state = deck_editor_state(draft=DeckDraft(ruler="apprentice", main={"TS-001": 5, "TS-002": 1}))

    lines = {ln.number: ln for ln in state.groups[0].lines}
    assert lines["TS-001"].rules == ("max_copies",)
    assert lines["TS-001"].flagged
    assert not lines["TS-002"].flagged


def test_it_counts_printings_of_one_name_together(deck_catalog):
    state = deck_editor_state(draft=DeckDraft(ruler="apprentice", main={"TS-001": 3, "TS-901": 2}))

    assert "max_copies" in state.report.rules_broken()
    assert state.copies == {"Ember Squire 1": 5}


def test_it_shows_resources_for_rulers_that_prepare_them(deck_catalog):
    state = deck_editor_state(draft=DeckDraft(ruler="knight", resources={"TS-300": 3}))

    assert state.show_resources
    assert [ln.number for ln in state.resources] == ["TS-300"]
    assert "resource_cards" not in state.report.rules_broken()


def test_it_leaves_the_considering_board_out_of_the_verdict(deck_catalog):
    draft = DeckDraft(ruler="apprentice", main=legal_apprentice_main(), considering={"TS-100": 9})

    state = deck_editor_state(draft=draft)

    assert state.report.legal
    assert [(ln.number, ln.count) for ln in state.considering] == [("TS-100", 9)]


def test_it_draws_a_level_curve_and_a_faction_breakdown(deck_catalog):
    state = deck_editor_state(draft=DeckDraft(ruler="apprentice", main={"TS-001": 4, "TS-100": 2, "TS-150": 2}))

    assert [(b.label, b.count, b.percent) for b in state.curve] == [("0", 0, 0), ("1", 6, 100), ("2", 2, 33)]
    assert [(b.label, b.count, b.units, b.others) for b in state.factions] == [
        ("Volnar", 4, 4, 0),
        ("ATLAS", 2, 2, 0),
        ("Wonderverse", 2, 0, 2),
    ]


def test_it_proposes_an_attribute_for_centurion(deck_catalog):
    state = deck_editor_state(draft=DeckDraft(ruler="centurion", main={"TS-001": 4, "TS-002": 4, "TS-100": 1}))

    assert state.proposal.attribute == "Dragon"
    assert state.proposal.lacking == ("Sky Lancer",)


def test_it_judges_by_the_rules_in_force_on_the_rules_date(deck_catalog):
    old = deck_editor_state(draft=DeckDraft(ruler="highlander", rules_date=datetime.date(2021, 1, 1)))
    new = deck_editor_state(draft=DeckDraft(ruler="highlander"))

    assert old.choice.ruler_revision.effective_from == datetime.date(2020, 11, 26)
    assert {m.key: m.limit for m in old.meters}["cnt"] == 16
    assert {m.key: m.limit for m in new.meters}["cnt"] == 20


def test_it_applies_the_geas(deck_catalog):
    state = deck_editor_state(draft=DeckDraft(ruler="apprentice", geas="oath-of-the-lone-banner"))

    assert {m.key: m.text for m in state.meters}["level"] == "0/55"
    assert state.profile["deck_construction"]["level_cap"] == 55


def test_it_leaves_out_printings_the_catalog_no_longer_has(deck_catalog):
    state = deck_editor_state(draft=DeckDraft(ruler="apprentice", main={"TS-001": 1, "GONE-1": 2}))

    assert state.judgement.missing == ("GONE-1",)
    assert state.main_count == 1


def test_it_refuses_a_draft_the_rules_cannot_judge(deck_catalog):
    with pytest.raises(ApplicationError):
        deck_editor_state(draft=DeckDraft(ruler="nobody"))


def test_a_saved_deck_reads_back_as_the_draft_it_was_saved_from(deck_catalog, user):
    draft = DeckDraft(
        ruler="apprentice",
        geas="oath-of-the-lone-banner",
        rules_date=datetime.date(2024, 5, 1),
        name="Banner",
        description="One faction.",
        main={"TS-001": 4},
        considering={"TS-100": 1},
    )

    deck = deck_create_from_draft(owner=user, draft=draft)

    assert deck_draft_of(deck=deck) == draft


def test_a_new_draft_starts_with_the_first_ruler(rules):
    assert deck_draft_new() == DeckDraft(ruler="apprentice")


def test_a_new_draft_needs_the_rules_loaded(no_rules):
    with pytest.raises(ApplicationError, match="No rulers are loaded"):
        deck_draft_new()
