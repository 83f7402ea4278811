"""Fewer clicks, no dead ends (issue 13): playsets and number keys, the usable-only filter, list or grid,
asking before a draft is thrown away, the geas a new ruler drops, the conflict toast, clear wording."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from decks.editor.state import names_by_language
from decks.models import DeckDraft
from decks.services import deck_create_from_draft
from decks.session_drafts import SESSION_DRAFT
from tests.decks.factories import legal_apprentice_main

pytestmark = pytest.mark.django_db

NEW = "/decks/new/"
CHANGE = "/decks/new/change/"
CARDS = "/decks/new/cards/"
RESET = "/decks/new/reset/"
HX = {"HX-Request": "true"}


def use_draft(client, draft: DeckDraft) -> None:
    session = client.session
    session[SESSION_DRAFT] = draft.to_session()
    session.save()


def line_count(html: str, number: str) -> int:
    match = re.search(rf'data-number="{re.escape(number)}" data-section="main" data-count="(\d+)"', html)
    assert match, f"no deck line for {number}"
    return int(match.group(1))


# ---------------------------------------------------------------- quantity in one action


def test_a_playset_button_sets_the_count_to_the_copy_limit_in_one_change(client, deck_catalog):
    page = client.get(NEW).content.decode()
    assert 'value="set_count main TS-001 4" id="fill-TS-001"' in page
    # A legendary card allows one copy: no playset button for it.
    assert 'id="fill-TS-200"' not in page

    html = client.post(CHANGE, {"op": "set_count main TS-001 4"}, headers=HX).content.decode()

    assert line_count(html, "TS-001") == 4
    assert '<span data-testid="tab-count">4/50</span>' in html


def test_a_number_sets_a_lines_count_up_or_down_and_zero_takes_it_out(client, deck_catalog):
    client.post(CHANGE, {"op": "set_count main TS-002 3"}, headers=HX)
    html = client.post(CHANGE, {"op": "set_count main TS-002 1"}, headers=HX).content.decode()
    assert line_count(html, "TS-002") == 1

    html = client.post(CHANGE, {"op": "set_count main TS-002 0"}, headers=HX).content.decode()
    assert 'data-number="TS-002" data-section="main"' not in html


@pytest.mark.parametrize("count", ["x", "-1", "1000"])
def test_a_count_that_is_not_a_number_of_copies_is_refused_naming_it(client, deck_catalog, count):
    response = client.post(CHANGE, {"op": f"set_count main TS-002 {count}"}, headers=HX)

    assert response.status_code == 422
    assert f"&#x27;{count}&#x27; is not a number of copies" in response.content.decode()


def test_the_search_keys_hint_names_the_number_keys(client, deck_catalog):
    assert "<kbd>1</kbd>–<kbd>9</kbd> set its count" in client.get(NEW).content.decode()


# ---------------------------------------------------------------- only cards this deck can use


def test_only_usable_cards_leaves_out_what_the_hints_refuse_and_is_off_by_default(client, deck_catalog):
    use_draft(client, DeckDraft(ruler="apprentice", main={"TS-001": 4}))

    everything = client.get(CARDS, {"q": "squire"}, headers=HX).content.decode()
    usable = client.get(CARDS, {"q": "squire", "usable": "1"}, headers=HX).content.decode()

    assert 'id="result-TS-001"' in everything  # the 5th copy is refused, and said why
    assert 'id="result-TS-001"' not in usable
    assert 'id="result-TS-002"' in usable
    assert 'name="usable" value="1" checked' not in client.get(NEW).content.decode()


def test_the_usable_choice_and_the_grid_are_remembered_in_the_browse_query(client, deck_catalog):
    page = client.get(NEW, {"q": "squire", "usable": "1", "view": "grid"}).content.decode()

    assert 'name="usable" value="1" checked' in page
    assert 'value="grid" checked' in page
    assert 'class="card-results grid" data-view="grid"' in page
    assert 'name="browse" value="q=squire&amp;usable=1&amp;view=grid"' in page


def test_the_address_bar_follows_the_search_so_a_reload_keeps_it(client, deck_catalog):
    response = client.get(CARDS, {"q": "squire", "usable": "1", "view": "grid"}, headers=HX)

    assert response["HX-Replace-Url"] == "/decks/new/?q=squire&usable=1&view=grid"
    assert client.get(CARDS, headers=HX)["HX-Replace-Url"] == NEW


def test_usable_only_pages_on_from_the_last_card_it_looked_at(client, deck_catalog):
    from decks.editor.browser import deck_card_browser
    from decks.editor.state import deck_editor_state

    state = deck_editor_state(draft=DeckDraft(ruler="apprentice", main={"TS-001": 4, "TS-010": 4}))
    first = deck_card_browser(state=state, query="squire", limit=3, usable=True)

    # Ember Squire 1, 10, 11, 12, 13, 2, … in name order: 1 and 10 were looked at and left out.
    assert [row.number for row in first.rows] == ["TS-011", "TS-012", "TS-013"]
    assert (first.step, first.next_offset, first.total_label) == (5, 5, "3+")
    after = deck_card_browser(state=state, query="squire", limit=3, offset=first.next_offset, usable=True)
    assert [row.number for row in after.rows] == ["TS-002", "TS-003", "TS-004"]


def test_with_only_usable_cards_on_a_change_redraws_the_results_it_changed(client, deck_catalog):
    # Issue 23: the list follows the deck (the 4th copy's card leaves it); without the filter, only hints.
    use_draft(client, DeckDraft(ruler="apprentice", main={"TS-001": 3}))
    shown = {"q": "squire", "shown": "TS-001 TS-002"}

    usable = client.post(CHANGE, {"op": "add main TS-001", "usable": "1", **shown}, headers=HX).content.decode()
    # The results' tag is written on two lines in the template: any whitespace between its attributes.
    assert re.search(
        r'id="card-results" class="card-results" data-view="list"\s+data-q="squire" data-usable hx-swap-oob="true"',
        usable,
    )
    assert 'id="result-TS-001"' not in usable
    assert 'id="result-TS-002"' in usable

    client.post(CHANGE, {"op": "remove main TS-001"}, headers=HX)
    plain = client.post(CHANGE, {"op": "add main TS-001", **shown}, headers=HX).content.decode()
    assert 'id="card-results"' not in plain
    assert 'id="why-TS-001"' in plain


def test_an_empty_usable_page_on_a_full_deck_says_why_with_no_next_link(client, deck_catalog):
    use_draft(client, DeckDraft(ruler="apprentice", main=legal_apprentice_main()))

    html = client.get(CARDS, {"usable": "1"}, headers=HX).content.decode()

    assert 'data-testid="empty-results"' in html
    assert "No card can be added to this deck:" in html
    assert "<li>deck is full (50/50)</li>" in html
    assert re.search(r'data-testid="result-count">0 cards</p>', html)
    assert "Next 30" not in html
    japanese = client.get(CARDS, {"usable": "1"}, headers={**HX, "Accept-Language": "ja"}).content.decode()
    assert "このデッキに追加できるカードはありません" in japanese


def test_the_grid_draws_compact_card_faces(client, deck_catalog):
    html = client.get(CARDS, {"q": "sky lancer", "view": "grid"}, headers=HX).content.decode()

    assert 'class="card-results grid"' in html
    faces = re.findall(
        r'<div class="result-face" aria-hidden="true">\s*(<article class="card-face".*?</article>)', html, re.S
    )
    assert len(faces) == 1, "the grid draws the one card face partial (templates/cards/_card_face.html)"
    face = re.sub(r"\s+", " ", faces[0])
    assert 'data-faction="atlas"' in face
    assert "ATLAS · Machine" in face
    assert '<span class="visually-hidden">Level </span>2</span>' in face
    assert "<dt>ATK</dt>" in face


def test_the_grid_faces_cost_no_query_per_card(client, deck_catalog):
    # The faces read each row's facts (faction, attributes), not card.faction / card.attributes.
    client.get(CARDS, {"q": "squire"}, headers=HX)  # the first request fills the caches of rulers and rules
    counts = {}
    for view in ("list", "grid"):
        with CaptureQueriesContext(connection) as queries:
            html = client.get(CARDS, {"q": "squire", "view": view}, headers=HX).content.decode()
        counts[view] = len(queries)
        rows = html.count('class="result"')
        assert rows > 1
        assert html.count('data-testid="card-face"') == (rows if view == "grid" else 0)
    assert counts["grid"] == counts["list"]


def test_a_deck_line_shows_its_card_face_and_text_on_hover_or_focus(client, deck_catalog):
    use_draft(client, DeckDraft(ruler="apprentice", name="Squires", main={"TS-100": 2}))
    html = re.sub(r"\s+", " ", client.get(NEW).content.decode())

    line = re.search(r'<li id="main-TS-100-row" class="line"[^>]*>', html)
    assert line
    assert 'tabindex="0"' in line.group(0)
    assert 'aria-describedby="main-TS-100-peek"' in line.group(0)
    peek = re.search(r'<div class="card-peek" id="main-TS-100-peek" role="tooltip">(.*?)</li>', html)
    assert peek
    assert 'data-faction="atlas"' in peek.group(1)
    assert "ATLAS · Machine" in peek.group(1)
    assert "card-face-stats" not in peek.group(1)  # a deck line's facts have no ATK/HP/STK


# ---------------------------------------------------------------- nothing lost without asking


def test_start_over_asks_first_when_the_draft_has_cards(client, deck_catalog):
    use_draft(client, DeckDraft(ruler="apprentice", name="Squires", main={"TS-001": 3}))

    response = client.post(RESET)

    html = response.content.decode()
    assert response.status_code == 200
    assert "Your draft “Squires” holds 3 cards and is not saved" in html
    assert 'name="confirmed" value="1"' in html
    assert 'data-number="TS-001"' in client.get(NEW).content.decode()  # kept

    assert client.post(RESET, {"confirmed": "1"})["Location"] == NEW
    assert 'data-section="main"' not in client.get(NEW).content.decode()


def test_start_over_on_an_empty_draft_asks_nothing(client, deck_catalog):
    response = client.post(RESET)

    assert response.status_code == 302
    assert response["Location"] == NEW


def test_switching_ruler_says_the_geas_was_dropped_and_why(client, deck_catalog):
    client.post(CHANGE, {"action": "set_geas", "value": "oath-of-the-lone-banner"}, headers=HX)

    html = client.post(CHANGE, {"action": "set_ruler", "value": "knight"}, headers=HX).content.decode()

    notice = re.search(r'data-testid="notice">([^<]+)<', html)
    assert notice, "no notice in the change's answer"
    assert "Oath of the Lone Banner was dropped" in notice.group(1)
    assert "the one ruler it targets, Apprentice" in notice.group(1)
    # A second switch has no geas to drop: nothing to say.
    assert (
        'data-testid="notice"'
        not in client.post(CHANGE, {"action": "set_ruler", "value": "apprentice"}, headers=HX).content.decode()
    )


def test_a_saved_decks_ruler_switch_says_so_too(client, user, deck_catalog):
    deck = deck_create_from_draft(
        owner=user, draft=DeckDraft(ruler="apprentice", geas="oath-of-the-lone-banner", main={"TS-001": 1}), name="D"
    )
    client.force_login(user)

    url = reverse("decks:change", args=[deck.public_id])
    html = client.post(url, {"action": "set_ruler", "value": "knight", "base_version": 1}, headers=HX).content.decode()

    assert "Oath of the Lone Banner was dropped" in html


def test_a_save_conflict_is_a_toast_with_the_one_action_that_resolves_it(client, user, deck_catalog):
    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main={"TS-001": 1}), name="D")
    client.force_login(user)
    url = reverse("decks:change", args=[deck.public_id])
    client.post(url, {"op": "add main TS-002", "base_version": 1}, headers=HX)

    html = client.post(url, {"op": "add main TS-003", "base_version": 1}, headers=HX).content.decode()

    toast = html[html.index('class="conflict toast"') :]
    assert 'role="alert"' in toast[:80]
    assert (
        f'href="{reverse("decks:edit", args=[deck.public_id])}" data-testid="reload-deck">Reload the deck as saved<'
        in toast
    )


# ---------------------------------------------------------------- wording


def test_the_attribute_proposal_says_what_would_have_to_go(client, deck_catalog):
    client.post(CHANGE, {"action": "set_ruler", "value": "centurion"}, headers=HX)
    client.post(CHANGE, {"op": "add main TS-001"}, headers=HX)
    html = client.post(CHANGE, {"op": "add main TS-100"}, headers=HX).content.decode()

    reason = re.search(r'data-testid="proposal-reason">([^<]+)<', html)
    assert reason
    assert (
        reason.group(1) == "1 unit copy lacks it and would have to go (Sky Lancer): fewer than for any other attribute."
    )


def test_the_draw_odds_say_once_that_going_first_or_second_is_the_same(client, deck_catalog):
    use_draft(client, DeckDraft(ruler="apprentice", main=legal_apprentice_main()))

    html = client.get("/decks/new/odds/", {"group": "card:Ember Squire 1"}, headers=HX).content.decode()

    assert html.count("The same going first or second") == 1
    assert "Going second" not in html
    row = re.search(r'<tr data-turn="1">(.*?)</tr>', html, re.S)
    assert row
    assert row.group(1).count("data-exact") == 1


def test_attribute_lists_are_one_language_per_group_the_players_first():
    names = ["Dragon", "宇宙遺産", "Knight", "テクノロジー"]

    with translation.override("en"):
        english = names_by_language(names)
    with translation.override("ja"):
        japanese = names_by_language(names)

    assert [(g.lang, g.names) for g in english] == [("en", ["Dragon", "Knight"]), ("ja", ["宇宙遺産", "テクノロジー"])]
    assert [g.lang for g in japanese] == ["ja", "en"]
    assert names_by_language(["Dragon"])[0].label == ""  # one language: no group label


def test_the_attribute_filter_groups_a_mixed_catalog_by_language(client, deck_catalog):
    from tests.cards.factories import AttributeFactory

    AttributeFactory(name="宇宙遺産")

    html = client.get(NEW).content.decode()

    select = html[html.index('<select name="attribute">') :]
    select = select[: select.index("</select>")]
    # re.S: the template writes each group's options on a line of their own.
    assert re.search(
        r'<optgroup label="English names" lang="en">.*Dragon.*</optgroup><optgroup label="Japanese names" lang="ja">.*宇宙遺産',
        select,
        re.S,
    )


def test_save_a_copy_over_an_unsaved_draft_offers_to_bring_it_back(client, deck_catalog):
    from decks.decklists.selectors import deck_draft_link

    use_draft(client, DeckDraft(ruler="apprentice", name="Mine", main={"TS-002": 3}))
    shared = DeckDraft(ruler="apprentice", name="Shared", main=legal_apprentice_main())
    client.post(reverse("decks:link-copy", args=[deck_draft_link(draft=shared)]))

    html = client.get(NEW).content.decode()
    assert "This replaced your unsaved draft “Mine” (3 cards)." in html
    assert 'action="/decks/new/bring-back/"' in html

    assert client.post("/decks/new/bring-back/")["Location"] == NEW
    html = client.get(NEW).content.decode()
    assert line_count(html, "TS-002") == 3
    assert "Your previous draft is back." in html
    assert 'data-testid="replaced-draft"' not in html  # nothing more to bring back


def test_the_undo_ends_with_the_first_change_and_an_empty_draft_needs_none(client, deck_catalog):
    from decks.decklists.selectors import deck_draft_link

    code = deck_draft_link(draft=DeckDraft(ruler="apprentice", name="Shared", main={"TS-001": 1}))
    client.post(reverse("decks:link-copy", args=[code]))
    assert 'data-testid="replaced-draft"' not in client.get(NEW).content.decode()  # the draft was empty

    use_draft(client, DeckDraft(ruler="apprentice", main={"TS-002": 1}))
    client.post(reverse("decks:link-copy", args=[code]))
    client.post(CHANGE, {"op": "add main TS-001"}, headers=HX)

    assert 'data-testid="replaced-draft"' not in client.get(NEW).content.decode()
    client.post("/decks/new/bring-back/")
    assert 'data-number="TS-002" data-section="main"' not in client.get(NEW).content.decode()


def test_the_draw_odds_keep_two_columns_when_a_turn_differs_and_merge_the_turns_that_do_not(
    client, deck_catalog, monkeypatch
):
    # No rules in the catalog make going first differ today: a turn 1 that differs is made up here.
    from dataclasses import replace as changed
    from fractions import Fraction

    from decks.odds import panel

    real_rows = panel._rows

    def rows_with_a_different_first_turn(odds):
        rows = real_rows(odds)
        return [changed(rows[0], second=panel.Chance.of(Fraction(1, 2))), *rows[1:]]

    monkeypatch.setattr(panel, "_rows", rows_with_a_different_first_turn)
    use_draft(client, DeckDraft(ruler="apprentice", main=legal_apprentice_main()))

    html = client.get("/decks/new/odds/", {"group": "card:Ember Squire 1"}, headers=HX).content.decode()

    assert "Going first" in html
    assert "Going second" in html
    assert "The same going first or second" not in html
    first = re.search(r'<tr data-turn="1">(.*?)</tr>', html, re.S)
    second = re.search(r'<tr data-turn="2">(.*?)</tr>', html, re.S)
    assert first
    assert second
    assert first.group(1).count("data-exact") == 2
    assert 'colspan="2"' in second.group(1)
