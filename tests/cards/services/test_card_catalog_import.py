from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pytest

from cards.import_plan import FieldChange
from cards.importers.parsing import parse_card_file
from cards.importers.records import ImportFileError, ParsedFile
from cards.models import Attribute, Card, CardSet, Faction, Printing
from cards.services import card_catalog_import, card_files_import
from tests.cards.factories import (
    AttributeFactory,
    CardFactory,
    CardSetFactory,
    FactionFactory,
    PrintingFactory,
)

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[2] / "data"
SAMPLES = [str(DATA / "cards_small.json"), str(DATA / "cards_small.csv")]
SET = {"code": "T01", "name": "Test Set", "release_date": "2021-03-20"}


def card(n: int = 1, **overrides: Any) -> dict[str, Any]:
    values: dict[str, Any] = {
        "number": f"T01-{n:03d}",
        "name": f"Card {n}",
        "type": "unit",
        "faction": "Red",
        "attributes": ["Human"],
        "level": 2,
        "atk": 2,
        "hp": 3,
        "stk": 1,
        "cnt": False,
        "legend": False,
        "rarity": "C",
        "text": "Text.",
    }
    values.update(overrides)
    return values


def parsed(*cards: dict[str, Any], card_set: Any = SET, name: str = "t.json") -> ParsedFile:
    raw = json.dumps({"set": card_set, "cards": list(cards)}).encode()
    return parse_card_file(name, raw)


def table_snapshot() -> dict[str, list[tuple[Any, ...]]]:
    return {
        "sets": list(CardSet.objects.values_list("id", "code", "name", "release_date")),
        "factions": list(Faction.objects.values_list("id", "name", "slug")),
        "attributes": list(Attribute.objects.values_list("id", "name")),
        "cards": list(
            Card.objects.values_list(
                "id",
                "name",
                "type",
                "faction_id",
                "level",
                "atk",
                "hp",
                "stk",
                "cnt",
                "legend",
                "text",
                "name_ja",
            )
        ),
        "links": sorted(Card.attributes.through.objects.values_list("card_id", "attribute_id")),
        "printings": list(Printing.objects.values_list("id", "collector_number", "card_id", "card_set_id", "rarity")),
    }


def test_it_creates_sets_cards_printings_factions_and_attributes():
    result = card_files_import(paths=SAMPLES)

    assert result.counts() == {
        "files": 2,
        "sets_created": 2,
        "sets_updated": 0,
        "sets_unchanged": 0,
        "cards_created": 8,  # Flame Knight is printed three times
        "cards_updated": 0,
        "cards_unchanged": 0,
        "printings_created": 10,
        "printings_updated": 0,
        "printings_unchanged": 0,
        "factions_created": 4,
        "attributes_created": 6,
    }
    knight = Card.objects.get(name="Flame Knight")
    assert (knight.type, knight.faction.name, knight.level, knight.name_ja) == (
        "unit",
        "Red",
        3,
        "炎の騎士",
    )
    assert sorted(a.name for a in knight.attributes.all()) == ["Human", "Knight"]
    assert sorted(knight.printings.values_list("collector_number", "card_set__code", "rarity")) == [
        ("GR01-001", "GR01", "C"),
        ("GR01-001P", "GR01", "P"),
        ("GR02-002", "GR02", "C"),
    ]
    energy = Card.objects.get(name="Red Energy")
    assert (energy.type, energy.faction, energy.level) == ("energy", None, None)
    assert Card.objects.get(name="Void Bargain").level == -2
    assert CardSet.objects.get(code="GR02").release_date == datetime.date(2021, 3, 20)
    assert Faction.objects.get(name="Red").slug == "red"


def test_it_is_a_no_op_on_second_run(django_assert_max_num_queries):
    card_files_import(paths=SAMPLES)
    before = table_snapshot()

    with django_assert_max_num_queries(12) as captured:
        result = card_files_import(paths=SAMPLES)

    writes = [
        q["sql"]
        for q in captured.captured_queries
        if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
    ]
    assert writes == []
    assert table_snapshot() == before
    counts = result.counts()
    assert [counts[k] for k in counts if k.endswith(("_created", "_updated"))] == [0] * 8
    assert (
        counts["sets_unchanged"],
        counts["cards_unchanged"],
        counts["printings_unchanged"],
    ) == (2, 8, 10)
    assert result.card_changes == ()


def test_it_updates_a_changed_rules_field_and_reports_the_diff():
    existing = CardFactory(name="Card 1", faction=FactionFactory(name="Red"), atk=1, hp=3, text="Old.")
    existing.attributes.set([AttributeFactory(name="Human")])

    result = card_catalog_import(files=[parsed(card(1, atk=3, text="New."))])

    existing.refresh_from_db()
    assert (existing.atk, existing.text) == (3, "New.")
    assert result.counts()["cards_updated"] == 1
    (change,) = result.card_changes
    assert (change.card_id, change.name) == (existing.pk, "Card 1")
    assert change.changes == (
        FieldChange("atk", 1, 3),
        FieldChange("text", "Old.", "New."),
    )


def test_it_replaces_changed_attributes_and_reports_them():
    existing = CardFactory(
        name="Card 1",
        faction=FactionFactory(name="Red"),
        atk=2,
        hp=3,
        stk=1,
        text="Text.",
    )
    existing.attributes.set([AttributeFactory(name="Human"), AttributeFactory(name="Old")])

    result = card_catalog_import(files=[parsed(card(1, attributes=["Human", "Knight"]))])

    assert sorted(existing.attributes.values_list("name", flat=True)) == [
        "Human",
        "Knight",
    ]
    (change,) = result.card_changes
    assert change.changes == (FieldChange("attributes", ("Human", "Old"), ("Human", "Knight")),)
    assert Attribute.objects.filter(name="Old").exists()  # unused attributes stay


