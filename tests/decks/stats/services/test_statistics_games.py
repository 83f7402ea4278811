"""The statistics are Gate Ruler's figures: another game's public decks are left out of them."""

from __future__ import annotations

import pytest

from decks.models import DeckDraft
from decks.services import deck_save
from decks.stats.models import CardInclusion, RulerShare
from decks.stats.services import statistics_recompute
from tests.decks.factories import gambit_draft, game_deck, legal_apprentice_main

pytestmark = pytest.mark.django_db


def test_a_rulers_gambit_deck_is_not_in_gate_rulers_figures(deck_catalog, game_catalog, user):
    deck_save(owner=user, draft=DeckDraft(ruler="apprentice", main=legal_apprentice_main()), visibility="public")
    game_deck(user, gambit_draft())

    run = statistics_recompute(min_pair_decks=1, min_pair_share=0)

    every_ruler = RulerShare.objects.get(run=run, ruler__isnull=True)
    assert every_ruler.decks == 1  # the Gate Ruler deck only
    included = set(CardInclusion.objects.filter(run=run).values_list("card__game", flat=True))
    assert included == {"gate-ruler"}
