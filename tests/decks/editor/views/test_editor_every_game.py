"""The one editor on every game: what Gate Ruler's editor has that is not about rulers, for Ruler's Gambit and
GateRunners too (the card peek, the considering board, the keys, "Only cards this deck can use", list and grid,
pasting a list, the playset button up to the game's copy limit, undo, the phone tabs, visibility and name); what
is about rulers (pickers, charts, the attribute proposal) only where the game's data says its identity is a ruler."""

from __future__ import annotations

import re

import pytest

from decks.models import Deck
from decks.saved_drafts import deck_draft_of
from tests.decks.editor.views.drafts import with_draft
from tests.decks.factories import gambit_draft, game_deck, runners_draft

pytestmark = pytest.mark.django_db

NEW = "/decks/new/"
CHANGE = "/decks/new/change/"
HX = {"HX-Request": "true"}


def post(client, op, url=CHANGE, **extra):
    return client.post(url, {"op": op, **extra}, headers=HX)


def region(html: str, start: str) -> str:
    """From `start` to the end of the <section> it opens."""
    part = html[html.index(start) :]
    return part[: part.index("</section>")]


@pytest.mark.parametrize("game", ["gate-ruler", "rulers-gambit", "gaterunners"])
def test_every_games_editor_has_the_controls_not_about_rulers(client, rules, deck_catalog, game_catalog, game):
    html = client.get(NEW, {"game": game}).content.decode()

    assert f'data-game="{game}"' in html
    for control in ('data-testid="usable-only"', 'data-testid="view-list"', 'data-testid="view-grid"'):
        assert control in html, control
    assert 'id="import-text"' in html  # paste a list in the editor
    assert 'id="undo-form"' in html
    assert '<nav id="editor-tabs"' in html
    assert '<form id="change-form"' in html
    assert "<kbd>/</kbd> focuses the search" in html
    assert 'id="considering"' in html
    assert 'name="type"' in html


@pytest.mark.parametrize(("game", "ruled"), [("gate-ruler", True), ("rulers-gambit", False), ("gaterunners", False)])
def test_what_is_about_rulers_shows_where_the_games_identity_is_a_ruler(client, rules, game_catalog, game, ruled):
    html = client.get(NEW, {"game": game}).content.decode()

    for control in ('id="pick-ruler"', 'id="pick-geas"', 'id="pick-date"', 'name="faction"', 'id="deck-charts"'):
        assert (control in html) is ruled, control
    assert ('data-testid="rules-panel"' in html) is not ruled


def test_the_playset_button_fills_up_to_the_games_copy_limit(client, rules, game_catalog):
    client.get(NEW, {"game": "rulers-gambit"})

    html = client.get("/decks/new/cards/", {"q": "Ember"}, headers=HX).content.decode()
    kingdoms = client.get("/decks/new/cards/", {"q": "t:kingdom-ruler"}, headers=HX).content.decode()

    assert 'value="set_count main RGT-011 2" id="fill-RGT-011" data-fill' in html
    assert "data-fill" not in kingdoms  # one Kingdom-Ruler: no playset
    post(client, "set_count main RGT-011 2")
    assert client.session["deck_draft"]["main"] == {"RGT-011": 2}


def test_only_cards_this_deck_can_use_follows_the_deck(client, rules, game_catalog):
    with_draft(client, gambit_draft(main={}))

    html = client.get("/decks/new/cards/", {"usable": "1"}, headers=HX).content.decode()

    # The Fire Kingdom allows red only: the blue Wave Sprite is left out, the red Imps are in.
    assert 'id="result-RGT-040"' not in html
    assert 'id="result-RGT-011"' in html


def test_each_deck_line_peeks_at_its_card_face_in_its_games_fields(client, rules, game_catalog):
    with_draft(client, gambit_draft())

    html = client.get(NEW).content.decode()

    start = html.index('id="kingdom-RGT-001-row"')
    line = html[start : html.index("</li>", start)]
    assert 'tabindex="0"' in line
    assert 'aria-describedby="kingdom-RGT-001-peek"' in line
    assert '<div class="card-peek" id="kingdom-RGT-001-peek" role="tooltip">' in line
    assert 'data-game="rulers-gambit" data-colour="red"' in line


def test_the_page_has_the_considering_board_and_its_keys(client, rules, game_catalog):
    with_draft(client, gambit_draft(considering={"RGT-040": 2}))

    html = client.get(NEW).content.decode()

    board = region(html, 'id="considering"')
    assert 'data-number="RGT-040" data-section="considering" data-count="2"' in board
    assert 'value="to_deck main RGT-040"' in board
    assert 'value="remove considering RGT-040"' in board
    assert 'value="to_considering main RGT-011"' in html  # "Consider" on a deck line
    assert 'value="add considering RGT-040" id="consider-RGT-040"' in html  # "Consider" in the browser
    assert re.search(r'class="result" tabindex="0" [^>]*data-add-to="main"', html)


