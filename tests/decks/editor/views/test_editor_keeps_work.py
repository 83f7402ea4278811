"""The editor keeps a player's work (issue 23), the server's side: a refused rules choice comes back with the
pickers as the rules in force are, a half-typed year is refused, editor pages are never cached, and a stale
change is offered again on the deck as it now is, in the player's language. (In a browser:
tests/browser/test_editor_keeps_work.py.)"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from decks.models import DeckDraft
from decks.services import deck_create_from_draft
from decks.session_drafts import SESSION_DRAFT
from tests.decks.factories import gambit_draft

pytestmark = pytest.mark.django_db

CHANGE = "/decks/new/change/"
HX = {"HX-Request": "true"}
LONE_BANNER = "oath-of-the-lone-banner"


def _date_field(html: str) -> str:
    match = re.search(r'<input type="date" id="pick-date"[^>]*>', html)
    assert match, "no Rules date field in the answer"
    return match.group(0)


def _with_geas(client) -> None:
    session = client.session
    session[SESSION_DRAFT] = DeckDraft(ruler="apprentice", geas=LONE_BANNER).to_session()
    session.save()


def test_a_refused_date_redraws_the_date_field_with_the_date_in_force(client, deck_catalog):
    _with_geas(client)

    response = client.post(CHANGE, {"action": "set_rules_date", "value": "2021-06-01"}, headers=HX)

    assert response.status_code == 422
    html = response.content.decode()
    assert "is not in force on 2021-06-01" in html
    assert 'id="rules-panel"' in html
    assert 'hx-swap-oob="true"' in html[html.index('id="rules-panel"') - 200 :][:400]
    assert 'value=""' in _date_field(html)  # the date in force: none, today's rules
    assert f'value="{LONE_BANNER}" selected' in html  # the geas is kept
    assert DeckDraft.from_session(client.session[SESSION_DRAFT]).rules_date is None
    # Only a rules choice has a field to put back: a card's refusal costs no judgement and draws no pickers.
    card = client.post(CHANGE, {"op": "remove main TS-001"}, headers=HX)
    assert card.status_code == 422
    assert 'id="rules-panel"' not in card.content.decode()


def test_a_refused_date_of_a_saved_deck_redraws_its_pickers_as_saved(client, user, deck_catalog):
    draft = DeckDraft(ruler="apprentice", geas=LONE_BANNER, rules_date=None)
    deck = deck_create_from_draft(owner=user, draft=draft, name="Banner")
    client.force_login(user)

    response = client.post(
        reverse("decks:change", args=[deck.public_id]),
        {"action": "set_rules_date", "value": "2021-06-01", "base_version": 1},
        headers=HX,
    )

    assert response.status_code == 422
    assert 'value=""' in _date_field(response.content.decode())


@pytest.mark.parametrize("value", ["0002-06-01", "0202-06-01", "1899-12-31"])
def test_a_year_not_typed_in_full_is_refused(client, deck_catalog, value):
    response = client.post(CHANGE, {"action": "set_rules_date", "value": value}, headers=HX)

    assert response.status_code == 422
    assert f"{value} is not a rules date: type the year in four digits (1900 or later)." in response.content.decode()


def test_the_date_field_says_the_earliest_year_the_editor_applies(client, deck_catalog):
    html = client.get("/decks/new/").content.decode()

    assert 'data-earliest-year="1900"' in _date_field(html)


def test_editor_pages_are_never_cached(client, user, deck_catalog, game_catalog):
    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice"), name="Fresh")
    game_deck = deck_create_from_draft(owner=user, draft=gambit_draft(), name="Fresh game")
    client.force_login(user)

    for url in (
        "/decks/new/",
        "/decks/new/?game=gaterunners",
        reverse("decks:edit", args=[deck.public_id]),
        reverse("decks:edit", args=[game_deck.public_id]),
    ):
        assert "no-store" in client.get(url)["Cache-Control"], url


def test_a_stale_change_is_offered_again_on_the_deck_as_it_now_is(client, user, deck_catalog):
    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice"), name="Two tabs")
    client.force_login(user)
    url = reverse("decks:change", args=[deck.public_id])
    client.post(url, {"op": "add main TS-002", "base_version": 1}, headers=HX)

    stale = client.post(url, {"op": "add main TS-003", "base_version": 1, "browse": "q=squire"}, headers=HX)

    assert stale.status_code == 409
    retry = stale.content.decode()
    retry = retry[retry.index(f'<form method="post" action="{url}" class="conflict-actions">') :]
    for field in (
        'name="op" value="add main TS-003"',
        'name="browse" value="q=squire"',
        'name="base_version" value="2"',
    ):
        assert field in retry
    # That form, posted as the button posts it (a plain post), makes the change on version 2.
    again = client.post(url, {"op": "add main TS-003", "browse": "q=squire", "base_version": 2})
    assert again.status_code == 302
    assert again["Location"].endswith("?q=squire")
    deck.refresh_from_db()
    assert deck.version == 3


def test_a_stale_change_is_said_in_the_players_language(client, user, deck_catalog):
    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice"), name="Two tabs")
    client.force_login(user)
    client.cookies["django_language"] = "ja"
    url = reverse("decks:change", args=[deck.public_id])
    client.post(url, {"op": "add main TS-002", "base_version": 1}, headers=HX)

    html = client.post(url, {"op": "add main TS-003", "base_version": 1}, headers=HX).content.decode()

    assert "別の場所（別のタブや端末）で変更されました" in html
    assert "第 1 版で、現在は第 2 版です" in html
    assert "デッキを読み込み直して、もう一度変更する" in html
    assert "changed elsewhere" not in html


def test_a_stale_change_in_another_games_editor_is_a_toast_offered_again(client, user, game_catalog):
    deck = deck_create_from_draft(owner=user, draft=gambit_draft(), name="Embers")
    client.force_login(user)
    url = reverse("decks:game-change", args=[deck.public_id])
    client.post(url, {"op": "add main RGT-011", "base_version": 1}, headers=HX)

    stale = client.post(url, {"op": "add main RGT-012", "base_version": 1}, headers=HX)

    assert stale.status_code == 409
    html = stale.content.decode()
    assert 'class="conflict toast" data-testid="conflict" role="alert"' in html
    assert 'name="op" value="add main RGT-012"' in html
    assert 'name="base_version" value="2"' in html
