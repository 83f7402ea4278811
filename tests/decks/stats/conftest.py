"""The statistics tests' shared sample (the recompute's own hand-worked sample is in services/)."""

from __future__ import annotations

import pytest

from decks.models import Visibility
from tests.cards.factories import CardFactory, FactionFactory, PrintingFactory
from tests.decks.factories import DeckCardFactory, DeckFactory


@pytest.fixture
def played(rules):
    """Two public Apprentice decks playing <Fire> & Ice (a name to escape) with Frost Hare."""
    fire = CardFactory(name="<Fire> & Ice", faction=FactionFactory(name="Red & Co"), level=1)
    hare = CardFactory(name="Frost Hare", level=2)
    fire_print = PrintingFactory(card=fire, collector_number="ST-001")
    hare_print = PrintingFactory(card=hare, collector_number="ST-002")
    for _ in range(2):
        deck = DeckFactory(visibility=Visibility.PUBLIC)
        DeckCardFactory(deck=deck, printing=fire_print, count=3)
        DeckCardFactory(deck=deck, printing=hare_print, count=1)
    private = DeckFactory(visibility=Visibility.PRIVATE)
    DeckCardFactory(deck=private, printing=hare_print, count=4)
    return {"fire": fire, "hare": hare}
