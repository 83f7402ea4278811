"""The game editor in a real browser (Debian's Chromium driven by Playwright), only through the UI.

With the practice sets of Ruler's Gambit and GateRunners: log in, pick each game on /decks/new/,
pick its identity card (a Kingdom-Ruler; a Hero and 3 Gates) from the card browser, fill the main
deck with the cards the browser marks as addable (the Kingdom's colour only), see the verdict
turn legal and save; the saved deck opens in its editor, legal. Screenshots go to test-results/browser/.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import SCREENSHOTS, TIMEOUT_MS, laptop_page

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
PASSPHRASE = "a long game passphrase"


@pytest.fixture
def page(chromium: Any, live_server: Any, transactional_db: None) -> Iterator[Any]:
    from django.contrib.auth import get_user_model

    from cards.services import card_files_import

    card_files_import(paths=[str(p) for p in sorted((REPO / "data" / "practice" / "games").glob("*.json"))])
    get_user_model().objects.create_user("builder", password=PASSPHRASE)
    with laptop_page(chromium, live_server) as (page, errors):
        page.goto("/accounts/login/")
        page.get_by_label("Username").fill("builder")
        page.get_by_label("Password").fill(PASSPHRASE)
        page.get_by_role("main").get_by_role("button", name="Log in").click()
        yield page
    assert not errors, f"JavaScript errors on the page: {errors}"


def _search(page: Any, query: str, first: str) -> None:
    """Type a search; once its results are in, the first one names `first`."""
    from playwright.sync_api import expect

    with page.expect_response(lambda response: "/cards/" in response.url):
        page.get_by_label("Search cards", exact=True).fill(query)
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    expect(page.locator("#card-results .result").first).to_contain_text(first)


def _add_until(page: Any, section: str, total: int) -> None:
    """Press "+ Add" on the first result marked addable until the section holds `total` cards."""
    from playwright.sync_api import expect

    count = page.get_by_test_id(f"count-{section}")
    while int(count.inner_text()) < total:
        before = int(count.inner_text())
        page.locator("#card-results .result:has(.hint[data-addable='true']) button[data-add]").first.click()
        expect(count).to_have_text(str(before + 1))


def _save(page: Any, name: str) -> None:
    from playwright.sync_api import expect

    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    page.get_by_label("Deck name").fill(name)
    page.get_by_test_id("save-deck").click()
    expect(page.get_by_test_id("deck-name")).to_contain_text(name)
    expect(page.get_by_test_id("verdict")).to_have_text("Legal")


def test_build_and_save_a_legal_deck_of_each_new_game(page: Any) -> None:
    from playwright.sync_api import expect

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    verdict = page.get_by_test_id("verdict")

    page.goto("/decks/new/")
    page.get_by_test_id("game-picker").get_by_role("link", name="Ruler's Gambit").click()
    expect(page.locator("#editor")).to_have_attribute("data-game", "rulers-gambit")
    _search(page, "t:kingdom-ruler Emberhold", "Practice Kingdom of Emberhold")
    page.locator("#card-results .result").first.locator("button[data-add]").click()
    expect(page.get_by_test_id("count-kingdom")).to_have_text("1")
    _search(page, "c:red", "Colour: Red")
    # The Kingdom allows red only: the browser marks a blue-and-red card as not addable, and says why.
    expect(page.locator("#card-results .hint[data-addable='false']").first).to_contain_text("does not allow")
    _add_until(page, "main", 39)
    expect(verdict).to_have_text("Legal")
    page.screenshot(path=SCREENSHOTS / "game-editor-rulers-gambit.png")
    _save(page, "Emberhold practice")

    page.goto("/decks/new/")
    page.get_by_test_id("game-picker").get_by_role("link", name="GateRunners").click()
    expect(page.locator("#editor")).to_have_attribute("data-game", "gaterunners")
    _search(page, "t:hero", "practice hero")
    _add_until(page, "hero", 1)
    _search(page, "t:gate", "Gate")
    _add_until(page, "gates", 3)
    _search(page, "t:unit lv<=2", "Unit")
    _add_until(page, "main", 40)
    expect(verdict).to_have_text("Legal")
    page.screenshot(path=SCREENSHOTS / "game-editor-gaterunners.png")
    _save(page, "Runner practice")


def test_the_game_editor_has_no_serious_accessibility_violation(
    chromium: Any, live_server: Any, transactional_db: None
) -> None:
    """The game editors (new drafts and a saved deck) under axe-core, as tests/browser/test_accessibility.py does."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from cards.services import card_files_import
    from decks.models import DeckDraft
    from decks.services import deck_create_from_draft
    from tests.browser.test_accessibility import DESKTOP, _audit

    card_files_import(paths=[str(p) for p in sorted((REPO / "data" / "practice" / "games").glob("*.json"))])
    owner = get_user_model().objects.create_user("axe-games", password=PASSPHRASE)
    draft = DeckDraft(game="gaterunners", others={"hero": {"GR01-003": 1}, "gates": {"GR01-013": 3}})
    deck = deck_create_from_draft(owner=owner, draft=draft, name="Runner axe")
    client = Client()
    client.force_login(owner)
    cookie = {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value}
    context = chromium.new_context(viewport=DESKTOP, base_url=live_server.url, bypass_csp=True)
    context.set_default_timeout(TIMEOUT_MS)
    context.add_cookies([{**cookie, "url": live_server.url}])
    found: list[str] = []
    pages = [
        ("game-editor-rulers-gambit", "/decks/new/?game=rulers-gambit"),
        ("game-editor-gaterunners", "/decks/new/?game=gaterunners"),
        ("game-editor-saved", f"/decks/{deck.public_id}/edit/"),
    ]
    _audit(context.new_page(), pages, "desktop", found)
    context.close()

    assert not found, f"{len(found)} serious or critical violations:\n" + "\n".join(found)
