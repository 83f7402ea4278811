"""The game editor on a phone (375x812), in a real browser: Gate Ruler's pane tabs (Deck / Cards / Rules), the Deck
tab's count following each change, and a change's answer swapping only the hints whose digest changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import SCREENSHOTS, phone_page

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]


def test_a_phone_shows_the_game_editor_one_pane_at_a_time_and_the_tab_counts_the_main_deck(
    chromium: Any, live_server: Any, transactional_db: None
) -> None:
    from playwright.sync_api import expect

    from cards.services import card_files_import

    card_files_import(paths=[str(p) for p in sorted((REPO / "data" / "practice" / "games").glob("*.json"))])
    with phone_page(chromium, live_server) as (page, errors):
        browser_pane, deck_pane, rules_pane = (
            page.locator("#card-browser"),
            page.locator("#deck-pane"),
            page.locator("#rules-panel"),
        )
        tab_count = page.get_by_test_id("tab-count")
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url) if "/change/" in request.url else None)

        page.goto("/decks/new/?game=rulers-gambit")
        # An empty deck opens on the cards, and only them; the Deck tab counts the main deck against its 39.
        expect(browser_pane).to_be_visible()
        expect(deck_pane).to_be_hidden()
        expect(rules_pane).to_be_hidden()
        expect(tab_count).to_have_text("0/39")
        expect(page.get_by_test_id("tab-cards")).to_have_attribute("aria-current", "true")
        expect(page.get_by_test_id("tab-rules")).to_contain_text("Ruler's Gambit")

        # By keyboard: the Rules tab is a link, Enter shows its pane and marks it the current one.
        page.get_by_test_id("tab-rules").focus()
        page.keyboard.press("Enter")
        expect(rules_pane).to_be_visible()
        expect(browser_pane).to_be_hidden()
        expect(page.get_by_test_id("tab-rules")).to_have_attribute("aria-current", "true")
        expect(page.get_by_test_id("tab-cards")).not_to_have_attribute("aria-current", "true")

        # "/" brings the card browser back. The Kingdom goes in its own section: the main deck's count stays 0.
        page.locator("body").click(position={"x": 5, "y": 5})
        page.keyboard.press("/")
        search = page.get_by_label("Search cards", exact=True)
        expect(search).to_be_focused()
        expect(browser_pane).to_be_visible()
        with page.expect_response(lambda response: "/cards/" in response.url):
            search.fill("t:kingdom-ruler Emberhold")
        expect(page.locator("#card-results .result").first).to_contain_text("Practice Kingdom of Emberhold")
        page.locator("#card-results .result").first.locator("button[data-add]").click()
        expect(page.get_by_test_id("count-kingdom")).to_have_text("1")
        expect(tab_count).to_have_text("0/39")

        with page.expect_response(lambda response: "/cards/" in response.url):
            search.fill("c:red")
        page.wait_for_function("() => !document.querySelector('.htmx-request')")
        # A card the Kingdom does not allow: its hint is the same after each change, so no answer swaps it
        # (a mark put on its element stays); the card added gets a new hint, with a new digest.
        blocked_id = page.locator("#card-results .hint[data-addable='false']").first.get_attribute("id")
        blocked = page.locator(f"#{blocked_id}")
        blocked.evaluate("hint => hint.setAttribute('data-kept', 'yes')")
        added = page.locator("#card-results .result:has(.hint[data-addable='true'])").first
        number = added.get_attribute("data-number")
        hint = page.locator(f"#card-results [data-row][data-number='{number}'] .hint")
        first_digest = hint.get_attribute("data-digest")
        sent = len(requests)
        for copies in (1, 2):
            page.locator(f"#card-results [data-row][data-number='{number}'] button[data-add]").click()
            expect(tab_count).to_have_text(f"{copies}/39")
        expect(hint).not_to_have_attribute("data-digest", first_digest)
        expect(blocked).to_have_attribute("data-kept", "yes")
        other = page.locator("#card-results .result:has(.hint[data-addable='true'])").nth(1)
        other.locator("button[data-add]").click()
        expect(tab_count).to_have_text("3/39")
        assert len(requests) - sent == 3  # one request per click
        expect(page.get_by_test_id("tab-deck")).to_contain_text("✗")
        page.screenshot(path=SCREENSHOTS / "phone-game-cards-pane.png")

        # The Deck tab shows the deck, where a line's − takes a copy out; the tab follows.
        page.get_by_test_id("tab-deck").click()
        expect(deck_pane).to_be_visible()
        expect(browser_pane).to_be_hidden()
        expect(rules_pane).to_be_hidden()
        line = page.locator(f'#deck-list [data-row][data-section="main"][data-number="{number}"]')
        expect(line.locator(".line-count")).to_have_text("2×")
        line.locator("button[data-key='-']").click()
        expect(tab_count).to_have_text("2/39")
        expect(line.locator(".line-count")).to_have_text("1×")
        expect(page.get_by_test_id("tab-deck")).to_have_attribute("aria-current", "true")
        page.screenshot(path=SCREENSHOTS / "phone-game-deck-pane.png")

        # The pane shown is remembered over a reload of the page.
        page.reload()
        expect(deck_pane).to_be_visible()
        expect(tab_count).to_have_text("2/39")
    assert not errors, f"JavaScript errors on the page: {errors}"