def test_considering_a_card_answers_the_deck_and_the_board_out_of_band(client, rules, game_catalog):
    with_draft(client, gambit_draft())

    response = post(client, "add considering RGT-040", shown="RGT-040")

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert html.lstrip().startswith('<section id="deck-list"')
    assert 'id="considering" class="considering" aria-labelledby="considering-heading" hx-swap-oob="true"' in html
    assert 'data-testid="verdict">Legal<' in html
    assert client.session["deck_draft"]["considering"] == {"RGT-040": 1}


def test_a_deck_line_goes_to_the_board_and_back_into_its_section(client, rules, game_catalog):
    with_draft(client, runners_draft())

    out = post(client, "to_considering gates GRT-013").content.decode()
    assert 'data-testid="count-gates">2<' in out
    assert 'data-rule="gates"' in out
    assert 'value="to_deck gates GRT-013"' in region(out, 'id="considering"')

    back = post(client, "to_deck gates GRT-013").content.decode()
    assert 'data-testid="count-gates">3<' in back
    assert 'data-testid="verdict">Legal<' in back
    assert client.session["deck_draft"]["considering"] == {}


def test_a_number_key_sets_a_lines_count_in_one_change(client, rules, game_catalog):
    with_draft(client, gambit_draft())

    html = post(client, "set_count main RGT-011 1").content.decode()

    assert 'data-number="RGT-011" data-section="main" data-count="1"' in html
    assert client.session["deck_draft"]["main"]["RGT-011"] == 1


def test_a_move_the_board_cannot_make_is_refused_in_words(client, rules, game_catalog):
    with_draft(client, gambit_draft())

    response = post(client, "to_deck main RGT-040")
    bad_op = post(client, "set_count main RGT-011")

    assert response.status_code == 422
    assert "There is no RGT-040 in the considering board to take out." in response.content.decode()
    assert bad_op.status_code == 422
    assert "is not a number of copies (0 to 99)." in bad_op.content.decode()


def test_a_plain_form_post_considers_and_is_redirected_back(client, rules, game_catalog):
    with_draft(client, gambit_draft())

    response = client.post(CHANGE, {"op": "add considering RGT-040", "browse": "q=wave"})

    assert response.status_code == 302
    assert response["Location"] == "/decks/new/?game=rulers-gambit&q=wave"
    assert client.session["deck_draft"]["considering"] == {"RGT-040": 1}


def test_a_saved_decks_board_is_saved_at_once_and_its_page_has_visibility_and_name(client, game_catalog, user):
    deck = game_deck(user, gambit_draft(), visibility="private")
    client.force_login(user)
    url = f"/decks/{deck.public_id}/change/"

    response = post(client, "add considering RGT-002", url=url, base_version=deck.version)

    deck = Deck.objects.get(pk=deck.pk)
    assert response.status_code == 200
    assert deck_draft_of(deck=deck).considering == {"RGT-002": 1}
    assert deck.legal is True  # a second Kingdom on the board is not judged
    page = client.get(f"/decks/{deck.public_id}/edit/").content.decode()
    assert 'id="considering-RGT-002-row"' in page
    assert 'name="visibility"' in page
    assert 'id="deck-name"' in page
    export = client.get(f"/d/{deck.public_id}/export.txt").content.decode()
    assert "Fire Kingdom" in export
    assert "Tide Kingdom" not in export


@pytest.mark.parametrize(
    ("game", "steps"), [("rulers-gambit", ["kingdom"]), ("gaterunners", ["hero", "gates"]), ("gate-ruler", [])]
)
def test_a_new_deck_first_asks_for_its_identity_from_the_games_data(client, rules, game_catalog, game, steps):
    html = client.get(NEW, {"game": game}).content.decode()

    assert re.findall(r'data-testid="first-step-([a-z]+)"', html) == steps


def test_the_first_step_offers_the_sections_cards_and_is_done_once_they_are_picked(client, rules, game_catalog):
    client.get(NEW, {"game": "gaterunners"})

    page = client.get(NEW).content.decode()
    hero = region(page.replace("</fieldset>", "</section>"), 'data-testid="first-step-hero"')
    picked = post(client, "add hero GRT-001").content.decode()

    assert 'value="add hero GRT-001"' in hero
    assert 'value="add gates GRT-011"' not in hero
    assert '<div id="first-step" class="first-step" hx-swap-oob="true">' in picked
    assert 'data-testid="first-step-hero"' not in picked
    assert 'data-testid="first-step-gates"' in picked
