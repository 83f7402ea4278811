"""Japanese faction names: data/factions.json into the faction table, so `f:ウォルナー` finds cards."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from cards.faction_names import FactionFileError, faction_names_parse
from cards.models import Faction
from cards.search import Field, parse_card_query
from cards.selectors import card_search
from tests.cards.factories import CardFactory, FactionFactory

pytestmark = pytest.mark.django_db

PRACTICE_DIR = Path(__file__).resolve().parents[2] / "data" / "practice"


@pytest.fixture
def practice_set(rules: None) -> None:
    """The fictional practice set, imported as `make data` does (its factions are the real five)."""
    from cards.services import card_files_import

    card_files_import(paths=[str(p) for p in sorted(PRACTICE_DIR.glob("*.json"))])


def test_the_import_names_new_factions_in_japanese(practice_set: None) -> None:
    names = dict(Faction.objects.values_list("name", "name_ja"))
    assert names["Volnar"] == "ウォルナー"
    assert names["Yomajin Front"] == "東妖軍"
    assert names["Wonderverse"] == "マジカルユニバース"


@pytest.mark.parametrize("query", ["f:ウォルナー", "勢力:ウォルナー", "f:うぉるなー", "f:東妖軍"])
def test_a_japanese_faction_name_finds_its_cards(practice_set: None, query: str) -> None:
    result = card_search(query=query, limit=200)
    assert result.error is None
    assert result.total > 0
    expected = "Yomajin Front" if "東妖軍" in query else "Volnar"
    assert {card.faction.name for card in result.cards} == {expected}


def test_load_factions_fills_the_japanese_names_of_factions_imported_before(db: None) -> None:
    # As a catalog imported before the fix holds them: no Japanese names.
    volnar = FactionFactory(name="Volnar", name_ja="")
    CardFactory(name="Ember Squire", faction=volnar, level=1)
    assert card_search(query="f:ウォルナー").total == 0

    out = StringIO()
    call_command("load_factions", stdout=out)

    volnar.refresh_from_db()
    assert volnar.name_ja == "ウォルナー"
    assert "4 created, 1 updated, 0 unchanged" in out.getvalue()
    assert [c.name for c in card_search(query="f:ウォルナー").cards] == ["Ember Squire"]
    # A second load changes nothing.
    out = StringIO()
    call_command("load_factions", stdout=out)
    assert "0 created, 0 updated, 5 unchanged" in out.getvalue()


def test_a_bad_factions_file_names_its_row_and_field(tmp_path) -> None:
    path = tmp_path / "factions.json"
    path.write_text('[{"name": "Volnar", "name_ja": "ウォルナー"}, {"name": "ATLAS", "name_ja": ""}]', encoding="utf-8")
    with pytest.raises(CommandError, match=r"factions.json, row 2, field name_ja: expected a non-empty string"):
        call_command("load_factions", file=path)
    with pytest.raises(FactionFileError, match=r"x.json: not JSON"):
        faction_names_parse(b"{", source="x.json")


@pytest.mark.parametrize(
    ("query", "field", "value", "op"),
    [
        ("勢力:ウォルナー", Field.FACTION, "うぉるな", "="),
        ("レベル<=2", Field.LEVEL, 2, "<="),
        ("レベル:3", Field.LEVEL, 3, "="),
        ("種類:unit", Field.TYPE, "unit", "="),
        ("タイプ:ev", Field.TYPE, "event", "="),
        ("属性:dragon", Field.ATTRIBUTE, "dragon", "="),
        ("セット:PS01", Field.SET, "ps01", "="),
        ("カードセット:PS01", Field.SET, "ps01", "="),
    ],
)
def test_search_takes_japanese_field_names(query: str, field: Field, value: object, op: str) -> None:
    (term,) = parse_card_query(query).terms
    assert (term.field, term.value, term.op) == (field, value, op)


def test_other_japanese_before_a_colon_stays_text() -> None:
    (term,) = parse_card_query("効果:ドロー").terms
    assert term.field is Field.TEXT
