"""The one deck editor on Ruler's Gambit and GateRunners decks: the game picker, identity card, hints, meters,
verdict, rules panel, draw odds, saving, autosave of a saved deck, refusals and plain-form posts. The addresses of
the other games' former editor (/game/change/, /game/cards/) keep working: links are out in the world."""

from __future__ import annotations

import re

import pytest

from decks.models import Deck, DeckDraft
from decks.saved_drafts import deck_draft_of
from tests.decks.editor.views.drafts import with_draft
from tests.decks.factories import gambit_draft, game_deck, runners_draft

pytestmark = pytest.mark.django_db

NEW = "/decks/new/"
CHANGE = "/decks/new/game/change/"
CARDS = "/decks/new/game/cards/"
HX = {"HX-Request": "true"}


def add(client, number, section, *, url=CHANGE, **extra):
    return client.post(url, {"op": f"add {section} {number}", **extra}, headers=HX)


def rules_in(html: str) -> list[str]:
    panel = html[html.index('id="validation-panel"') :]
    return re.findall(r'data-rule="([^"]+)"', panel[: panel.index("</section>")])


def test_the_new_deck_page_offers_the_games_and_opens_gate_ruler_with_no_choice(client, rules, game_catalog):
    html = client.get(NEW).content.decode()

    assert 'data-testid="game-picker"' in html
    assert 'href="/decks/new/?game=rulers-gambit"' in html
    assert 'href="/decks/new/?game=gaterunners"' in html
    assert 'id="validation-panel"' in html  # the Gate Ruler editor


def test_picking_a_game_opens_its_editor_with_its_cards_and_rules(client, rules, game_catalog):
    response = client.get(NEW, {"game": "rulers-gambit"})

    html = response.content.decode()
    assert response.status_code == 200
    assert 'data-game="rulers-gambit"' in html
    assert 'data-section="kingdom"' in html
    assert 'id="result-RGT-001"' in html  # Fire Kingdom in the card browser
    assert 'value="add kingdom RGT-001"' in html
    assert "+ Add to Kingdom" in html
    assert "Not stated in the rules; this site assumes" in html
    assert 'data-testid="draw-odds"' in html
    assert client.session["deck_draft"]["game"] == "rulers-gambit"


def test_the_kingdom_is_picked_from_the_browser_and_its_colours_mark_the_cards(client, rules, game_catalog):
    client.get(NEW, {"game": "rulers-gambit"})

    response = add(client, "RGT-001", "kingdom", shown="RGT-040 RGT-011")

    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="deck-list"' in html
    assert 'data-number="RGT-001" data-section="kingdom"' in html
    # Wave Sprite is blue, the Fire Kingdom allows red only: its hint says so; the red Imp may go in.
    wave = html[html.index('id="why-RGT-040"') :]
    assert re.match(r'id="why-RGT-040" data-digest="[0-9a-f]{16}" data-addable="false"', wave)
    assert "the Kingdom does not allow blue" in wave[: wave.index("</div>")]
    assert re.search(r'id="why-RGT-011" data-digest="[0-9a-f]{16}" data-addable="true"', html)
    assert client.session["deck_draft"]["others"] == {"kingdom": {"RGT-001": 1}}


def test_meters_and_violations_follow_each_change(client, rules, game_catalog):
    with_draft(client, gambit_draft())

    html = client.get(NEW).content.decode()
    assert 'data-testid="verdict">Legal<' in html

    html = add(client, "RGT-040", "main").content.decode()
    assert rules_in(html) == ["deck_size", "colour"]
    assert 'data-meter="deck_size" data-state="over"' in html


def test_a_card_of_another_game_or_section_is_refused_in_words(client, rules, game_catalog):
    client.get(NEW, {"game": "gaterunners"})

    wrong_game = add(client, "RGT-001", "main")
    wrong_section = add(client, "GRT-001", "kingdom")

    assert wrong_game.status_code == 422
    assert "No GateRunners card with collector number &#x27;RGT-001&#x27;." in wrong_game.content.decode()
    assert wrong_section.status_code == 422
    assert "A GateRunners deck has no section &#x27;kingdom&#x27;." in wrong_section.content.decode()


