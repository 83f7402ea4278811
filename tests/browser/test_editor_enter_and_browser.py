"""Issue 23, in Debian's Chromium, through what a player sees: Enter in the card search adds only what can be
added (desktop, and the phone keyboard's Go key at 375x812), an empty card list says why with no dead link
(and "Only cards this deck can use" follows the deck after each change), and at most one card peek is open.

Both editors: Gate Ruler's (a saved, full and legal 50-card Apprentice deck, tests/browser/test_editor_walkthrough.py
DECK) and another game's (Ruler's Gambit's practice set).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import SCREENSHOTS, laptop_page, phone_page
from tests.browser.test_editor_walkthrough import DECK

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
PASSPHRASE = "a long enter-key passphrase"
FULL = "deck is full (50/50)"


@pytest.fixture
def full_deck(practice_catalog: None) -> Any:
    """A saved, legal 50-card Apprentice deck (version 1) of a player with a password."""
    from django.contrib.auth import get_user_model

    from decks.models import DeckDraft
    from decks.services import deck_create_from_draft

    owner = get_user_model().objects.create_user("enterkey", password=PASSPHRASE)
    main = {number: copies for number, (_, copies) in DECK.items()}
    return deck_create_from_draft(owner=owner, draft=DeckDraft(ruler="apprentice", main=main), name="Full")


def _open(page: Any, deck: Any) -> None:
    """Log in as the deck's owner and open its editor."""
    from playwright.sync_api import expect

    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("enterkey")
    page.get_by_label("Password").fill(PASSPHRASE)
    page.get_by_role("main").get_by_role("button", name="Log in").click()
    page.goto(f"/decks/{deck.public_id}/edit/")
    expect(page.get_by_test_id("verdict")).to_have_text("Legal")


def _settled(page: Any) -> None:
    page.wait_for_function("() => !document.querySelector('.htmx-request')")


def _deck_cards(deck: Any) -> int:
    from decks.saved_drafts import deck_draft_of

    deck.refresh_from_db()
    return sum(deck_draft_of(deck=deck).main.values())


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_enter_adds_nothing_the_top_results_hint_refuses_and_says_why(
    chromium: Any, live_server: Any, full_deck: Any, size: str
) -> None:
    from playwright.sync_api import expect

    at = laptop_page if size == "laptop" else phone_page
    with at(chromium, live_server) as (page, errors):
        _open(page, full_deck)
        if size == "phone":
            page.get_by_test_id("tab-cards").click()
        search = page.get_by_label("Search cards", exact=True)
        search.fill("dragon")
        expect(page.locator("#card-results")).to_have_attribute("data-q", "dragon")
        top = page.locator("#card-results [data-row]").first
        expect(top).to_contain_text(FULL)  # the top result's hint: it cannot be added
        name = top.get_attribute("data-card-name")

        search.press("Enter")  # on a phone, the keyboard's Go key

        notice = page.get_by_test_id("search-notice")
        expect(notice).to_have_text(f"“{name}” cannot be added: {FULL}.")
        expect(notice).to_have_attribute("role", "status")  # announced
        expect(notice).to_be_in_viewport()  # under the field the player typed into
        _settled(page)
        expect(page.get_by_test_id("tab-count")).to_have_text("50/50")
        expect(page.get_by_test_id("deck-version")).to_have_text("1")
        page.screenshot(path=SCREENSHOTS / f"enter-refused-{size}.png")
        assert _deck_cards(full_deck) == 50
        assert full_deck.version == 1  # nothing autosaved

        # Only Enter's shortcut is held back: "+ Add" builds an illegal deck on purpose, its violation shown.
        top.get_by_role("button", name=re.compile(r"^\+ Add$")).click()
        expect(page.get_by_test_id("tab-count")).to_have_text("51/50")
        expect(page.get_by_test_id("verdict")).to_have_text("Not legal: 1 problem")
        # Typing again: what Enter said is about other results, and goes.
        search.press("End")
        search.type("s")
        expect(notice).to_have_text("")
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def page_on_full_deck(chromium: Any, live_server: Any, full_deck: Any) -> Iterator[Any]:
    """The full deck's editor at laptop size, its owner logged in."""
    with laptop_page(chromium, live_server) as (page, errors):
        _open(page, full_deck)
        yield page
    assert not errors, f"JavaScript errors on the page: {errors}"


