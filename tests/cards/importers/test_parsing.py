"""Pure tests of the set-file parser: no Django, no database."""

from __future__ import annotations

import json
import pickle
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from cards.importers.consistency import consistency_errors
from cards.importers.parsing import parse_card_file
from cards.importers.records import (
    RULES_FIELDS,
    ImportFileError,
    ParsedFile,
    RowError,
)

DATA = Path(__file__).resolve().parents[2] / "data"

SET = {"code": "T01", "name": "Test Set", "release_date": "2021-03-20"}
CSV_COLUMNS = [
    "set_code",
    "set_name",
    "release_date",
    "number",
    "name",
    "name_ja",
    "type",
    "faction",
    "attributes",
    "level",
    "atk",
    "hp",
    "stk",
    "cnt",
    "legend",
    "rarity",
    "text",
]


def card(n: int = 1, **overrides: Any) -> dict[str, Any]:
    values: dict[str, Any] = {
        "number": f"T01-{n:03d}",
        "name": f"Card {n}",
        "name_ja": None,
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


def energy(n: int = 1, **overrides: Any) -> dict[str, Any]:
    values = card(n, type="energy", faction=None, level=None, attributes=[])
    values.update(overrides)
    return values


def json_file(*cards: dict[str, Any], card_set: Any = SET) -> bytes:
    return json.dumps({"set": card_set, "cards": list(cards)}).encode()


def csv_row(n: int = 1, **overrides: str) -> dict[str, str]:
    values = {
        "set_code": "T01",
        "set_name": "Test Set",
        "release_date": "2021-03-20",
        "number": f"T01-{n:03d}",
        "name": f"Card {n}",
        "name_ja": "",
        "type": "unit",
        "faction": "Red",
        "attributes": "Human",
        "level": "2",
        "atk": "2",
        "hp": "3",
        "stk": "1",
        "cnt": "false",
        "legend": "false",
        "rarity": "C",
        "text": "Text.",
    }
    values.update(overrides)
    return values


def _csv_cell(value: str) -> str:
    if any(c in value for c in ',"\n'):
        return '"' + value.replace('"', '""') + '"'
    return value


def csv_file(*rows: dict[str, str], columns: list[str] = CSV_COLUMNS) -> bytes:
    lines = [",".join(columns)]
    lines += [",".join(_csv_cell(row.get(c, "")) for c in columns) for row in rows]
    return ("\n".join(lines) + "\n").encode()


def errors_of(name: str, raw: bytes) -> list[str]:
    with pytest.raises(ImportFileError) as excinfo:
        parse_card_file(name, raw)
    return [str(e) for e in excinfo.value.errors]


# --- the sample files -------------------------------------------------------------------


def test_it_parses_the_sample_json_file():
    parsed = parse_card_file("cards_small.json", (DATA / "cards_small.json").read_bytes())

    assert parsed.name == "cards_small.json"
    assert [(s.code, s.release_date) for s in parsed.sets] == [("GR01", date(2020, 11, 26))]
    assert len(parsed.cards) == 6
    knight = parsed.cards[0]
    assert (knight.collector_number, knight.name, knight.name_ja) == (
        "GR01-001",
        "Flame Knight",
        "炎の騎士",
    )
    assert knight.attributes == ("Human", "Knight")
    assert knight.row == "cards[0]"
    assert parsed.cards[2].level == -2
    assert parsed.cards[4].type == "energy"
    assert (parsed.cards[4].faction, parsed.cards[4].level) == (None, None)


def test_it_parses_the_sample_csv_file():
    parsed = parse_card_file("cards_small.csv", (DATA / "cards_small.csv").read_bytes())

    assert [s.code for s in parsed.sets] == ["GR02"]
    drake, knight, blue, pact = parsed.cards
    assert drake.text.startswith("Flying.\nWhen this unit enters")
    assert (drake.cnt, drake.legend) == (False, True)
    assert drake.attributes == ("Dragon", "Flying")
    assert knight.row == "row 4"  # the drake's text spans lines 2 and 3
    assert (blue.type, blue.faction, blue.level, blue.atk) == (
        "energy",
        None,
        None,
        None,
    )
    assert pact.level == -1


def test_it_agrees_with_the_json_sample_on_shared_cards():
    json_file_ = parse_card_file("cards_small.json", (DATA / "cards_small.json").read_bytes())
    csv_file_ = parse_card_file("cards_small.csv", (DATA / "cards_small.csv").read_bytes())

    assert consistency_errors([json_file_, csv_file_]) == []


# --- values -----------------------------------------------------------------------------


def test_it_reads_every_json_field():
    (record,) = parse_card_file(
        "x.json",
        json_file(
            card(
                7,
                name_ja="カード",
                attributes=["Knight", "Human", "Knight"],
                level=-3,
                cnt=True,
                legend=True,
                text="  Spaced.  ",
            )
        ),
    ).cards

    assert record.collector_number == "T01-007"
    assert record.set_code == "T01"
    assert record.name_ja == "カード"
    assert record.attributes == ("Human", "Knight")
    assert record.level == -3
    assert (record.cnt, record.legend) == (True, True)
    assert record.text == "Spaced."


def test_it_treats_missing_optional_json_fields_as_null():
    minimal = {
        "number": "T01-001",
        "name": "Bare",
        "type": "unit",
        "faction": "Red",
        "level": 1,
    }

    (record,) = parse_card_file("x.json", json_file(minimal)).cards

    assert (record.atk, record.hp, record.stk) == (None, None, None)
    assert (record.cnt, record.legend) == (False, False)
    assert (record.attributes, record.text, record.name_ja, record.rarity) == (
        (),
        "",
        "",
        "",
    )


def test_it_treats_empty_csv_cells_as_null():
    raw = csv_file(csv_row(atk="", hp=" ", stk="", cnt="", legend="", attributes="", text=""))

    (record,) = parse_card_file("x.csv", raw).cards

    assert (record.atk, record.hp, record.stk) == (None, None, None)
    assert (record.cnt, record.legend, record.attributes, record.text) == (
        False,
        False,
        (),
        "",
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("true", True),
        ("TRUE", True),
        ("1", True),
        ("yes", True),
        ("Yes", True),
        ("false", False),
        ("False", False),
        ("0", False),
        ("no", False),
        ("NO", False),
        ("", False),
    ],
)
def test_it_reads_csv_booleans(text, expected):
    (record,) = parse_card_file("x.csv", csv_file(csv_row(cnt=text, legend=text))).cards

    assert (record.cnt, record.legend) == (expected, expected)


