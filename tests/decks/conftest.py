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


@pytest.fixture
def game_catalog(db):
    """Cards of the games besides Gate Ruler.

    Ruler's Gambit: RGT-001 "Fire Kingdom" (a red Kingdom-Ruler), RGT-002 "Tide Kingdom" (blue),
    RGT-011..RGT-030 "Ember Imp 1".."Ember Imp 20" (red units), RGT-040 "Wave Sprite" (a blue unit).
    GateRunners: GRT-001 "Wayfinder" and GRT-002 "Pathseeker" (heroes), GRT-011..GRT-014 "North Gate",
    "South Gate", "East Gate", "West Gate", GRT-101..GRT-120 "Runner 1".."Runner 20" (units).
    """
    from tests.cards.factories import GameCardFactory

    def rg(number, name, card_type, colours, **fields):
        card = GameCardFactory(name=name, type=card_type, fields={"colours": colours, "cost": 1, **fields})
        PrintingFactory(card=card, collector_number=number)

    rg("RGT-001", "Fire Kingdom", "kingdom-ruler", ["red"], lp=20)
    rg("RGT-002", "Tide Kingdom", "kingdom-ruler", ["blue"], lp=20)
    for i in range(1, 21):
        rg(f"RGT-{10 + i:03d}", f"Ember Imp {i}", "unit", ["red"])
    rg("RGT-040", "Wave Sprite", "unit", ["blue"])

    def gr(number, name, card_type, **fields):
        card = GameCardFactory(name=name, game="gaterunners", type=card_type, fields=fields)
        PrintingFactory(card=card, collector_number=number)

    gr("GRT-001", "Wayfinder", "hero", power=2, health=20)
    gr("GRT-002", "Pathseeker", "hero", power=3, health=18)
    for i, name in enumerate(("North Gate", "South Gate", "East Gate", "West Gate"), start=11):
        gr(f"GRT-{i:03d}", name, "gate")
    for i in range(1, 21):
        gr(f"GRT-{100 + i:03d}", f"Runner {i}", "unit", level=2, power=3, health=4, instant=False)