def test_it_reports_a_faction_change_by_name():
    existing = CardFactory(
        name="Card 1",
        faction=FactionFactory(name="Blue"),
        atk=2,
        hp=3,
        stk=1,
        text="Text.",
    )
    existing.attributes.set([AttributeFactory(name="Human")])

    result = card_catalog_import(files=[parsed(card(1, faction="Red"))])

    existing.refresh_from_db()
    assert existing.faction.name == "Red"
    assert result.card_changes[0].changes == (FieldChange("faction", "Blue", "Red"),)
    assert result.factions_created == 1


def test_it_turns_a_unit_into_energy_when_the_file_says_so():
    CardFactory(name="Card 1")

    card_catalog_import(files=[parsed(card(1, type="energy", faction=None, level=None, attributes=[]))])

    assert Card.objects.filter(name="Card 1", type="energy", faction=None, level=None).exists()


def test_it_moves_a_printing_to_another_set_and_rarity_by_collector_number():
    printing = PrintingFactory(
        collector_number="T01-001",
        card=CardFactory(name="Card 1"),
        card_set=CardSetFactory(code="OLD"),
        rarity="C",
    )

    result = card_catalog_import(files=[parsed(card(1, rarity="SR"))])

    printing.refresh_from_db()
    assert (printing.card_set.code, printing.rarity) == ("T01", "SR")
    assert Printing.objects.count() == 1
    assert result.counts()["printings_updated"] == 1


def test_it_moves_a_printing_to_the_card_its_name_now_says():
    printing = PrintingFactory(collector_number="T01-001", card=CardFactory(name="Misprint"))

    card_catalog_import(files=[parsed(card(1, name="Right Name"))])

    printing.refresh_from_db()
    assert printing.card.name == "Right Name"
    assert Card.objects.filter(name="Misprint").exists()  # cards are never deleted


def test_it_updates_a_set_name_and_release_date():
    CardSetFactory(code="T01", name="Working Title", release_date=None)

    result = card_catalog_import(files=[parsed(card(1))])

    card_set = CardSet.objects.get(code="T01")
    assert (card_set.name, card_set.release_date) == (
        "Test Set",
        datetime.date(2021, 3, 20),
    )
    assert (result.sets.created, result.sets.updated) == (0, 1)


def test_it_gives_a_new_faction_a_free_slug():
    FactionFactory(name="RED!", slug="red")

    card_catalog_import(files=[parsed(card(1, faction="Red"))])

    assert Faction.objects.get(name="Red").slug == "red-2"


def test_it_writes_nothing_when_any_file_is_bad(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "set_code,set_name,number,name,type,faction,level\n"
        "T09,Bad Set,T09-001,Fine,unit,Red,1\n"
        "T09,Bad Set,T09-002,Broken,unit,Red,two\n",
        encoding="utf-8",
    )

    with pytest.raises(ImportFileError) as excinfo:
        card_files_import(paths=[*SAMPLES, str(bad)])

    assert [str(e) for e in excinfo.value.errors] == [f"{bad}: row 3, field \"level\": 'two' is not an integer"]
    assert (
        CardSet.objects.count(),
        Card.objects.count(),
        Printing.objects.count(),
    ) == (0, 0, 0)
    assert (Faction.objects.count(), Attribute.objects.count()) == (0, 0)


def test_it_reports_the_errors_of_every_bad_file(tmp_path):
    first = tmp_path / "first.json"
    first.write_text('{"set": ')
    second = tmp_path / "second.txt"
    second.write_text("")

    with pytest.raises(ImportFileError) as excinfo:
        card_files_import(paths=[str(first), str(tmp_path / "missing.csv"), str(second)])

    assert [e.file for e in excinfo.value.errors] == [
        str(first),
        str(tmp_path / "missing.csv"),
        str(second),
    ]
    assert excinfo.value.errors[1].message == "cannot read file: No such file or directory"


def test_it_rejects_files_that_conflict_with_each_other():
    first = parsed(card(1), name="a.json")
    second = parsed(card(1, name="Other"), name="b.json")

    with pytest.raises(ImportFileError) as excinfo:
        card_catalog_import(files=[first, second])

    assert str(excinfo.value) == (
        "b.json: cards[0], field \"number\": collector number 'T01-001' is already used at a.json cards[0]"
    )
    assert CardSet.objects.count() == 0


def test_it_keeps_the_database_unchanged_when_a_write_fails(monkeypatch):
    from cards import services

    def explode(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(services, "_printings_upsert", explode)

    with pytest.raises(RuntimeError):
        card_catalog_import(files=[parsed(card(1))])

    assert (CardSet.objects.count(), Card.objects.count(), Faction.objects.count()) == (
        0,
        0,
        0,
    )


def test_it_imports_many_rows_in_few_queries(django_assert_max_num_queries):
    cards = [card(n, name=f"Card {n // 2}", attributes=[f"A{n % 7}"]) for n in range(1, 1201)]
    # Printings of one name must agree on attributes: give both printings the same one.
    for values in cards:
        values["attributes"] = [f"A{int(values['name'].split()[1]) % 7}"]
    file = parsed(*cards)

    with django_assert_max_num_queries(40):
        result = card_catalog_import(files=[file])

    assert (result.cards.created, result.printings.created) == (601, 1200)
    assert Card.attributes.through.objects.count() == 601

    with django_assert_max_num_queries(25):
        again = card_catalog_import(files=[file])

    assert (again.cards.unchanged, again.printings.unchanged) == (601, 1200)