@pytest.mark.parametrize("level", ["-2", "0", "+4", " 12 "])
def test_it_reads_csv_integers_including_negative_levels(level):
    (record,) = parse_card_file("x.csv", csv_file(csv_row(level=level))).cards

    assert record.level == int(level)


def test_it_accepts_energy_cards_without_faction_or_level():
    parsed = parse_card_file("x.json", json_file(energy(1), energy(2, type="Energy")))

    assert [(c.type, c.faction, c.level) for c in parsed.cards] == [
        ("energy", None, None),
        ("energy", None, None),
    ]


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        ("x.csv", b"\xef\xbb\xbf" + csv_file(csv_row())),
        ("x.json", b"\xef\xbb\xbf" + json_file(card())),
    ],
)
def test_it_accepts_a_utf8_bom(name, raw):
    parsed = parse_card_file(name, raw)

    assert parsed.cards[0].collector_number == "T01-001"
    assert parsed.sets[0].code == "T01"


def test_it_accepts_a_null_release_date():
    parsed = parse_card_file("x.json", json_file(card(), card_set={**SET, "release_date": None}))
    from_csv = parse_card_file("x.csv", csv_file(csv_row(release_date="")))

    assert parsed.sets[0].release_date is None
    assert from_csv.sets[0].release_date is None