def test_only_usable_cards_on_a_full_deck_says_why_and_follows_each_change(page_on_full_deck: Any) -> None:
    from playwright.sync_api import expect

    page = page_on_full_deck
    results = page.locator("#card-results")
    empty = page.get_by_test_id("empty-results")
    next_page = results.get_by_role("link", name=re.compile(r"^Next"))

    page.get_by_label("Only cards this deck can use").check()
    expect(empty).to_contain_text("No card can be added to this deck:")
    expect(empty).to_contain_text(FULL)
    expect(page.get_by_test_id("result-count")).to_have_text("0 cards")  # not "0+ cards, 0–0 shown"
    expect(next_page).to_have_count(0)  # no link to an empty page
    page.screenshot(path=SCREENSHOTS / "usable-full-deck.png")

    # One card out: the cards the deck can take again come back, without searching again by hand.
    line = page.locator('#deck-list [data-row][data-number="2025PS01-025"]')
    line.get_by_role("button", name="Remove one").click()
    expect(page.get_by_test_id("tab-count")).to_have_text("49/50")
    expect(empty).to_have_count(0)
    expect(results.locator("[data-row]").first).to_be_visible()
    expect(page.get_by_test_id("result-count")).to_have_text(re.compile(r"^30\+ cards, 1–30 shown$"))
    # The next page is never empty: its first card is one this deck can use too.
    next_page.click()
    expect(results.locator("[data-row]").first).to_be_visible()
    expect(empty).to_have_count(0)

    # The 50th card: every card leaves the list again, with the reason.
    results.locator("[data-row]").first.get_by_role("button", name=re.compile(r"^\+ Add$")).click()
    expect(page.get_by_test_id("tab-count")).to_have_text("50/50")
    expect(empty).to_contain_text(FULL)
    expect(results.locator("[data-row]")).to_have_count(0)


def test_only_usable_cards_drops_a_card_at_its_copy_limit(page_on_full_deck: Any, monkeypatch: Any) -> None:
    from playwright.sync_api import expect

    from decks.editor import views

    # The usable-only search answers late (drawn at once, held 0.8 s on the way), as on a slow line: a click made
    # meanwhile must not be drawn over by it (the search was drawn for the deck before the click).
    answer = views.replace_url

    def late(response: Any, url: str) -> Any:
        if "usable" in url:
            time.sleep(0.8)
        return answer(response, url)

    monkeypatch.setattr(views, "replace_url", late)

    page = page_on_full_deck
    results = page.locator("#card-results")
    warlock = "2025PS01-001"
    line = page.locator(f'#deck-list [data-row][data-number="{warlock}"]')
    # Both Duels and two of the four Warlocks out: the deck has room for two Warlocks, and more.
    duel = page.locator('#deck-list [data-row][data-number="2025PS01-025"]')
    duel.get_by_role("button", name="Remove one").click()
    expect(duel).to_have_attribute("data-count", "1")
    duel.get_by_role("button", name="Remove one").click()
    expect(duel).to_have_count(0)
    line.get_by_role("button", name="Remove one").click()
    expect(line).to_have_attribute("data-count", "3")
    line.get_by_role("button", name="Remove one").click()
    expect(line).to_have_attribute("data-count", "2")
    query = f'name:"{DECK[warlock][0]}"'
    page.get_by_label("Search cards", exact=True).fill(query)
    expect(results).to_have_attribute("data-q", query)
    result = results.locator(f'[data-row][data-number="{warlock}"]')
    # The click comes while the search the box starts is on its way: they go in turn (hx-sync), so the search's
    # answer is never drawn over the click's with the results as they were before it.
    with page.expect_request(lambda request: "usable=1" in request.url):
        page.get_by_label("Only cards this deck can use").check()
    result.get_by_role("button", name=re.compile(r"^\+ Add$")).click()
    expect(line).to_have_attribute("data-count", "3")
    expect(results).to_have_attribute("data-usable", "")
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    expect(result.locator(".in-deck")).to_have_text("3 in deck")
    # The 4th copy: the card can take no more (its copy limit) and leaves the list, which says why.
    result.get_by_role("button", name=re.compile(r"^\+ Add$")).click()
    expect(line).to_have_attribute("data-count", "4")
    expect(result).to_have_count(0)
    expect(page.get_by_test_id("empty-results")).to_contain_text("The card found cannot be added to this deck:")
    expect(page.get_by_test_id("empty-results")).to_contain_text("5th copy")


