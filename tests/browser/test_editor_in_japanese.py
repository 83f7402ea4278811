"""The deck editor in Japanese, in a real browser (Debian's Chromium), only through the UI.

An English page switches to Japanese with the header's switch (the URL stays the same); the
ruler is picked by its Japanese name, a card found and added five times: the copy-limit
violation, the flagged line, the verdict, the meters and the card browser's hints all read in
Japanese, then a search by a Japanese field and faction name. Screenshots (laptop and phone) go
to test-results/browser/ja/; Debian's fonts-noto-cjk draws the Japanese text (.ci/run, README).

Without /usr/bin/chromium the test skips, unless GATESITE_REQUIRE_BROWSER=1 (CI) makes it fail.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import TIMEOUT_MS

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "test-results" / "browser" / "ja"
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 812}

WARLOCK = "2025PS01-001"  # Trial Warlock of the Cinder Keep, a Volnar unit of the practice set


@pytest.fixture
def page(chromium: Any, live_server: Any, practice_catalog: None) -> Iterator[Any]:
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)
    # An English browser: the switch, not Accept-Language, makes the page Japanese.
    context = chromium.new_context(viewport=LAPTOP, base_url=live_server.url, locale="en-US")
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def _shot(page: Any, name: str, *, phone: bool = False) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    page.screenshot(path=SCREENSHOTS / f"{name}.png")
    if phone:
        page.set_viewport_size(PHONE)
        page.locator('[data-pane-tab="deck"]').click()
        page.screenshot(path=SCREENSHOTS / f"{name}-phone.png")
        page.set_viewport_size(LAPTOP)
        assert (SCREENSHOTS / f"{name}-phone.png").stat().st_size > 0


def test_walk_the_editor_in_japanese(page: Any) -> None:
    from playwright.sync_api import expect

    page.goto("/decks/new/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.get_by_role("button", name="日本語").click()
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    assert page.url.endswith("/decks/new/")
    expect(page.get_by_role("button", name="English")).to_be_enabled()

    page.get_by_label("ルーラー", exact=True).select_option(label="A-1 アプレンティス")
    expect(page.get_by_test_id("ruler-details")).to_contain_text("アプレンティス")
    expect(page.locator('#validation-panel [data-meter="size"] .meter-label')).to_have_text("デッキの枚数")
    # The ruler's change redraws the rules panel and the results: let it land before typing.
    page.wait_for_function("() => !document.querySelector('.htmx-request')")

    search = page.get_by_label("カードを検索", exact=True)
    search.fill('name:"Trial Warlock of the Cinder Keep"')
    search.press("Enter")
    line = page.locator(f'#deck-list [data-row][data-number="{WARLOCK}"]')
    expect(line).to_have_attribute("data-count", "1")
    result = page.locator(f'#card-results [data-row][data-number="{WARLOCK}"]')
    expect(result.locator(".in-deck")).to_have_text("デッキに 1 枚")
    add = result.get_by_role("button", name="+ 追加")
    for count in range(2, 6):
        add.click()
        expect(line).to_have_attribute("data-count", str(count))

    violation = page.locator('#validation-panel [data-rule="max_copies"] .violation-message')
    expect(violation).to_have_text(re.compile(r"が 5 枚あります。アプレンティス では 4 枚までです。$"))
    expect(page.locator('#validation-panel [data-rule="max_copies"] .violation-source')).to_have_text(
        "(アプレンティス のルール)"
    )
    expect(line.locator('.line-problem [data-rule="max_copies"]')).to_have_text("枚数が多すぎる")
    expect(page.get_by_test_id("verdict")).to_have_text(re.compile(r"^使用不可:問題 \d+ 件$"))
    # The hint on the card: a 6th copy is over the limit.
    expect(result.locator(".blockers")).to_contain_text("6 枚目。アプレンティス では 4 枚まで")
    # Japanese text is drawn with a Japanese font of the stack (static/fonts.css).
    family = page.evaluate("getComputedStyle(document.body).fontFamily")
    assert "Noto Sans CJK JP" in family
    _shot(page, "01-fifth-copy-in-japanese", phone=True)

    search.fill("勢力:ウォルナー レベル<=1")
    expect(page.locator("#card-results")).to_have_attribute("data-q", "勢力:ウォルナー レベル<=1")
    expect(page.get_by_test_id("result-count")).to_contain_text("枚")
    expect(page.get_by_test_id("search-error")).to_have_count(0)
    _shot(page, "02-japanese-search")
