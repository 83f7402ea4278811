"""bench/gen_decks.py: the decks it writes are what the benchmarks assume (owners, sections, verdicts)."""

from __future__ import annotations

import pytest
from django.db.models import Count

from decks.drafts import deck_draft_judge
from decks.models import Deck, DeckCard, DeckVersion, Section, Visibility
from decks.saved_drafts import deck_draft_of

pytestmark = pytest.mark.django_db


def test_it_writes_judged_decks_with_versions_and_is_idempotent(rules):
    from bench import gen_decks

    gen_decks.catalog_ready()  # imports the practice set into the empty catalog

    rows = gen_decks.generate(decks=120, users=10, seed=3)

    decks = Deck.objects.select_related("ruler", "geas")
    assert decks.count() == 120
    assert DeckCard.objects.count() == rows
    assert DeckVersion.objects.filter(version=1).count() == 120
    assert set(decks.values_list("visibility", flat=True)) == set(Visibility.values)
    assert decks.values("owner").distinct().count() <= 10
    # The stored verdict is the engine's, and most decks are legal.
    for deck in decks[:40]:
        assert deck.legal == deck_draft_judge(draft=deck_draft_of(deck=deck)).report.legal, deck.name
    assert decks.filter(legal=True).count() > 80
    # Copies point at earlier public decks, and the sources count them.
    for copy in decks.filter(forked_from__isnull=False).select_related("forked_from"):
        assert copy.forked_from.visibility == Visibility.PUBLIC
    counted = dict(decks.annotate(n=Count("forks")).filter(n__gt=0).values_list("pk", "n"))
    assert counted == dict(decks.filter(copies_count__gt=0).values_list("pk", "copies_count"))
    assert DeckCard.objects.filter(section=Section.MAIN).exists()

    assert gen_decks.generate(decks=120, users=10, seed=3) == 0  # already there: nothing written
    assert Deck.objects.count() == 120
