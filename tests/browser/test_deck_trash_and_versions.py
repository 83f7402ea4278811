"""Issue 23 in Chromium: deleting a deck in My decks can be undone (the trash), and versions have no gaps.

- Desktop: Delete stands apart from Archive; it moves the deck to the trash (gone from My decks, its link a
  404 to others), "Trash (1)" lists it with the day it is deleted for good, Restore brings it all back,
  and "Delete forever" asks first.
- Phone (375x812): the same Delete is not next to Archive, and Undo brings the deck back.
- Desktop: a card added and removed on a saved deck lists versions 2 and 1, each opens, "Version k of 2".
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import SCREENSHOTS, laptop_page, phone_page

pytestmark = pytest.mark.slow

# Far enough apart that a tap or a slipped click meant for Archive never lands on Delete.
MIN_GAP_PX = 20


def signed_in(page: Any, live_server: Any, user: Any) -> None:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}])


def a_players_decks() -> tuple[Any, Any]:
    """A player with a public, tagged deck "Squires" of two versions, and a private "Spare"."""
    from django.contrib.auth import get_user_model

    from decks.library.services import deck_tag_add
    from decks.models import DeckDraft, Visibility
    from decks.services import deck_create_from_draft, deck_update, deck_visibility_set

    user = get_user_model().objects.create_user("binner", password="a long binner passphrase")
    deck = deck_create_from_draft(
        owner=user, draft=DeckDraft(ruler="apprentice", main={"2025PS01-001": 4}), name="Squires"
    )
    deck = deck_update(
        deck=deck, draft=DeckDraft(ruler="apprentice", main={"2025PS01-001": 2}, name="Squires"), base_version=1
    )
    deck_visibility_set(deck=deck, visibility=Visibility.PUBLIC)
    deck_tag_add(deck=deck, name="budget")
    deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice"), name="Spare")
    return user, deck


def apart(first: dict[str, float], second: dict[str, float]) -> float:
    """The gap in pixels between two boxes (0 when they touch or overlap)."""
    horizontal = max(second["x"] - (first["x"] + first["width"]), first["x"] - (second["x"] + second["width"]), 0)
    vertical = max(second["y"] - (first["y"] + first["height"]), first["y"] - (second["y"] + second["height"]), 0)
    return max(horizontal, vertical)


def test_delete_in_my_decks_goes_to_a_trash_that_restores_the_deck(
    chromium: Any, live_server: Any, practice_catalog: None
) -> None:
    from playwright.sync_api import expect

    user, deck = a_players_decks()
    with laptop_page(chromium, live_server) as (page, errors):
        signed_in(page, live_server, user)
        page.goto("/decks/")
        row = page.get_by_role("row").filter(has_text="Squires")
        archive = row.get_by_role("button", name="Archive Squires")
        delete = row.get_by_role("button", name=re.compile("^Delete Squires"))
        assert apart(archive.bounding_box(), delete.bounding_box()) >= MIN_GAP_PX

        delete.click()

        notice = page.get_by_role("status").filter(has_text="Moved “Squires” to the trash.")
        expect(notice).to_be_visible()
        expect(page.get_by_test_id("deck-rows")).not_to_contain_text("Squires")
        page.screenshot(path=SCREENSHOTS / "trash-my-decks.png")
        # Its link is a 404 to anyone else.
        anonymous = page.context.browser.new_context(base_url=live_server.url)
        stranger = anonymous.new_page()
        assert stranger.goto(f"/d/{deck.public_id}/").status == 404
        anonymous.close()

        page.get_by_role("link", name="Trash (1)").click()
        trashed = page.get_by_role("row").filter(has_text="Squires")
        expect(trashed).to_contain_text(re.compile(r"\d{4}-\d{2}-\d{2}"))  # the day it is deleted for good
        expect(page.get_by_role("columnheader", name="Deleted for good on")).to_be_visible()
        page.screenshot(path=SCREENSHOTS / "trash-page.png")
        trashed.get_by_role("button", name="Restore Squires").click()

        expect(page.get_by_role("status")).to_contain_text("Restored “Squires”")
        back = page.get_by_role("row").filter(has_text="Squires")
        expect(back).to_contain_text("budget")
        expect(back).to_contain_text("Public")
        expect(page.get_by_role("link", name="Trash (0)")).to_be_visible()
        page.goto(f"/d/{deck.public_id}/")
        expect(page.get_by_role("link", name="Version 2")).to_be_visible()

        # Delete forever asks first, and only then deletes.
        page.goto("/decks/")
        page.get_by_role("row").filter(has_text="Spare").get_by_role("button", name=re.compile("^Delete Spare")).click()
        page.get_by_role("link", name="Trash (1)").click()
        page.get_by_role("button", name="Delete forever: Spare").click()
        expect(page.get_by_role("heading", name="Delete forever?")).to_be_visible()
        expect(page.get_by_text("cannot be undone")).to_be_visible()
        page.get_by_role("button", name="Delete “Spare” forever").click()
        expect(page.get_by_text("The trash is empty.")).to_be_visible()
        assert errors == []


def test_on_a_phone_delete_is_not_next_to_archive_and_undo_brings_the_deck_back(
    chromium: Any, live_server: Any, practice_catalog: None
) -> None:
    from playwright.sync_api import expect

    user, _deck = a_players_decks()
    with phone_page(chromium, live_server) as (page, errors):
        signed_in(page, live_server, user)
        page.goto("/decks/")
        card = page.get_by_role("row").filter(has_text="Squires")
        archive = card.get_by_role("button", name="Archive Squires")
        delete = card.get_by_role("button", name=re.compile("^Delete Squires"))
        delete.scroll_into_view_if_needed()
        assert apart(archive.bounding_box(), delete.bounding_box()) >= MIN_GAP_PX
        page.screenshot(path=SCREENSHOTS / "trash-phone-actions.png")

        delete.click()
        expect(page.get_by_role("status").filter(has_text="Moved “Squires” to the trash.")).to_be_visible()
        page.get_by_role("button", name="Undo").click()

        expect(page.get_by_role("status")).to_contain_text("Restored “Squires”")
        expect(page.get_by_test_id("deck-rows")).to_contain_text("Squires")
        assert errors == []


def test_a_card_added_and_removed_lists_versions_without_gaps(
    chromium: Any, live_server: Any, practice_catalog: None
) -> None:
    from django.contrib.auth import get_user_model
    from playwright.sync_api import expect

    from decks.models import DeckDraft
    from decks.services import deck_create_from_draft, deck_update

    user = get_user_model().objects.create_user("versions", password="a long versions passphrase")
    deck = deck_create_from_draft(
        owner=user, draft=DeckDraft(ruler="apprentice", main={"2025PS01-001": 4}), name="Gaps"
    )
    # What the editor's autosaves of one card added, then removed, write.
    for main in ({"2025PS01-001": 4, "2025PS01-002": 1}, {"2025PS01-001": 4}):
        deck = deck_update(
            deck=deck,
            draft=DeckDraft(ruler="apprentice", main=main, name="Gaps"),
            base_version=deck.version,
            autosave=True,
        )
    with laptop_page(chromium, live_server) as (page, errors):
        signed_in(page, live_server, user)
        page.goto(f"/d/{deck.public_id}/")
        history = page.get_by_test_id("history")
        links = history.get_by_role("link", name=re.compile(r"^Version \d+$"))
        expect(links).to_have_text(["Version 2", "Version 1"])

        for number in (2, 1):
            page.goto(f"/d/{deck.public_id}/")
            page.get_by_test_id("history").get_by_role("link", name=f"Version {number}", exact=True).click()
            expect(page.get_by_test_id("past-version")).to_contain_text(f"Version {number} of 2")
            if number == 2:
                expect(page.get_by_test_id("history")).to_contain_text("no change to the list")
                page.screenshot(path=SCREENSHOTS / "versions-no-gap.png")
        assert errors == []
