"""The card browser remembers each result's blockers per deck and rules: a search on an unchanged deck
does not judge the deck again for every result, and what it shows is what a fresh judgement shows."""

from __future__ import annotations

import pytest

from cards.games import default_game
from decks.card_facts import card_facts_by_number
from decks.editor import browser
from decks.editor.browser import deck_card_browser, deck_card_hints
from decks.editor.state import deck_editor_state
from decks.models import DeckDraft
from decks.rules.hints import Additions

pytestmark = pytest.mark.django_db

DECKS = [
    {},
    {"TS-001": 1},
    {"TS-001": 3},
    {"TS-001": 4},
    {"TS-001": 4, "TS-100": 1},
    {"TS-100": 2},
    {"TS-002": 1, "TS-100": 1},
]


def hints(page):
    return [(row.number, row.in_deck, row.blockers, row.over_limit) for row in page.rows]


def test_remembered_blockers_are_the_ones_judged_afresh(deck_catalog):
    for main in DECKS:
        for query in ("", "squire", "t:unit"):
            state = deck_editor_state(draft=DeckDraft(ruler="apprentice", main=main))
            remembered = deck_card_browser(state=state, query=query)
            again = deck_card_browser(
                state=deck_editor_state(draft=DeckDraft(ruler="apprentice", main=main)), query=query
            )
            browser._blockers.clear()
            fresh = deck_card_browser(state=state, query=query)

            assert hints(remembered) == hints(again) == hints(fresh), (main, query)
            additions = Additions.of(state.judgement.deck, state.rules, state.report)
            assert [row.blockers for row in fresh.rows] == [
                tuple(additions.blockers(row.facts, row.number)) for row in fresh.rows
            ], (main, query)


def test_a_changed_deck_is_judged_again(deck_catalog):
    def squire(main):
        page = deck_card_browser(state=deck_editor_state(draft=DeckDraft(ruler="apprentice", main=main)), query="")
        return next(row for row in page.rows if row.facts.name == "Ember Squire 1")

    assert squire({"TS-001": 3}).addable
    assert squire({"TS-001": 4}).blockers == ("5th copy; Apprentice allows 4",)
    assert squire({"TS-001": 3}).addable


def test_a_result_s_blockers_cannot_be_changed_by_a_caller(deck_catalog):
    state = deck_editor_state(draft=DeckDraft(ruler="apprentice", main={"TS-001": 4}))
    first = deck_card_browser(state=state, query="")

    # A tuple: the remembered blockers are shared by the results that show them, so no caller may change them.
    assert isinstance(first.rows[0].blockers, tuple)
    assert deck_card_browser(state=state, query="").rows[0].blockers == first.rows[0].blockers


def test_the_memory_is_bounded(deck_catalog, monkeypatch):
    monkeypatch.setattr(browser, "MAX_DECKS", 2)
    browser._blockers.clear()
    for main in DECKS:
        deck_card_browser(state=deck_editor_state(draft=DeckDraft(ruler="apprentice", main=main)), query="")

    assert 1 <= len(browser._blockers) <= 2


def test_the_same_deck_under_other_rules_is_judged_again(deck_catalog):
    def squire(ruler, geas=None):
        draft = DeckDraft(ruler=ruler, geas=geas, main={"TS-001": 1})
        page = deck_card_browser(state=deck_editor_state(draft=draft), query="")
        return next(row for row in page.rows if row.facts.name == "Ember Squire 1")

    apprentice, highlander = squire("apprentice"), squire("highlander")

    assert apprentice.addable
    assert highlander.blockers
    assert highlander.blockers != apprentice.blockers
    assert squire("apprentice").addable


