"""Undo and Redo in the deck editors (issue 23), in Debian's Chromium, through what a player sees.

A Gate Ruler draft (an add, a playset, a geas, a new ruler, a card to the considering board, a pasted
list: each undone in turn, then redone with the keys), a saved deck (an undo is saved: a reload shows the
undone deck at its next version) and a Ruler's Gambit draft, at laptop size and on a 375x812 phone.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import SCREENSHOTS, laptop_page, phone_page

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
WARLOCK = "2025PS01-001"  # Trial Warlock of the Cinder Keep
MOCK = "2025PS01-004"  # Mock Warlock of the Cinder Keep
SIZES = {"laptop": laptop_page, "phone": phone_page}


class Editor:
    """The editor as a player reaches it: on a phone, a pane is shown by its tab before it is used."""

    def __init__(self, page: Any, *, phone: bool, deck: str = "#deck-list") -> None:
        self.page = page
        self.phone = phone
        self.deck = deck
        self.undo = page.get_by_role("button", name="Undo", exact=True)
        self.redo = page.get_by_role("button", name="Redo", exact=True)

    def show(self, pane: str) -> None:
        if self.phone:
            self.page.get_by_test_id(f"tab-{pane}").click()

    def result(self, number: str) -> Any:
        return self.page.locator(f'#card-results [data-row][data-number="{number}"]')

    def named(self, name: str) -> Any:
        """The card browser's result of this name."""
        return self.page.locator("#card-results .result").filter(has=self.page.get_by_text(name, exact=True))

    def line(self, number: str, section: str = "main") -> Any:
        return self.page.locator(f'[data-row][data-section="{section}"][data-number="{number}"]')

    def search(self, text: str) -> None:
        self.show("cards")
        self.page.get_by_label("Search cards", exact=True).fill(text)
        from playwright.sync_api import expect

        expect(self.page.locator("#card-results")).to_have_attribute("data-q", text)


def _page(size: str) -> Callable[..., Any]:
    return SIZES[size]


