"""card_catalog_import(only_new=True) / catalog_plan_only_new: add what the catalog lacks, leave the rest alone."""

from __future__ import annotations

from typing import Any

import pytest

from cards.importers.parsing import parse_card_file
from cards.importers.records import ParsedFile
from cards.models import Attribute, Card, CardSet, Erratum, Faction, Printing
from cards.services import card_catalog_import
from tests.cards.factories import TEST_SET as SET
from tests.cards.factories import card_row as card
from tests.cards.factories import set_file

pytestmark = pytest.mark.django_db


def parsed(*cards: dict[str, Any], card_set: dict[str, Any] = SET) -> ParsedFile:
    return parse_card_file("t.json", set_file(*cards, card_set=card_set))


def test_it_adds_missing_cards_and_printings_and_keeps_existing_ones():
    card_catalog_import(files=[parsed(card(1, level=3))])  # the admin's newer wording of Card 1

    result = card_catalog_import(
        files=[parsed(card(1), card(2), card(3, name="Card 1", rarity="R"), card_set={**SET, "name": "Renamed"})],
        only_new=True,
    )

    assert Card.objects.get(name="Card 1").level == 3
    assert set(Card.objects.values_list("name", flat=True)) == {"Card 1", "Card 2"}
    # A new printing of a card the catalog has: added, pointing at the card as it is.
    assert Printing.objects.get(collector_number="T01-003").card.name == "Card 1"
    assert CardSet.objects.get(code="T01").name == "Test Set"
    assert Erratum.objects.count() == 0
    assert (result.cards.created, result.cards.updated, result.printings.created) == (1, 0, 2)
    assert result.kept_existing == 2  # Card 1's level and the set's name


def test_it_creates_no_faction_or_attribute_only_a_kept_card_would_need():
    card_catalog_import(files=[parsed(card(1))])

    result = card_catalog_import(files=[parsed(card(1, faction="Blue", attributes=["Elf"]), card(2))], only_new=True)

    assert not Faction.objects.filter(name="Blue").exists()
    assert not Attribute.objects.filter(name="Elf").exists()
    assert (result.factions_created, result.attributes_created) == (0, 0)
    assert Card.objects.get(name="Card 1").faction.name == "Red"


def test_it_writes_nothing_when_nothing_is_missing():
    card_catalog_import(files=[parsed(card(1))])
    before = list(Card.objects.values_list("pk", "level", "text"))

    result = card_catalog_import(files=[parsed(card(1, text="Other."))], only_new=True)

    assert list(Card.objects.values_list("pk", "level", "text")) == before
    assert (result.cards.unchanged, result.kept_existing) == (1, 1)
