"""Catalogs for the deck tests (the engine tests in rules/ use none of these)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cards.factories import AttributeFactory, CardFactory, FactionFactory, PrintingFactory

PRACTICE_DIR = Path(__file__).resolve().parents[2] / "data" / "practice"


@pytest.fixture
def deck_catalog(rules):
    """A small catalog with the rules loaded.

    TS-001..TS-013: "Ember Squire 1".."Ember Squire 13", level-1 Volnar Dragon units;
    TS-100: "Sky Lancer", a level-2 ATLAS Machine unit; TS-150: "Frost Hare", a level-1
    Wonderverse event; TS-200: "Old Wyrm", a legendary Volnar unit; TS-300: "Spark", energy;
    TS-901: a reprint of Ember Squire 1.
    """
    volnar = FactionFactory(name="Volnar")
    dragon = AttributeFactory(name="Dragon")
    for i in range(1, 14):
        card = CardFactory(name=f"Ember Squire {i}", faction=volnar, level=1, attributes=[dragon])
        PrintingFactory(card=card, collector_number=f"TS-{i:03d}")
    machine = AttributeFactory(name="Machine")
    lancer = CardFactory(name="Sky Lancer", faction=FactionFactory(name="ATLAS"), level=2, attributes=[machine])
    PrintingFactory(card=lancer, collector_number="TS-100")
    hare = CardFactory(name="Frost Hare", type="event", faction=FactionFactory(name="Wonderverse"), level=1)
    PrintingFactory(card=hare, collector_number="TS-150")
    PrintingFactory(card=CardFactory(name="Old Wyrm", faction=volnar, level=1, legend=True), collector_number="TS-200")
    PrintingFactory(card=CardFactory(name="Spark", energy=True), collector_number="TS-300")
    PrintingFactory(card=CardFactory(name="Ember Squire 1"), collector_number="TS-901")


@pytest.fixture
def practice_set(rules):
    """The fictional practice set (data/practice/*.json), imported as `make run` does."""
    from cards.services import card_files_import

    card_files_import(paths=[str(p) for p in sorted(PRACTICE_DIR.glob("*.json"))])
