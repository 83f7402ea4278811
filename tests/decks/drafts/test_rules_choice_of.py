"""decks.card_facts.rules_choice_of: the rules a deck is judged by as its game's identity kind chooses them, decided once."""

from __future__ import annotations

import dataclasses
import datetime

import pytest

from cards.games import default_game, game_get
from decks.card_facts import rules_choice_of
from gatesite.errors import ApplicationError

pytestmark = pytest.mark.django_db

ON = datetime.date(2025, 6, 1)


def test_a_game_whose_identity_is_a_card_has_no_rules_choice_whatever_it_is_given():
    assert rules_choice_of(game_get("rulers-gambit"), ruler="", geas=None, on=ON) is None
    assert rules_choice_of(game_get("gaterunners"), ruler="anyone", geas="anything", on=ON) is None


def test_a_game_whose_identity_is_a_ruler_is_judged_by_the_rulers_rules_and_refuses_an_unknown_one(db):
    with pytest.raises(ApplicationError):
        rules_choice_of(default_game(), ruler="no-such-ruler", geas=None, on=ON)


def test_an_identity_kind_the_site_does_not_know_reads_as_a_card():
    odd = dataclasses.replace(game_get("rulers-gambit"), identity="banner")

    assert rules_choice_of(odd, ruler="no-such-ruler", geas=None, on=ON) is None
