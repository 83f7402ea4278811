"""Revalidation judges decks by a ruler's rules: a changed card of another game leaves its decks as saved."""

from __future__ import annotations

import pytest

from cards.models import Card
from decks.models import Deck
from decks.revalidation.services import decks_revalidate
from tests.decks.factories import gambit_draft, game_deck

pytestmark = pytest.mark.django_db


def test_a_changed_rulers_gambit_card_does_not_break_revalidation(game_catalog, user):
    deck = game_deck(user, gambit_draft())
    imp = Card.objects.get(name="Ember Imp 1")

    result = decks_revalidate(card_ids=[imp.pk])

    assert result.checked == 0
    assert Deck.objects.get(pk=deck.pk).legal is True
