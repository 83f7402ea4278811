"""A save, delete, share or archive of a counted deck marks the figures stale, after the commit (through decks.signals)."""

from __future__ import annotations

import pytest

from decks.models import DeckDraft, Visibility
from decks.services import deck_create_from_draft, deck_delete, deck_update
from decks.stats.models import StatisticsChange

pytestmark = pytest.mark.django_db


def test_saving_a_public_deck_marks_the_figures_stale_after_the_commit(
    user, deck_catalog, django_capture_on_commit_callbacks
):
    draft = DeckDraft(ruler="apprentice", main={"TS-001": 4})
    with django_capture_on_commit_callbacks(execute=True):
        deck = deck_create_from_draft(owner=user, draft=draft)
    assert not StatisticsChange.objects.exists()  # a private deck is not in the figures

    deck.visibility = Visibility.PUBLIC
    deck.save()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        deck = deck_update(
            deck=deck, draft=DeckDraft(ruler="apprentice", main={"TS-001": 3}), base_version=deck.version
        )
    assert not StatisticsChange.objects.exists()  # nothing before the commit
    for callback in callbacks:
        callback()
    assert list(StatisticsChange.objects.values_list("deck_id", flat=True)) == [deck.pk]

    deck_id = deck.pk
    with django_capture_on_commit_callbacks(execute=True):
        deck_delete(deck=deck)
    assert list(StatisticsChange.objects.values_list("deck_id", flat=True)) == [deck_id, deck_id]


def test_sharing_or_archiving_a_deck_marks_the_figures_stale_when_it_enters_or_leaves_them(
    user, deck_catalog, django_capture_on_commit_callbacks
):
    from decks.library.services import deck_archive_set
    from decks.services import deck_visibility_set

    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main={"TS-001": 4}))
    with django_capture_on_commit_callbacks(execute=True):
        deck_visibility_set(deck=deck, visibility=Visibility.UNLISTED)
    assert StatisticsChange.objects.count() == 0  # never counted: nothing changes in the figures
    with django_capture_on_commit_callbacks(execute=True):
        deck_visibility_set(deck=deck, visibility=Visibility.PUBLIC)
    assert StatisticsChange.objects.count() == 1  # enters the figures
    with django_capture_on_commit_callbacks(execute=True):
        deck_archive_set(deck=deck, archived=True)
    assert StatisticsChange.objects.count() == 2  # leaves them
    with django_capture_on_commit_callbacks(execute=True):
        deck_visibility_set(deck=deck, visibility=Visibility.PRIVATE)
    assert StatisticsChange.objects.count() == 2  # archived: was not counted, is not


def test_saving_a_public_deck_with_the_broker_down_marks_the_figures_stale_all_the_same(
    user, deck_catalog, broker_down, django_capture_on_commit_callbacks
):
    # One small INSERT needs no worker: the save neither fails nor waits for Redis (issue 24).
    deck = deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main={"TS-001": 4}))
    deck.visibility = Visibility.PUBLIC
    deck.save()

    with django_capture_on_commit_callbacks(execute=True):
        deck = deck_update(
            deck=deck, draft=DeckDraft(ruler="apprentice", main={"TS-001": 3}), base_version=deck.version
        )

    assert list(StatisticsChange.objects.values_list("deck_id", flat=True)) == [deck.pk]
