from __future__ import annotations

import pytest

from decks.library.filters import DeckFilter
from decks.models import Deck, Section
from tests.decks.factories import DeckCardFactory, DeckFactory

pytestmark = pytest.mark.django_db


def filtered(**params: str) -> list[str]:
    return [d.name for d in DeckFilter(params, queryset=Deck.objects.all()).qs]


@pytest.fixture
def decks(deck_catalog, user):
    from cards.models import Printing, Ruler

    squires = DeckFactory(owner=user, name="Squires", legal=True, copies_count=1)
    DeckCardFactory(deck=squires, printing=Printing.objects.get(collector_number="TS-901"), count=4)
    lancers = DeckFactory(owner=user, name="Lancers", legal=False, copies_count=5)
    DeckCardFactory(deck=lancers, printing=Printing.objects.get(collector_number="TS-100"), count=4)
    hares = DeckFactory(owner=user, name="Hares", ruler=Ruler.objects.get(slug="knight"), copies_count=3)
    DeckCardFactory(deck=hares, printing=Printing.objects.get(collector_number="TS-150"), section=Section.CONSIDERING)


def test_it_sorts_newest_first_by_default_or_by_copies(decks):
    assert filtered() == ["Hares", "Lancers", "Squires"]
    assert filtered(sort="most_copied") == ["Lancers", "Hares", "Squires"]
    assert filtered(sort="-newest") == ["Squires", "Lancers", "Hares"]


def test_it_filters_by_ruler_legality_faction_and_card(decks):
    assert filtered(ruler="knight") == ["Hares"]
    assert filtered(legal="true") == ["Squires"]
    assert filtered(faction="ATLAS") == ["Lancers"]
    assert filtered(faction="volnar") == ["Squires"]
    # Any printing of the name counts; the considering board does not.
    assert filtered(card="ember squire 1") == ["Squires"]
    assert filtered(card="TS-100") == ["Lancers"]
    assert filtered(card="Frost Hare") == []
    # A collector number stands for its card: the deck plays the TS-901 reprint of TS-001's name.
    assert filtered(card="TS-001") == ["Squires"]
    # Part of a name, when no name or number matches whole.
    assert filtered(card="lancer") == ["Lancers"]
    assert filtered(card="no such card") == []
