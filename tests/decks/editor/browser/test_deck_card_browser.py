from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from decks.editor.browser import deck_card_browser
from decks.editor.state import deck_editor_state
from decks.models import DeckDraft

pytestmark = pytest.mark.django_db


def rows_by_name(page):
    return {row.facts.name: row for row in page.rows}


def test_it_says_which_cards_can_be_added_and_why_not(deck_catalog):
    state = deck_editor_state(draft=DeckDraft(ruler="apprentice", main={"TS-001": 4, "TS-100": 1}))

    page = deck_card_browser(state=state, query="")

    rows = rows_by_name(page)
    assert rows["Ember Squire 1"].blockers == ("5th copy; Apprentice allows 4",)
    assert rows["Ember Squire 1"].in_deck == 4
    assert rows["Frost Hare"].blockers == ("would be a 3rd faction",)
    assert rows["Ember Squire 2"].addable
    assert rows["Spark"].blockers == ("Apprentice prepares no resource cards",)
    assert rows["Spark"].section == "resources"


def test_it_adds_the_printing_already_in_the_deck(deck_catalog):
    state = deck_editor_state(draft=DeckDraft(ruler="apprentice", main={"TS-901": 1}))

    row = rows_by_name(deck_card_browser(state=state, query=""))["Ember Squire 1"]

    assert row.number == "TS-901"
    assert row.other_numbers == ("TS-001",)


def test_it_passes_the_search_and_filters_on(deck_catalog):
    state = deck_editor_state(draft=DeckDraft(ruler="apprentice"))

    page = deck_card_browser(state=state, query="squire", faction="volnar", level_max=1)

    assert page.total == 13
    assert {row.facts.name for row in page.rows} == {f"Ember Squire {i}" for i in range(1, 14)}


def test_it_pages(deck_catalog):
    state = deck_editor_state(draft=DeckDraft(ruler="apprentice"))

    first = deck_card_browser(state=state, query="", limit=5)
    second = deck_card_browser(state=state, query="", limit=5, offset=5)

    assert (first.first, first.last, first.next_offset, first.previous_offset) == (1, 5, 5, None)
    assert second.previous_offset == 0
    assert not {r.facts.name for r in first.rows} & {r.facts.name for r in second.rows}


def test_it_reports_a_query_it_does_not_understand(deck_catalog):
    state = deck_editor_state(draft=DeckDraft(ruler="apprentice"))

    page = deck_card_browser(state=state, query="lv<=two")

    assert page.rows == []
    assert page.error


def test_a_capped_count_shows_as_a_lower_bound_and_still_pages(deck_catalog, monkeypatch):
    monkeypatch.setattr("cards.selectors.CARD_SEARCH_COUNT_CAP", 4)
    state = deck_editor_state(draft=DeckDraft(ruler="apprentice"))

    first = deck_card_browser(state=state, query="", limit=4)
    exact = deck_card_browser(state=state, query="squire", faction="volnar", level_max=1, limit=20)

    assert (first.total_label, first.next_offset) == ("4+", 4)
    assert (exact.total_label, exact.next_offset) == ("13", None)


def test_it_fetches_one_card_more_than_the_page_instead_of_counting(deck_catalog):
    state = deck_editor_state(draft=DeckDraft(ruler="apprentice"))
    deck_card_browser(state=state, query="", limit=4)  # the catalog memory filled

    with CaptureQueriesContext(connection) as queries:
        first = deck_card_browser(state=state, query="", limit=4)

    # The page's ids (the cards and their facts are remembered) and the catalog's version; no COUNT.
    assert len(queries.captured_queries) == 2
    assert not any("COUNT(" in q["sql"].upper() for q in queries.captured_queries)
    last = deck_card_browser(state=state, query="squire", faction="volnar", level_max=1, limit=13)

    assert (len(first.rows), first.total_label, first.next_offset) == (4, "4+", 4)
    assert (len(last.rows), last.total_label, last.next_offset) == (13, "13", None)


# ---------------------------------------------------------------- only cards this deck can use: empty pages say why (issue 23)


def test_a_full_deck_takes_no_card_and_says_so_without_judging_a_result(deck_catalog):
    from tests.decks.factories import legal_apprentice_main

    state = deck_editor_state(draft=DeckDraft(ruler="apprentice", main=legal_apprentice_main()))

    deck_card_browser(state=state, query="")  # the catalog memory loaded
    with CaptureQueriesContext(connection) as queries:
        page = deck_card_browser(state=state, query="", usable=True)

    assert page.rows == []
    assert page.nothing_fits
    assert page.why_none == ("deck is full (50/50)",)
    assert (page.total_label, page.next_offset) == ("0", None)
    # The search (for its error only) and the catalog memory's version check: no result looked up or judged.
    assert len(queries) <= 2, [q["sql"] for q in queries]


def test_no_usable_card_found_says_the_hints_words_most_frequent_first_with_no_next_page(deck_catalog):
    # An ATLAS and a Wonderverse card: a Volnar squire would be a 3rd faction.
    state = deck_editor_state(draft=DeckDraft(ruler="apprentice", main={"TS-100": 1, "TS-150": 1}))

    page = deck_card_browser(state=state, query="squire", usable=True)

    assert page.rows == []
    assert not page.nothing_fits
    assert page.why_none == ("would be a 3rd faction",)
    assert (page.total_label, page.step, page.next_offset) == ("0", 13, None)


def test_usable_only_links_to_no_page_of_unusable_cards(deck_catalog):
    # Squires 1–9 at their limit: of Ember Squire 1, 10, 11, 12, 13, 2, … 9 (name order) only 10–13 are usable.
    state = deck_editor_state(draft=DeckDraft(ruler="apprentice", main={f"TS-{i:03d}": 4 for i in range(1, 10)}))

    page = deck_card_browser(state=state, query="squire", limit=4, usable=True)

    assert [row.facts.name for row in page.rows] == [f"Ember Squire {i}" for i in (10, 11, 12, 13)]
    assert page.next_offset is None  # before: "Next 4", to a page of none
    assert page.total_label == "4"

    # With a usable card after the page, its next page starts there.
    state = deck_editor_state(draft=DeckDraft(ruler="apprentice", main={"TS-001": 4, "TS-002": 4}))
    short = deck_card_browser(state=state, query="squire", limit=10, usable=True)
    assert len(short.rows) == 10
    rest = deck_card_browser(state=state, query="squire", limit=10, offset=short.next_offset, usable=True)
    assert [row.facts.name for row in rest.rows] == ["Ember Squire 9"]
    assert rest.next_offset is None
