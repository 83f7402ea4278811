from __future__ import annotations

from dataclasses import replace

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import Http404

from decks.models import DeckDraft, Visibility
from decks.saved_drafts import deck_draft_of
from decks.selectors import deck_get_for_change
from decks.services import deck_create_from_draft, deck_update, deck_visibility_set
from decks.sharing.history import MINUS
from decks.sharing.selectors import deck_history, deck_page_get

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck(deck_catalog, user):
    return deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main={"TS-001": 1}), name="D")


def save(deck, **changes):
    return deck_update(deck=deck, draft=replace(deck_draft_of(deck=deck), **changes), base_version=deck.version)


def test_it_gives_each_version_its_changes_newest_first(deck):
    deck = save(deck, main={"TS-001": 3})
    deck = save(deck, main={"TS-100": 1})

    history = deck_history(deck=deck)

    assert [(e.number, e.changelog.lines) for e in history] == [
        (3, ("+1 Sky Lancer", f"{MINUS}3 Ember Squire 1")),
        (2, ("+2 Ember Squire 1",)),
        (1, ("+1 Ember Squire 1",)),
    ]
    assert history[-1].changelog.created


def test_it_shows_the_latest_versions_up_to_a_limit_each_compared_with_the_one_before(deck):
    for count in range(2, 6):
        deck = save(deck, main={"TS-001": count})

    history = deck_history(deck=deck, limit=2)
    one = deck_history(deck=deck, upto=3, limit=1)

    assert [e.number for e in history] == [5, 4]
    assert not history[-1].changelog.created
    assert [(e.number, e.changelog.lines) for e in one] == [(3, ("+1 Ember Squire 1",))]


def test_names_of_removed_cards_cost_one_query_and_known_ones_none(deck, django_assert_num_queries):
    deck = save(deck, main={"TS-100": 1})

    with django_assert_num_queries(2):
        deck_history(deck=deck)
    with django_assert_num_queries(1):
        deck_history(deck=deck, names={"TS-001": "Ember Squire 1", "TS-100": "Sky Lancer"})


def test_a_write_needs_the_owner_and_hides_private_decks(deck, user, other_user):
    assert deck_get_for_change(public_id=deck.public_id, user=user) == deck
    for viewer in (other_user, AnonymousUser()):
        with pytest.raises(Http404):
            deck_get_for_change(public_id=deck.public_id, user=viewer)
    deck_visibility_set(deck=deck, visibility=Visibility.UNLISTED)
    with pytest.raises(PermissionDenied):
        deck_get_for_change(public_id=deck.public_id, user=other_user)


def test_a_deck_the_rules_cannot_judge_any_more_still_has_a_page(deck, user, monkeypatch):
    import decks.selectors
    from gatesite.errors import ApplicationError

    def refuse(**kwargs):
        raise ApplicationError("Geas 'x' is not in force on 2026-01-01.")

    monkeypatch.setattr(decks.sharing.selectors, "deck_view", refuse)

    page = deck_page_get(public_id=deck.public_id, user=user)

    assert page.view is None
    assert page.problem == "Geas 'x' is not in force on 2026-01-01."
    assert "cannot be judged" in page.summary
    assert [e.number for e in page.history] == [1]
