from __future__ import annotations

import pytest

from decks.models import DeckDraft
from decks.services import deck_create_from_draft
from tests.decks.factories import legal_apprentice_main

pytestmark = pytest.mark.django_db


def test_it_saves_a_draft_with_its_cards_and_verdict(deck_catalog, user):
    draft = DeckDraft(
        ruler="apprentice",
        main=legal_apprentice_main(),
        considering={"TS-100": 1},
        description="Fifty squires.",
    )

    deck = deck_create_from_draft(owner=user, draft=draft, name="Squires")

    assert (deck.owner, deck.name, deck.ruler.slug, deck.geas, deck.version) == (user, "Squires", "apprentice", None, 1)
    assert deck.legal is True
    assert deck.verdict_reason == ""
    assert deck.judged_on is not None
    assert len(deck.public_id) >= 10
    rows = {(c.printing.collector_number, c.section): c.count for c in deck.cards.select_related("printing")}
    assert rows[("TS-013", "main")] == 2
    assert rows[("TS-100", "considering")] == 1
    assert sum(c for (_, s), c in rows.items() if s == "main") == 50


def test_it_names_an_unnamed_deck_after_its_ruler(deck_catalog, user):
    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="knight", geas=None))

    assert deck.name == "Untitled Knight deck"
    assert deck.legal is False


def test_it_gives_every_deck_its_own_public_id(deck_catalog, user):
    ids = {deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice")).public_id for _ in range(5)}

    assert len(ids) == 5


def test_a_deck_saved_illegal_says_why_at_once(deck_catalog, user):
    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main={"TS-001": 1}), name="One")

    deck.refresh_from_db()
    assert deck.legal is False
    assert deck.verdict_reason == "The deck has 1 card; Apprentice's deck must have exactly 50."