def test_the_other_games_editor_says_why_its_card_list_is_empty(
    chromium: Any, live_server: Any, transactional_db: None
) -> None:
    from playwright.sync_api import expect

    from cards.rules_loading import rules_load
    from cards.services import card_files_import

    rules_load()
    card_files_import(paths=[str(p) for p in sorted((REPO / "data" / "practice" / "games").glob("*.json"))])
    with laptop_page(chromium, live_server) as (page, errors):
        page.goto("/decks/new/?game=rulers-gambit")
        expect(page.locator("#editor")).to_have_attribute("data-game", "rulers-gambit")
        search = page.get_by_label("Search cards", exact=True)
        with page.expect_response(lambda response: "/cards/" in response.url):
            search.fill("no such card anywhere")
        results = page.locator("#card-results")
        expect(page.get_by_test_id("empty-results")).to_have_text("No card matches this search.")
        expect(results.get_by_role("link")).to_have_count(0)
        # Enter with nothing to add says so, where the player looks.
        search.press("Enter")
        notice = page.get_by_test_id("search-notice")
        expect(notice).to_contain_text("No card matches this search.")
        expect(notice).to_be_in_viewport()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_enter_in_the_other_games_editor_adds_only_what_its_hint_allows(
    chromium: Any, live_server: Any, transactional_db: None, size: str
) -> None:
    from playwright.sync_api import expect

    from cards.rules_loading import rules_load
    from cards.services import card_files_import

    rules_load()
    card_files_import(paths=[str(p) for p in sorted((REPO / "data" / "practice" / "games").glob("*.json"))])
    at = laptop_page if size == "laptop" else phone_page
    with at(chromium, live_server) as (page, errors):
        page.goto("/decks/new/?game=rulers-gambit")
        if size == "phone":
            page.get_by_test_id("tab-cards").click()
        search = page.get_by_label("Search cards", exact=True)
        with page.expect_response(lambda response: "/cards/" in response.url):
            search.fill("t:kingdom-ruler Emberhold")
        search.press("Enter")  # the first kingdom: it can be added
        expect(page.get_by_test_id("count-kingdom")).to_have_text("1")
        top = page.locator("#card-results [data-row]").first
        expect(top.locator(".hint")).to_have_attribute("data-addable", "false")
        reasons = top.locator(".blockers li").all_inner_texts()
        assert reasons

        search.press("Enter")  # a second one: its hint says no

        notice = page.get_by_test_id("search-notice")
        expect(notice).to_have_text(f"“{top.get_attribute('data-card-name')}” cannot be added: {'; '.join(reasons)}.")
        expect(notice).to_be_in_viewport()
        _settled(page)
        expect(page.get_by_test_id("count-kingdom")).to_have_text("1")
    assert not errors, f"JavaScript errors on the page: {errors}"


def test_at_most_one_card_peek_is_open(page_on_full_deck: Any) -> None:
    from playwright.sync_api import expect

    page = page_on_full_deck
    tooltips = page.get_by_role("tooltip")  # the visible ones
    first = page.locator('#deck-list [data-row][data-number="2025PS01-001"]')
    second = page.locator('#deck-list [data-row][data-number="2025PS01-003"]')
    expect(tooltips).to_have_count(0)

    first.get_by_role("button", name="Remove one").click()
    expect(first).to_have_attribute("data-count", "3")
    first.get_by_role("button", name="Add one").click()
    expect(first).to_have_attribute("data-count", "4")
    _settled(page)

    second.hover()  # another line: only its peek
    expect(tooltips).to_have_count(1)
    expect(tooltips).to_contain_text("Mock Spellblade of the Brass Citadel")
    page.screenshot(path=SCREENSHOTS / "one-peek.png")
    page.get_by_test_id("verdict").hover()  # away from the lines: the clicked line's peek does not stay open
    expect(tooltips).to_have_count(0)

    # From the keyboard, a focused line keeps its peek until the pointer shows another.
    first.focus()
    page.keyboard.press("-")
    expect(first).to_have_attribute("data-count", "3")
    expect(tooltips).to_have_count(1)
    second.hover()
    expect(tooltips).to_have_count(1)
    expect(tooltips).to_contain_text("Mock Spellblade of the Brass Citadel")