def test_a_second_search_on_the_same_deck_judges_nothing_again(deck_catalog, monkeypatch):
    judged = []
    original = Additions.blockers
    monkeypatch.setattr(Additions, "blockers", lambda self, *args: judged.append(args) or original(self, *args))
    browser._blockers.clear()
    state = deck_editor_state(draft=DeckDraft(ruler="apprentice", main={"TS-001": 2}))

    first = deck_card_browser(state=state, query="")
    after_first = len(judged)
    again = deck_card_browser(
        state=deck_editor_state(draft=DeckDraft(ruler="apprentice", main={"TS-001": 2})), query=""
    )

    assert after_first == len(first.rows) > 0
    assert len(judged) == after_first
    assert hints(again) == hints(first)


# ---------------------------------------------------------------- a change's hints (deck_card_hints), remembered


def change_hints(state, numbers):
    return [(h.number, h.in_deck, h.blockers, h.over_limit) for h in deck_card_hints(state=state, numbers=numbers)]


NUMBERS = ["TS-001", "TS-002", "TS-100", "TS-150", "TS-200", "NOPE-1"]


def _state(main, ruler="apprentice"):
    return deck_editor_state(draft=DeckDraft(ruler=ruler, main=main))


def test_a_changes_remembered_hints_are_the_ones_judged_afresh(deck_catalog):
    for ruler in ("apprentice", "highlander"):
        for main in DECKS:
            state = _state(main, ruler)
            browser._hints.clear()
            fresh = change_hints(state, NUMBERS)
            again = change_hints(_state(main, ruler), NUMBERS)

            assert again == fresh, (ruler, main)
            additions = Additions.of(state.judgement.deck, state.rules, state.report)
            facts = card_facts_by_number(default_game(), NUMBERS)
            assert [n for n, *_ in fresh] == [n for n in NUMBERS if n in facts]
            assert [blockers for _n, _in, blockers, _over in fresh] == [
                tuple(additions.blockers(facts[n], n)) for n in NUMBERS if n in facts
            ], (ruler, main)


def test_a_deck_given_back_by_an_undo_is_not_judged_again(deck_catalog, monkeypatch):
    judged = []
    original = Additions.blockers
    monkeypatch.setattr(Additions, "blockers", lambda self, *args: judged.append(args) or original(self, *args))
    browser._hints.clear()

    before = change_hints(_state({"TS-001": 3}), NUMBERS)
    first = len(judged)
    added = change_hints(_state({"TS-001": 4}), NUMBERS)
    undone = change_hints(_state({"TS-001": 3}), NUMBERS)

    assert first > 0
    assert len(judged) == 2 * first  # the deck with the copy judged; the deck given back by the undo remembered
    assert undone == before
    assert added != before  # the 4th copy blocks a 5th


def test_a_changes_hints_are_judged_again_under_other_rules_or_another_catalog(deck_catalog, monkeypatch):
    browser._hints.clear()
    apprentice = change_hints(_state({"TS-001": 1}), ["TS-001"])
    highlander = change_hints(_state({"TS-001": 1}, "highlander"), ["TS-001"])
    assert apprentice != highlander

    judged = []
    original = Additions.blockers
    monkeypatch.setattr(Additions, "blockers", lambda self, *args: judged.append(args) or original(self, *args))
    monkeypatch.setattr(browser, "catalog_token", lambda: "another catalog")
    assert change_hints(_state({"TS-001": 1}), ["TS-001"]) == apprentice
    assert len(judged) == 1


def test_a_changes_hints_cannot_be_changed_by_a_caller(deck_catalog):
    state = _state({"TS-001": 4})
    first = deck_card_hints(state=state, numbers=["TS-001"])[0].blockers

    # A tuple: the remembered hints are shared by the changes that show them, so no caller may change them.
    assert isinstance(first, tuple)
    assert first
    assert deck_card_hints(state=state, numbers=["TS-001"])[0].blockers == first


def test_the_changes_memory_is_bounded(deck_catalog, monkeypatch):
    monkeypatch.setattr(browser, "MAX_DECKS", 2)
    browser._hints.clear()
    for main in DECKS:
        change_hints(_state(main), NUMBERS)

    assert 1 <= len(browser._hints) <= 2