def test_it_allows_printings_of_a_name_to_differ_in_number_and_rarity():
    parsed = parse_card_file(
        "x.json",
        json_file(
            card(1, name="Twin", rarity="C", attributes=["A", "B"]),
            card(2, name="Twin", rarity="SR", attributes=["B", "A"]),
        ),
    )

    assert [c.rarity for c in parsed.cards] == ["C", "SR"]


def test_it_reads_several_sets_from_one_csv():
    parsed = parse_card_file(
        "x.csv",
        csv_file(
            csv_row(1),
            csv_row(2, set_code="T02", set_name="Other", release_date=""),
        ),
    )

    assert [(s.code, s.row) for s in parsed.sets] == [
        ("T01", "row 2"),
        ("T02", "row 3"),
    ]
    assert [c.set_code for c in parsed.cards] == ["T01", "T02"]


def test_it_skips_blank_csv_lines_but_keeps_counting_them():
    raw = csv_file(csv_row(1)) + b"\n" + b",".join([b""] * len(CSV_COLUMNS)) + b"\n"
    raw += csv_file(csv_row(2, level="x")).split(b"\n", 1)[1]

    assert errors_of("x.csv", raw) == ["x.csv: row 5, field \"level\": 'x' is not an integer"]


# --- errors -----------------------------------------------------------------------------


def test_it_names_file_row_and_field_in_a_csv_error():
    raw = csv_file(csv_row(1), csv_row(2), csv_row(3), csv_row(4, level="two"))

    assert errors_of("data/x.csv", raw) == ["data/x.csv: row 5, field \"level\": 'two' is not an integer"]


def test_it_numbers_csv_rows_by_physical_line():
    raw = csv_file(csv_row(1, text="Line one.\nLine two.\nLine three."), csv_row(2, atk="many"))

    assert errors_of("x.csv", raw) == ["x.csv: row 5, field \"atk\": 'many' is not an integer"]


def test_it_names_the_card_index_in_a_json_error():
    raw = json_file(card(0), card(1), card(2), card(3, level="two"))

    assert errors_of("data/x.json", raw) == ['data/x.json: cards[3], field "level": "two" is not an integer']


def test_it_reports_every_bad_row():
    raw = csv_file(
        csv_row(1, level="x"),
        csv_row(2),
        csv_row(3, type="spell"),
        csv_row(4, cnt="maybe", hp="1.5"),
    )

    assert errors_of("x.csv", raw) == [
        "x.csv: row 2, field \"level\": 'x' is not an integer",
        "x.csv: row 4, field \"type\": 'spell' is not a card type (unit, event, field, energy)",
        "x.csv: row 5, field \"hp\": '1.5' is not an integer",
        "x.csv: row 5, field \"cnt\": 'maybe' is not a boolean (true/false, 1/0 or yes/no)",
    ]


def test_it_caps_the_message_but_keeps_every_error():
    raw = csv_file(*(csv_row(n, level="x") for n in range(1, 61)))

    with pytest.raises(ImportFileError) as excinfo:
        parse_card_file("x.csv", raw)

    assert len(excinfo.value.errors) == 60
    lines = str(excinfo.value).splitlines()
    assert len(lines) == 51
    assert lines[-1] == "… and 10 more errors"


@pytest.mark.parametrize("value", ["2", 2.5, 2.0, True, [2], {"n": 2}])
def test_it_rejects_json_integers_of_another_type(value):
    errors = errors_of("x.json", json_file(card(atk=value)))

    assert errors == [f'x.json: cards[0], field "atk": {json.dumps(value)} is not an integer']


@pytest.mark.parametrize("value", ["two", "2.5", "1e3", "0x10", "--1", "٣"])
def test_it_rejects_csv_integers_that_are_not_integer_text(value):
    errors = errors_of("x.csv", csv_file(csv_row(stk=value)))

    assert errors == [f'x.csv: row 2, field "stk": {value!r} is not an integer']


def test_it_rejects_integers_out_of_range():
    errors = errors_of("x.json", json_file(card(hp=2**40)))

    assert errors == [f'x.json: cards[0], field "hp": {2**40} is out of range']