@pytest.mark.parametrize("size", list(SIZES))
def test_every_change_to_a_draft_is_undone_in_turn_and_redone(
    chromium: Any, live_server: Any, practice_catalog: None, size: str
) -> None:
    from playwright.sync_api import expect

    with _page(size)(chromium, live_server) as (page, errors):
        editor = Editor(page, phone=size == "phone")
        count = page.locator("#deck-heading .heading-count")
        ruler, geas = page.get_by_label("Ruler", exact=True), page.get_by_label("Geas", exact=True)
        judged_by = page.locator("#validation-panel .judged-by")

        page.goto("/decks/new/")
        expect(editor.undo).to_be_disabled()
        expect(editor.redo).to_be_disabled()

        # Six changes of every kind.
        editor.search("Trial Warlock of the Cinder Keep")
        editor.result(WARLOCK).get_by_role("button", name="+ Add", exact=True).click()
        expect(count).to_have_text("1/50")
        expect(editor.undo).to_be_enabled()
        editor.result(WARLOCK).get_by_role("button", name="Playset ×4").click()
        expect(count).to_have_text("4/50")
        editor.show("rules")
        geas.select_option(label="Oath of the Lone Banner")
        expect(judged_by).to_contain_text("with Oath of the Lone Banner")
        ruler.select_option(label="K-11 Knight")
        expect(judged_by).to_contain_text("Knight")
        expect(geas).to_have_value("")
        editor.show("deck")
        editor.line(WARLOCK).get_by_role("button", name="Consider").click()
        expect(editor.line(WARLOCK, "considering")).to_have_attribute("data-count", "1")
        expect(count).to_have_text("3/50")
        # A pasted list, confirmed on the import page: the editor it comes back to can undo it too.
        page.locator("summary", has_text="Import a deck list").click()
        page.get_by_label(re.compile("Paste a deck list")).fill("Ruler: Apprentice\n2 Mock Warlock of the Cinder Keep")
        page.get_by_role("button", name="Preview", exact=True).click()
        page.get_by_role("button", name=re.compile("^Replace my draft with this")).click()
        expect(page.get_by_text("Your draft is now the pasted list")).to_be_visible()
        expect(count).to_have_text("2/50")
        expect(editor.line(MOCK)).to_have_attribute("data-count", "2")
        expect(editor.undo).to_be_enabled()
        expect(editor.redo).to_be_disabled()

        # Undo them all, newest first, by the button and by Ctrl+Z (not in a text field).
        editor.undo.click()
        expect(ruler).to_have_value("knight")
        expect(editor.line(MOCK)).to_have_count(0)
        expect(editor.line(WARLOCK)).to_have_attribute("data-count", "3")
        expect(editor.line(WARLOCK, "considering")).to_have_attribute("data-count", "1")
        expect(editor.redo).to_be_enabled()
        page.keyboard.press("Control+z")
        expect(editor.line(WARLOCK, "considering")).to_have_count(0)
        expect(count).to_have_text("4/50")
        editor.undo.click()
        expect(ruler).to_have_value("apprentice")
        expect(judged_by).to_contain_text("with Oath of the Lone Banner")
        editor.undo.click()
        expect(judged_by).not_to_contain_text("Oath")
        expect(geas).to_have_value("")
        expect(count).to_have_text("4/50")
        editor.undo.click()
        expect(count).to_have_text("1/50")
        editor.undo.click()
        expect(count).to_have_text("0/50")
        expect(editor.undo).to_be_disabled()

        # Redo, by the keys and the button.
        page.keyboard.press("Control+Shift+Z")
        expect(count).to_have_text("1/50")
        editor.redo.click()
        expect(count).to_have_text("4/50")
        page.keyboard.press("Control+y")
        expect(judged_by).to_contain_text("with Oath of the Lone Banner")

        # In a text field Ctrl+Z is the browser's own (the text typed), never the deck's.
        editor.show("cards")
        search = page.get_by_label("Search cards", exact=True)
        search.click()
        page.keyboard.press("Control+z")
        expect(judged_by).to_contain_text("with Oath of the Lone Banner")
        expect(count).to_have_text("4/50")

        # A new change after an undo: there is nothing to redo any more.
        editor.show("deck")
        editor.line(WARLOCK).get_by_role("button", name="Remove one").click()
        expect(count).to_have_text("3/50")
        expect(editor.redo).to_be_disabled()
        editor.undo.click()
        expect(count).to_have_text("4/50")
        page.screenshot(path=SCREENSHOTS / f"undo-draft-{size}.png")
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.mark.parametrize("size", list(SIZES))
def test_an_undo_of_a_saved_deck_is_saved_as_a_version_and_a_reload_shows_it(
    chromium: Any, live_server: Any, practice_catalog: None, size: str
) -> None:
    from django.contrib.auth import get_user_model
    from playwright.sync_api import expect

    from decks.models import Deck, DeckDraft
    from decks.saved_drafts import deck_draft_of
    from decks.services import deck_create_from_draft

    user = get_user_model().objects.create_user("undoer", password="a long undoing passphrase")
    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main={WARLOCK: 4}), name="Undone")

    with _page(size)(chromium, live_server) as (page, errors):
        editor = Editor(page, phone=size == "phone")
        version = page.get_by_test_id("deck-version")
        page.goto("/accounts/login/")
        page.get_by_label("Username").fill("undoer")
        page.get_by_label("Password").fill("a long undoing passphrase")
        page.get_by_role("main").get_by_role("button", name="Log in").click()
        page.goto(f"/decks/{deck.public_id}/edit/")
        expect(version).to_have_text("1")
        expect(editor.undo).to_be_disabled()

        editor.show("deck")
        editor.line(WARLOCK).get_by_role("button", name="Remove one").click()
        expect(editor.line(WARLOCK)).to_have_attribute("data-count", "3")
        expect(version).to_have_text("2")

        editor.undo.click()
        expect(editor.line(WARLOCK)).to_have_attribute("data-count", "4")
        expect(version).to_have_text("3")  # saved at once, as any change is

        page.reload()
        editor.show("deck")
        expect(editor.line(WARLOCK)).to_have_attribute("data-count", "4")
        expect(version).to_have_text("3")
        # The history outlasts the reload: the removal can be made again.
        expect(editor.redo).to_be_enabled()
        editor.redo.click()
        expect(editor.line(WARLOCK)).to_have_attribute("data-count", "3")
        expect(version).to_have_text("4")
        expect(page.get_by_test_id("conflict")).to_have_count(0)
    saved = Deck.objects.get(pk=deck.pk)
    assert saved.version == 4
    assert deck_draft_of(deck=saved).main == {WARLOCK: 3}
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.mark.parametrize("size", list(SIZES))
def test_a_ruler_s_gambit_draft_undoes_and_redoes_its_changes(
    chromium: Any, live_server: Any, transactional_db: None, size: str
) -> None:
    from playwright.sync_api import expect

    from cards.services import card_files_import

    card_files_import(paths=[str(p) for p in sorted((REPO / "data" / "practice" / "games").glob("*.json"))])
    with _page(size)(chromium, live_server) as (page, errors):
        editor = Editor(page, phone=size == "phone")
        kingdom = page.get_by_test_id("count-kingdom")
        tab_count = page.get_by_test_id("tab-count")

        page.goto("/decks/new/?game=rulers-gambit")
        expect(editor.undo).to_be_disabled()
        editor.search("Practice Kingdom of Emberhold")
        editor.named("Practice Kingdom of Emberhold").get_by_role("button", name="+ Add to Kingdom").click()
        expect(kingdom).to_have_text("1")
        editor.search("Novice Drill Cinder Squire of Emberhold")
        squire = editor.named("Novice Drill Cinder Squire of Emberhold")
        squire.get_by_role("button", name="+ Add to Main deck").click()
        expect(tab_count).to_have_text("1/39")
        squire.get_by_role("button", name="Consider").click()
        editor.show("deck")
        expect(page.locator('#considering [data-row][data-section="considering"]')).to_have_count(1)

        editor.undo.click()
        expect(page.locator('#considering [data-row][data-section="considering"]')).to_have_count(0)
        expect(tab_count).to_have_text("1/39")
        editor.undo.click()
        expect(tab_count).to_have_text("0/39")
        expect(kingdom).to_have_text("1")
        page.keyboard.press("Control+z")
        expect(kingdom).to_have_text("0")
        expect(editor.undo).to_be_disabled()

        editor.redo.click()
        expect(kingdom).to_have_text("1")
        page.keyboard.press("Control+y")
        expect(tab_count).to_have_text("1/39")
    assert not errors, f"JavaScript errors on the page: {errors}"
