"""The deck editor: full page, htmx fragments, plain-form redirects, saving, permissions, escaping."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from cards.models import Printing
from decks.editor.browser import BROWSER_PAGE_SIZE
from decks.models import Deck, DeckDraft
from decks.saved_drafts import deck_draft_of
from decks.services import deck_create_from_draft
from tests.cards.factories import CardFactory, PrintingFactory
from tests.decks.factories import legal_apprentice_main

pytestmark = pytest.mark.django_db

NEW = "/decks/new/"
CHANGE = "/decks/new/change/"
CARDS = "/decks/new/cards/"
HX = {"HX-Request": "true"}


def add(client, number, *, section="main", url=CHANGE, **extra):
    return client.post(url, {"op": f"add {section} {number}", **extra}, headers=HX)


def remove(client, number, *, section="main", url=CHANGE, **extra):
    return client.post(url, {"op": f"remove {section} {number}", **extra}, headers=HX)


def rules_in(html: str) -> list[str]:
    panel = html[html.index('id="validation-panel"') :]
    panel = panel[: panel.index("</section>")]
    return re.findall(r'data-rule="([^"]+)"', panel)


def meter(html: str, key: str) -> str:
    match = re.search(rf'data-meter="{re.escape(key)}".*?class="meter-value">([^<]+)', html, re.S)
    assert match, f"no {key} meter"
    return match.group(1).strip()


@pytest.fixture
def saved(deck_catalog, user):
    return deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main={"TS-001": 2}), name="Squires")


def edit_url(deck: Deck, what: str = "edit") -> str:
    return reverse(f"decks:{what}", args=[deck.public_id])


# ---------------------------------------------------------------- the page and its fragments


def test_it_renders_the_full_editor(client, deck_catalog):
    response = client.get(NEW)

    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" in html
    for region in ("validation-panel", "deck-list", "card-results", "rules-panel", "considering", "deck-charts"):
        assert f'id="{region}"' in html
    assert 'data-card-name="Ember Squire 1"' in html
    assert 'data-number="TS-001"' in html
    assert "12 / 4 / 3" in html  # Apprentice's life / ATK / STK


def test_it_answers_htmx_with_fragments_only(client, deck_catalog):
    response = add(client, "TS-001", shown="TS-001 TS-100")

    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="validation-panel"' in html
    assert "<html" not in html
    assert html.lstrip().startswith('<section id="deck-list"')
    for region in ("validation-panel", "considering", "deck-charts", "deck-header", "editor-messages", "why-TS-001"):
        assert re.search(rf'id="{region}"[^>]*hx-swap-oob="true"', html), region
    # The browser's results stay; only the hints of the cards it shows are redrawn.
    assert 'id="card-results"' not in html
    assert re.search(r'id="why-TS-100" data-digest="\w+" data-addable="true" hx-swap-oob="true"', html)
    assert re.search(
        r'id="why-TS-001" data-digest="\w+" data-addable="true" hx-swap-oob="true">\s*<span class="in-deck">1 in deck',
        html,
    )


def test_a_change_answers_with_the_draw_odds_in_the_same_response(client, deck_catalog):
    # One request per click: the odds come out of band, for the choices the panel sends along.
    add(client, "TS-001")
    html = add(client, "TS-001", group="card:Ember Squire 1", k="2").content.decode()

    panel = re.search(r'<section id="draw-odds"[^>]*>', html).group(0)
    assert 'hx-swap-oob="true"' in panel
    assert 'data-testid="draw-odds"' in panel
    assert "deckChanged" not in html
    assert re.search(r'<option value="card:Ember Squire 1" selected>', html)
    assert re.search(r'<option value="2" selected>2</option>', html)
    assert 'data-testid="odds-table"' in html


def test_the_odds_are_not_sent_again_when_the_change_leaves_them_as_they_are(client, deck_catalog):
    first = add(client, "TS-001").content.decode()
    key = re.search(r'name="odds_key" value="([^"]+)"', first).group(1)

    # The considering board is not in the deck: the odds the page shows still hold.
    considered = add(client, "TS-002", section="considering", odds_key=key).content.decode()
    added = add(client, "TS-002", odds_key=key).content.decode()

    assert 'id="draw-odds"' not in considered
    assert 'id="considering"' in considered
    assert 'id="draw-odds"' in added
    assert re.search(r'name="odds_key" value="([^"]+)"', added).group(1) != key


def test_a_card_change_redraws_the_save_status_and_a_rename_the_header(client, user, saved):
    client.force_login(user)

    card = add(client, "TS-001", url=edit_url(saved, "change"), base_version=1).content.decode()
    renamed = client.post(
        edit_url(saved, "change"), {"action": "rename", "name": "Lancers", "base_version": 2}, headers=HX
    ).content.decode()

    assert re.search(r'id="save-status"[^>]*hx-swap-oob="true"', card)
    assert 'id="deck-header"' not in card
    assert re.search(r'id="deck-header"[^>]*hx-swap-oob="true"', renamed)
    assert 'data-testid="deck-name">Lancers<' in renamed


def test_a_change_sends_no_event_for_a_second_request(client, deck_catalog):
    assert "HX-Trigger" not in add(client, "TS-001")

    refused = client.post(CHANGE, {"op": "remove main TS-002"}, headers=HX)
    assert refused.status_code == 422
    assert "HX-Trigger" not in refused
    assert 'id="draw-odds"' not in refused.content.decode()


def test_the_editor_sends_the_odds_choices_with_every_change(client, deck_catalog):
    html = client.get(NEW).content.decode()

    editor = re.search(r'<div id="editor"[^>]*>', html).group(0)
    assert "#draw-odds" in editor
    # The panel is drawn with the page: no request of its own on load, none after a change.
    panel = re.search(r'<section id="draw-odds"[^>]*>', html).group(0)
    assert 'hx-trigger="change"' in panel
    assert "load" not in panel


def test_every_card_button_posts_the_one_change_form_that_htmx_queues(client, deck_catalog):
    add(client, "TS-001")
    html = client.get(NEW, {"q": "squire"}).content.decode()

    form = re.search(r'<form id="change-form"[^>]*>', html).group(0)
    assert 'method="post"' in form
    assert f'action="{CHANGE}"' in form
    assert 'hx-sync="this:queue all"' in form
    buttons = re.findall(r'<button [^>]*name="op"[^>]*>', html)
    assert len(buttons) > 3
    assert all('form="change-form"' in button for button in buttons)
    # The rules pickers' own forms wait in the same queue.
    picker = html[html.rindex("<form", 0, html.index('id="pick-ruler"')) :]
    assert picker.startswith('<form method="post"')
    assert 'hx-sync="#change-form:queue all"' in picker[:300]
    # 409 and 422 answers are swapped in (the refusal or conflict message), not dropped as errors.
    assert re.search(r'<meta name="htmx-config" content=\'[^\']*"code": "409\|422", "swap": true, "error": false', html)


def test_a_rules_change_redraws_the_pickers_and_the_results(client, deck_catalog):
    html = client.post(CHANGE, {"action": "set_ruler", "value": "knight", "q": "lancer"}, headers=HX).content.decode()

    assert re.search(r'id="rules-panel"[^>]*hx-swap-oob="true"', html)
    assert re.search(r'id="card-results"[^>]*hx-swap-oob="true"', html)
    assert 'data-card-name="Sky Lancer"' in html
    assert 'data-card-name="Ember Squire 2"' not in html


def test_it_redirects_a_plain_post_back_to_the_editor_with_its_search(client, deck_catalog):
    response = client.post(CHANGE, {"op": "add main TS-001", "browse": "q=squire&faction=volnar&junk=1"})

    assert response.status_code == 302
    assert response["Location"] == "/decks/new/?q=squire&faction=volnar"
    assert 'data-number="TS-001" data-section="main" data-count="1"' in client.get(NEW).content.decode()


def test_it_shows_a_fifth_copy_as_a_max_copies_violation_and_clears_it_on_removal(client, deck_catalog):
    for _ in range(4):
        html = add(client, "TS-001").content.decode()
    assert "max_copies" not in rules_in(html)

    html = add(client, "TS-001").content.decode()
    assert "max_copies" in rules_in(html)
    assert "5 copies of Ember Squire 1; Apprentice allows at most 4." in html
    assert re.search(r'class="line flagged"[^>]*data-number="TS-001"[^>]*data-rules="max_copies"', html)

    html = remove(client, "TS-001").content.decode()
    assert "max_copies" not in rules_in(html)


def test_it_hints_in_the_browser_before_the_fifth_copy(client, deck_catalog):
    for _ in range(3):
        html = add(client, "TS-001", shown="TS-001 TS-002").content.decode()
    assert re.search(r'id="why-TS-001" data-digest="\w+" data-addable="true"', html)

    html = add(client, "TS-001", shown="TS-001 TS-002").content.decode()

    hint = html[html.index('id="why-TS-001"') :]
    hint = hint[: hint.index("</div>")]
    assert 'data-addable="false"' in hint
    assert "4 in deck" in hint
    assert "5th copy; Apprentice allows 4" in hint
    assert re.search(r'id="why-TS-002" data-digest="\w+" data-addable="true"', html)


def hint_of(html, number):
    hint = html[html.index(f'id="why-{number}"') :]
    return hint[: hint.index("</div>")]


def test_the_in_deck_badge_is_a_problem_once_the_deck_is_over_the_copy_limit(client, deck_catalog):
    for _ in range(4):
        html = add(client, "TS-001", shown="TS-001").content.decode()
    assert '<span class="in-deck">4 in deck</span>' in hint_of(html, "TS-001")  # at the limit: fine

    html = add(client, "TS-001", shown="TS-001").content.decode()

    hint = hint_of(html, "TS-001")
    assert '<span class="in-deck over-limit">5 in deck' in hint
    assert '<span class="visually-hidden"> (over the copy limit)</span>' in hint
    assert "6th copy; Apprentice allows 4" in hint
    # The full page (the browser's first render) marks it the same way.
    page = client.get(NEW, {"q": "Ember Squire 1"}).content.decode()
    assert '<span class="in-deck over-limit">5 in deck' in hint_of(page, "TS-001")


def test_the_full_page_shows_the_hints_too(client, deck_catalog):
    for _ in range(4):
        add(client, "TS-001")

    html = client.get(NEW, {"q": "squire"}).content.decode()

    row = html[html.index('data-card-name="Ember Squire 1" data-number="TS-001"') :]
    row = row[: row.index("</li>")]
    assert 'data-addable="false"' in row
    assert "5th copy; Apprentice allows 4" in row


def test_a_geas_changes_the_caps_shown(client, deck_catalog):
    html = client.get(NEW).content.decode()
    assert meter(html, "level") == "0/50"
    assert meter(html, "factions") == "0/2"

    html = client.post(CHANGE, {"action": "set_geas", "value": "oath-of-the-lone-banner"}, headers=HX).content.decode()

    assert meter(html, "level") == "0/55"
    assert meter(html, "factions") == "0/1"
    assert re.search(r'id="rules-panel"[^>]*hx-swap-oob="true"', html)
    assert "Maximum factions: 1" in html  # what the geas changes


def test_the_geas_picker_lists_only_geases_for_the_ruler(client, deck_catalog):
    html = client.post(CHANGE, {"action": "set_ruler", "value": "overlord"}, headers=HX).content.decode()

    picker = html[html.index('id="pick-geas"') :]
    picker = picker[: picker.index("</select>")]
    assert re.findall(r'<option value="([^"]*)"', picker) == ["", "oath-of-the-true-king"]
    assert "16 / unlimited" not in html
    assert meter(html, "resources") == "0/3"


def test_a_refused_change_answers_422_with_a_message(client, deck_catalog):
    response = client.post(CHANGE, {"action": "set_geas", "value": "oath-of-the-true-king"}, headers=HX)

    assert response.status_code == 422
    assert response["HX-Retarget"] == "#editor-messages"
    assert "is an oath for Overlord, not for Apprentice" in response.content.decode()


def test_a_refused_plain_change_redirects_with_a_message(client, deck_catalog):
    response = client.post(CHANGE, {"op": "add main NOPE-1"}, follow=True)

    assert response.redirect_chain == [("/decks/new/", 302)]
    assert "No Gate Ruler card with collector number" in response.content.decode()


def test_the_rules_date_drives_the_page(client, deck_catalog):
    html = client.post(CHANGE, {"action": "set_ruler", "value": "highlander"}, headers=HX).content.decode()
    assert meter(html, "cnt") == "0/20"

    html = client.post(CHANGE, {"action": "set_rules_date", "value": "2021-01-01"}, headers=HX).content.decode()

    assert meter(html, "cnt") == "0/16"
    assert "rules in force on 2021-01-01" in html


def test_a_ruler_stat_the_rules_do_not_state_says_so(client, deck_catalog):
    client.post(CHANGE, {"action": "set_ruler", "value": "apprentice"}, headers=HX)
    assert 'data-testid="stats-unstated"' not in client.get("/decks/new/").content.decode()

    client.post(CHANGE, {"action": "set_rules_date", "value": "2021-01-15"}, headers=HX)
    html = client.get("/decks/new/").content.decode()

    # The 2020 rulebook gives Apprentice no life: a bare "—" would read as a gap in the site.
    assert re.search(r'data-testid="stats-unstated">—: not stated in the rules judged by \(.+, from 2020-11-26\)', html)


def test_it_proposes_the_unit_attribute(client, deck_catalog):
    client.post(CHANGE, {"action": "set_ruler", "value": "centurion"}, headers=HX)
    add(client, "TS-001")
    html = add(client, "TS-100").content.decode()

    assert 'data-testid="proposed-attribute">Dragon<' in html

    html = client.post(CHANGE, {"action": "set_attribute", "value": "Dragon"}, headers=HX).content.decode()
    assert "Units with Dragon" in html


def test_the_proposals_form_in_a_changes_answer_keeps_the_browsers_search(client, deck_catalog):
    """The hidden `browse` of the form a change's answer draws is the search posted with the change, offset included
    (worked out only when a form draws it)."""
    client.post(CHANGE, {"action": "set_ruler", "value": "centurion"}, headers=HX)
    add(client, "TS-001")
    html = add(client, "TS-100", q="squire", type="unit", usable="1", offset="30").content.decode()
    proposal = html[html.index('id="attribute-proposal"') :]

    assert '<input type="hidden" name="browse" value="q=squire&amp;type=unit&amp;usable=1&amp;offset=30">' in proposal
    assert '<input type="hidden" name="browse" value="q=squire">' in add(client, "TS-002", q="squire").content.decode()


def test_the_considering_board_is_not_counted(client, deck_catalog):
    add(client, "TS-001")
    html = client.post(CHANGE, {"op": "to_considering main TS-001"}, headers=HX).content.decode()

    assert meter(html, "size") == "0/50"
    considering = html[html.index('id="considering"') :]
    assert 'data-number="TS-001" data-section="considering"' in considering

    html = client.post(CHANGE, {"op": "to_deck main TS-001"}, headers=HX).content.decode()
    assert meter(html, "size") == "1/50"


def test_energy_goes_to_the_resources(client, deck_catalog):
    client.post(CHANGE, {"action": "set_ruler", "value": "knight"}, headers=HX)

    html = add(client, "TS-300", section="resources").content.decode()

    assert meter(html, "resources") == "1/3"
    assert 'data-number="TS-300" data-section="resources"' in html


# ---------------------------------------------------------------- the card browser


def test_the_card_browser_answers_htmx_with_its_results(client, deck_catalog):
    response = client.get(CARDS, {"q": "lancer"}, headers=HX)

    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="card-results"')
    assert "<html" not in html
    assert 'data-card-name="Sky Lancer"' in html
    assert 'data-card-name="Ember Squire 1"' not in html


def test_the_card_browser_sends_a_plain_request_to_the_editor(client, deck_catalog):
    response = client.get(CARDS, {"q": "lancer", "faction": "atlas", "junk": "x"})

    assert response.status_code == 302
    assert response["Location"] == "/decks/new/?q=lancer&faction=atlas"
    html = client.get(response["Location"]).content.decode()
    assert 'data-card-name="Sky Lancer"' in html


def test_the_card_browser_explains_a_bad_query(client, deck_catalog):
    html = client.get(CARDS, {"q": "lv<=two"}, headers=HX).content.decode()

    assert 'data-testid="search-error"' in html


def test_the_card_browser_pages_with_real_links(client, deck_catalog):
    for i in range(BROWSER_PAGE_SIZE):
        PrintingFactory(card=CardFactory(name=f"Filler {i:02d}", level=0), collector_number=f"FL-{i:03d}")

    html = client.get(CARDS, headers=HX).content.decode()

    assert f'href="/decks/new/?offset={BROWSER_PAGE_SIZE}"' in html
    assert f'hx-get="/decks/new/cards/?offset={BROWSER_PAGE_SIZE}"' in html


def test_the_card_browser_shows_a_capped_count_as_a_lower_bound(client, deck_catalog, monkeypatch):
    monkeypatch.setattr("cards.selectors.CARD_SEARCH_COUNT_CAP", 3)
    for i in range(BROWSER_PAGE_SIZE):
        PrintingFactory(card=CardFactory(name=f"Filler {i:02d}", level=0), collector_number=f"FL-{i:03d}")

    html = client.get(CARDS, headers=HX).content.decode()

    # Counted no further than the page: more than 30 match, not how many more.
    n = BROWSER_PAGE_SIZE
    assert f'data-testid="result-count">{n}+ cards, 1–{n} shown<' in html
    assert f'hx-get="/decks/new/cards/?offset={n}"' in html


# ---------------------------------------------------------------- saved decks: autosave, conflicts, permissions


def test_it_autosaves_an_owners_change_and_bumps_the_version(client, user, saved):
    client.force_login(user)

    response = add(client, "TS-001", url=edit_url(saved, "change"), base_version=1)

    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="deck-version" value="2"' in html
    # Every form's base_version (the pickers are not redrawn by a card change) moves on to version 2.
    assert (
        '<input type="hidden" name="base_version" value="2" class="base-version" hx-swap-oob="outerHTML:.base-version">'
        in html
    )
    saved.refresh_from_db()
    assert saved.version == 2
    assert deck_draft_of(deck=saved).main == {"TS-001": 3}


def test_it_refuses_a_stale_save_with_409_and_a_reload_link(client, user, saved):
    client.force_login(user)
    add(client, "TS-002", url=edit_url(saved, "change"), base_version=1)  # another tab saved first

    response = add(client, "TS-003", url=edit_url(saved, "change"), base_version=1)

    assert response.status_code == 409
    html = response.content.decode()
    assert "another tab or device" in html
    assert f'href="{edit_url(saved)}"' in html
    assert response["HX-Retarget"] == "#editor-messages"
    saved.refresh_from_db()
    assert saved.version == 2
    assert deck_draft_of(deck=saved).main == {"TS-001": 2, "TS-002": 1}


def test_a_stale_plain_post_shows_the_deck_as_it_is_with_409(client, user, saved):
    client.force_login(user)
    add(client, "TS-002", url=edit_url(saved, "change"), base_version=1)

    response = client.post(edit_url(saved, "change"), {"op": "add main TS-003", "base_version": 1})

    assert response.status_code == 409
    html = response.content.decode()
    assert "<html" in html
    assert 'data-testid="conflict"' in html
    assert 'data-number="TS-002"' in html


def test_a_change_without_a_version_is_refused_as_stale(client, user, saved):
    client.force_login(user)

    assert add(client, "TS-002", url=edit_url(saved, "change")).status_code == 409


def test_the_owner_sees_the_saved_deck(client, user, saved):
    client.force_login(user)

    html = client.get(edit_url(saved)).content.decode()

    assert 'data-testid="deck-name">Squires<' in html
    assert 'data-number="TS-001" data-section="main" data-count="2"' in html
    assert 'name="base_version" value="1"' in html


def test_others_cannot_see_or_change_a_deck_and_a_private_one_stays_hidden(client, other_user, saved):
    client.force_login(other_user)

    assert client.get(edit_url(saved)).status_code == 404
    assert client.get(edit_url(saved, "cards"), headers=HX).status_code == 404
    assert add(client, "TS-001", url=edit_url(saved, "change"), base_version=1).status_code == 404
    assert client.post(edit_url(saved, "delete")).status_code == 404
    assert Deck.objects.filter(pk=saved.pk, version=1).exists()


@pytest.mark.parametrize("visibility", ["unlisted", "public"])
def test_others_are_refused_changes_to_a_deck_they_can_read(client, other_user, saved, visibility):
    Deck.objects.filter(pk=saved.pk).update(visibility=visibility)
    client.force_login(other_user)

    assert add(client, "TS-001", url=edit_url(saved, "change"), base_version=1).status_code == 403
    assert client.post(edit_url(saved, "delete")).status_code == 403
    assert Deck.objects.filter(pk=saved.pk, version=1).exists()


def test_anonymous_players_cannot_change_a_saved_deck(client, saved):
    assert client.get(edit_url(saved)).status_code == 404
    assert add(client, "TS-001", url=edit_url(saved, "change"), base_version=1).status_code == 404
    Deck.objects.filter(pk=saved.pk).update(visibility="public")
    assert add(client, "TS-001", url=edit_url(saved, "change"), base_version=1).status_code == 403
    assert Deck.objects.filter(pk=saved.pk, version=1).exists()


def test_the_owner_deletes_a_deck(client, user, saved):
    client.force_login(user)

    response = client.post(edit_url(saved, "delete"))

    assert response.status_code == 302
    assert not Deck.objects.filter(pk=saved.pk).exists()


def test_every_write_needs_the_csrf_token(deck_catalog, user, saved):
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)

    assert client.post(CHANGE, {"op": "add main TS-001"}).status_code == 403
    assert client.post(edit_url(saved, "change"), {"op": "add main TS-001", "base_version": 1}).status_code == 403
    assert client.post("/decks/new/save/").status_code == 403


# ---------------------------------------------------------------- saving a draft


def test_saving_offers_an_anonymous_player_sign_up_first_and_keeps_the_draft(client, deck_catalog):
    add(client, "TS-001")

    response = client.post("/decks/new/save/", {"name": "My squires"})

    assert response.status_code == 302
    assert response["Location"] == "/accounts/signup/?next=%2Fdecks%2Fnew%2Fsave%2F"
    signup = client.get(response["Location"]).content.decode()
    assert "Sign up to save your deck (or log in, if you have an account)" in signup
    # Log in is offered beside it, leading to the same save.
    assert 'href="/accounts/login/?next=/decks/new/save/"' in signup or "login/?next=%2Fdecks" in signup
    assert 'data-number="TS-001"' in client.get(NEW).content.decode()
    assert not Deck.objects.exists()


def test_the_draft_survives_signing_up_and_the_save_completes(client, deck_catalog):
    for _ in range(3):
        add(client, "TS-001")
    client.post("/decks/new/save/", {"name": "My squires"})

    response = client.post(
        "/accounts/signup/?next=/decks/new/save/",
        {
            "username": "newbie",
            "password1": "a long passphrase 9",
            "password2": "a long passphrase 9",
            "next": "/decks/new/save/",
        },
        follow=True,
    )

    deck = Deck.objects.get()
    assert (deck.owner.username, deck.name) == ("newbie", "My squires")
    assert deck_draft_of(deck=deck).main == {"TS-001": 3}
    assert response.redirect_chain[-1] == (edit_url(deck), 302)
    assert "From now on every change is saved" in response.content.decode()
    # The draft has become the deck: a new draft starts empty.
    assert 'data-section="main"' not in client.get(NEW).content.decode()


def test_the_draft_survives_logging_in_and_the_save_completes(client, deck_catalog, user):
    add(client, "TS-002")
    client.post("/decks/new/save/", {"name": ""})

    response = client.post(
        "/accounts/login/?next=/decks/new/save/",
        {"username": "alice", "password": "correct horse battery", "next": "/decks/new/save/"},
        follow=True,
    )

    deck = Deck.objects.get(owner=user)
    assert deck.name == "Untitled Apprentice deck"
    assert deck_draft_of(deck=deck).main == {"TS-002": 1}
    assert response.redirect_chain[-1] == (edit_url(deck), 302)


def test_a_logged_in_player_saves_at_once(client, deck_catalog, user):
    client.force_login(user)
    add(client, "TS-002")

    response = client.post("/decks/new/save/", {"name": "Quick"})

    deck = Deck.objects.get(owner=user)
    assert response["Location"] == edit_url(deck)
    assert deck.name == "Quick"


def test_visiting_the_save_address_without_a_pending_save_saves_nothing(client, deck_catalog, user):
    client.force_login(user)
    add(client, "TS-002")

    response = client.get("/decks/new/save/")

    assert response["Location"] == "/decks/new/"
    assert not Deck.objects.exists()


def test_start_over_empties_the_draft(client, deck_catalog):
    add(client, "TS-002")

    client.post("/decks/new/reset/", {"confirmed": "1"})

    assert 'data-section="main"' not in client.get(NEW).content.decode()


def test_a_broken_session_draft_is_replaced(client, deck_catalog):
    session = client.session
    session["deck_draft"] = {"ruler": "nobody"}
    session.save()

    response = client.get(NEW)

    assert response.status_code == 200
    assert "could not be opened" in response.content.decode()


# ---------------------------------------------------------------- escaping


def test_it_escapes_deck_names_descriptions_and_card_text(client, deck_catalog, user):
    evil = CardFactory(name="<script>alert('name')</script>", text="<img src=x onerror=alert(1)> deal 2")
    PrintingFactory(card=evil, collector_number="EV-001")
    deck = deck_create_from_draft(
        owner=user,
        draft=DeckDraft(ruler="apprentice", main={"EV-001": 1}, description="<b>bold</b>\n<script>x</script>"),
        name="<script>alert('deck')</script>",
    )
    client.force_login(user)

    pages = [
        client.get(edit_url(deck)).content.decode(),
        add(client, "EV-001", url=edit_url(deck, "change"), base_version=1).content.decode(),
        client.get("/decks/").content.decode(),
    ]

    for html in pages:
        assert "<script>alert(" not in html
        assert "<img src=x" not in html
        assert "<b>bold</b>" not in html
    assert "&lt;script&gt;alert(&#x27;deck&#x27;)&lt;/script&gt;" in pages[0]
    assert "&lt;img src=x onerror=alert(1)&gt;" in pages[0]


# ---------------------------------------------------------------- query counts


def test_the_editors_first_load_takes_at_most_20_queries(client, deck_catalog, user, django_assert_max_num_queries):
    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main=legal_apprentice_main()))
    client.force_login(user)
    session = client.session
    session["deck_draft"] = DeckDraft(
        ruler="apprentice", geas="oath-of-the-lone-banner", main=legal_apprentice_main()
    ).to_session()
    session.save()

    with django_assert_max_num_queries(20):
        assert client.get(NEW).status_code == 200
    with django_assert_max_num_queries(20):
        assert client.get(edit_url(deck)).status_code == 200


def test_the_card_browser_and_a_change_take_few_queries(client, deck_catalog, user, django_assert_max_num_queries):
    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main=legal_apprentice_main()))
    client.force_login(user)

    with django_assert_max_num_queries(16):
        assert client.get(edit_url(deck, "cards"), {"q": "squire"}, headers=HX).status_code == 200
    shown = " ".join(Printing.objects.values_list("collector_number", flat=True))
    with django_assert_max_num_queries(20):
        response = add(client, "TS-013", url=edit_url(deck, "change"), base_version=1, shown=shown)
    assert response.status_code == 200
    assert 'id="why-TS-150"' in response.content.decode()