def test_enter_adds_the_top_result_of_its_own_search_not_of_results_another_answer_redraws_first(
    chromium: Any, live_server: Any, practice_catalog: None
) -> None:
    """Enter before its search's answer adds that answer's top card, not the top card of results another answer
    redraws in between (a rules change sent before the typing redraws them for the search as it was then); and
    the search's answer is shown although those results replaced the element it was sent for.

    The race that made CI's phone walkthrough a deck of 4 warlocks and a stranger (tab 5/50, the line at 4):
    made certain here by holding the rules change's and the search's requests and letting them go in turn. (The
    search now waits for the change before it is sent at all, so its answer is drawn for the deck after it.)"""
    from playwright.sync_api import expect

    wanted = "2025PS01-021"
    hold = _Hold("/change/", "/cards/")
    held = hold.routes

    with laptop_page(chromium, live_server) as (page, errors):
        _new_apprentice_draft(page)
        assert page.locator("#card-results [data-row]").first.get_attribute("data-number") != wanted

        page.route("**/decks/new/change/", hold)
        page.route("**/decks/new/cards/**", hold)
        page.get_by_label("Geas", exact=True).select_option(label="Oath of the Lone Banner")
        page.wait_for_function("() => document.querySelector('.htmx-request')")
        search = page.get_by_label("Search cards", exact=True)
        # Set without an input event, so that Enter's search is the only one (typing would send another later).
        search.evaluate("(field, q) => { field.value = q; }", f'name:"{DECK[wanted][0]}"')
        search.press("Enter")
        _wait_until_held(page, held, 1)
        page.wait_for_timeout(300)
        # The search waits its turn behind the rules change (hx-sync): it is not sent while the change is on its way.
        assert [route.request.method for route in held] == ["POST"]

        # The rules change's answer first: results for the empty search it was sent with; then the search goes.
        hold.parts.discard("/change/")
        held[0].continue_()
        expect(page.locator("#validation-panel .judged-by")).to_contain_text("with Oath of the Lone Banner")
        _wait_until_held(page, held, 2)
        assert [route.request.method for route in held] == ["POST", "GET"]
        expect(page.locator("#card-results")).to_have_attribute("data-q", "")
        page.wait_for_timeout(300)  # past the answer's settling, where an add of its top card would be sent
        # No request under way but the held search (an add would be one, and would draw a deck line).
        page.wait_for_function(
            "() => [...document.querySelectorAll('.htmx-request')].every(e => e.id === 'card-filters')"
        )
        expect(page.locator("#deck-list [data-row]")).to_have_count(0)

        # Then the search's own answer: its top card is added.
        hold.parts.discard("/cards/")
        held[1].continue_()
        line = page.locator(f'#deck-list [data-row][data-number="{wanted}"]')
        expect(line).to_have_attribute("data-count", "1")
        _settled(page)
        expect(page.locator('#deck-list [data-row][data-section="main"]')).to_have_count(1)
        expect(page.locator("#deck-heading .heading-count")).to_have_text("1/50")
    assert not errors, f"JavaScript errors on the page: {errors}"


def test_a_rules_choice_and_a_card_made_while_a_rules_change_is_on_its_way_are_both_made(
    chromium: Any, live_server: Any, practice_catalog: None
) -> None:
    """A geas picked (its answer held, as on a slow line), then the rules date and a card before it answers: the
    geas's answer redraws the rules panel, yet the date and the card are made in turn.

    htmx sends no queued request whose element has left the page, and then starts none after it: the date's form,
    redrawn under it, was dropped and the card's add waited for a next click that might never come."""
    from playwright.sync_api import expect

    from gatesite.clock import site_today

    hold = _Hold("/change/")
    held = hold.routes

    with laptop_page(chromium, live_server) as (page, errors):
        _new_apprentice_draft(page)

        page.route("**/decks/new/change/", hold)
        page.get_by_label("Geas", exact=True).select_option(label="Oath of the Lone Banner")
        _wait_until_held(page, held, 1)
        today = site_today().isoformat()
        page.locator("#pick-date").fill(today)
        page.evaluate("document.getElementById('pick-date').form.requestSubmit()")
        page.locator("#card-results [data-row] button[data-add]").first.click()
        page.wait_for_timeout(300)
        assert len(held) == 1  # the date and the card wait their turn behind the geas

        hold.parts.discard("/change/")
        held[0].continue_()
        expect(page.locator("#deck-heading .heading-count")).to_have_text("1/50")
        _settled(page)
        expect(page.locator("#validation-panel .judged-by")).to_contain_text("with Oath of the Lone Banner")
        expect(page.locator("#pick-date")).to_have_value(today)
    assert not errors, f"JavaScript errors on the page: {errors}"


class _Hold:
    """A route handler: requests whose URL holds one of `parts` are kept in `routes` (let go by the test, with
    continue_()), the others go on at once."""

    def __init__(self, *parts: str) -> None:
        self.parts = set(parts)
        self.routes: list[Any] = []

    def __call__(self, route: Any) -> None:
        if any(part in route.request.url for part in self.parts):
            self.routes.append(route)
        else:
            route.continue_()


def _new_apprentice_draft(page: Any) -> None:
    """A new draft's editor with the Apprentice ruled, at rest."""
    from playwright.sync_api import expect

    page.goto("/decks/new/")
    page.get_by_label("Ruler", exact=True).select_option(label="A-1 Apprentice")
    expect(page.get_by_test_id("ruler-details")).to_contain_text("Apprentice")
    _settled(page)


def _wait_until_held(page: Any, held: list[Any], count: int) -> None:
    """Until `count` requests are held (or 5 s: the caller's assertion then says which were)."""
    for _ in range(100):
        if len(held) >= count:
            return
        page.wait_for_timeout(50)
