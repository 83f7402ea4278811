"""The editor of Ruler's Gambit and GateRunners decks on a phone and its hints, as Gate Ruler's: the pane tabs with the
main deck's count, redrawn out of band by every change, and the hints' digests, by which a change's answer sends
only the hints that changed."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string

from tests.decks.editor.views.drafts import with_draft
from tests.decks.factories import gambit_draft, game_deck, runners_draft

pytestmark = pytest.mark.django_db

NEW = "/decks/new/"
CHANGE = "/decks/new/game/change/"
HX = {"HX-Request": "true"}


def tabs(html: str) -> str:
    match = re.search(r'<nav id="editor-tabs".*?</nav>', html, re.S)
    assert match, "no pane tabs"
    return match.group(0)


def digests(html: str) -> dict[str, str]:
    """Each hint's ref and digest, as editor.js reads them from the page."""
    return dict(re.findall(r'<div class="hint" id="why-([^"]+)" data-digest="([0-9a-f]+)"', html))


def test_the_game_editors_tabs_link_to_its_three_panes(client, rules, game_catalog):
    html = client.get(NEW, {"game": "rulers-gambit"}).content.decode()

    nav = tabs(html)
    for href, pane in (("#deck-pane", "deck"), ("#card-browser", "cards"), ("#rules-panel", "rules")):
        assert f'href="{href}" data-pane-tab="{pane}"' in nav
        assert re.search(rf'id="{href[1:]}"[^>]*data-pane="{pane}"', html), pane
    # The main deck against its size rule (39 exactly), the game's name under Rules.
    assert re.search(r'data-testid="tab-count">0/39<', nav)
    assert "Ruler&#x27;s Gambit</span>" in nav or "Ruler's Gambit</span>" in nav
    # An empty deck opens on the card browser.
    assert re.search(r'id="editor"[^>]*data-default-pane="cards"', html)


def test_a_deck_with_cards_opens_on_the_deck_and_a_least_size_reads_so(client, rules, game_catalog):
    with_draft(client, runners_draft())

    html = client.get(NEW).content.decode()

    nav = tabs(html)
    # GateRunners asks for 40 cards or more: 40 of at least 40, legal (met, not a fraction).
    assert re.search(r'data-testid="tab-count">40 · at least 40<', nav)
    assert re.search(r'class="tab-ok">✓<span class="visually-hidden"> legal<', nav)
    assert re.search(r'id="editor"[^>]*data-default-pane="deck"', html)


def test_a_change_redraws_the_tabs_out_of_band_in_its_one_answer(client, rules, game_catalog):
    with_draft(client, gambit_draft())

    html = client.post(CHANGE, {"op": "remove main RGT-030"}, headers=HX).content.decode()

    assert html.count('<nav id="editor-tabs"') == 1
    nav = tabs(html)
    assert 'hx-swap-oob="true"' in nav
    assert re.search(r'data-testid="tab-count">38/39<', nav)
    assert re.search(r'class="tab-bad">✗ 1<span class="visually-hidden"> problem<', nav)


def test_a_saved_decks_change_redraws_its_tabs_too(client, game_catalog, user):
    deck = game_deck(user, runners_draft())
    client.force_login(user)

    response = client.post(
        f"/decks/{deck.public_id}/game/change/", {"op": "add main GRT-101", "base_version": deck.version}, headers=HX
    )

    assert response.status_code == 200
    # 41 meets "at least 40": never "41/40", which reads as one over.
    assert re.search(r'data-testid="tab-count">41 · at least 40<', tabs(response.content.decode()))


def test_the_tab_shows_only_the_count_when_the_games_data_sets_no_size():
    nav = render_to_string(
        "decks/editor/_editor_tabs.html#editor-tabs",
        {"count": 12, "size": None, "legal": True, "problems": 0, "ruler": "Some game"},
    )

    assert re.search(r'data-testid="tab-count">12<', nav)


def test_the_hints_carry_their_digest(client, rules, game_catalog):
    with_draft(client, gambit_draft(main={}))

    html = client.get(NEW, {"q": "imp"}).content.decode()

    shown = digests(html)
    assert shown, "no hint with a digest"
    assert all(re.fullmatch(r"[0-9a-f]{16}", digest) for digest in shown.values())


def test_a_change_sends_only_the_hints_whose_digest_changed(client, rules, game_catalog):
    with_draft(client, gambit_draft(main={}))
    # Without the page's digests (a page that did not say): every hint shown is redrawn.
    first = client.post(CHANGE, {"op": "add main RGT-011", "shown": "RGT-011 RGT-040"}, headers=HX).content.decode()
    before = digests(first)
    assert set(before) == {"RGT-011", "RGT-040"}
    hinted = " ".join(f"{ref}:{digest}" for ref, digest in before.items())

    second = client.post(
        CHANGE, {"op": "add main RGT-011", "shown": "RGT-011 RGT-040", "hinted": hinted}, headers=HX
    ).content.decode()

    # The Imp added has one more copy in the deck: its hint changed; the blue Sprite's (not allowed) did not.
    after = digests(second)
    assert set(after) == {"RGT-011"}
    assert after["RGT-011"] != before["RGT-011"]
    hint = second[second.index('id="why-RGT-011"') :]
    hint = hint[: hint.index("</div>")]
    assert hint.startswith(f'id="why-RGT-011" data-digest="{after["RGT-011"]}" data-addable="false" hx-swap-oob="true"')
    # Two copies: the copy limit, which its hint now says (it said 1 in deck, addable).
    assert "2 in deck" in hint
    assert 'id="why-RGT-011" data-digest="' + before["RGT-011"] + '" data-addable="true"' in first
