"""decks.revalidation.receivers: the catalog's signals reach revalidation (connected in DecksConfig.ready())."""

from __future__ import annotations

import datetime

from cards.card_page import _providers
from cards.signals import cards_changed, rules_changed
from decks.stats.receivers import card_page_statistics


def test_it_queues_the_revalidation_job_when_the_catalog_announces_a_change(monkeypatch):
    """DecksConfig.ready() connected them: sending the signals reaches decks.revalidation."""
    queued: list[dict[str, object]] = []
    monkeypatch.setattr("decks.revalidation.receivers.decks_revalidate_enqueue", lambda **kwargs: queued.append(kwargs))
    since = datetime.date(2026, 1, 2)

    rules_changed.send(sender=None, ruler_ids=frozenset({1}), geas_ids=frozenset({2}), since=since)
    cards_changed.send(sender=None, card_ids=frozenset({3}), since=None)

    assert queued == [
        {"ruler_ids": frozenset({1}), "geas_ids": frozenset({2}), "since": since},
        {"card_ids": frozenset({3}), "since": None},
    ]


def test_statistics_registers_its_card_page_section():
    assert card_page_statistics in _providers
