"""The card browser remembers each result's blockers per deck and rules: a search on an unchanged deck
does not judge the deck again for every result, and what it shows is what a fresh judgement shows."""

from __future__ import annotations

import pytest

from decks.editor import browser
from decks.editor.browser import deck_card_browser
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
                additions.blockers(row.facts, row.number) for row in fresh.rows
            ], (main, query)


def test_a_changed_deck_is_judged_again(deck_catalog):
    def squire(main):
        page = deck_card_browser(state=deck_editor_state(draft=DeckDraft(ruler="apprentice", main=main)), query="")
        return next(row for row in page.rows if row.facts.name == "Ember Squire 1")

    assert squire({"TS-001": 3}).addable
    assert squire({"TS-001": 4}).blockers == ["5th copy; Apprentice allows 4"]
    assert squire({"TS-001": 3}).addable


def test_a_result_s_blockers_are_a_list_of_its_own(deck_catalog):
    state = deck_editor_state(draft=DeckDraft(ruler="apprentice", main={"TS-001": 4}))
    first = deck_card_browser(state=state, query="")
    first.rows[0].blockers.append("changed by a caller")

    assert "changed by a caller" not in deck_card_browser(state=state, query="").rows[0].blockers


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
