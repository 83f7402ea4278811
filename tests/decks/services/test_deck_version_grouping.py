"""Consecutive autosaves of one editing session are one version of the deck; naming one closes it."""

from __future__ import annotations

import datetime
from dataclasses import replace

import pytest
import time_machine

from decks.models import Deck, DeckDraft
from decks.saved_drafts import deck_draft_of
from decks.services import AUTOSAVE_GROUP, deck_create_from_draft, deck_update, deck_version_name
from gatesite.errors import ApplicationError

pytestmark = pytest.mark.django_db

START = datetime.datetime(2026, 11, 24, 12, tzinfo=datetime.UTC)


@pytest.fixture
def deck(deck_catalog, user):
    with time_machine.travel(START, tick=False):
        return deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main={"TS-001": 1}))


def autosave(deck: Deck, main: dict[str, int], *, at: datetime.datetime, autosave: bool = True) -> Deck:
    deck = Deck.objects.select_related("ruler", "geas").get(pk=deck.pk)
    with time_machine.travel(at, tick=False):
        draft = replace(deck_draft_of(deck=deck), main=main)
        return deck_update(deck=deck, draft=draft, base_version=deck.version, autosave=autosave)


def rows(deck: Deck) -> list[tuple[int, dict[str, int], str]]:
    return [(v.version, v.snapshot["main"], v.name) for v in deck.versions.order_by("version")]


def test_autosaves_of_one_session_are_one_version_that_moves_on(deck):
    minute = datetime.timedelta(minutes=1)
    autosave(deck, {"TS-001": 2}, at=START + minute)
    autosave(deck, {"TS-001": 3}, at=START + 2 * minute)
    saved = autosave(deck, {"TS-001": 3, "TS-002": 1}, at=START + 3 * minute)

    # The deck's version still counts every save (optimistic locking); its history keeps two lists.
    assert saved.version == 4
    assert rows(deck) == [(1, {"TS-001": 1}, ""), (4, {"TS-001": 3, "TS-002": 1}, "")]


def test_an_autosave_after_a_pause_starts_a_new_version(deck):
    autosave(deck, {"TS-001": 2}, at=START)
    autosave(deck, {"TS-001": 3}, at=START + AUTOSAVE_GROUP + datetime.timedelta(seconds=1))

    assert [version for version, _, _ in rows(deck)] == [1, 2, 3]


def test_a_save_that_is_not_an_autosave_is_its_own_version_and_is_never_merged_into(deck):
    autosave(deck, {"TS-001": 2}, at=START, autosave=False)  # e.g. an API PUT or an applied text import
    autosave(deck, {"TS-001": 3}, at=START)
    autosave(deck, {"TS-001": 4}, at=START)

    assert [version for version, _, _ in rows(deck)] == [1, 2, 4]


def test_a_named_version_closes_the_session(deck):
    autosave(deck, {"TS-001": 2}, at=START)
    deck_version_name(deck=deck, number=2, name="  before the tournament  ")
    autosave(deck, {"TS-001": 3}, at=START)

    assert rows(deck) == [(1, {"TS-001": 1}, ""), (2, {"TS-001": 2}, "before the tournament"), (3, {"TS-001": 3}, "")]


def test_naming_a_version_the_deck_does_not_have_names_it(deck):
    with pytest.raises(ApplicationError, match="has no version 7"):
        deck_version_name(deck=deck, number=7, name="x")
