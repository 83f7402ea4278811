"""The editor never loses, corrupts or silently drops a player's work (issue 23): the rules date, refusals, Back.

In Debian's Chromium, through what a player sees (labels, roles, text): a rules date typed digit by digit
applies once, complete, and the verdict says it; a refused rules choice puts the field back to the value
the verdict is judged by; the editor shown again (Back, from the HTTP cache or the back/forward cache)
is the deck as it now is; a change that was stale all the same is answered where the player looks, and
made again on the deck as it now is in one click, in both editors, on a laptop and on a phone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, LAPTOP, PHONE, SCREENSHOTS, TIMEOUT_MS

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
SIZES = [pytest.param(LAPTOP, id="laptop"), pytest.param(PHONE, id="phone")]


@contextmanager
def signed_in(browser: Any, live_server: Any, user: Any, viewport: dict[str, int]) -> Iterator[tuple[Any, list[str]]]:
    """A browser context signed in as `user` (its session cookie), and the JavaScript errors of its pages."""
    from django.conf import settings
    from django.test import Client
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=viewport, base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}])
    errors: list[str] = []
    context.on("weberror", lambda error: errors.append(str(error.error)))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    try:
        yield context, errors
    finally:
        context.close()


def _owner(name: str) -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(name, password="a long keeping passphrase")


def _settled(page: Any) -> None:
    page.wait_for_function("() => !document.querySelector('.htmx-request')")


def _show(page: Any, pane: str) -> None:
    """On a phone, the editor's pane (Deck / Cards / Rules) by its tab; on a laptop every pane is shown.

    Which one is asked of the media query the stylesheet uses, not of the tab's visibility: a page coming back
    (Back) is in the DOM before editor.css applies, when the tabs still look visible on a laptop too."""
    if page.evaluate("() => matchMedia('(max-width: 52rem)').matches"):
        page.get_by_test_id(f"tab-{pane}").click()


def _rules_date_posts(page: Any) -> list[str]:
    posts: list[str] = []
    page.on(
        "request",
        lambda r: (
            posts.append(r.post_data or "") if r.method == "POST" and "set_rules_date" in (r.post_data or "") else None
        ),
    )
    return posts


def _type_date(page: Any, digits: str) -> Any:
    """Click into "Rules date" where a player starts (its first part, the month in en-US) and type the digits."""
    field = page.get_by_label("Rules date")
    box = field.bounding_box()
    field.click(position={"x": 12, "y": box["height"] / 2})
    page.keyboard.type(digits)
    return field


def _leave_date(page: Any) -> None:
    """Leave "Rules date" as a player does, clicking beside it (on its hint; Tab from its year only moves to
    its own calendar button)."""
    page.locator("#date-help").click()


# ---------------------------------------------------------------- typing a date


@pytest.mark.parametrize("viewport", SIZES)
def test_a_typed_rules_date_applies_once_complete_and_the_verdict_says_it(
    chromium: Any, live_server: Any, practice_catalog: None, viewport: dict[str, int]
) -> None:
    from playwright.sync_api import expect

    from tests.browser.conftest import page_at

    with page_at(chromium, live_server, viewport) as (page, errors):
        posts = _rules_date_posts(page)
        page.goto("/decks/new/")
        _show(page, "rules")
        field = _type_date(page, "06012021")

        judged_by = page.locator("#validation-panel .judged-by")
        expect(judged_by).to_contain_text("rules in force on 2021-06-01")
        expect(field).to_have_value("2021-06-01")
        page.wait_for_timeout(1500)  # nothing more is posted after the typing
        _settled(page)
        expect(field).to_have_value("2021-06-01")
        assert len(posts) == 1, f"the date was posted {len(posts)} times while typed: {posts}"

        # Typed again and left at once: it applies on leaving.
        field = _type_date(page, "03252023")
        _leave_date(page)
        expect(judged_by).to_contain_text("rules in force on 2023-03-25")
        expect(field).to_have_value("2023-03-25")
        _settled(page)
        assert len(posts) == 2, f"the second date was posted {len(posts) - 1} times: {posts[1:]}"
        page.screenshot(path=SCREENSHOTS / f"keeps-work-date-{viewport['width']}.png")
    assert not errors, f"JavaScript errors on the page: {errors}"


def test_a_date_left_half_typed_is_not_applied(chromium: Any, live_server: Any, practice_catalog: None) -> None:
    """The year left at three digits (0202), or only the month typed, then the field left: the deck is still
    judged by today's rules, as the field says again (empty: the current rules), and the player reads why."""
    from playwright.sync_api import expect

    from gatesite.clock import site_today
    from tests.browser.conftest import laptop_page

    with laptop_page(chromium, live_server) as (page, errors):
        page.goto("/decks/new/")
        judged_by = page.locator("#validation-panel .judged-by")
        field = _type_date(page, "0601202")  # the year's last digit not typed yet
        page.wait_for_timeout(1500)  # a pause in the typing does not apply it either
        expect(judged_by).to_contain_text(f"rules in force on {site_today().isoformat()}")
        _leave_date(page)
        expect(page.get_by_test_id("refusal")).to_contain_text("type the year in four digits")
        expect(field).to_have_value("")
        expect(judged_by).to_contain_text(f"rules in force on {site_today().isoformat()}")

        field = _type_date(page, "06")  # the month only: the date is not a date yet
        _leave_date(page)
        page.wait_for_timeout(1500)
        _settled(page)
        expect(field).to_have_value("")
        expect(judged_by).to_contain_text(f"rules in force on {site_today().isoformat()}")
    assert not errors, f"JavaScript errors on the page: {errors}"


