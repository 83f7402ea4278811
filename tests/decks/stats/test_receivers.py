"""Statistics listens to decks.signals.deck_changed: decks announce a change, stats marks its figures stale."""

from __future__ import annotations

import pytest

from decks.models import Deck, Visibility
from decks.signals import deck_changed
from decks.stats.models import StatisticsChange
from tests.decks.factories import DeckFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("visibility", "archived", "was_counted", "logged"),
    [
        (Visibility.PUBLIC, False, False, True),  # counted now
        (Visibility.PRIVATE, False, True, True),  # counted before the change: it left the figures
        (Visibility.PUBLIC, True, False, False),  # archived: not counted
        (Visibility.UNLISTED, False, False, False),
    ],
)
def test_it_logs_a_change_of_a_counted_deck_after_the_commit(
    rules, django_capture_on_commit_callbacks, visibility, archived, was_counted, logged
):
    deck = DeckFactory(visibility=visibility, archived=archived)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        deck_changed.send(sender=Deck, deck=deck, was_counted=was_counted)
    assert not StatisticsChange.objects.exists()  # nothing before the commit
    for callback in callbacks:
        callback()
    assert list(StatisticsChange.objects.values_list("deck_id", flat=True)) == ([deck.pk] if logged else [])
