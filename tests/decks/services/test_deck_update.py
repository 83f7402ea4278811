from __future__ import annotations

from dataclasses import replace

import pytest

from decks.models import Deck, DeckDraft
from decks.saved_drafts import deck_draft_of
from decks.services import StaleDeck, deck_create_from_draft, deck_delete, deck_update
from tests.decks.factories import legal_apprentice_main

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck(deck_catalog, user):
    return deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main={"TS-001": 4, "TS-002": 4}))


def reloaded(deck: Deck) -> Deck:
    return Deck.objects.select_related("ruler", "geas").get(pk=deck.pk)


def test_it_saves_and_bumps_the_version(deck):
    draft = replace(deck_draft_of(deck=deck), main={"TS-001": 3, "TS-003": 1}, name="Renamed")

    saved = deck_update(deck=deck, draft=draft, base_version=1)

    assert saved.version == 2
    fresh = reloaded(deck)
    assert (fresh.version, fresh.name) == (2, "Renamed")
    assert deck_draft_of(deck=fresh).main == {"TS-001": 3, "TS-003": 1}


def test_it_refuses_a_save_based_on_an_old_version(deck):
    draft = deck_draft_of(deck=deck)
    deck_update(deck=deck, draft=replace(draft, main={"TS-001": 1}), base_version=1)

    with pytest.raises(StaleDeck) as refused:
        deck_update(deck=reloaded(deck), draft=replace(draft, main={"TS-009": 4}), base_version=1)

    assert (refused.value.base_version, refused.value.version) == (1, 2)
    assert "another tab or device" in refused.value.message
    # The first save stands.
    assert deck_draft_of(deck=reloaded(deck)).main == {"TS-001": 1}
    assert reloaded(deck).version == 2


def test_exactly_one_of_two_saves_on_the_same_version_wins(deck):
    # Two tabs loaded version 1; each saves its own change.
    tab_a, tab_b = reloaded(deck), reloaded(deck)
    deck_update(deck=tab_a, draft=replace(deck_draft_of(deck=tab_a), name="A"), base_version=1)

    with pytest.raises(StaleDeck):
        deck_update(deck=tab_b, draft=replace(deck_draft_of(deck=tab_b), name="B"), base_version=1)

    assert reloaded(deck).name == "A"


def test_it_records_the_verdict_and_its_reason(deck):
    deck_update(deck=deck, draft=deck_draft_of(deck=deck), base_version=1)
    illegal = reloaded(deck)
    assert illegal.legal is False
    # Lists (My decks, the deck API) show why at once, not after a revalidation happens to touch it.
    assert illegal.verdict_reason.startswith("The deck has ")

    deck_update(deck=deck, draft=replace(deck_draft_of(deck=deck), main=legal_apprentice_main()), base_version=2)

    legal = reloaded(deck)
    assert (legal.legal, legal.verdict_reason, legal.illegal_since) == (True, "", None)


def test_it_changes_the_rules_chosen(deck):
    draft = replace(deck_draft_of(deck=deck), geas="oath-of-the-lone-banner")

    deck_update(deck=deck, draft=draft, base_version=1)

    assert reloaded(deck).geas.slug == "oath-of-the-lone-banner"


def test_it_deletes_a_deck_and_its_cards(deck):
    deck_delete(deck=deck)

    assert not Deck.objects.filter(pk=deck.pk).exists()


def test_every_save_keeps_a_version_of_the_deck_without_the_considering_board(deck):
    draft = replace(deck_draft_of(deck=deck), main={"TS-001": 3}, considering={"TS-002": 1})

    deck_update(deck=deck, draft=draft, base_version=1)

    versions = {v.version: v.snapshot for v in reloaded(deck).versions.all()}
    assert sorted(versions) == [1, 2]
    assert versions[1]["main"] == {"TS-001": 4, "TS-002": 4}
    assert versions[2]["main"] == {"TS-001": 3}
    assert versions[2]["ruler"] == "apprentice"
    assert "considering" not in versions[2]


def test_a_refused_save_keeps_no_version(deck):
    deck_update(deck=deck, draft=deck_draft_of(deck=deck), base_version=1)

    with pytest.raises(StaleDeck):
        deck_update(deck=reloaded(deck), draft=replace(deck_draft_of(deck=deck), main={}), base_version=1)

    assert list(reloaded(deck).versions.values_list("version", flat=True)) == [2, 1]
