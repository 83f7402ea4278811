from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404

from decks.models import Visibility
from decks.selectors import deck_get_for_viewer
from tests.decks.factories import DeckFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("visibility", [Visibility.UNLISTED, Visibility.PUBLIC])
def test_anyone_reads_an_unlisted_or_public_deck(rules, user, other_user, visibility):
    deck = DeckFactory(owner=user, visibility=visibility)

    for viewer in (user, other_user, AnonymousUser()):
        assert deck_get_for_viewer(public_id=deck.public_id, user=viewer) == deck


def test_only_the_owner_reads_a_private_deck(rules, user, other_user):
    deck = DeckFactory(owner=user)

    assert deck_get_for_viewer(public_id=deck.public_id, user=user) == deck
    for viewer in (other_user, AnonymousUser()):
        with pytest.raises(Http404):
            deck_get_for_viewer(public_id=deck.public_id, user=viewer)


def test_an_unknown_id_is_not_found(rules, user):
    with pytest.raises(Http404):
        deck_get_for_viewer(public_id="nope", user=user)
