"""The deck editor in Chromium under the Content-Security-Policy: no violation, and htmx still works.

htmx runs with allowEval off; the pressed card button's value reaches the server through
static/decks/editor.js (htmx:configRequest), also for quick clicks queued behind one another.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = pytest.mark.slow

TIMEOUT_MS = 10_000
CARD = ("2025PS01-001", "Trial Warlock of the Cinder Keep")
# Collected in the page before any of its own scripts run (Playwright's init scripts are not subject to the CSP).
LISTEN = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.cspViolations.push(e.violatedDirective + " " + e.blockedURI + " " + (e.sample || ""));
});
"""


def test_the_editor_works_under_the_policy_without_a_violation(
    chromium: Any, live_server: Any, practice_catalog: None
) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)
    context = chromium.new_context(base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    page.on("pageerror", lambda exc: console.append(f"pageerror: {exc}"))
    page.add_init_script(LISTEN)

    response = page.goto("/decks/new/")
    page.get_by_label("Ruler", exact=True).select_option(label="A-1 Apprentice")
    search = page.get_by_label("Search cards", exact=True)
    search.fill(f'name:"{CARD[1]}"')
    # Enter adds the top result: wait for the search to have answered, so the top result is this card.
    result = page.locator(f'#card-results [data-row][data-number="{CARD[0]}"]')
    expect(result).to_be_visible()
    expect(page.locator("#card-results [data-row]")).to_have_count(1)
    search.press("Enter")
    line = page.locator(f'#deck-list [data-row][data-number="{CARD[0]}"]')
    expect(line).to_have_attribute("data-count", "1")
    add = result.get_by_role("button", name="+ Add")
    for _ in range(3):  # quick clicks: queued, each sent with its own button's value
        add.click()
    expect(line).to_have_attribute("data-count", "4")
    line.locator("button[data-key='-']").click()
    expect(line).to_have_attribute("data-count", "3")
    violations = page.evaluate("window.cspViolations")
    context.close()

    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert violations == []
    # What the browser says of a blocked script or eval, and what htmx says when allowEval stops it.
    blocked = [
        m for m in console if re.search(r"Content Security Policy|Refused to|EvalError|evalDisallowed|^pageerror", m)
    ]
    assert not blocked, console
