"""bench/deck_page.py: its in-process query count reads the pages the benchmark loads, and counts right."""

from __future__ import annotations

import pytest

from decks.models import Deck, Visibility

pytestmark = pytest.mark.django_db


@pytest.mark.slow
def test_it_counts_the_queries_of_each_page_for_a_visitor_and_the_owner(rules):
    from bench import deck_page, gen_decks

    gen_decks.catalog_ready()
    gen_decks.generate(decks=40, users=5, seed=5)
    decks = [
        (public_id, owner)
        for public_id, owner in Deck.objects.filter(visibility=Visibility.PUBLIC, archived=False).values_list(
            "public_id", "owner__username"
        )
    ][:10]
    assert decks

    counted = deck_page.count_queries(decks, host="testserver")

    assert counted["problems"] == []
    assert counted["decks"] == len(decks)
    for who in ("anonymous", "owner"):
        assert sum(counted[who]["histogram"].values()) == len(decks)
        assert counted[who]["max"] <= deck_page.TARGET_QUERIES
        assert counted[who]["worst_queries"][0].startswith("SELECT")
    # The owner's pages also read the user (and the session, unless the cache holds it: cached_db
    # sessions with a shared cache, gatesite/settings.py): never fewer queries than a visitor's page.
    assert min(counted["owner"]["histogram"]) >= min(counted["anonymous"]["histogram"])
