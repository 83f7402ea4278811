"""The editor's layout pieces: phone tabs that follow the deck, flagged lines in words."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db

CHANGE = "/decks/new/change/"
HX = {"HX-Request": "true"}


def tabs(html: str) -> str:
    match = re.search(r'<nav id="editor-tabs".*?</nav>', html, re.S)
    assert match, "no pane tabs"
    return match.group(0)


def test_the_tabs_link_to_the_three_panes(client, deck_catalog):
    html = client.get("/decks/new/").content.decode()

    nav = tabs(html)
    for href, pane in (("#deck-pane", "deck"), ("#card-browser", "cards"), ("#rules-panel", "rules")):
        assert f'href="{href}" data-pane-tab="{pane}"' in nav
        assert re.search(rf'id="{href[1:]}"[^>]*data-pane="{pane}"', html)
    assert re.search(r'data-testid="tab-count">0/50<', nav)
    # An empty deck opens on the card browser; a deck with cards on the deck.
    assert 'data-default-pane="cards"' in html


def test_a_change_redraws_the_tabs_out_of_band(client, deck_catalog):
    html = client.post(CHANGE, {"op": "add main TS-001"}, headers=HX).content.decode()

    nav = tabs(html)
    assert 'hx-swap-oob="true"' in nav
    assert re.search(r'data-testid="tab-count">1/50<', nav)
    assert re.search(r'class="tab-bad">✗ 1<span class="visually-hidden"> problem<', nav)  # 1 card of 50: the deck size
    assert 'data-default-pane="deck"' in client.get("/decks/new/").content.decode()


def test_a_flagged_line_says_what_is_wrong_in_words(client, deck_catalog):
    for _ in range(5):
        html = client.post(CHANGE, {"op": "add main TS-001"}, headers=HX).content.decode()

    deck_list = html[html.index('id="deck-list"') :]
    deck_list = deck_list[: deck_list.index("</section>")]
    problem = re.search(r'<span class="line-problem">(.*?)</span>\n', deck_list)
    assert problem
    assert '<span data-rule="max_copies">Too many copies</span>' in problem.group(1)
    assert 'data-rules="max_copies"' in deck_list
