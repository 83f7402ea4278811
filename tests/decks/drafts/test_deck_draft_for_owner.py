"""deck_draft_for_owner: a saved deck as its owner's draft in one query, the same as deck_draft_of's."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404

from decks.saved_drafts import deck_draft_for_owner, deck_draft_of
from decks.selectors import deck_get_for_owner
from decks.services import deck_create_from_draft
from tests.decks.factories import DeckFactory, every_field_draft, game_deck, runners_draft

pytestmark = pytest.mark.django_db


def as_before(deck, user):
    return deck_draft_of(deck=deck_get_for_owner(public_id=deck.public_id, user=user))


def test_it_is_the_draft_deck_draft_of_makes_in_one_query(deck_catalog, user, django_assert_num_queries):
    draft = every_field_draft()
    deck = deck_create_from_draft(owner=user, draft=draft)

    with django_assert_num_queries(1):
        owned = deck_draft_for_owner(public_id=deck.public_id, user=user)
    mine = owned.draft

    assert (owned.public_id, owned.version) == (deck.public_id, deck.version)

    assert mine == as_before(deck, user)
    assert mine.geas == "oath-of-the-lone-banner"
    assert mine.rules_date == datetime.date(2024, 5, 1)
    assert mine.considering == {"TS-150": 3, "TS-200": 1}
    # The same order of lines, section by section, as deck_draft_of's query.
    for section in ("main", "resources", "considering"):
        assert list(mine.section(section)) == list(as_before(deck, user).section(section))


def test_an_empty_deck_with_no_geas_and_no_date(deck_catalog, user):
    deck = DeckFactory(owner=user)

    mine = deck_draft_for_owner(public_id=deck.public_id, user=user).draft

    assert mine == as_before(deck, user)
    assert (mine.ruler, mine.geas, mine.rules_date, mine.main, mine.others) == ("apprentice", None, None, {}, {})


def test_another_games_deck_has_its_sections_and_no_ruler(deck_catalog, game_catalog, user):
    deck = game_deck(user, runners_draft(), visibility="private")

    mine = deck_draft_for_owner(public_id=deck.public_id, user=user).draft

    assert mine == as_before(deck, user)
    assert (mine.game, mine.ruler) == ("gaterunners", "")
    assert mine.others["gates"] == {"GRT-011": 1, "GRT-012": 1, "GRT-013": 1}


@pytest.mark.parametrize("visibility", ["private", "unlisted", "public"])
def test_it_is_404_for_anyone_but_the_owner_and_for_no_such_deck(deck_catalog, user, other_user, visibility):
    deck = DeckFactory(owner=user, visibility=visibility)

    for someone in (other_user, AnonymousUser()):
        with pytest.raises(Http404):
            deck_draft_for_owner(public_id=deck.public_id, user=someone)
    for unknown in ("nope", str(deck.pk)):
        with pytest.raises(Http404):
            deck_draft_for_owner(public_id=unknown, user=user)
