"""Every page under axe-core (WCAG 2.2 A/AA, target size included), at desktop and phone width.

axe-core is vendored (tests/browser/vendor/, from the npm registry; never fetched at run time)
and injected into each page after it has loaded (the contexts bypass the CSP for that one script;
tests/browser/test_content_security_policy.py checks the policy itself). A serious or critical violation fails the test,
as does a page wider than the screen (sideways scrolling),
which lists every one with the page and the elements. Each page's screenshot, at both widths,
goes to test-results/browser/pages/.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import PHONE, SCREENSHOTS, TIMEOUT_MS, loaded_and_at_rest
from tests.browser.test_editor_walkthrough import DECK

pytestmark = pytest.mark.slow

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
FAILING = {"serious", "critical"}
DESKTOP = {"width": 1280, "height": 800}
RUN_AXE = """async (tags) => {
  const results = await axe.run(document, {runOnly: {type: "tag", values: tags}});
  return results.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
  }));
}"""


@pytest.fixture
def site(practice_catalog: None) -> dict[str, Any]:
    """A staff player with two public decks (one copied from the other), for every page to have content."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from cards.models import Printing
    from decks.library.services import deck_tag_add, deck_trash
    from decks.models import DeckDraft, Visibility
    from decks.services import deck_create_from_draft, deck_visibility_set
    from decks.sharing.services import deck_copy
    from tests.cards.factories import ImportJobFactory

    owner = get_user_model().objects.create_superuser("axe-owner", password="a-long-test-password")
    draft = DeckDraft(ruler="apprentice", main={number: count for number, (_, count) in DECK.items()})
    deck = deck_visibility_set(
        deck=deck_create_from_draft(owner=owner, draft=draft, name="Cinder rush"), visibility=Visibility.PUBLIC
    )
    deck_tag_add(deck=deck, name="tournament")
    copy = deck_copy(source=deck, owner=owner)
    trashed = deck_trash(deck=deck_create_from_draft(owner=owner, draft=draft, name="Old list"))
    number = Printing.objects.values_list("collector_number", flat=True).order_by("collector_number").first()
    # Finished import jobs: their status badge must pass contrast in the admin's caption bar.
    now = timezone.now()
    jobs = {
        status: ImportJobFactory(status=status, started_at=now, finished_at=now, error=error)
        for status, error in [("succeeded", ""), ("failed", "Row 2: no name")]
    }
    return {"owner": owner, "deck": deck, "copy": copy, "trashed": trashed, "card": number, "jobs": jobs}


def _pages(site: dict[str, Any]) -> list[tuple[str, str]]:
    deck, copy = site["deck"].public_id, site["copy"].public_id
    return [
        ("home", "/"),
        ("editor-new", "/decks/new/"),
        ("editor-saved", f"/decks/{deck}/edit/"),
        ("my-decks", "/decks/"),
        ("trash", "/decks/trash/"),
        ("trash-delete-forever", f"/decks/trash/{site['trashed'].public_id}/delete/"),
        ("browse", "/decks/browse/"),
        ("compare", f"/decks/compare/?a={deck}&b={copy}"),
        ("deck-page", f"/d/{deck}/"),
        ("deck-version", f"/d/{deck}/v/1/"),
        ("deck-sheet", f"/d/{deck}/sheet/"),
        ("deck-odds", f"/decks/{deck}/odds/"),
        ("deck-link", f"/decks/{deck}/share/"),
        ("text-import", f"/decks/{deck}/import/"),
        ("card-page", f"/cards/{site['card']}/"),
        ("statistics", "/stats/"),
        ("password-change", "/accounts/password_change/"),
        ("admin", "/admin/"),
        ("admin-cards", "/admin/cards/card/"),
        ("admin-import-jobs", "/admin/cards/importjob/"),
        ("admin-import-form", "/admin/cards/importjob/import/"),
        ("admin-import-job-succeeded", f"/admin/cards/importjob/{site['jobs']['succeeded'].pk}/change/"),
        ("admin-import-job-failed", f"/admin/cards/importjob/{site['jobs']['failed'].pk}/change/"),
    ]


# Pages for someone signed out.
ANONYMOUS_PAGES = [("login", "/accounts/login/"), ("signup", "/accounts/signup/"), ("admin-login", "/admin/login/")]


def _audit(page: Any, pages: list[tuple[str, str]], width: str, found: list[str]) -> None:
    folder = SCREENSHOTS / "pages"
    folder.mkdir(parents=True, exist_ok=True)
    for name, url in pages:
        response = page.goto(url)
        assert response is not None, f"{name}: {url} gave no answer"
        assert response.ok, f"{name}: {url} answered {response.status}"
        loaded_and_at_rest(page)  # what axe sees is what the page shows, its odds panel swapped in
        page.screenshot(path=folder / f"{name}-{width}.png", full_page=True)
        # No page scrolls sideways (a wide table scrolls inside itself): at a phone's 375 px too.
        scroll_width = page.evaluate("() => document.documentElement.scrollWidth")
        if scroll_width > page.viewport_size["width"]:
            found.append(f"{name} ({width}, {url}): the page is {scroll_width} px wide, wider than the screen")
        page.add_script_tag(path=str(AXE))
        for violation in page.evaluate(RUN_AXE, TAGS):
            if violation["impact"] in FAILING:
                found.append(
                    f"{name} ({width}, {url}): {violation['impact']} {violation['id']}: {violation['help']} {violation['nodes']}"
                )


# One test per width: the two audits (about 40 s each on a loaded machine) run on two test processes at once,
# instead of one 85 s test at the end of the run that leaves the other process idle.
@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_no_page_has_a_serious_or_critical_accessibility_violation(
    chromium: Any, live_server: Any, site: Any, width: str
) -> None:
    from django.conf import settings
    from django.test import Client

    viewport = {"desktop": DESKTOP, "phone": PHONE}[width]
    client = Client()
    client.force_login(site["owner"])
    cookie = {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value}
    found: list[str] = []
    signed_out = chromium.new_context(viewport=viewport, base_url=live_server.url, bypass_csp=True)
    signed_out.set_default_timeout(TIMEOUT_MS)
    _audit(signed_out.new_page(), ANONYMOUS_PAGES, width, found)
    signed_out.close()
    signed_in = chromium.new_context(viewport=viewport, base_url=live_server.url, bypass_csp=True)
    signed_in.set_default_timeout(TIMEOUT_MS)
    signed_in.add_cookies([{**cookie, "url": live_server.url}])
    _audit(signed_in.new_page(), _pages(site), width, found)
    signed_in.close()

    assert not found, f"{len(found)} serious or critical violations:\n" + "\n".join(found)
