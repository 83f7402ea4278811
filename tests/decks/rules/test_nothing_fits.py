"""rule_hints.nothing_fits: no copy of any card fits when the deck and its resources are full (pure, no database)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from decks.rules.rule_hints import nothing_fits
from decks.rules.types import Summary

from .deckmaker import rules_for

APPRENTICE = rules_for("Apprentice")


def summary(size: int, resources: int = 0) -> Summary:
    return Summary(size=size, level=0, cnt=0, legends=0, factions=(), resources=resources)


@pytest.mark.parametrize(
    ("size", "resources", "want_resources", "reasons"),
    [
        (49, 0, 0, ()),
        (50, 0, 0, ("deck is full (50/50)",)),
        (51, 0, 0, ("deck is full (51/50)",)),
        (50, 3, 4, ()),  # an energy card still fits
        (50, 4, 4, ("deck is full (50/50)", "resources are full (4/4)")),
    ],
)
def test_it_says_why_no_card_fits(size, resources, want_resources, reasons):
    rules = replace(APPRENTICE, deck=replace(APPRENTICE.deck, deck_size=50, resource_cards=want_resources))

    assert nothing_fits(summary(size, resources), rules) == reasons
