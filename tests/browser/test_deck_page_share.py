"""The deck page in Chromium: "Copy link" puts the deck's link on the clipboard and says so."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.slow

TIMEOUT_MS = 10_000


def test_copy_link_copies_the_decks_address(chromium: Any, live_server: Any, practice_catalog: None) -> None:
    from django.contrib.auth import get_user_model
    from playwright.sync_api import expect

    from decks.models import DeckDraft, Visibility
    from decks.services import deck_create_from_draft, deck_visibility_set

    owner = get_user_model().objects.create_user("sharer", password="x-unused-1")
    deck = deck_create_from_draft(owner=owner, draft=DeckDraft(ruler="apprentice"), name="Shared")
    deck_visibility_set(deck=deck, visibility=Visibility.UNLISTED)
    expect.set_options(timeout=TIMEOUT_MS)
    context = chromium.new_context(base_url=live_server.url)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = context.new_page()

    page.goto(f"/d/{deck.public_id}/")
    page.get_by_role("button", name="Copy link").click()

    expect(page.locator("#share-status")).to_have_text("Link copied.")
    assert page.evaluate("navigator.clipboard.readText()") == f"{live_server.url}/d/{deck.public_id}/"
    context.close()
