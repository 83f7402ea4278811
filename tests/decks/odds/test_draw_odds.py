"""The draw-odds panel: the draft's and a saved deck's, htmx fragment vs page, permissions, escaping."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from django.urls import reverse

from decks.models import DeckDraft, Visibility
from decks.services import deck_create_from_draft
from decks.session_drafts import SESSION_DRAFT
from tests.cards.factories import CardFactory, PrintingFactory
from tests.decks.factories import legal_apprentice_main

pytestmark = pytest.mark.django_db

ODDS = "/decks/new/odds/"
HX = {"HX-Request": "true"}


def use_draft(client, draft: DeckDraft) -> None:
    session = client.session
    session[SESSION_DRAFT] = draft.to_session()
    session.save()


def exact(html: str, turn: int) -> tuple[Fraction, Fraction]:
    """The exact chances of a turn's row: going first, going second."""
    row = re.search(rf'<tr data-turn="{turn}">(.*?)</tr>', html, re.S)
    assert row, f"no row for turn {turn}"
    cells = re.findall(r'data-exact="(\d+)/(\d+)"', row.group(1))
    # A turn that is the same going first or second has one cell for both (decks/_odds.html).
    first, second = cells if len(cells) == 2 else cells * 2
    return Fraction(int(first[0]), int(first[1])), Fraction(int(second[0]), int(second[1]))


def test_the_editor_draws_it_with_the_page(client, deck_catalog):
    use_draft(client, DeckDraft(ruler="apprentice", main=legal_apprentice_main()))
    html = client.get("/decks/new/").content.decode()
    panel = html[html.index('id="draw-odds"') :]
    assert f'hx-get="{ODDS}"' in panel[:400]  # asked again only when its own choices change
    assert 'hx-trigger="change"' in panel[:400]
    assert 'data-testid="odds-table"' in panel  # no second request for it on load
    assert f'action="{ODDS}"' in panel  # and a real form without JavaScript


def test_it_gives_htmx_the_panel_with_apprentice_odds(client, deck_catalog):
    use_draft(client, DeckDraft(ruler="apprentice", main=legal_apprentice_main()))

    response = client.get(ODDS, {"group": "card:Ember Squire 1", "k": "1"}, headers=HX)

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert 'id="draw-odds"' in html
    # Apprentice drives 2 a turn, nothing at setup: 1 - 46/50 · 45/49 on turn 1, either way.
    assert exact(html, 1) == (Fraction(38, 245), Fraction(38, 245))
    assert exact(html, 6)[0] == 1 - Fraction(
        46 * 45 * 44 * 43 * 42 * 41 * 40 * 39 * 38 * 37 * 36 * 35,
        50 * 49 * 48 * 47 * 46 * 45 * 44 * 43 * 42 * 41 * 40 * 39,
    )
    assert "Ember Squire 1</strong>: 4 of the 50 cards" in html
    assert "Apprentice sees 0 at setup, then 2 a turn." in html
    assert "15.5%" in html


def test_it_follows_the_drafts_ruler(client, deck_catalog):
    use_draft(client, DeckDraft(ruler="knight", main=legal_apprentice_main()))

    html = client.get(ODDS, {"group": "card:Ember Squire 1", "k": "2"}, headers=HX).content.decode()

    # Knight: 4 at setup + 2 = 6 seen by turn 1; at least 2 of 4 (worked out in tests/decks/rules/test_odds.py).
    assert exact(html, 1) == (Fraction(1040865, 15890700), Fraction(1040865, 15890700))
    assert ">6 seen<" in html


def test_it_offers_the_decks_groups_and_a_picked_set(client, deck_catalog):
    use_draft(client, DeckDraft(ruler="apprentice", main={"TS-001": 4, "TS-002": 3, "TS-150": 2, "TS-200": 1}))

    html = client.get(ODDS, headers=HX).content.decode()
    for label in ("Legendary cards (1)", "Units of level 1 or less (8)", "Volnar cards (8)", "Frost Hare (2)"):
        assert label in html
    picked = client.get(
        ODDS, {"group": "picked", "card": ["Ember Squire 1", "Frost Hare", "Not In Deck"]}, headers=HX
    ).content.decode()
    assert "Ember Squire 1 or Frost Hare</strong>: 6 of the 10 cards" in picked
    assert re.search(r'value="Frost Hare" checked', picked)
    assert not re.search(r'value="Old Wyrm" checked', picked)


def test_a_plain_get_is_a_page_of_its_own(client, deck_catalog):
    use_draft(client, DeckDraft(ruler="apprentice", main={"TS-001": 4}))

    response = client.get(ODDS, {"group": "card:Ember Squire 1"})

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html
    assert 'id="odds-form"' in html
    assert f'action="{ODDS}"' in html
    assert 'href="/decks/new/">Back to the editor' in html
    # A deck of 4, all Ember Squire 1: seen by turn 1, certainly.
    assert exact(html, 1) == (Fraction(1), Fraction(1))


def test_it_names_the_field_of_bad_input(client, deck_catalog):
    use_draft(client, DeckDraft(ruler="apprentice", main={"TS-001": 4}))

    html = client.get(ODDS, {"k": "many"}, headers=HX).content.decode()

    assert re.search(r'data-testid="odds-error">k: Enter a whole number', html)
    assert 'data-testid="odds-table"' in html  # with k = 1 meanwhile


def test_an_empty_deck_asks_for_cards(client, deck_catalog):
    html = client.get(ODDS, headers=HX).content.decode()
    assert "Add cards to the deck" in html
    assert "odds-table" not in html


