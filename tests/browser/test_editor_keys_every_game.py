"""The one editor on a deck of a game whose identity is a card, in a real browser (Debian's Chromium driven by
Playwright), by keyboard and clicks only: the card peek shown on a focused deck line, the considering board
("Consider" from the browser and from a deck line, "Into deck", "Drop") and the keys (`/`, Enter, +/−, a number)
of static/decks/editor.js, as on a Gate Ruler deck. Ruler's Gambit's practice set, a new draft."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import REPO, SCREENSHOTS, laptop_page

pytestmark = pytest.mark.slow


@pytest.fixture
def page(chromium: Any, live_server: Any, transactional_db: None) -> Iterator[Any]:
    from cards.services import card_files_import

    card_files_import(paths=[str(p) for p in sorted((REPO / "data" / "practice" / "games").glob("*.json"))])
    with laptop_page(chromium, live_server) as (page, errors):
        yield page
    assert not errors, f"JavaScript errors on the page: {errors}"


def _settled(page: Any) -> None:
    page.wait_for_function("() => !document.querySelector('.htmx-request')")


def test_the_editor_peeks_considers_and_takes_the_keys_on_a_rulers_gambit_deck(page: Any) -> None:
    from playwright.sync_api import expect

    page.goto("/decks/new/?game=rulers-gambit")
    expect(page.locator("#editor")).to_have_attribute("data-game", "rulers-gambit")
    search = page.get_by_label("Search cards", exact=True)

    # `/` focuses the search; Enter adds the top result of what is typed (searched first if need be).
    page.locator("h1").click()
    page.keyboard.press("/")
    expect(search).to_be_focused()
    page.keyboard.type("t:kingdom-ruler Emberhold")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("count-kingdom")).to_have_text("1")
    kingdom = page.locator("#deck-pane li[data-section='kingdom']").first

    # The peek: hidden until the line is focused, then the card's face in the game's own fields.
    peek = kingdom.locator(".card-peek")
    expect(peek).to_be_hidden()
    kingdom.focus()
    expect(peek).to_be_visible()
    expect(peek.locator(".card-face")).to_have_attribute("data-game", "rulers-gambit")
    expect(peek).to_contain_text("Practice Kingdom of Emberhold")
    expect(kingdom).to_have_attribute("aria-describedby", peek.get_attribute("id"))
    page.screenshot(path=SCREENSHOTS / "game-editor-peek.png")

    # A red unit: + on its focused result adds a copy, a number key sets its count, − takes one out.
    with page.expect_response(lambda response: "/cards/" in response.url):
        search.fill("c:red t:unit")
    _settled(page)
    result = page.locator("#card-results .result").first
    number = result.get_attribute("data-number")
    result.focus()
    page.keyboard.press("+")
    line = page.locator(f"#deck-pane li[data-section='main'][data-number='{number}']")
    expect(line).to_have_attribute("data-count", "1")
    line.focus()
    page.keyboard.press("3")
    expect(line).to_have_attribute("data-count", "3")
    page.keyboard.press("-")
    expect(line).to_have_attribute("data-count", "2")
    expect(page.get_by_test_id("count-main")).to_have_text("2")

    # "Consider" on the deck line: a copy to the board, out of the deck's count and its verdict.
    board = page.locator("#considering")
    line.get_by_role("button", name="Consider").click()
    considered = board.locator(f"li[data-number='{number}']")
    expect(considered).to_have_attribute("data-count", "1")
    expect(page.get_by_test_id("count-main")).to_have_text("1")

    # "Consider" from the browser: a blue card on the board is not judged against the red Kingdom.
    with page.expect_response(lambda response: "/cards/" in response.url):
        search.fill("c:blue t:unit")
    _settled(page)
    blue = page.locator("#card-results .result").first
    blue_number = blue.get_attribute("data-number")
    problems = page.locator("#validation-panel .violations li").count()
    blue.get_by_role("button", name="Consider").click()
    expect(board.locator(f"li[data-number='{blue_number}']")).to_have_attribute("data-count", "1")
    expect(page.locator("#validation-panel .violations li[data-rule='colour']")).to_have_count(0)
    expect(page.locator("#validation-panel .violations li")).to_have_count(problems)

    # On a focused board line, + is "Into deck" (to the card's section), − is "Drop".
    considered.focus()
    page.keyboard.press("+")
    expect(page.get_by_test_id("count-main")).to_have_text("2")
    expect(board.locator(f"li[data-number='{number}']")).to_have_count(0)
    board.locator(f"li[data-number='{blue_number}']").get_by_role("button", name="Drop").click()
    expect(board.locator("li.empty")).to_be_visible()
    expect(board.locator("li[data-row]")).to_have_count(0)

    # The shortcuts help, named by the search box.
    expect(search).to_have_attribute("aria-describedby", re.compile(r"\bsearch-keys\b"))
    expect(page.locator("#search-keys")).to_contain_text("focuses the search")
    page.screenshot(path=SCREENSHOTS / "game-editor-considering.png")
