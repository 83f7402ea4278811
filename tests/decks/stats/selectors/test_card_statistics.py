"""A card's figures (decks.stats.selectors.card_statistics), as its page shows them."""

from __future__ import annotations

import pytest

from decks.stats.services import statistics_recompute

pytestmark = pytest.mark.django_db


def test_the_card_page_shows_inclusion_and_cards_played_with_it(client, played):
    statistics_recompute(min_pair_decks=1, min_pair_share=0)
    html = client.get("/cards/ST-002/").content.decode()
    assert "Played in 100.0% of public decks (2), 1.00 copies on average" in html
    assert "&lt;Fire&gt; &amp; Ice" in html  # its partner, escaped
    assert 'href="/cards/ST-001/"' in html
    assert "Printings" in html
    assert "Errata history" in html


def test_the_card_page_without_figures(client, played):
    assert "No statistics have been computed yet." in client.get("/cards/ST-001/").content.decode()
