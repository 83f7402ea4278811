"""The deck editor in a real browser (Debian's Chromium driven by Playwright), only through the UI.

From an empty database with the practice set: build a legal 50-card Apprentice deck (search,
Enter, the + key on a deck line, the "+ Add" button), see a max_copies violation appear on a
5th copy and go on its removal, pick the geas "Oath of the Lone Banner" and see the level cap
go from 50 to 55, sign up while saving, reload and find the same deck. Screenshots of every step
(laptop 1280x800, and phone 375x812 at the main steps) go to test-results/browser/.

Without /usr/bin/chromium the test skips, unless GATESITE_REQUIRE_BROWSER=1 (CI) makes it fail.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import LAPTOP, PHONE, SCREENSHOTS, laptop_page, phone_page

pytestmark = pytest.mark.slow


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
REPO = Path(__file__).resolve().parents[2]
# htmx round trips on a loaded CI machine; the whole walkthrough takes seconds.

# A one-faction (Volnar) deck, so that it stays legal under Oath of the Lone Banner (1 faction):
# 12 names x 4 + 2 = 50 cards, level total 6, 4 CNT cards, no legends. No name here has a second
# printing, so the top search result is this very printing.
DECK = {
    "2025PS01-001": ("Trial Warlock of the Cinder Keep", 4),
    "2025PS01-003": ("Mock Spellblade of the Brass Citadel", 4),
    "2025PS01-004": ("Mock Warlock of the Cinder Keep", 4),
    "2025PS01-005": ("Rehearsal Camp Cook of the Cinder Keep", 4),
    "2025PS01-006": ("Training Ember Drake of the Brass Citadel", 4),
    "2025PS01-007": ("Drill Squire of the Cinder Keep", 4),
    "2025PS01-008": ("Trial Banner Knight of the Scarlet Tower", 4),
    "2025PS01-009": ("Trial Herald of the Brass Citadel", 4),
    "2025PS01-021": ("Drill Forced March", 4),
    "2025PS01-022": ("Trial Cinder Rain", 4),
    "2025PS01-023": ("Tutorial Burning Ink", 4),
    "2025PS01-029": ("Practice Arena of the Cinder Keep", 4),
    "2025PS01-025": ("Tutorial Knightly Duel", 2),
}
LEVEL_TOTAL = 6


@pytest.fixture
def page(chromium: Any, live_server: Any, practice_catalog: None) -> Iterator[Any]:

    with laptop_page(chromium, live_server) as (page, errors):
        # htmx logs an hx-include or hx-target that names no element ("#odds-form" on a first add, once).
        missing: list[str] = []
        page.on("console", lambda m: missing.append(m.text) if "returned no matches" in m.text else None)
        yield page
    assert not errors, f"JavaScript errors on the page: {errors}"
    assert not missing, f"htmx looked for elements that are not there: {missing}"


class Screenshots:
    def __init__(self, page: Any) -> None:
        self.page = page
        self.count = 0
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        for old in SCREENSHOTS.glob("*.png"):
            old.unlink()
        print(f"\nScreenshots: {SCREENSHOTS}")

    def __call__(self, name: str, *, phone_at: str = "") -> None:
        """The laptop view as it is; with phone_at, also the phone view scrolled to that element."""
        self.count += 1
        # A screenshot of a page at rest: no htmx request (the odds panel follows each change) under way.
        self.page.wait_for_function("() => !document.querySelector('.htmx-request')")
        self.page.screenshot(path=SCREENSHOTS / f"{self.count:02d}-{name}.png")
        if phone_at:
            self.page.set_viewport_size(PHONE)
            # Phones show one pane of the editor at a time: pick the one the element is in.
            pane = self.page.locator(phone_at).first.evaluate(
                "el => { const p = el.closest('[data-pane]'); return p ? p.dataset.pane : null; }"
            )
            if pane:
                self.page.locator(f'[data-pane-tab="{pane}"]').click()
            self.page.wait_for_function("() => !document.querySelector('.htmx-request')")
            self.page.locator(phone_at).scroll_into_view_if_needed()
            self.page.screenshot(path=SCREENSHOTS / f"{self.count:02d}-{name}-phone.png")
            self.page.set_viewport_size(LAPTOP)


def test_build_check_and_save_an_apprentice_deck(page: Any) -> None:
    from playwright.sync_api import expect

    shot = Screenshots(page)
    deck_count = page.locator("#deck-heading .heading-count")
    panel = page.locator("#validation-panel")
    verdict = page.get_by_test_id("verdict")
    search = page.get_by_label("Search cards", exact=True)

    def line(number: str) -> Any:
        return page.locator(f'#deck-list [data-row][data-number="{number}"]')

    def press_on_line(number: str, key: str, expected: int, total: int) -> None:
        # The + and - keys act on the focused deck line; the line keeps the focus after the redraw.
        line(number).focus()
        page.keyboard.press(key)
        expect(line(number)).to_have_attribute("data-count", str(expected))
        expect(line(number)).to_be_focused()
        expect(deck_count).to_have_text(f"{total}/50")

    # An empty draft: Apprentice is picked from the ruler list and the deck is short of 50.
    page.goto("/decks/new/")
    # Every change below updates the page in place (htmx): this mark would not survive a page load.
    page.evaluate("window.sameEditorPage = true")
    expect(deck_count).to_have_text("0/50")
    page.get_by_label("Ruler", exact=True).select_option(label="A-1 Apprentice")
    expect(page.get_by_test_id("ruler-details")).to_contain_text("Apprentice")
    expect(panel).to_have_attribute("data-legal", "false")
    shot("empty-draft", phone_at="#deck-header")

    # "/" focuses the search from anywhere on the page.
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("/")
    expect(search).to_be_focused()

    total = 0
    for i, (number, (name, copies)) in enumerate(DECK.items()):
        # Type the name and press Enter: the top result is added (once the results are in).
        search.fill(f'name:"{name}"')
        search.press("Enter")
        total += 1
        expect(line(number)).to_have_attribute("data-count", "1")
        expect(deck_count).to_have_text(f"{total}/50")
        expect(page.locator("#card-results")).to_have_attribute("data-q", f'name:"{name}"')
        result = page.locator(f'#card-results [data-row][data-number="{number}"]')
        expect(result.locator(".in-deck")).to_have_text("1 in deck")
        if i == 0:
            shot("first-card")
        more = copies - 1
        add_button = result.get_by_role("button", name="+ Add")
        if i == 1:
            # Keyboard on the "+ Add" button: it keeps the focus, so Enter adds again (and so does +).
            add_button.focus()
            for count in range(2, copies + 1):
                page.keyboard.press("Enter" if count < copies else "+")
                expect(line(number)).to_have_attribute("data-count", str(count))
                expect(add_button).to_be_focused()
        elif i % 2:
            # Quick clicks on "+ Add": those made while a change is on its way are made after it.
            for _ in range(more):
                add_button.click()
        elif i == 2:
            # One "+" at a time on the focused deck line.
            for count in range(2, copies + 1):
                press_on_line(number, "+", count, total + count - 1)
        else:
            # "+ + +" at once on the focused deck line.
            line(number).focus()
            for _ in range(more):
                page.keyboard.press("+")
        total += more
        expect(line(number)).to_have_attribute("data-count", str(copies))
        expect(deck_count).to_have_text(f"{total}/50")
        if i % 2 == 0:
            expect(line(number)).to_be_focused()
        expect(result.locator(".in-deck")).to_have_text(f"{copies} in deck")

    expect(deck_count).to_have_text("50/50")
    expect(verdict).to_have_text("Legal")
    expect(panel).to_have_attribute("data-legal", "true")
    expect(panel.locator('[data-meter="level"] .meter-value')).to_have_text(f"{LEVEL_TOTAL}/50")
    expect(panel.locator("[data-rule]")).to_have_count(0)
    shot("legal-deck", phone_at="#validation-panel")

    # A 5th copy: a max_copies violation, the line flagged; its removal makes the deck legal again.
    warlock = "2025PS01-001"
    press_on_line(warlock, "+", 5, 51)
    violation = panel.locator('[data-rule="max_copies"]')
    expect(violation).to_be_visible()
    expect(violation).to_contain_text(DECK[warlock][0])
    expect(line(warlock)).to_have_class(re.compile(r"\bflagged\b"))
    expect(verdict).to_contain_text("Not legal")
    shot("fifth-copy", phone_at="#deck-list")

    press_on_line(warlock, "-", 4, 50)
    expect(violation).to_have_count(0)
    expect(verdict).to_have_text("Legal")
    expect(line(warlock)).not_to_have_class(re.compile(r"\bflagged\b"))
    shot("fifth-copy-removed")

    # Oath of the Lone Banner: one faction, level cap 55 instead of 50.
    level_meter = panel.locator('[data-meter="level"] .meter-value')
    expect(level_meter).to_have_text(f"{LEVEL_TOTAL}/50")
    page.get_by_label("Geas", exact=True).select_option(label="Oath of the Lone Banner")
    expect(level_meter).to_have_text(f"{LEVEL_TOTAL}/55")
    expect(panel.locator('[data-meter="factions"] .meter-value')).to_have_text("1/1")
    expect(panel.locator(".judged-by")).to_contain_text("with Oath of the Lone Banner")
    expect(verdict).to_have_text("Legal")
    expect(page.get_by_label("Geas", exact=True)).to_have_value(re.compile(r"lone-banner"))
    shot("geas", phone_at="#rules-panel")

    assert page.evaluate("window.sameEditorPage === true"), "a change reloaded the editor page"
    expected = _deck_lines(page)
    assert expected == {number: copies for number, (_, copies) in DECK.items()}

    # Saving offers sign-up first (log in beside it): sign up, and the save completes.
    page.get_by_label("Deck name", exact=True).fill("Lone Banner Volnar")
    page.get_by_test_id("save-deck").click()
    expect(page).to_have_url(re.compile(r"/accounts/signup/"))
    expect(page.locator(".messages")).to_contain_text("Sign up to save your deck (or log in")
    expect(page.get_by_role("main").get_by_role("link", name="Log in")).to_have_attribute(
        "href", re.compile(r"next=.*decks.*new.*save")
    )
    expect(page.get_by_role("heading", name="Sign up")).to_be_visible()
    shot("asked-to-sign-up")
    page.get_by_label("Username").fill("walkthrough")
    page.get_by_label(re.compile(r"^Password:?$")).fill("a long walkthrough passphrase")
    page.get_by_label(re.compile(r"^Password confirmation:?$")).fill("a long walkthrough passphrase")
    shot("sign-up", phone_at="form.stacked")
    page.get_by_role("button", name="Sign up").click()

    expect(page).to_have_url(re.compile(r"/decks/[^/]+/edit/$"))
    expect(page.get_by_test_id("deck-name")).to_have_text("Lone Banner Volnar")
    expect(page.locator(".messages")).to_contain_text("Saved")
    expect(page.get_by_role("navigation", name="Main")).to_contain_text("Signed in as walkthrough")
    shot("saved", phone_at="#deck-header")

    page.reload()
    expect(page.get_by_test_id("deck-name")).to_have_text("Lone Banner Volnar")
    expect(deck_count).to_have_text("50/50")
    expect(verdict).to_have_text("Legal")
    expect(level_meter).to_have_text(f"{LEVEL_TOTAL}/55")
    expect(page.get_by_label("Ruler", exact=True)).to_have_value("apprentice")
    expect(page.get_by_label("Geas", exact=True)).to_have_value(re.compile(r"lone-banner"))
    assert _deck_lines(page) == expected
    shot("reloaded", phone_at="#card-results")


def _deck_lines(page: Any) -> dict[str, int]:
    """The main deck as the page shows it: collector number -> copies."""
    rows = page.locator('#deck-list [data-row][data-section="main"]')
    return {
        row.get_attribute("data-number"): int(row.get_attribute("data-count"))  # type: ignore[arg-type]
        for row in rows.all()
    }


def test_a_phone_shows_one_pane_at_a_time_and_the_odds_follow_the_deck(
    chromium: Any, live_server: Any, practice_catalog: None
) -> None:
    """At 375x812: the tabs switch Deck / Cards / Rules, the Deck tab and the draw odds follow each change."""
    from playwright.sync_api import expect

    with phone_page(chromium, live_server) as (page, errors):
        browser_pane, deck_pane, rules_pane = (
            page.locator("#card-browser"),
            page.locator("#deck-pane"),
            page.locator("#rules-panel"),
        )
        tab_count = page.get_by_test_id("tab-count")
        warlock = "2025PS01-001"

        page.goto("/decks/new/")
        # An empty deck opens on the cards, and only them.
        expect(browser_pane).to_be_visible()
        expect(deck_pane).to_be_hidden()
        expect(rules_pane).to_be_hidden()
        page.get_by_test_id("tab-rules").click()
        expect(rules_pane).to_be_visible()
        expect(browser_pane).to_be_hidden()
        page.get_by_label("Ruler", exact=True).select_option(label="A-1 Apprentice")
        expect(page.get_by_test_id("tab-rules")).to_contain_text("Apprentice")

        # "/" brings the card browser back; Enter adds the top result; the Deck tab counts it.
        page.locator("body").click(position={"x": 5, "y": 5})
        page.keyboard.press("/")
        search = page.get_by_label("Search cards", exact=True)
        expect(search).to_be_focused()
        expect(browser_pane).to_be_visible()
        search.fill(f'name:"{DECK[warlock][0]}"')
        search.press("Enter")
        expect(tab_count).to_have_text("1/50")
        add = page.locator(f'#card-results [data-row][data-number="{warlock}"] button[data-add]')
        for copies in range(2, 6):
            add.click()
            expect(tab_count).to_have_text(f"{copies}/50")
        page.screenshot(path=SCREENSHOTS / "phone-cards-pane.png")

        page.get_by_test_id("tab-deck").click()
        expect(deck_pane).to_be_visible()
        expect(browser_pane).to_be_hidden()
        line = page.locator(f'#deck-list [data-row][data-number="{warlock}"]')
        expect(line).to_have_class(re.compile(r"\bflagged\b"))
        expect(line.locator(".line-problem")).to_have_text("Too many copies")
        expect(line.locator('.line-problem [data-rule="max_copies"]')).to_have_count(1)

        # The draw odds of the 5 copies in a 5-card deck: all seen by turn 3 (Apprentice drives 2 a turn).
        odds = page.get_by_test_id("draw-odds")
        expect(odds.get_by_test_id("odds-summary")).to_contain_text("5 of the 5 cards")
        expect(odds.locator('tr[data-turn="3"] td').first).to_have_attribute("data-exact", "1/1")
        page.locator("#draw-odds").scroll_into_view_if_needed()
        page.screenshot(path=SCREENSHOTS / "phone-deck-pane-odds.png")

        # A removal on the deck pane: the odds follow in the same answer (4 of a 4-card deck).
        line.get_by_role("button", name="Remove one").click()
        expect(tab_count).to_have_text("4/50")
        expect(odds.get_by_test_id("odds-summary")).to_contain_text("4 of the 4 cards")
        expect(line.locator(".line-problem")).to_have_count(0)
    assert not errors, f"JavaScript errors on the page: {errors}"


def test_a_saved_deck_takes_quick_changes_and_then_a_picker_change_without_a_conflict(
    chromium: Any, live_server: Any, practice_catalog: None
) -> None:
    """Every change to a saved deck is saved on the version the page is at when its turn comes.

    Quick "- -" on a line are queued and each is based on the version the one before saved; the
    geas picker's form, which a card change does not redraw, then posts the latest version too.
    """
    from django.contrib.auth import get_user_model
    from playwright.sync_api import expect

    from decks.models import Deck, DeckDraft
    from decks.services import deck_create_from_draft

    user = get_user_model().objects.create_user("quick", password="a long quick passphrase")
    main = {number: copies for number, (_, copies) in DECK.items()}
    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main=main), name="Quick")

    with laptop_page(chromium, live_server) as (page, errors):
        page.goto("/accounts/login/")
        page.get_by_label("Username").fill("quick")
        page.get_by_label("Password").fill("a long quick passphrase")
        page.get_by_role("main").get_by_role("button", name="Log in").click()
        page.goto(f"/decks/{deck.public_id}/edit/")
        version = page.get_by_test_id("deck-version")
        expect(version).to_have_text("1")

        line = page.locator('#deck-list [data-row][data-number="2025PS01-025"]')
        line.focus()
        page.keyboard.press("-")
        page.keyboard.press("-")
        expect(line).to_have_count(0)  # both copies removed: two saves, versions 2 and 3
        expect(version).to_have_text("3")
        # The card left the list: the focus is on its neighbour, so the keys go on working.
        expect(page.locator("#deck-list [data-row]:focus")).to_have_count(1)
        page.get_by_label("Geas", exact=True).select_option(label="Oath of the Lone Banner")
        expect(page.locator("#validation-panel .judged-by")).to_contain_text("with Oath of the Lone Banner")
        expect(version).to_have_text("4")
        expect(page.get_by_test_id("conflict")).to_have_count(0)
    deck.refresh_from_db()
    assert deck.version == 4
    assert deck.geas is not None
    assert "2025PS01-025" not in Deck.objects.get(pk=deck.pk).cards.values_list("printing__collector_number", flat=True)
    assert not errors, f"JavaScript errors on the page: {errors}"


def test_a_phone_player_clicking_fast_sees_every_add_in_the_deck_line_and_the_tab(
    chromium: Any, live_server: Any, practice_catalog: None
) -> None:
    """Five "+ Add" clicks without waiting for the answers: htmx queues them, the button stays where it was, and
    when the last answer is in, the Deck tab and the deck line both say 5 (never a line left at an older count)."""
    from playwright.sync_api import expect

    with phone_page(chromium, live_server) as (page, errors):
        warlock = "2025PS01-001"
        page.goto("/decks/new/")
        search = page.get_by_label("Search cards", exact=True)
        search.fill(f'name:"{DECK[warlock][0]}"')
        # The warlock is on the first page already: wait for the search's own answer (its one row), or it
        # replaces the results under the clicks below and one lands on a button that is being swapped out.
        expect(page.locator("#card-results [data-row]")).to_have_count(1)
        add = page.locator(f'#card-results [data-row][data-number="{warlock}"] button[data-add]')
        expect(add).to_have_count(1)
        under_the_finger = add.bounding_box()
        for _ in range(5):
            add.click(no_wait_after=True)
        expect(page.get_by_test_id("tab-count")).to_have_text("5/50")
        page.wait_for_function("() => !document.querySelector('.htmx-request')")
        # The hint grew meanwhile ("5 in deck", over the limit) under the button, not above it: a button that
        # moved between two fast clicks let the second land on the hint (CI once ended at 4/50).
        moved = add.bounding_box()
        assert moved is not None
        assert under_the_finger is not None
        assert abs(moved["y"] - under_the_finger["y"]) < 1
        page.get_by_test_id("tab-deck").click()
        line = page.locator(f'#deck-list [data-row][data-number="{warlock}"]')
        expect(line).to_have_attribute("data-count", "5")
        expect(line.locator(".line-count")).to_have_text("5×")
        expect(page.locator("#deck-heading .heading-count")).to_have_text("5/50")
    assert not errors, f"JavaScript errors on the page: {errors}"
