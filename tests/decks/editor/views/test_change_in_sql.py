"""A saved deck's change answers and saves the same through the SQL data path as through the ORM's.

The reference: the deck read by deck_get_for_owner, its lines by deck_lines_of, the save written by
the ORM's statements (tests/decks/services/test_deck_writes_in_sql.py). Two twin decks get the same
clicks, one through each path: the same HTML (but for the deck's public id), the same rows.
"""

from __future__ import annotations

import re

import pytest

from decks.editor import views
from decks.models import Deck, DeckDraft
from decks.saved_drafts import deck_lines_of
from decks.selectors import deck_get_for_owner
from decks.services import deck_create_from_draft
from tests.decks.factories import legal_apprentice_main
from tests.decks.services.test_deck_writes_in_sql import orm_writes, saved_rows  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
SHOWN = " ".join(f"TS-{n:03d}" for n in range(1, 14))
CLICKS = [
    "remove main TS-001",
    "add main TS-001",
    "add main TS-013",
    "to_considering main TS-002",
    "set_count resources TS-300 2",
    "remove main TS-999",  # refused: no such line
]


def orm_deck_and_lines(*, public_id, user, write=False):
    deck = deck_get_for_owner(public_id=public_id, user=user, write=write)
    return deck, deck_lines_of(deck=deck)


def _answer(response, deck: Deck) -> str:
    """The answer's HTML, but for the deck's public id and the CSRF token (masked afresh in every form drawn)."""
    html = response.content.decode().replace(deck.public_id, "<deck>")
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', 'name="csrfmiddlewaretoken" value=""', html)


def clicks(client, deck: Deck) -> list[tuple[int, str]]:
    answers = []
    for op in CLICKS:
        version = Deck.objects.get(pk=deck.pk).version
        response = client.post(
            f"/decks/{deck.public_id}/change/",
            {"op": op, "base_version": version, "shown": SHOWN, "hinted": ""},
            headers=HX,
        )
        answers.append((response.status_code, _answer(response, deck)))
    # A stale click (an old version): refused the same way.
    response = client.post(f"/decks/{deck.public_id}/change/", {"op": "add main TS-001", "base_version": 1}, headers=HX)
    answers.append((response.status_code, _answer(response, deck)))
    return answers


def test_clicks_answer_and_save_as_through_the_orm(deck_catalog, user, client, monkeypatch, orm_writes):  # noqa: F811
    client.force_login(user)
    draft = DeckDraft(ruler="apprentice", main=legal_apprentice_main(), name="Twins")
    in_sql = deck_create_from_draft(owner=user, draft=draft)
    by_orm = deck_create_from_draft(owner=user, draft=draft)
    Deck.objects.filter(pk=by_orm.pk).update(created_at=in_sql.created_at)

    answered_in_sql = clicks(client, in_sql)
    with orm_writes():
        monkeypatch.setattr(views, "deck_and_lines_for_owner", orm_deck_and_lines)
        answered_by_orm = clicks(client, by_orm)

    assert [status for status, _ in answered_in_sql] == [200, 200, 200, 200, 200, 422, 409]
    assert answered_in_sql == answered_by_orm
    mine, theirs = saved_rows(in_sql), saved_rows(by_orm)
    # The times of the saves are the clock's at each click; all else is the same.
    for rows in (mine, theirs):
        del rows[0]["updated_at"]
    assert mine[0] == theirs[0]
    assert mine[1] == theirs[1]
    assert [v[:4] for v in mine[2]] == [v[:4] for v in theirs[2]]
    assert mine[0]["version"] == 6
