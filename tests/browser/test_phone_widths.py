"""Pages fit a phone (375 px wide): no sideways scrolling of the page itself; wide tables scroll inside.

My decks, browse, a deck page with a long-named deck, a card page; My decks stacks a card per deck
with every action reachable. Screenshots go to
test-results/browser/phone-widths/. Skips without /usr/bin/chromium unless GATESITE_REQUIRE_BROWSER=1.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import PHONE, SCREENSHOTS, TIMEOUT_MS, loaded_and_at_rest
from tests.browser.test_editor_walkthrough import DECK

pytestmark = pytest.mark.slow


LONG_NAME = "Trial Warlocks of the Cinder Keep and the Brass Citadel: Supercalifragilisticexpialidocious"


@pytest.fixture
def public_deck(practice_catalog: None) -> Any:
    from django.contrib.auth import get_user_model

    from decks.library.services import deck_tag_add
    from decks.models import DeckDraft, Visibility
    from decks.services import deck_create_from_draft, deck_visibility_set

    owner = get_user_model().objects.create_user("phone-owner", password="a-long-test-password")
    draft = DeckDraft(ruler="apprentice", main={number: count for number, (_, count) in DECK.items()})
    deck = deck_create_from_draft(owner=owner, draft=draft, name=LONG_NAME)
    deck_tag_add(deck=deck, name="tournament")
    return deck_visibility_set(deck=deck, visibility=Visibility.PUBLIC)


def test_the_pages_fit_a_phone_screen(chromium: Any, live_server: Any, public_deck: Any) -> None:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(public_deck.owner)
    context = chromium.new_context(viewport=PHONE, base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    page = context.new_page()
    folder = SCREENSHOTS / "phone-widths"
    folder.mkdir(parents=True, exist_ok=True)
    widths = {}
    for name, url in [
        ("my-decks", "/decks/"),
        ("browse", "/decks/browse/"),
        ("deck-page", f"/d/{public_deck.public_id}/"),
        ("card-page", "/cards/2025PS01-001/"),
    ]:
        page.goto(url)
        loaded_and_at_rest(page)
        page.screenshot(path=folder / f"{name}.png", full_page=True)
        widths[name] = page.evaluate("() => document.documentElement.scrollWidth")
    page.goto(f"/d/{public_deck.public_id}/")
    assert page.get_by_test_id("deck-name").inner_text() == LONG_NAME
    context.close()
    too_wide = {name: width for name, width in widths.items() if width > PHONE["width"]}
    assert too_wide == {}, f"pages wider than the phone (scrollWidth, px): {too_wide}"


def test_my_decks_stacks_a_card_per_deck_with_every_action_reachable(
    chromium: Any, live_server: Any, public_deck: Any
) -> None:
    from django.conf import settings
    from django.test import Client
    from playwright.sync_api import expect

    client = Client()
    client.force_login(public_deck.owner)
    context = chromium.new_context(viewport=PHONE, base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}])
    page = context.new_page()
    page.goto("/decks/")
    row = page.locator(f'tr[data-deck="{public_deck.public_id}"]')
    # A stacked card: the row is a block as wide as the page, its cells one under another.
    assert row.evaluate("el => getComputedStyle(el).display") == "block"
    assert page.locator("table.deck-rows thead").evaluate("el => el.getBoundingClientRect().height") <= 1
    controls = [
        row.get_by_role("link", name=LONG_NAME),
        row.get_by_role("link", name="Deck page"),
        row.get_by_role("textbox", name=f"New tag for {LONG_NAME}"),
        row.get_by_role("button", name="Add"),
        row.get_by_role("button", name=f"Remove tag tournament from {LONG_NAME}"),
        row.get_by_role("button", name=f"Archive {LONG_NAME}"),
        row.get_by_role("button", name=f"Delete {LONG_NAME}"),
    ]
    for control in controls:
        expect(control).to_be_visible()
        box = control.bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= PHONE["width"], control
    # Without the header row, each value says what it is: its column's name, drawn from data-label.
    ruler = row.locator('td[data-label="Game and ruler"]')
    assert ruler.evaluate("el => getComputedStyle(el, '::before').content") not in ("none", "normal", "")
    assert ruler.inner_text().startswith("Apprentice")
    context.close()


def test_the_editors_header_and_tab_bar_take_at_most_a_quarter_of_a_phone_screen(
    chromium: Any, live_server: Any, public_deck: Any
) -> None:
    """Issue 13: on a 375 px phone the site header, the deck's header and the tab bar end within the first
    quarter of the screen, for a new draft (signed out) and a saved deck (signed in), so the pane shows."""
    from django.conf import settings
    from django.test import Client
    from playwright.sync_api import expect

    client = Client()
    client.force_login(public_deck.owner)
    folder = SCREENSHOTS / "phone-widths"
    folder.mkdir(parents=True, exist_ok=True)
    bottoms = {}
    for name, url, signed_in in [
        ("editor-new", "/decks/new/", False),
        ("editor-saved", f"/decks/{public_deck.public_id}/edit/", True),
    ]:
        context = chromium.new_context(viewport=PHONE, base_url=live_server.url)
        context.set_default_timeout(TIMEOUT_MS)
        if signed_in:
            cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
            context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}])
        page = context.new_page()
        page.goto(url)
        loaded_and_at_rest(page)
        expect(page.locator("#editor-tabs")).to_be_visible()
        page.screenshot(path=folder / f"{name}-first-screen.png")
        bottoms[name] = page.evaluate("() => document.querySelector('#editor-tabs').getBoundingClientRect().bottom")
        context.close()
    print(f"editor header + tab bar bottom at 375×{PHONE['height']} px: {bottoms}")
    assert all(bottom > 0 for bottom in bottoms.values())
    too_tall = {name: bottom for name, bottom in bottoms.items() if bottom > PHONE["height"] / 4}
    assert too_tall == {}, (
        f"header and tab bar end below a quarter of the screen ({PHONE['height'] / 4} px): {too_tall}"
    )
