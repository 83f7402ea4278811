"""Versions without gaps: every version number the history shows opens, "k of N" counts what is listed,
and a version whose list did not change says so (DeckVersion.number; decks.sharing.selectors)."""

from __future__ import annotations

import importlib
import re

import pytest
from django.db import connection

from decks.models import DeckDraft, DeckVersion
from decks.services import deck_create_from_draft, deck_update
from decks.sharing.selectors import deck_history

pytestmark = pytest.mark.django_db


@pytest.fixture
def added_and_removed(deck_catalog, user):
    """A saved deck, then one card added and removed in the editor (two autosaves: one editing session)."""
    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main={"TS-001": 1}), name="Mine")
    for main in ({"TS-001": 1, "TS-002": 1}, {"TS-001": 1}):
        draft = DeckDraft(ruler="apprentice", main=main, name="Mine")
        deck = deck_update(deck=deck, draft=draft, base_version=deck.version, autosave=True)
    assert deck.version == 3  # three saves: the save counter has moved past the versions kept
    return deck


def listed(html: str) -> list[str]:
    return re.findall(r'<li data-version="(\d+)">', html)


def test_every_version_number_shown_opens(client, user, added_and_removed):
    deck = added_and_removed
    client.force_login(user)

    html = client.get(f"/d/{deck.public_id}/").content.decode()

    assert listed(html) == ["2", "1"]
    assert "version 2" in html  # the byline's number is the latest listed one
    for number in listed(html):
        assert client.get(f"/d/{deck.public_id}/v/{number}/").status_code == 200
    assert client.get(f"/d/{deck.public_id}/v/4/").status_code == 404


def test_a_link_by_the_old_save_counter_leads_to_the_version_it_meant(client, user, added_and_removed):
    """Before the numbers, the history linked /v/3/ (its save counter) for what is now version 2."""
    deck = added_and_removed
    client.force_login(user)

    answer = client.get(f"/d/{deck.public_id}/v/3/")

    assert answer.status_code == 301
    assert answer["Location"] == f"/d/{deck.public_id}/v/2/"
    assert client.get(f"/d/{deck.public_id}/v/5/").status_code == 404


def test_a_version_says_k_of_the_versions_listed_and_that_its_list_did_not_change(client, user, added_and_removed):
    deck = added_and_removed
    client.force_login(user)

    html = client.get(f"/d/{deck.public_id}/v/2/").content.decode()

    assert "Version 2 of 2" in html
    assert "no change to the list" in html
    assert f'href="/d/{deck.public_id}/v/1/">Version 1</a>' in html
    history = deck_history(deck=deck)
    assert [(e.number, e.changelog.is_empty) for e in history] == [(2, True), (1, False)]


def test_the_registration_sheet_prints_the_version_number_the_page_shows(client, user, added_and_removed):
    client.force_login(user)

    html = client.get(f"/d/{added_and_removed.public_id}/sheet/").content.decode()

    assert "version 2" in html
    assert "version 3" not in html


def test_versions_stored_before_are_numbered_in_order_with_no_gaps(added_and_removed, deck_catalog, user):
    other = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice"), name="Other")
    deck_update(deck=other, draft=DeckDraft(ruler="apprentice", main={"TS-003": 2}), base_version=1)
    # As the rows were before the migration: numbered by nothing (the save counter had gaps: 1, 3).
    for row in DeckVersion.objects.all():
        DeckVersion.objects.filter(pk=row.pk).update(number=1000 + row.pk)
    migration = importlib.import_module("decks.migrations.0009_deckversion_number")

    with connection.cursor() as cursor:
        cursor.execute(migration.NUMBER_EXISTING)

    numbers = DeckVersion.objects.order_by("deck_id", "version").values_list("deck__name", "version", "number")
    assert list(numbers) == [("Mine", 1, 1), ("Mine", 3, 2), ("Other", 1, 1), ("Other", 2, 2)]