# ---------------------------------------------------------------- a refused value goes back


def test_a_refused_rules_date_puts_the_field_back_to_the_date_judged_by(
    chromium: Any, live_server: Any, practice_catalog: None
) -> None:
    """Oath of the Lone Banner is in force from 2023-03-25: 2021-06-01 is refused, with the reason, and the
    field shows the date the deck is still judged by (empty: today's rules), the geas kept."""
    from playwright.sync_api import expect

    from gatesite.clock import site_today
    from tests.browser.conftest import laptop_page

    with laptop_page(chromium, live_server) as (page, errors):
        page.goto("/decks/new/")
        page.get_by_label("Geas", exact=True).select_option(label="Oath of the Lone Banner")
        judged_by = page.locator("#validation-panel .judged-by")
        expect(judged_by).to_contain_text("with Oath of the Lone Banner")

        field = _type_date(page, "06012021")
        _leave_date(page)

        refusal = page.get_by_test_id("refusal")
        expect(refusal).to_contain_text("Oath of the Lone Banner is not in force on 2021-06-01")
        expect(refusal).to_be_in_viewport()
        expect(page.get_by_label("Rules date")).to_have_value("")
        expect(page.get_by_label("Geas", exact=True)).to_have_value(re.compile(r"\S"))
        expect(judged_by).to_contain_text(f"with Oath of the Lone Banner, rules in force on {site_today().isoformat()}")
        expect(page.get_by_text("Empty: the current rules")).to_be_visible()
        page.screenshot(path=SCREENSHOTS / "keeps-work-refused-date.png")

        # A date the geas is in force on applies, and the field and the verdict say it.
        field = _type_date(page, "01012024")
        _leave_date(page)
        expect(judged_by).to_contain_text("with Oath of the Lone Banner, rules in force on 2024-01-01")
        expect(field).to_have_value("2024-01-01")
    assert not errors, f"JavaScript errors on the page: {errors}"


# ---------------------------------------------------------------- back, then edit


def _add_first(page: Any) -> str:
    """Press "+ Add" on the first card of the browser; its collector number."""
    _show(page, "cards")
    row = page.locator("#card-results [data-row]").first
    number = row.get_attribute("data-number")
    row.get_by_role("button", name="+ Add").click()
    return number