def test_it_escapes_card_names(client, deck_catalog):
    card = CardFactory(name="<b>Bold</b> Hare", type="event", level=0)
    PrintingFactory(card=card, collector_number="TS-666")
    use_draft(client, DeckDraft(ruler="apprentice", main={"TS-666": 2}))

    html = client.get(ODDS, headers=HX).content.decode()

    assert "<b>Bold</b>" not in html
    assert "&lt;b&gt;Bold&lt;/b&gt; Hare" in html


# ---------------------------------------------------------------- saved decks


@pytest.fixture
def saved(deck_catalog, user):
    draft = DeckDraft(ruler="apprentice", main=legal_apprentice_main())
    return deck_create_from_draft(owner=user, draft=draft, name="Squires")


def test_the_owner_reads_a_private_decks_odds(client, saved, user):
    client.force_login(user)
    url = reverse("decks:odds", args=[saved.public_id])

    response = client.get(url, {"group": "card:Ember Squire 13"}, headers=HX)

    assert response.status_code == 200
    html = response.content.decode()
    # 2 copies of Ember Squire 13, 2 driven on turn 1: 1 - 48/50 · 47/49.
    assert exact(html, 1)[0] == 1 - Fraction(48 * 47, 50 * 49)
    assert f'hx-get="{url}"' in html
    page = client.get(url).content.decode()
    assert f'href="{reverse("decks:edit", args=[saved.public_id])}">Back to the editor' in page


def test_a_private_deck_is_not_found_for_others(client, saved, other_user):
    url = reverse("decks:odds", args=[saved.public_id])
    assert client.get(url, headers=HX).status_code == 404
    client.force_login(other_user)
    assert client.get(url, headers=HX).status_code == 404


def test_anyone_reads_a_public_decks_odds(client, saved, other_user):
    saved.visibility = Visibility.PUBLIC
    saved.save(update_fields=["visibility"])
    url = reverse("decks:odds", args=[saved.public_id])

    client.force_login(other_user)
    page = client.get(url).content.decode()

    assert 'data-testid="odds-table"' in page
    assert "Back to the editor" not in page  # not theirs to edit


def test_it_refuses_to_change_anything(client, saved, user):
    client.force_login(user)
    assert client.post(reverse("decks:odds", args=[saved.public_id])).status_code == 405


def test_the_include_loads_a_saved_decks_odds_on_its_page(saved):
    from django.template.loader import render_to_string

    html = render_to_string("decks/_odds.html", {"deck": saved})

    url = reverse("decks:odds", args=[saved.public_id])
    assert f'hx-get="{url}"' in html
    assert f'<a href="{url}">' in html
    assert "odds-table" not in html  # loaded by htmx, not computed for the page


def odds_css_in_head(html):
    head = html[: html.index("</head>")]
    return head.count('href="/static/decks/odds.css"') == 1


def test_every_page_with_the_panel_links_its_css_in_the_head(client, saved, user):
    client.force_login(user)
    # In the <head>, the panel is styled the moment htmx swaps it in (no unstyled flash while it loads).
    assert odds_css_in_head(client.get("/decks/new/").content.decode())
    assert odds_css_in_head(client.get(f"/d/{saved.public_id}/").content.decode())
    assert odds_css_in_head(client.get(ODDS).content.decode())
    panel = client.get(ODDS, headers={"HX-Request": "true"}).content.decode()
    assert "odds.css" not in panel  # the pages hold it; the swapped-in panel needs no second copy


def test_each_chance_says_its_exact_fraction_and_the_help_follows_the_rules(client, deck_catalog):
    # The cell titles are worded once per row (decks/odds/panel.py Chance), the help's words about the
    # rules drawn once per rules (OddsHelp, partial_memo): neither may outlive what it says.
    use_draft(client, DeckDraft(ruler="apprentice", main=legal_apprentice_main()))
    html = client.get(ODDS, {"group": "card:Ember Squire 1", "k": "1"}, headers=HX).content.decode()
    cells = re.findall(r'<td data-exact="(\d+/\d+)"[^>]*><span class="odds-p" title="([^"]*)">', html)
    assert cells
    assert all(title == f"exactly {fraction}" for fraction, title in cells)
    assert "<strong>Seen</strong> means" in html
    assert "The deck is the main deck as it is now (50 cards)." in html
    assert "This ruler, by the rules in force on" in html

    use_draft(client, DeckDraft(ruler="apprentice", main={**legal_apprentice_main(), "TS-001": 5}))
    html = client.get(ODDS, {"group": "card:Ember Squire 1", "k": "1"}, headers=HX).content.decode()
    assert "The deck is the main deck as it is now (51 cards)." in html  # not the help of the 50-card deck

    use_draft(client, DeckDraft(ruler="knight", main=legal_apprentice_main()))
    knight = client.get(ODDS, {"group": "card:Ember Squire 1", "k": "1"}, headers=HX).content.decode()
    # Knight sees 4 at setup, Apprentice none: each ruler's help says its own numbers.
    assert "Setup: sees 4 cards." in knight[knight.index('class="odds-help"') :]
    assert "Setup: sees 4 cards." not in html[html.index('class="odds-help"') :]

    client.cookies["django_language"] = "ja"
    japanese = client.get(ODDS, {"group": "card:Ember Squire 1", "k": "1"}, headers=HX).content.decode()
    titles = re.findall(r'class="odds-p" title="([^"]*)"', japanese)
    assert titles
    assert all(title.startswith("正確には ") for title in titles)
    assert "<strong>Seen</strong> means" not in japanese  # the help in Japanese, not the English one remembered
