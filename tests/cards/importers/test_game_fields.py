"""Pure tests of the import of cards of the games besides Gate Ruler: each card checked against its
game's card_fields (data/games/<slug>.json), every error naming file, row and field."""

from __future__ import annotations

import csv
import io
import json

import pytest

from cards.games import game_get
from cards.importers.parsing import card_fields_errors, parse_card_file
from cards.importers.records import ImportFileError
from tests.cards.factories import card_row, game_set_file, gr_card_row, rg_card_row, set_file


def errors_of(name: str, raw: bytes) -> list[str]:
    with pytest.raises(ImportFileError) as caught:
        parse_card_file(name, raw)
    return [str(e) for e in caught.value.errors]


def test_a_rulers_gambit_file_gives_cards_of_its_game_with_their_fields():
    raw = game_set_file(
        "rulers-gambit",
        rg_card_row(1, colours=["Blue", "red"]),
        rg_card_row(2, type="spell", race=None, attack=None, defence=None, critical=None, spell_type="Quick-Play"),
        rg_card_row(
            3, type="kingdom-ruler", cost=None, colours=["yellow"], lp=25, awakening_cost=None, ruler_name="King"
        ),
    )
    unit, spell, kingdom = parse_card_file("rg.json", raw).cards

    assert (unit.game, unit.type, unit.set_code) == ("rulers-gambit", "unit", "RGT")
    # Choices by key or label, in any case, kept in the game's order.
    assert unit.fields == {
        "colours": ["blue", "red"],
        "cost": 2,
        "race": "Elf",
        "attack": 3,
        "defence": 2,
        "critical": 1,
    }
    assert spell.fields == {"colours": ["red"], "cost": 2, "spell_type": "quick-play"}
    assert kingdom.fields["ruler_name"] == "King"
    assert kingdom.fields["awakening_cost"] is None
    assert (unit.faction, unit.level, unit.attributes) == (None, None, ())


def test_a_null_cost_is_a_free_card():
    (card,) = parse_card_file("rg.json", game_set_file("rulers-gambit", rg_card_row(1, cost=None))).cards
    assert card.fields["cost"] is None


def test_a_file_without_game_is_gate_ruler_as_before():
    (card,) = parse_card_file("gr.json", set_file(card_row(1))).cards
    assert (card.game, card.fields) == ("gate-ruler", {})
    (same,) = parse_card_file("gr.json", game_set_file("gate-ruler", card_row(1))).cards
    assert same == card


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        (
            rg_card_row(1, colours=["red", "pink"]),
            "rg.json: cards[0], field \"colours\": 'pink' is not a colour (blue, red, yellow, green, orange, purple)",
        ),
        (rg_card_row(1, colours=[]), 'rg.json: cards[0], field "colours": is required for Unit cards'),
        (rg_card_row(1, type=None), 'rg.json: cards[0], field "type": is required'),
        (
            rg_card_row(1, type="creature"),
            "rg.json: cards[0], field \"type\": 'creature' is not a card type of Ruler's Gambit (unit, spell, kingdom-ruler)",
        ),
        (
            rg_card_row(1, level=2),
            'rg.json: cards[0], field "level": is not a field of Ruler\'s Gambit cards (they have number, name, type, '
            "rarity, text, colours, cost, race, attack, defence, critical, spell_type, lp, awakening_cost, ruler_name)",
        ),
        (
            rg_card_row(1, spell_type="normal"),
            'rg.json: cards[0], field "spell_type": Unit cards have no Spell type (only spell cards have it)',
        ),
        (
            rg_card_row(1, type="spell", race=None, attack=None, defence=None, critical=None),
            'rg.json: cards[0], field "spell_type": is required for Spell cards',
        ),
        (rg_card_row(1, cost="2"), 'rg.json: cards[0], field "cost": "2" is not an integer'),
        (rg_card_row(1, race=5), 'rg.json: cards[0], field "race": 5 is not a string'),
    ],
)
def test_a_bad_rulers_gambit_card_names_file_row_and_field(row, expected):
    assert errors_of("rg.json", game_set_file("rulers-gambit", row)) == [expected]


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        (
            gr_card_row(1, type="action", cost=1, power=None, health=None, level=2),
            'gr.json: cards[0], field "level": Action cards have no Level (only unit cards have it)',
        ),
        (gr_card_row(1, level=None), 'gr.json: cards[0], field "level": is required for Unit cards'),
        (gr_card_row(1, instant="yes"), 'gr.json: cards[0], field "instant": "yes" is not a boolean (true or false)'),
        (
            gr_card_row(1, type="gate", level=None, power=None, health=None, instant=None, colours=["red"]),
            'gr.json: cards[0], field "colours": is not a field of GateRunners cards (they have number, name, type, '
            "rarity, text, level, cost, power, health, instant)",
        ),
    ],
)
def test_a_bad_gaterunners_card_names_file_row_and_field(row, expected):
    assert errors_of("gr.json", game_set_file("gaterunners", row)) == [expected]


