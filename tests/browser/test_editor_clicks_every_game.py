"""Fewer clicks on every game: a legal Ruler's Gambit deck and a legal GateRunners deck from the home page in at
most 20 clicks and keys each, counted as tests/browser/test_editor_clicks.py counts Gate Ruler's.

Only through the UI, in Debian's Chromium, with each game's practice set. GateRunners: the Hero and 3 Gates from
the editor's first step, then (no copy limit stated) a number key on a focused result sets its count in one change. Ruler's Gambit allows 2 copies of a card,
so 39 cards take 20 printings at least: the list is pasted in the editor ("Import a deck list"), previewed and
confirmed. Every click and key press goes through `Clicks`; the test prints the counts and fails above 20.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import REPO, SCREENSHOTS, laptop_page
from tests.browser.test_editor_clicks import MAX_CLICKS, Clicks

pytestmark = pytest.mark.slow

PRACTICE = REPO / "data" / "practice" / "games"


@pytest.fixture
def page(chromium: Any, live_server: Any, transactional_db: None) -> Iterator[Any]:
    from cards.rules_loading import rules_load
    from cards.services import card_files_import

    rules_load()
    card_files_import(paths=[str(p) for p in sorted(PRACTICE.glob("*.json"))])
    with laptop_page(chromium, live_server) as (page, errors):
        yield page
    assert not errors, f"JavaScript errors on the page: {errors}"


def _settled(page: Any) -> None:
    page.wait_for_function("() => !document.querySelector('.htmx-request')")


def _search(page: Any, clicks: Clicks, query: str) -> None:
    from playwright.sync_api import expect

    with page.expect_response(lambda response: "/cards/" in response.url):
        clicks.type_into(page.get_by_label("Search cards", exact=True), query)
    _settled(page)
    expect(page.locator("#card-results")).to_have_attribute("data-q", query)


def _open_the_games_editor(page: Any, clicks: Clicks, game: str, slug: str) -> None:
    from playwright.sync_api import expect

    page.goto("/")
    clicks.click(page.get_by_role("main").get_by_role("link", name="Build a deck"))
    clicks.click(page.get_by_test_id("game-picker").get_by_role("link", name=game))
    expect(page.locator("#editor")).to_have_attribute("data-game", slug)


def test_a_legal_gaterunners_deck_takes_at_most_20_clicks_and_keys(page: Any) -> None:
    from playwright.sync_api import expect

    clicks = Clicks(page)
    _open_the_games_editor(page, clicks, "GateRunners", "gaterunners")

    # The first step offers the Hero and the Gates (the sections the game's data asks an exact number of cards for).
    clicks.click(page.get_by_test_id("first-step-hero").get_by_role("button").first)
    expect(page.get_by_test_id("count-hero")).to_have_text("1")
    for index in range(3):
        clicks.click(page.get_by_test_id("first-step-gates").get_by_role("button").nth(index))
        expect(page.get_by_test_id("count-gates")).to_have_text(str(index + 1))
    expect(page.get_by_test_id("first-step-gates")).to_have_count(0)
    _search(page, clicks, "t:unit lv<=2")
    total = 0
    for index, copies in enumerate((9, 9, 9, 9, 4)):
        clicks.click(page.locator("#card-results .result").nth(index).locator(".result-name"))  # focuses the card
        clicks.press(str(copies))
        total += copies
        expect(page.get_by_test_id("count-main")).to_have_text(str(total))

    expect(page.get_by_test_id("verdict")).to_have_text("Legal")
    page.screenshot(path=SCREENSHOTS / "clicks-gaterunners.png")
    print(f"GateRunners: {clicks.clicks} clicks + {clicks.keys} keys")
    assert clicks.clicks + clicks.keys <= MAX_CLICKS


def test_a_legal_rulers_gambit_deck_takes_at_most_20_clicks_and_keys(page: Any) -> None:
    from playwright.sync_api import expect

    cards = json.loads((PRACTICE / "practice_rulers_gambit_rg01.json").read_text())["cards"]
    kingdom = "Practice Kingdom of Emberhold"
    ember = [c["name"] for c in cards if c.get("colours") == ["red"] and c["type"] != "kingdom-ruler"][:20]
    text = "\n".join(["Game: Ruler's Gambit", *(f"{2 if i < 19 else 1} {name}" for i, name in enumerate(ember))])
    text += f"\nKingdom: {kingdom}\n"
    clicks = Clicks(page)
    _open_the_games_editor(page, clicks, "Ruler's Gambit", "rulers-gambit")

    clicks.click(page.get_by_text("Import a deck list"))
    clicks.type_into(page.locator("#import-text"), text)
    clicks.click(page.get_by_test_id("import-preview-button"))
    clicks.click(page.get_by_test_id("confirm"))

    expect(page.locator("#editor")).to_have_attribute("data-game", "rulers-gambit")
    expect(page.get_by_test_id("count-kingdom")).to_have_text("1")
    expect(page.get_by_test_id("count-main")).to_have_text("39")
    expect(page.get_by_test_id("verdict")).to_have_text("Legal")
    page.screenshot(path=SCREENSHOTS / "clicks-rulers-gambit.png")
    print(f"Ruler's Gambit: {clicks.clicks} clicks + {clicks.keys} keys")
    assert clicks.clicks + clicks.keys <= MAX_CLICKS
