"""The statistics page (/stats/): precomputed figures only, narrowed to a ruler, with the monthly trend."""

from __future__ import annotations

import re

import pytest

from decks.models import Visibility
from decks.stats.services import statistics_recompute
from tests.cards.factories import CardFactory, PrintingFactory
from tests.decks.factories import DeckCardFactory, DeckFactory

pytestmark = pytest.mark.django_db


def test_the_page_says_when_nothing_was_computed_yet(client, rules):
    response = client.get("/stats/")
    assert response.status_code == 200
    assert "No statistics have been computed yet." in response.content.decode()


def test_the_page_shows_the_precomputed_figures_and_their_date(client, played):
    run = statistics_recompute(min_pair_decks=1, min_pair_share=0)
    html = client.get("/stats/").content.decode()
    assert f"{run.computed_at:%Y-%m-%d %H:%M}" in html
    assert "2 decks" in html
    assert "Apprentice" in html
    assert "100.0% <small>(2 decks)</small> <small>· 0.0 CNT</small>" in html  # ruler share
    assert "&lt;Fire&gt; &amp; Ice" in html
    assert "<Fire>" not in html
    assert "Red &amp; Co" in html
    assert "avg 3.0 copies" in html  # average copies of <Fire> & Ice
    assert "avg 1 copy" in html  # Frost Hare
    assert 'href="/cards/ST-001/"' in html


def test_cards_at_the_same_inclusion_rank_by_average_copies_then_name(client, rules):
    # Created so that their ids are in neither order the page should show.
    bravo, zulu, alpha = (
        PrintingFactory(card=CardFactory(name=name), collector_number=number)
        for name, number in [("Bravo", "ST-011"), ("Zulu", "ST-012"), ("Alpha", "ST-013")]
    )
    for _ in range(2):
        deck = DeckFactory(visibility=Visibility.PUBLIC)
        DeckCardFactory(deck=deck, printing=bravo, count=1)
        DeckCardFactory(deck=deck, printing=zulu, count=3)
        DeckCardFactory(deck=deck, printing=alpha, count=1)
    statistics_recompute(min_pair_decks=1, min_pair_share=0)
    html = client.get("/stats/").content.decode()

    def order(section: str) -> list[str]:
        part = html[html.index(section) :]
        part = part[: part.index("</ul>")]
        return re.findall(r'<a href="/cards/ST-\d+/">(\w+)</a>', part)

    assert order("<h2>Most played cards</h2>") == ["Zulu", "Alpha", "Bravo"]
    assert order("<h2>Top cards per ruler</h2>") == ["Zulu", "Alpha", "Bravo"]


def test_the_page_narrows_to_one_ruler(client, played):
    statistics_recompute(min_pair_decks=1, min_pair_share=0)
    html = client.get("/stats/?ruler=knight").content.decode()
    assert "<h1>Statistics: Knight</h1>" in html
    assert "0 decks of Knight" in html
    assert "&lt;Fire&gt;" not in html


def test_the_page_reads_only_precomputed_rows(client, played, django_assert_max_num_queries):
    statistics_recompute(min_pair_decks=1, min_pair_share=0)
    # A dozen small reads of the figure tables, however many decks there are.
    with django_assert_max_num_queries(14):
        assert client.get("/stats/").status_code == 200


def test_the_page_draws_the_monthly_trend_when_there_are_several_months(client, played):
    import datetime

    from decks.models import Deck

    first = Deck.objects.filter(visibility=Visibility.PUBLIC).order_by("pk").first()
    Deck.objects.filter(pk=first.pk).update(created_at=datetime.datetime(2025, 3, 5, tzinfo=datetime.UTC))
    statistics_recompute(min_pair_decks=1, min_pair_share=0)
    html = client.get("/stats/").content.decode()
    assert "<polyline" in html
    assert "for the 1 ruler with the most decks" in html