def test_every_bad_row_is_reported_and_nothing_is_kept():
    raw = game_set_file("gaterunners", gr_card_row(1), gr_card_row(2, level="x"), gr_card_row(3, type=None))
    assert errors_of("gr.json", raw) == [
        'gr.json: cards[1], field "level": "x" is not an integer',
        'gr.json: cards[2], field "type": is required',
    ]


def test_an_unknown_game_is_an_error_naming_it():
    assert errors_of("x.json", game_set_file("chess", gr_card_row(1))) == [
        "x.json: field \"game\": unknown game 'chess'; games are gate-ruler, gaterunners, rulers-gambit"
    ]


def test_printings_of_a_name_in_two_games_disagree():
    rg = json.loads(game_set_file("rulers-gambit", rg_card_row(1, name="Twin")))
    gr = json.loads(game_set_file("gaterunners", gr_card_row(1, name="Twin")))
    from cards.importers.consistency import consistency_errors
    from cards.importers.records import ParsedFile

    files = [
        ParsedFile("rg.json", (), parse_card_file("rg.json", json.dumps(rg).encode()).cards),
        ParsedFile("gr.json", (), parse_card_file("gr.json", json.dumps(gr).encode()).cards),
    ]
    fields = {e.field for e in consistency_errors(files)}
    assert fields == {"game", "fields"}


def csv_file(rows: list[dict[str, str]]) -> bytes:
    columns = list(dict.fromkeys(k for row in rows for k in row))
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().encode()


CSV_SET = {"set_code": "MIX", "set_name": "Mixed", "release_date": "2025-06-01"}


def test_a_csv_row_takes_its_game_from_its_game_column():
    raw = csv_file(
        [
            {
                **CSV_SET,
                "game": "rulers-gambit",
                "number": "M-1",
                "name": "A",
                "type": "spell",
                "colours": "red/blue",
                "cost": "",
                "spell_type": "set",
                "level": "",
                "faction": "",
            },
            {
                **CSV_SET,
                "game": "rulers-gambit",
                "number": "M-2",
                "name": "B",
                "type": "unit",
                "colours": "green",
                "cost": "1",
                "spell_type": "",
                "level": "",
                "faction": "",
            },
        ]
    )
    spell, unit = parse_card_file("mix.csv", raw).cards
    assert spell.fields == {"colours": ["blue", "red"], "cost": None, "spell_type": "set"}
    assert (unit.game, unit.fields["colours"], unit.fields["cost"]) == ("rulers-gambit", ["green"], 1)


def test_a_csv_row_of_another_game_with_a_gate_ruler_value_is_an_error():
    raw = csv_file([{**CSV_SET, "game": "gaterunners", "number": "M-1", "name": "A", "type": "gate", "faction": "Red"}])
    assert errors_of("mix.csv", raw) == [
        'mix.csv: row 2, field "faction": is not a field of GateRunners cards (they have number, name, type, '
        "rarity, text, level, cost, power, health, instant)"
    ]


def test_a_csv_row_of_an_unknown_game_names_row_and_field():
    raw = csv_file([{**CSV_SET, "game": "go", "number": "M-1", "name": "A", "type": "gate"}])
    assert errors_of("mix.csv", raw) == [
        "mix.csv: row 2, field \"game\": unknown game 'go'; games are gate-ruler, gaterunners, rulers-gambit"
    ]


def test_a_set_code_in_two_games_is_an_error():
    raw = csv_file(
        [
            {**CSV_SET, "game": "gaterunners", "number": "M-1", "name": "A", "type": "gate"},
            {**CSV_SET, "game": "rulers-gambit", "number": "M-2", "name": "B", "type": "unit", "colours": "red"},
        ]
    )
    assert errors_of("mix.csv", raw) == [
        "mix.csv: row 3, field \"game\": set 'MIX' has 'rulers-gambit' here but 'gaterunners' at row 2"
    ]


def test_a_stored_cards_fields_are_checked_like_an_imported_rows():
    game = game_get("gaterunners")
    assert card_fields_errors(game, "unit", {"level": 1, "power": 1, "health": 1, "instant": True}) == []
    messages = [(e.field, e.message) for e in card_fields_errors(game, "gate", {"level": 1})]
    assert messages == [("level", "Gate cards have no Level (only unit cards have it)")]
