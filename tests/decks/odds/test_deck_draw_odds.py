"""deck_draw_odds: a draft's odds by the rules in force on its date; rulers whose first turn differs."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest

from decks.models import DeckDraft
from decks.odds.selectors import deck_draw_odds, rulers_with_first_turn_exception
from tests.decks.factories import legal_apprentice_main

pytestmark = pytest.mark.django_db

RULEBOOK_2020 = date(2021, 1, 1)


def test_it_uses_the_2020_knights_first_turn_on_an_old_rules_date(deck_catalog):
    draft = DeckDraft(ruler="knight", main=legal_apprentice_main(), rules_date=RULEBOOK_2020)

    odds = deck_draw_odds(draft=draft, group="card:Ember Squire 1", k=1)

    # 2020 Knight: 2 at setup, 1 on the game's first turn (going first), 2 a turn otherwise.
    assert odds.pattern.first_turn_differs
    assert (odds.rows[0].seen_first, odds.rows[0].seen_second) == (3, 4)
    assert odds.rows[0].first == 1 - Fraction(46 * 45 * 44, 50 * 49 * 48)
    assert ("K-11", "Knight") in odds.first_turn_rulers


def test_todays_knight_draws_four_then_two(deck_catalog):
    odds = deck_draw_odds(draft=DeckDraft(ruler="knight", main=legal_apprentice_main()), group="cnt")

    assert not odds.pattern.first_turn_differs
    assert [r.seen_first for r in odds.rows] == [6, 8, 10, 12, 14, 16]
    assert [r.seen_second for r in odds.rows] == [6, 8, 10, 12, 14, 16]


def test_it_falls_back_to_the_first_group_and_keeps_k_within_the_group(deck_catalog):
    draft = DeckDraft(ruler="apprentice", main={"TS-001": 4, "TS-200": 1})

    odds = deck_draw_odds(draft=draft, group="card:Gone Since", k=9)

    assert odds.group is not None
    assert odds.group.key == odds.groups[0].key
    assert odds.k == odds.group.count
    assert odds.deck_size == 5


def test_an_empty_deck_has_no_group(deck_catalog):
    odds = deck_draw_odds(draft=DeckDraft(ruler="apprentice"))

    assert odds.group is None
    assert odds.groups == []
    assert all(r.first == 0 and r.seen_first == 0 for r in odds.rows)


def test_it_lists_the_rulers_whose_first_turn_differs(rules):
    today = rulers_with_first_turn_exception(on=date(2025, 1, 1))
    old = rulers_with_first_turn_exception(on=RULEBOOK_2020)

    assert [name for _, name in today if "Raider" in name]
    assert not [name for _, name in today if "Knight" in name]
    assert ("K-11", "Knight") in old
    assert not [name for _, name in old if "Raider" in name]  # not a ruler yet in 2020


def test_it_costs_a_few_queries(deck_catalog, django_assert_max_num_queries):
    draft = DeckDraft(ruler="apprentice", main=legal_apprentice_main())
    # The draft's judgement (catalog token, rules, cards) and the rulers' revisions for the help text.
    with django_assert_max_num_queries(6):
        deck_draw_odds(draft=draft, group="cnt")