@pytest.mark.parametrize("viewport", SIZES)
def test_back_to_the_editor_shows_the_deck_as_saved_and_the_next_change_saves(
    chromium: Any, live_server: Any, practice_catalog: None, viewport: dict[str, int]
) -> None:
    """Deck page, Edit, add a card (autosaved), Deck page, Back, "+ Add": the editor shows version 2 and the
    card, and the second card is saved as version 3 (no conflict): the page is never the one first cached."""
    from playwright.sync_api import expect

    from decks.models import Deck, DeckDraft
    from decks.saved_drafts import deck_draft_of
    from decks.services import deck_create_from_draft

    owner = _owner(f"back-{viewport['width']}")
    deck = deck_create_from_draft(owner=owner, draft=DeckDraft(ruler="apprentice"), name="Back and edit")
    with signed_in(chromium, live_server, owner, viewport) as (context, errors):
        page = context.new_page()
        page.goto(f"/d/{deck.public_id}/")
        page.get_by_test_id("edit-deck").click()
        version = page.get_by_test_id("deck-version")
        expect(version).to_have_text("1")
        first = _add_first(page)
        expect(version).to_have_text("2")
        _settled(page)

        page.get_by_role("link", name=re.compile(r"^Deck page")).click()
        page.wait_for_url(f"**/d/{deck.public_id}/")
        page.go_back()

        expect(version).to_have_text("2")
        _show(page, "deck")
        expect(page.locator(f'#deck-list [data-row][data-number="{first}"]')).to_have_attribute("data-count", "1")
        _add_first(page)
        expect(version).to_have_text("3")
        expect(page.get_by_test_id("conflict")).to_have_count(0)
        page.screenshot(path=SCREENSHOTS / f"keeps-work-back-{viewport['width']}.png")
    deck = Deck.objects.get(pk=deck.pk)
    assert deck.version == 3
    assert sum(deck_draft_of(deck=deck).main.values()) == 2
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture(scope="module")
def chromium_with_bfcache(chromium: Any) -> Iterator[Any]:
    """Debian's Chromium with its back/forward cache on, as a player's is (Playwright turns it off by default);
    launched by the same Playwright as `chromium` (one sync Playwright per thread)."""
    browser = chromium.browser_type.launch(
        executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, ignore_default_args=["--disable-back-forward-cache"]
    )
    yield browser
    browser.close()


def test_back_shows_a_change_made_elsewhere_meanwhile(
    chromium_with_bfcache: Any, live_server: Any, practice_catalog: None
) -> None:
    """With the back/forward cache on: the editor, the deck page, another device adds a card, Back: the
    editor shows that card and its version (the page kept in the cache is loaded again), not the old deck."""
    from playwright.sync_api import expect

    from decks.editor.services import DraftChange, editor_deck_change
    from decks.models import DeckDraft
    from decks.services import deck_create_from_draft

    owner = _owner("bfcache")
    deck = deck_create_from_draft(owner=owner, draft=DeckDraft(ruler="apprentice"), name="Shown again")
    with signed_in(chromium_with_bfcache, live_server, owner, LAPTOP) as (context, errors):
        page = context.new_page()
        page.goto(f"/decks/{deck.public_id}/edit/")
        expect(page.get_by_test_id("deck-version")).to_have_text("1")
        number = page.locator("#card-results [data-row]").first.get_attribute("data-number")
        page.get_by_role("link", name=re.compile(r"^Deck page")).click()
        page.wait_for_url(f"**/d/{deck.public_id}/")

        editor_deck_change(deck=deck, change=DraftChange(action="add", number=number), base_version=1)  # a phone
        page.go_back(wait_until="commit")

        expect(page.get_by_test_id("deck-version")).to_have_text("2")
        expect(page.locator(f'#deck-list [data-row][data-number="{number}"]')).to_have_attribute("data-count", "1")
    assert not errors, f"JavaScript errors on the page: {errors}"


# ---------------------------------------------------------------- a change stale all the same


@pytest.mark.parametrize("viewport", SIZES)
def test_a_stale_change_is_answered_in_view_and_made_again_in_one_click(
    chromium: Any, live_server: Any, practice_catalog: None, viewport: dict[str, int]
) -> None:
    """Two tabs on one deck: the second adds a card, then the first adds another. The first is told where it
    looks (an alert in view), and "Reload the deck and make my change again" saves both cards."""
    from playwright.sync_api import expect

    from decks.models import Deck, DeckDraft
    from decks.saved_drafts import deck_draft_of
    from decks.services import deck_create_from_draft

    owner = _owner(f"tabs-{viewport['width']}")
    deck = deck_create_from_draft(owner=owner, draft=DeckDraft(ruler="apprentice"), name="Two tabs")
    with signed_in(chromium, live_server, owner, viewport) as (context, errors):
        first_tab, second_tab = context.new_page(), context.new_page()
        for tab in (first_tab, second_tab):
            tab.goto(f"/decks/{deck.public_id}/edit/")
        second = _add_first(second_tab)
        expect(second_tab.get_by_test_id("deck-version")).to_have_text("2")

        _show(first_tab, "cards")
        row = first_tab.locator("#card-results [data-row]").nth(5)
        row.scroll_into_view_if_needed()
        first = row.get_attribute("data-number")
        row.get_by_role("button", name="+ Add").click()

        alert = first_tab.get_by_role("alert").filter(has_text="changed elsewhere")
        expect(alert).to_be_visible()
        expect(alert).to_be_in_viewport()
        first_tab.screenshot(path=SCREENSHOTS / f"keeps-work-conflict-{viewport['width']}.png")
        alert.get_by_role("button", name="Reload the deck and make my change again").click()

        expect(first_tab.get_by_test_id("deck-version")).to_have_text("3")
        _show(first_tab, "deck")
        for number in (first, second):
            expect(first_tab.locator(f'#deck-list [data-row][data-number="{number}"]')).to_have_attribute(
                "data-count", "1"
            )
        expect(first_tab.get_by_role("alert").filter(has_text="changed elsewhere")).to_have_count(0)
    main = deck_draft_of(deck=Deck.objects.get(pk=deck.pk)).main
    assert main == {first: 1, second: 1}
    assert not errors, f"JavaScript errors on the page: {errors}"


