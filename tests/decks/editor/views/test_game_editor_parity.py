"""The game editor level with Gate Ruler's: the card peek on deck lines, the considering board and the keys
(static/decks/editor.js drives both editors through the one #change-form, the same shortcuts help)."""

from __future__ import annotations

import re

import pytest

from decks.models import Deck
from decks.saved_drafts import deck_draft_of
from tests.decks.editor.views.drafts import with_draft
from tests.decks.factories import gambit_draft, game_deck, runners_draft

pytestmark = pytest.mark.django_db

NEW = "/decks/new/"
CHANGE = "/decks/new/game/change/"
HX = {"HX-Request": "true"}


def post(client, op, url=CHANGE, **extra):
    return client.post(url, {"op": op, **extra}, headers=HX)


def region(html: str, start: str) -> str:
    """From `start` to the end of the <section> it opens."""
    part = html[html.index(start) :]
    return part[: part.index("</section>")]


def test_each_deck_line_peeks_at_its_card_face_in_its_games_fields(client, rules, game_catalog):
    with_draft(client, gambit_draft())

    html = client.get(NEW).content.decode()

    line = html[html.index('id="kingdom-rgt-001-row"') : html.index("</li>", html.index('id="kingdom-rgt-001-row"'))]
    assert 'tabindex="0"' in line
    assert 'aria-describedby="kingdom-rgt-001-peek"' in line
    assert '<div class="card-peek" id="kingdom-rgt-001-peek" role="tooltip">' in line
    assert 'data-game="rulers-gambit" data-colour="red"' in line
    assert "<div><dt>LP</dt><dd>20</dd></div>" in re.sub(r">\s+<", "><", line)


def test_the_game_deck_page_peeks_at_each_card_too(client, game_catalog, user):
    deck = game_deck(user, runners_draft(considering={"GRT-014": 1}))

    html = client.get(f"/d/{deck.public_id}/").content.decode()

    assert 'aria-describedby="peek-hero-grt-001"' in html
    assert '<div class="card-peek" id="peek-hero-grt-001" role="tooltip">' in html
    assert "<div><dt>Power</dt><dd>2</dd></div>" in re.sub(r">\s+<", "><", html)
    assert "West Gate" not in html  # the owner's considering board is not part of the deck shown


def test_the_page_has_the_considering_board_the_keys_and_their_help(client, rules, game_catalog):
    with_draft(client, gambit_draft(considering={"RGT-040": 2}))

    html = client.get(NEW).content.decode()

    board = region(html, 'id="considering"')
    assert 'data-number="RGT-040" data-section="considering" data-count="2"' in board
    assert "goes in Main deck" in board
    assert 'value="to_deck main RGT-040" id="considering-rgt-040-into" data-key="+"' in board
    assert 'value="remove considering RGT-040" id="considering-rgt-040-drop" data-key="-"' in board
    assert 'value="to_considering main RGT-011"' in html  # "Consider" on a deck line
    assert 'value="add considering RGT-040" id="consider-RGT-040"' in html  # "Consider" in the browser
    assert '<form id="change-form"' in html
    assert "/static/decks/editor.js" in html
    assert 'aria-describedby="search-fields search-keys"' in html
    assert "<kbd>/</kbd> focuses the search" in html
    assert re.search(r'class="result" tabindex="0" data-row [^>]*data-add-to="main"', html)
    assert 'data-key="+" data-add' in html


def test_considering_a_card_answers_the_deck_and_the_board_out_of_band_and_judges_nothing(client, rules, game_catalog):
    with_draft(client, gambit_draft())

    response = post(client, "add considering RGT-040", shown="RGT-040")

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert html.lstrip().startswith('<section id="game-deck"')
    assert 'id="considering" class="considering" aria-labelledby="considering-heading" hx-swap-oob="true"' in html
    assert 'id="considering-rgt-040-row"' in region(html, 'id="considering"')
    assert 'data-testid="editor-verdict">Legal<' in html
    assert '<span class="in-deck">' not in html[html.index('id="why-RGT-040"') :]
    assert client.session["deck_draft"]["considering"] == {"RGT-040": 1}


def test_a_deck_line_goes_to_the_board_and_back_into_its_section(client, rules, game_catalog):
    with_draft(client, runners_draft())

    out = post(client, "to_considering gates GRT-013").content.decode()
    assert 'data-testid="count-gates">2<' in out
    assert 'data-rule="gates"' in out
    assert 'value="to_deck gates GRT-013"' in region(out, 'id="considering"')

    back = post(client, "to_deck gates GRT-013").content.decode()
    assert 'data-testid="count-gates">3<' in back
    assert 'data-testid="editor-verdict">Legal<' in back
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


def test_a_saved_decks_board_is_saved_at_once_and_kept_out_of_its_export(client, game_catalog, user):
    deck = game_deck(user, gambit_draft(), visibility="private")
    client.force_login(user)
    url = f"/decks/{deck.public_id}/game/change/"

    response = post(client, "add considering RGT-002", url=url, base_version=deck.version)

    deck = Deck.objects.get(pk=deck.pk)
    assert response.status_code == 200
    assert deck_draft_of(deck=deck).considering == {"RGT-002": 1}
    assert deck.legal is True  # a second Kingdom on the board is not judged
    page = client.get(f"/decks/{deck.public_id}/edit/").content.decode()
    assert 'id="considering-rgt-002-row"' in page
    export = client.get(f"/d/{deck.public_id}/export.txt").content.decode()
    assert "Fire Kingdom" in export
    assert "Tide Kingdom" not in export