def test_the_card_browser_searches_the_games_fields(client, rules, game_catalog):
    client.get(NEW, {"game": "gaterunners"})

    heroes = client.get(CARDS, {"q": "t:hero"}, headers=HX).content.decode()
    bad = client.get(CARDS, {"q": "lv<=x"}, headers=HX).content.decode()

    assert re.findall(r'data-card-name="([^"]+)"', heroes) == ["Pathseeker", "Wayfinder"]
    assert 'value="add hero GRT-001"' in heroes
    assert "+ Add to Hero" in heroes
    assert 'data-testid="search-error"' in bad


def test_an_empty_card_list_says_why_with_no_link(client, rules, game_catalog):
    client.get(NEW, {"game": "gaterunners"})

    html = client.get(CARDS, {"q": "no such card anywhere"}, headers=HX).content.decode()
    error = client.get(CARDS, {"q": "lv<=x"}, headers=HX).content.decode()

    assert re.search(r'data-testid="empty-results"><p>No card matches this search.</p>', html)
    assert 'class="paging"' not in html
    assert 'data-testid="empty-results"' not in error  # the search's error says why instead


def test_switching_games_keeps_each_draft(client, rules, game_catalog):
    client.get(NEW, {"game": "gaterunners"})
    add(client, "GRT-001", "hero")

    client.get(NEW, {"game": "rulers-gambit"})
    html = client.get(NEW, {"game": "gaterunners"}).content.decode()

    assert 'data-number="GRT-001" data-section="hero"' in html


def test_a_plain_form_post_is_redirected_back_to_the_games_page(client, rules, game_catalog):
    client.get(NEW, {"game": "gaterunners"})

    response = client.post(CHANGE, {"op": "add gates GRT-011", "browse": "q=gate"})

    assert response.status_code == 302
    assert response["Location"] == "/decks/new/?game=gaterunners&q=gate"


def test_saving_a_game_draft_opens_the_saved_deck_in_its_editor(client, rules, game_catalog, user):
    client.force_login(user)
    with_draft(client, runners_draft(name=""))

    response = client.post("/decks/new/save/", {"name": "Runners"})

    deck = Deck.objects.get(owner=user)
    assert deck.game == "gaterunners"
    assert response["Location"] == f"/decks/{deck.public_id}/edit/"
    html = client.get(response["Location"]).content.decode()
    assert 'data-testid="deck-name">Runners' in html
    assert 'data-testid="verdict">Legal<' in html


def test_a_saved_decks_change_is_saved_at_once(client, game_catalog, user):
    deck = game_deck(user, runners_draft())
    client.force_login(user)
    url = f"/decks/{deck.public_id}/game/change/"

    response = client.post(url, {"op": "remove gates GRT-013", "base_version": deck.version}, headers=HX)

    deck.refresh_from_db()
    assert response.status_code == 200
    assert deck_draft_of(deck=deck).section("gates") == {"GRT-011": 1, "GRT-012": 1}
    assert deck.legal is False
    assert 'class="base-version" hx-swap-oob="outerHTML:.base-version"' in response.content.decode()


def test_a_stale_change_is_refused_not_written_over(client, game_catalog, user):
    deck = game_deck(user, runners_draft())
    client.force_login(user)
    url = f"/decks/{deck.public_id}/game/change/"
    client.post(url, {"op": "remove gates GRT-013", "base_version": deck.version}, headers=HX)

    stale = client.post(url, {"op": "remove gates GRT-012", "base_version": deck.version}, headers=HX)

    assert stale.status_code == 409
    assert 'data-testid="conflict"' in stale.content.decode()
    deck.refresh_from_db()
    assert deck_draft_of(deck=deck).section("gates") == {"GRT-011": 1, "GRT-012": 1}


def test_another_players_game_deck_does_not_open(client, game_catalog, user, other_user):
    deck = game_deck(other_user, gambit_draft(), visibility="public")
    client.force_login(user)

    assert client.get(f"/decks/{deck.public_id}/edit/").status_code == 404
    change = client.post(f"/decks/{deck.public_id}/game/change/", {"op": "add main RGT-011"}, headers=HX)
    assert change.status_code == 403


