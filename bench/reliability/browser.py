"""XSS in a real browser: hostile deck names, descriptions and search text, on every page that shows them.

Debian's chromium driven by Playwright (the Python package only; no browser download). A page
fails if any payload ran: it sets window.__xss, or opens a dialog.
"""

from __future__ import annotations

import urllib.parse

from .probes import Case
from .stack import Stack, deck_create, login

MARK = "window.__xss=(window.__xss||0)+1"
PAYLOADS = (
    f'"><img src=x onerror="{MARK}">',
    f"<script>{MARK}</script>",
    f"javascript:{MARK}//",
    f"</textarea><svg onload={MARK}>",
    f"'-{MARK}-'",
)


def xss(stack: Stack, *, chromium: str = "/usr/bin/chromium") -> Case:
    from playwright.sync_api import sync_playwright

    case = Case("XSS in the browser")
    token = stack.tokens["rel-owner"]
    decks = [
        deck_create(stack.base, token, name=payload[:100], description=payload * 3, visibility="public")
        for payload in PAYLOADS
    ]
    pages = [
        *(f"/d/{deck}/" for deck in decks),
        *(f"/decks/{deck}/edit/" for deck in decks),
        *(f"/d/{deck}/sheet/" for deck in decks),
        *(f"/d/{deck}/v/1/" for deck in decks),
        "/decks/",
        "/decks/browse/",
        "/decks/browse/?" + urllib.parse.urlencode({"q": PAYLOADS[0]}),
        "/decks/compare/?" + urllib.parse.urlencode({"a": decks[0], "b": decks[1]}),
        *(f"/decks/?q={urllib.parse.quote(p)}" for p in PAYLOADS),
        *(f"/decks/new/cards/?q={urllib.parse.quote(p)}" for p in PAYLOADS),
    ]
    session = login(stack.base, "rel-owner")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        context = browser.new_context()
        context.add_cookies([{"name": c.name, "value": c.value or "", "url": stack.base} for c in session.cookies])
        page = context.new_page()
        dialogs: list[str] = []
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        for path in pages:
            page.goto(stack.base + path, wait_until="load", timeout=30_000)
            page.wait_for_timeout(100)  # let onerror/onload handlers run
            ran = page.evaluate("window.__xss || 0")
            case.tried += 1
            if ran or dialogs:
                case.fail(f"{path}: payload ran ({ran} times, {len(dialogs)} dialogs)")
                dialogs.clear()
        browser.close()
    case.note = f"{len(PAYLOADS)} payloads in names, descriptions and searches"
    return case
