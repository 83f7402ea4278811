from __future__ import annotations

import pytest

from cards.games import default_game
from cards.models import Printing
from cards.selectors import card_facts, card_queryset
from decks.card_facts import card_facts_by_number
from decks.editor.browser import deck_card_hints
from decks.editor.state import deck_editor_state
from decks.models import DeckDraft

pytestmark = pytest.mark.django_db


def test_it_makes_the_same_facts_as_the_catalog_does(practice_set):
    numbers = list(Printing.objects.values_list("collector_number", flat=True))
    expected = {p.collector_number: card_facts(card) for card in card_queryset() for p in card.printings.all()}

    assert card_facts_by_number(default_game(), numbers) == expected


def test_it_takes_one_query_and_skips_unknown_numbers(deck_catalog, django_assert_num_queries):
    with django_assert_num_queries(2):  # the catalog's token, then the facts
        facts = card_facts_by_number(default_game(), ["TS-001", "TS-901", "NOPE"])

    assert set(facts) == {"TS-001", "TS-901"}
    assert facts["TS-001"] is facts["TS-901"]  # one name, one CardFacts
    assert facts["TS-001"].collector_numbers == ("TS-001", "TS-901")
    assert card_facts_by_number(default_game(), []) == {}


def test_it_remembers_the_facts_while_the_catalog_is_unchanged(deck_catalog, django_assert_num_queries):
    first = card_facts_by_number(default_game(), ["TS-001", "TS-100"])

    with django_assert_num_queries(1):  # the catalog's token only
        again = card_facts_by_number(default_game(), ["TS-001", "TS-100"])
    with django_assert_num_queries(2):  # the token, then only the printing not remembered yet
        more = card_facts_by_number(default_game(), ["TS-001", "TS-200"])

    assert again == first
    assert again["TS-001"] is first["TS-001"]
    assert more["TS-200"].name == "Old Wyrm"


def test_it_gives_fresh_hints_for_the_printings_shown(deck_catalog):
    state = deck_editor_state(draft=DeckDraft(ruler="apprentice", main={"TS-001": 4, "TS-100": 1}))

    hints = {
        h.number: h for h in deck_card_hints(state=state, numbers=["TS-001", "TS-150", "TS-002", "NOPE", "TS-001"])
    }

    assert list(hints) == ["TS-001", "TS-150", "TS-002"]
    assert (hints["TS-001"].in_deck, hints["TS-001"].blockers) == (4, ("5th copy; Apprentice allows 4",))
    assert hints["TS-150"].blockers == ("would be a 3rd faction",)
    assert hints["TS-002"].addable
    assert hints["TS-002"].ref == "TS-002"
