"""Readers never see a half-written run: while a recompute works, pages read the previous run whole."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from decks.models import Visibility
from decks.stats.models import CardInclusion, RulerShare, StatisticsRun
from decks.stats.selectors import statistics_run_current
from decks.stats.services import statistics_recompute
from decks.stats.sql import RecomputeSql
from tests.cards.factories import PrintingFactory
from tests.decks.factories import DeckCardFactory, DeckFactory

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs two concurrent connections to one database (PostgreSQL); SQLite's test database is per-connection",
)


@pytest.mark.django_db(transaction=True)
def test_a_reader_sees_the_previous_run_until_the_new_one_commits(rules, monkeypatch):
    deck = DeckFactory(visibility=Visibility.PUBLIC)
    DeckCardFactory(deck=deck, printing=PrintingFactory(), count=2)
    first = statistics_recompute()

    halfway, go_on = threading.Event(), threading.Event()
    real = RecomputeSql.card_inclusions

    def paused(self):
        real(self)
        halfway.set()  # ruler shares and card inclusions written, pairings not yet
        assert go_on.wait(30)

    monkeypatch.setattr(RecomputeSql, "card_inclusions", paused)
    DeckCardFactory(deck=DeckFactory(visibility=Visibility.PUBLIC), printing=PrintingFactory(), count=1)
    result = {}

    def recompute():
        try:
            result["run"] = statistics_recompute()
        finally:
            connections.close_all()

    worker = threading.Thread(target=recompute)
    worker.start()
    try:
        assert halfway.wait(30)
        current = statistics_run_current()
        assert current.pk == first.pk  # the new run is not visible before its commit
        assert RulerShare.objects.get(run=current, ruler=None).decks == 1
        assert StatisticsRun.objects.count() == 1
        assert CardInclusion.objects.exclude(run=first).count() == 0
    finally:
        go_on.set()
        worker.join(30)
    assert result["run"].decks == 2
    assert statistics_run_current().pk == result["run"].pk