def test_starting_over_empties_only_that_games_draft(client, rules, game_catalog):
    with_draft(client, gambit_draft())

    response = client.post("/decks/new/game/reset/", {"confirmed": "1"})

    assert response["Location"] == "/decks/new/?game=rulers-gambit"
    html = client.get(response["Location"]).content.decode()
    assert 'data-testid="count-main">0<' in html


def test_the_draft_odds_follow_the_games_draw_pattern(client, rules, game_catalog):
    with_draft(client, gambit_draft())

    html = client.get("/decks/new/odds/").content.decode()

    assert 'data-testid="odds-error"' not in html
    assert "Setup: sees 5 cards." in html


def test_a_game_list_pasted_on_the_new_deck_import_opens_the_editor(client, rules, game_catalog):
    with_draft(client, DeckDraft(game="gaterunners"))
    text = "Hero:\n1 Wayfinder\n"

    preview = client.post("/decks/new/import/", {"text": text})
    fingerprint = preview.context["result"].fingerprint
    response = client.post("/decks/new/import/", {"text": text, "confirm": "1", "fingerprint": fingerprint})

    assert response.status_code == 302
    assert response["Location"] == "/decks/new/"
    assert 'data-number="GRT-001" data-section="hero"' in client.get("/decks/new/").content.decode()


def test_the_odds_page_of_a_game_deck_leads_back_to_its_editor(client, game_catalog, user):
    deck = game_deck(user, gambit_draft())
    client.force_login(user)

    odds = client.get(f"/decks/{deck.public_id}/odds/").content.decode()
    editor = client.get(f"/decks/{deck.public_id}/edit/")

    assert f'href="/decks/{deck.public_id}/edit/"' in odds
    assert editor.status_code == 200
    assert 'data-game="rulers-gambit"' in editor.content.decode()


def test_my_decks_open_a_game_deck_in_its_editor(client, game_catalog, user):
    deck = game_deck(user, runners_draft())
    client.force_login(user)

    html = client.get("/decks/").content.decode()

    assert f'<a href="/decks/{deck.public_id}/edit/">Runners</a>' in html


def test_a_page_left_open_on_another_games_draft_is_told_to_reload(client, rules, deck_catalog, game_catalog):
    with_draft(client, gambit_draft())

    ruler_page = client.post("/decks/new/change/", {"op": "add main TS-001", "game": "gate-ruler"}, headers=HX)
    other_game = add(client, "GRT-001", "hero", game="gaterunners")

    for response in (ruler_page, other_game):
        assert response.status_code == 409
        assert "Your draft is now of another game" in response.content.decode()
    assert client.session["deck_draft"]["main"] == gambit_draft().main


def test_a_game_page_left_open_after_gate_ruler_was_picked_is_told_to_reload(client, rules, game_catalog):
    client.get(NEW, {"game": "gaterunners"})
    client.get(NEW, {"game": "gate-ruler"})

    response = client.post(CHANGE, {"op": "add hero GRT-001", "game": "gaterunners"})

    assert response.status_code == 302
    assert response["Location"] == "/decks/new/"


def test_the_game_picker_stays_on_gate_rulers_draft_after_a_change(client, rules, deck_catalog):
    client.get(NEW)

    html = client.post("/decks/new/change/", {"op": "add main TS-001"}, headers=HX).content.decode()

    assert 'data-testid="game-picker"' in html


def test_renaming_a_saved_game_deck_redraws_its_header(client, game_catalog, user):
    deck = game_deck(user, gambit_draft())
    client.force_login(user)
    url = f"/decks/{deck.public_id}/game/change/"

    response = client.post(
        url, {"action": "rename", "name": "Ashes", "description": "", "base_version": deck.version}, headers=HX
    )

    deck.refresh_from_db()
    assert deck.name == "Ashes"
    assert '<section id="deck-header" class="deck-header" hx-swap-oob="true">' in response.content.decode()
    assert 'data-testid="deck-name">Ashes' in response.content.decode()