@pytest.mark.parametrize("value", ["true", 1, 0, "yes"])
def test_it_rejects_a_json_boolean_of_another_type(value):
    errors = errors_of("x.json", json_file(card(legend=value)))

    assert errors == [f'x.json: cards[0], field "legend": {json.dumps(value)} is not a boolean (true or false)']


def test_it_rejects_a_bad_csv_boolean():
    assert errors_of("x.csv", csv_file(csv_row(legend="y"))) == [
        "x.csv: row 2, field \"legend\": 'y' is not a boolean (true/false, 1/0 or yes/no)"
    ]


@pytest.mark.parametrize("field", ["number", "name", "type"])
@pytest.mark.parametrize("value", [None, "", "   ", "missing"])
def test_it_rejects_a_json_card_without_a_required_field(field, value):
    values = card()
    if value == "missing":
        del values[field]
    else:
        values[field] = value

    assert errors_of("x.json", json_file(values)) == [f'x.json: cards[0], field "{field}": is required']


@pytest.mark.parametrize("field", ["number", "name", "type", "set_code", "set_name"])
def test_it_rejects_a_csv_row_without_a_required_field(field):
    assert errors_of("x.csv", csv_file(csv_row(**{field: ""}))) == [f'x.csv: row 2, field "{field}": is required']


@pytest.mark.parametrize("field", ["faction", "level"])
@pytest.mark.parametrize("card_type", ["unit", "event", "field"])
def test_it_requires_faction_and_level_unless_energy(field, card_type):
    assert errors_of("x.json", json_file(card(type=card_type, **{field: None}))) == [
        f'x.json: cards[0], field "{field}": is required (only energy cards have none)'
    ]


def test_it_rejects_an_energy_card_with_a_faction_or_level():
    raw = csv_file(csv_row(type="energy", faction="Red", level="1"))

    assert errors_of("x.csv", raw) == [
        'x.csv: row 2, field "faction": an energy card has no faction',
        'x.csv: row 2, field "level": an energy card has no level',
    ]


@pytest.mark.parametrize("name", ["x.json", "x.csv"])
def test_it_rejects_an_unknown_type(name):
    raw = json_file(card(type="spell")) if name == "x.json" else csv_file(csv_row(type="spell"))
    row = "cards[0]" if name == "x.json" else "row 2"

    assert errors_of(name, raw) == [
        f"{name}: {row}, field \"type\": 'spell' is not a card type (unit, event, field, energy)"
    ]


def test_it_rejects_a_collector_number_twice_in_a_file():
    raw = csv_file(csv_row(1), csv_row(2), csv_row(3, number="T01-001"))

    assert errors_of("x.csv", raw) == [
        "x.csv: row 4, field \"number\": collector number 'T01-001' is already used at row 2"
    ]


@pytest.mark.parametrize(
    ("field", "other"),
    [
        ("type", "event"),
        ("faction", "Blue"),
        ("attributes", ["Elf"]),
        ("level", 5),
        ("atk", 9),
        ("hp", None),
        ("stk", 2),
        ("cnt", True),
        ("legend", True),
        ("text", "Other text."),
        ("name_ja", "別名"),
    ],
)
def test_it_rejects_printings_of_a_name_that_disagree_on_a_rules_field(field, other):
    raw = json_file(card(1, name="Twin"), card(2, name="Twin", **{field: other}))

    errors = errors_of("x.json", raw)

    assert len(errors) == 1
    assert errors[0].startswith(f"x.json: cards[1], field \"{field}\": printings of 'Twin' disagree: ")
    assert errors[0].endswith(" at cards[0]")


def test_it_checks_every_rules_field_for_disagreement():
    assert set(RULES_FIELDS) == {
        "type",
        "faction",
        "attributes",
        "level",
        "atk",
        "hp",
        "stk",
        "cnt",
        "legend",
        "text",
        "name_ja",
        "game",
        "fields",
    }


