"""Browser-test fixtures: Debian's Chromium (headless) and the practice catalog, committed for the live server."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "test-results" / "browser"
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 812}
# Generous: under CI both cores run a browser, a live server and another test process at once.
TIMEOUT_MS = 20_000


def loaded_and_at_rest(page: Any) -> None:
    """The page loaded (its images and styles too) and every htmx request it made on load answered and swapped in.

    htmx issues a load-triggered request (the deck pages' odds panel) before the load event, and marks its
    element .htmx-request until the answer is swapped: this waits for exactly what the page fetches, where
    networkidle waited a fixed 500 ms of silence more on every page.
    """
    page.wait_for_function("() => document.readyState === 'complete' && !document.querySelector('.htmx-request')")


def laptop_page(chromium: Any, live_server: Any) -> Any:
    """A page at laptop size on the live server, and the JavaScript errors it raised (checked by the caller)."""
    return page_at(chromium, live_server, LAPTOP)


def phone_page(chromium: Any, live_server: Any) -> Any:
    """A page at phone size (375x812) on the live server, and the JavaScript errors it raised."""
    return page_at(chromium, live_server, PHONE)


@contextmanager
def page_at(chromium: Any, live_server: Any, viewport: dict[str, int]) -> Iterator[tuple[Any, list[str]]]:
    """A page of this size on the live server (closed with its context after the block), and its JavaScript errors."""
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)
    context = chromium.new_context(viewport=viewport, base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    try:
        yield page, errors
    finally:
        context.close()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Debian's Chromium, headless (never a downloaded browser)."""
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} is missing: `apt-get install -y chromium` to run the browser tests"
        if os.environ.get("GATESITE_REQUIRE_BROWSER") == "1":
            pytest.fail(f"GATESITE_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    # Playwright's sync API runs an event loop in this thread, which Django's ORM would
    # otherwise refuse to run under (SynchronousOnlyOperation) in the test's own queries.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            yield browser
            browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def practice_catalog(transactional_db: None, rules: None) -> None:
    """The rules and the practice set, committed so the live server's thread sees them.

    The rules are there already, committed (loaded with the test database, and again after each flush:
    tests/conftest.py); loading them a second time per test cost about half a second."""
    from cards.services import card_files_import

    card_files_import(paths=[str(p) for p in sorted((REPO / "data" / "practice").glob("*.json"))])