def test_a_stale_change_in_another_games_editor_is_answered_in_view_on_a_phone(
    chromium: Any, live_server: Any, transactional_db: None
) -> None:
    """The same in the editor of GateRunners, at 375x812: the alert in view, one click makes the change again."""
    from playwright.sync_api import expect

    from cards.services import card_files_import
    from decks.models import Deck, DeckDraft
    from decks.saved_drafts import deck_draft_of
    from decks.services import deck_create_from_draft

    card_files_import(paths=[str(p) for p in sorted((REPO / "data" / "practice" / "games").glob("*.json"))])
    owner = _owner("runner-tabs")
    draft = DeckDraft(game="gaterunners", others={"hero": {"GR01-003": 1}, "gates": {"GR01-013": 3}})
    deck = deck_create_from_draft(owner=owner, draft=draft, name="Runner tabs")
    with signed_in(chromium, live_server, owner, PHONE) as (context, errors):
        first_tab, second_tab = context.new_page(), context.new_page()
        for tab in (first_tab, second_tab):
            tab.goto(f"/decks/{deck.public_id}/edit/")
            _show(tab, "cards")
            tab.get_by_label("Search cards", exact=True).fill("t:unit")
            expect(tab.locator("#card-results")).to_have_attribute("data-q", "t:unit")
        second_tab.locator("#card-results [data-row]").first.locator("button[data-add]").click()
        expect(second_tab.get_by_test_id("deck-version")).to_have_text("2")

        row = first_tab.locator("#card-results [data-row]").nth(1)
        first = row.get_attribute("data-number")
        row.locator("button[data-add]").click()
        alert = first_tab.get_by_role("alert").filter(has_text="changed elsewhere")
        expect(alert).to_be_visible()
        expect(alert).to_be_in_viewport()
        first_tab.screenshot(path=SCREENSHOTS / "keeps-work-conflict-game-375.png")
        alert.get_by_role("button", name="Reload the deck and make my change again").click()
        expect(first_tab.get_by_test_id("deck-version")).to_have_text("3")
    main = deck_draft_of(deck=Deck.objects.get(pk=deck.pk)).main
    assert main.get(first) == 1
    assert sum(main.values()) == 2
    assert not errors, f"JavaScript errors on the page: {errors}"


# ---------------------------------------------------------------- a change right after an answer


def test_a_choice_made_the_moment_an_answer_is_drawn_is_not_dropped(
    chromium: Any, live_server: Any, practice_catalog: None
) -> None:
    """htmx gives the controls an answer draws their behaviour only when the answer settles, by default 20 ms
    after it is drawn (more on a busy machine): a ruler picked in between was silently dropped. The script
    below picks it in that gap every time (a task queued as the geas's answer is drawn runs before a 20 ms
    timer); the editor settles its answers at once, so the pick is sent."""
    from playwright.sync_api import expect

    from tests.browser.conftest import page_at

    with page_at(chromium, live_server, LAPTOP) as (page, errors):
        page.goto("/decks/new/")
        page.evaluate(
            """() => document.body.addEventListener("htmx:afterSwap", () => setTimeout(() => {
                 const ruler = document.getElementById("pick-ruler");
                 ruler.value = "knight";
                 ruler.dispatchEvent(new Event("change", {bubbles: true}));
               }, 0), {once: true})"""
        )
        page.get_by_label("Geas", exact=True).select_option(label="Oath of the Lone Banner")
        judged_by = page.locator("#validation-panel .judged-by")
        expect(judged_by).to_contain_text("Knight")
        expect(page.get_by_label("Ruler", exact=True)).to_have_value("knight")
        expect(page.get_by_label("Geas", exact=True)).to_have_value("")
    assert not errors, f"JavaScript errors on the page: {errors}"
