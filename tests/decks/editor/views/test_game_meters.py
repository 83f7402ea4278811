"""The game editor's meters as a player reads them: at most three card names and "and N more", and an
at-least size that is met reads as met ("41 · at least 40"), in English and in Japanese."""

from __future__ import annotations

import re

import pytest

from tests.decks.editor.views.drafts import with_draft
from tests.decks.factories import gambit_draft, runners_draft

pytestmark = pytest.mark.django_db

NEW = "/decks/new/"


def meter(html: str, key: str) -> str:
    match = re.search(rf'<li class="meter [^"]*" data-meter="{key}".*?</li>', html, re.S)
    assert match, f"no meter {key}"
    return match.group(0)


def test_the_copies_meter_of_a_legal_rulers_gambit_deck_names_three_cards_and_counts_the_rest(
    client, rules, game_catalog
):
    # 19 Ember Imps at the copy limit (2) and one single: three named, 16 counted.
    with_draft(client, gambit_draft())

    copies = meter(client.get(NEW).content.decode(), "max_copies")

    assert '<span class="meter-value">2/2</span>' in copies
    detail = re.search(r'<span class="meter-detail">([^<]*)</span>', copies)
    assert detail is not None
    assert detail.group(1) == "Ember Imp 1, Ember Imp 10, Ember Imp 11 and 16 more"


def test_a_met_at_least_size_reads_as_met_not_over(client, rules, game_catalog):
    with_draft(client, runners_draft(main={f"GRT-{100 + i:03d}": 2 for i in range(1, 21)} | {"GRT-101": 3}))

    size = meter(client.get(NEW).content.decode(), "deck_size")

    assert 'data-state="ok"' in size
    assert '<span class="meter-value">41 · at least 40</span>' in size
    assert "41/40" not in size


def test_the_meters_words_are_japanese_on_a_japanese_page(client, rules, game_catalog):
    client.cookies["django_language"] = "ja"
    with_draft(client, runners_draft(main={f"GRT-{100 + i:03d}": 2 for i in range(1, 21)} | {"GRT-101": 3}))
    html = client.get(NEW).content.decode()

    assert '<span class="meter-value">41 ・ 40 以上</span>' in meter(html, "deck_size")
    assert re.search(r'data-testid="tab-count">41 ・ 40 以上<', html)

    with_draft(client, gambit_draft())
    copies = meter(client.get(NEW).content.decode(), "max_copies")
    assert "同じカードの最多枚数" in copies
    assert "ほか 16 件</span>" in copies