@pytest.mark.parametrize("value", ["2021-13-01", "20210320", "2021-3-20", "March 2021", 2021])
def test_it_rejects_a_bad_json_release_date(value):
    errors = errors_of("x.json", json_file(card(), card_set={**SET, "release_date": value}))

    assert len(errors) == 1
    assert errors[0].startswith('x.json: set, field "release_date": ')


def test_it_rejects_a_bad_csv_release_date():
    assert errors_of("x.csv", csv_file(csv_row(release_date="2021-02-30"))) == [
        "x.csv: row 2, field \"release_date\": '2021-02-30' is not a date (YYYY-MM-DD)"
    ]


@pytest.mark.parametrize("field", ["code", "name"])
def test_it_rejects_a_json_set_without_code_or_name(field):
    card_set = {k: v for k, v in SET.items() if k != field}

    assert errors_of("x.json", json_file(card(), card_set=card_set)) == [f'x.json: set, field "{field}": is required']


def test_it_rejects_csv_rows_of_one_set_that_disagree_on_the_set():
    raw = csv_file(csv_row(1), csv_row(2, set_name="Renamed", release_date="2022-01-01"))

    assert errors_of("x.csv", raw) == [
        "x.csv: row 3, field \"set_name\": set 'T01' has 'Renamed' here but 'Test Set' at row 2",
        "x.csv: row 3, field \"release_date\": set 'T01' has 2022-01-01 here but 2021-03-20 at row 2",
    ]


def test_it_rejects_over_long_values():
    errors = errors_of("x.json", json_file(card(number="N" * 41, rarity="R" * 21)))

    assert errors == [
        'x.json: cards[0], field "number": is longer than 40 characters',
        'x.json: cards[0], field "rarity": is longer than 20 characters',
    ]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("Human", '"Human" is not a list of strings'),
        (["Human", 3], '["Human", 3] is not a list of strings'),
    ],
)
def test_it_rejects_json_attributes_that_are_not_a_list_of_strings(value, message):
    assert errors_of("x.json", json_file(card(attributes=value))) == [
        f'x.json: cards[0], field "attributes": {message}'
    ]


def test_it_rejects_a_json_string_field_of_another_type():
    assert errors_of("x.json", json_file(card(number=12))) == ['x.json: cards[0], field "number": 12 is not a string']


# --- whole-file errors ------------------------------------------------------------------


def test_it_rejects_malformed_json():
    (error,) = errors_of("x.json", b'{"set": {"code": "T01",}')

    assert error.startswith("x.json: malformed JSON: ")
    assert "line 1 column" in error


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        ([], ['x.json: expected a JSON object with "set" and "cards"']),
        (
            {"cards": []},
            ["x.json: set: expected an object with code, name and release_date"],
        ),
        ({"set": SET}, ["x.json: cards: expected a list of cards"]),
        (
            {"set": SET, "cards": [card(), "x"]},
            ["x.json: cards[1]: expected an object"],
        ),
    ],
)
def test_it_rejects_json_of_the_wrong_shape(payload, expected):
    assert errors_of("x.json", json.dumps(payload).encode()) == expected


def test_it_rejects_malformed_csv():
    raw = csv_file(csv_row(1)) + b'T01,Test Set,,T01-002,"Unclosed,unit\n'

    (error,) = errors_of("x.csv", raw)

    assert error.startswith("x.csv: row 3: malformed CSV: ")


def test_it_rejects_a_csv_row_with_the_wrong_number_of_cells():
    raw = csv_file(csv_row(1)) + b"T01,Test Set\n"

    assert errors_of("x.csv", raw) == [f"x.csv: row 3: malformed CSV: 2 cells, the header has {len(CSV_COLUMNS)}"]


def test_it_rejects_a_csv_without_required_columns():
    columns = [c for c in CSV_COLUMNS if c not in ("type", "set_name")]

    assert errors_of("x.csv", csv_file(csv_row(), columns=columns)) == [
        "x.csv: row 1: missing column 'type'",
        "x.csv: row 1: missing column 'set_name'",
    ]


def test_it_rejects_a_csv_with_a_duplicate_column():
    assert errors_of("x.csv", csv_file(csv_row(), columns=[*CSV_COLUMNS, "atk"])) == [
        "x.csv: row 1: duplicate column 'atk'"
    ]


def test_it_rejects_an_empty_csv():
    assert errors_of("x.csv", b"") == ["x.csv: no header row"]


@pytest.mark.parametrize("name", ["cards.txt", "cards", "cards.json.bak"])
def test_it_rejects_an_unknown_extension(name):
    (error,) = errors_of(name, json_file(card()))

    assert error.startswith(f"{name}: unsupported file type ")
    assert error.endswith("expected .json or .csv")


def test_it_accepts_an_uppercase_extension():
    assert len(parse_card_file("X.JSON", json_file(card())).cards) == 1


@pytest.mark.parametrize("name", ["x.csv", "x.json"])
def test_it_rejects_text_that_is_not_utf8(name):
    (error,) = errors_of(name, "Pokémon".encode("latin-1"))

    assert error.startswith(f"{name}: not UTF-8 text: ")


# --- across files -----------------------------------------------------------------------


def test_it_finds_a_collector_number_in_two_files():
    first = parse_card_file("a.json", json_file(card(1)))
    second = parse_card_file("b.csv", csv_file(csv_row(2), csv_row(1, name="Other")))

    assert [str(e) for e in consistency_errors([first, second])] == [
        "b.csv: row 3, field \"number\": collector number 'T01-001' is already used at a.json cards[0]"
    ]


def test_it_finds_printings_that_disagree_across_files():
    first = parse_card_file("a.json", json_file(card(1, name="Twin", atk=2)))
    second = parse_card_file("b.json", json_file(card(2, name="Twin", atk=3)))

    assert [str(e) for e in consistency_errors([first, second])] == [
        "b.json: cards[0], field \"atk\": printings of 'Twin' disagree: 3 here, 2 at a.json cards[0]"
    ]


def test_it_finds_a_set_that_disagrees_across_files():
    first = parse_card_file("a.json", json_file(card(1)))
    second = parse_card_file("b.json", json_file(card(2), card_set={**SET, "name": "New"}))

    assert [str(e) for e in consistency_errors([first, second])] == [
        "b.json: set, field \"name\": set 'T01' has 'New' here but 'Test Set' at a.json set"
    ]


# --- records ----------------------------------------------------------------------------


def test_it_formats_row_errors_with_and_without_row_and_field():
    assert str(RowError("a.csv", "row 2", "hp", "bad")) == 'a.csv: row 2, field "hp": bad'
    assert str(RowError("a.csv", "row 2", None, "bad")) == "a.csv: row 2: bad"
    assert str(RowError("a.csv", "", None, "bad")) == "a.csv: bad"


def test_it_pickles_an_import_file_error_with_its_errors():
    error = ImportFileError([RowError("a.csv", "row 2", "hp", "bad")])

    copy = pickle.loads(pickle.dumps(error))

    assert copy.errors == error.errors
    assert str(copy) == 'a.csv: row 2, field "hp": bad'


def test_it_builds_frozen_records():
    parsed = parse_card_file("x.json", json_file(card()))

    assert isinstance(parsed, ParsedFile)
    with pytest.raises(AttributeError):
        parsed.cards[0].name = "Changed"  # type: ignore[misc]


@pytest.mark.parametrize("field", ["level", "atk"])
def test_it_rejects_a_blank_json_string_as_an_integer(field):
    assert errors_of("x.json", json_file(card(**{field: ""}))) == [
        f'x.json: cards[0], field "{field}": "" is not an integer'
    ]


def test_it_treats_a_blank_json_faction_as_missing():
    assert errors_of("x.json", json_file(card(faction=" "))) == [
        'x.json: cards[0], field "faction": is required (only energy cards have none)'
    ]
