"""Pure tests of the one strictness every game's set files get (issue 24): unknown keys, nesting,
invisible characters, booleans a card type lacks, files without cards and UTF-16, in JSON and CSV."""

from __future__ import annotations

import csv
import io
import json

import pytest

from cards.importers.parsing import MAX_JSON_DEPTH, check_file_content, parse_card_file
from cards.importers.records import ImportFileError
from tests.cards.factories import card_row, game_set_file, gr_card_row, rg_card_row

GAMES = {
    "gate-ruler": ("Gate Ruler", card_row),
    "rulers-gambit": ("Ruler's Gambit", rg_card_row),
    "gaterunners": ("GateRunners", gr_card_row),
}


def errors_of(name: str, raw: bytes) -> list[str]:
    with pytest.raises(ImportFileError) as caught:
        parse_card_file(name, raw)
    return [str(e) for e in caught.value.errors]


def one_card_file(game: str, **overrides: object) -> bytes:
    return game_set_file(game, GAMES[game][1](1, **overrides))


def csv_file(rows: list[dict[str, object]]) -> bytes:
    columns = list(dict.fromkeys(k for row in rows for k in row))
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().encode()


def csv_row(game: str, **overrides: object) -> dict[str, object]:
    """A CSV row of `game`'s card: its JSON row's values as cells (a list joined by "/")."""
    values = {**GAMES[game][1](1), **overrides}
    cells = {
        k: "/".join(v) if isinstance(v, list) else str(v).lower() if isinstance(v, bool) else v
        for k, v in values.items()
    }
    return {"game": game, "set_code": "S1", "set_name": "Set One", "release_date": "2025-06-01", **cells}


# --- unknown keys -----------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_card_field_is_refused_for_every_game(game):
    (error,) = errors_of("x.json", one_card_file(game, evil_field=1))

    assert error.startswith(
        f'x.json: cards[0], field "evil_field": is not a field of {GAMES[game][0]} cards (they have '
    )


def test_a_gate_ruler_unknown_field_lists_the_fields_it_has():
    assert errors_of("x.json", one_card_file("gate-ruler", evil_field=1)) == [
        'x.json: cards[0], field "evil_field": is not a field of Gate Ruler cards (they have number, name, type, '
        "rarity, text, name_ja, faction, attributes, level, atk, hp, stk, cnt, legend)"
    ]


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_csv_column_with_a_value_is_refused_for_every_game(game):
    raw = csv_file([csv_row(game, evil_field="1"), csv_row(game, number="S1-002", name="Other", evil_field="")])

    (error,) = errors_of("x.csv", raw)

    assert error.startswith(f'x.csv: row 2, field "evil_field": is not a field of {GAMES[game][0]} cards')


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_key_of_the_set_or_the_file_is_refused(game):
    body = json.loads(one_card_file(game))
    body["evil_field"] = 1
    body["set"]["evil_set_field"] = 1

    assert errors_of("x.json", json.dumps(body).encode()) == [
        'x.json: field "evil_field": is not a field of a set file (it has game, set, cards)',
        'x.json: set, field "evil_set_field": is not a field of a set (it has code, name, release_date)',
    ]


# --- nesting ----------------------------------------------------------------------------

TOO_DEEP = (
    f"x.json: the JSON nests deeper than {MAX_JSON_DEPTH} levels (line 1); "
    "a set file needs 4 (the file, its cards, a card, a list)"
)


@pytest.mark.parametrize(
    "value",
    ["[" * 50_000 + "]" * 50_000, '{"a": ' * 100_000 + "1" + "}" * 100_000],
    ids=["50000-deep array", "100000-deep object"],
)
def test_a_deeply_nested_card_is_refused_naming_the_file(value):
    raw = one_card_file("gate-ruler", text="PLACEHOLDER").replace(b'"PLACEHOLDER"', value.encode())

    assert errors_of("x.json", raw) == [TOO_DEEP]
    assert [str(e) for e in check_file_content("x.json", raw)] == [TOO_DEEP]


def test_nesting_one_level_past_the_limit_is_refused_and_at_the_limit_is_only_a_wrong_type():
    # The file, cards, a card and the attributes list are 4 levels; a value adds the rest.
    at_limit = "[" * (MAX_JSON_DEPTH - 4) + "]" * (MAX_JSON_DEPTH - 4)
    past = "[" + at_limit + "]"

    assert check_file_content("x.json", one_card_file("gate-ruler", attributes=[json.loads(at_limit)])) == []
    assert errors_of("x.json", one_card_file("gate-ruler", attributes=[json.loads(past)])) == [TOO_DEEP]


def test_brackets_inside_strings_do_not_count():
    text = '[[[[[[[[[[ {{{{{{{{{{ \\" [[[[[[[[[[ "quoted" \\\\'
    raw = one_card_file("gate-ruler", text=text, name='Card "[[[[[[[[["')

    (record,) = parse_card_file("x.json", raw).cards
    assert record.text == text
    assert check_file_content("x.json", raw) == []


def test_an_integer_too_long_to_convert_is_malformed_json():
    raw = one_card_file("gate-ruler", text="PLACEHOLDER").replace(b'"PLACEHOLDER"', b"9" * 5000)

    (error,) = errors_of("x.json", raw)

    assert error.startswith("x.json: malformed JSON: ")


# --- invisible and text-direction characters -------------------------------------------

RLO = "contains U+202E RIGHT-TO-LEFT OVERRIDE; invisible and text-direction control characters are not allowed"


@pytest.mark.parametrize(
    ("game", "field", "value"),
    [
        ("gate-ruler", "name", "Card\u202e 1"),
        ("gate-ruler", "text", "Deal 2.\u202e"),
        ("gate-ruler", "name_ja", "カード\u202e"),
        ("gate-ruler", "faction", "Red\u202e"),
        ("gate-ruler", "rarity", "\u202eC"),
        ("gate-ruler", "number", "T01-\u202e001"),
        ("gate-ruler", "attributes", ["Human", "Elf\u202e"]),
        ("rulers-gambit", "name", "Gambit\u202e Card"),
        ("rulers-gambit", "race", "Elf\u202e"),
        ("rulers-gambit", "text", "\u202eText."),
        ("gaterunners", "name", "Runner\u202e Card"),
        ("gaterunners", "rarity", "C\u202e"),
    ],
)
def test_a_card_text_field_with_a_text_direction_override_is_refused(game, field, value):
    raw = one_card_file(game, **{field: value})

    assert errors_of("x.json", raw) == [f'x.json: cards[0], field "{field}": {RLO}']


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("field", ["name", "code"])
def test_a_set_name_or_code_with_a_text_direction_override_is_refused(game, field):
    body = json.loads(one_card_file(game))
    body["set"][field] += "\u202e"

    assert errors_of("x.json", json.dumps(body).encode()) == [f'x.json: set, field "{field}": {RLO}']


@pytest.mark.parametrize(
    ("char", "label"),
    [
        ("\u200b", "U+200B ZERO WIDTH SPACE"),
        ("\u2067", "U+2067 RIGHT-TO-LEFT ISOLATE"),
        ("\ufeff", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
        ("\u061c", "U+061C ARABIC LETTER MARK"),
    ],
)
@pytest.mark.parametrize("game", GAMES)
def test_a_csv_cell_with_an_invisible_character_is_refused_naming_it(game, char, label):
    raw = csv_file([csv_row(game, name=f"Ember{char} Rush")])

    assert errors_of("x.csv", raw) == [
        f'x.csv: row 2, field "name": contains {label}; invisible and text-direction control characters are not allowed'
    ]


def test_a_csv_set_name_with_an_override_is_refused():
    raw = csv_file([csv_row("gaterunners", set_name="Set\u202e One")])

    assert errors_of("x.csv", raw) == [f'x.csv: row 2, field "set_name": {RLO}']


def test_the_same_characters_written_raw_in_json_are_refused_too():
    raw = json.dumps(json.loads(one_card_file("gate-ruler", name="Card\u200d 1")), ensure_ascii=False).encode()
    assert "\u200d".encode() in raw

    (error,) = errors_of("x.json", raw)

    assert error.startswith('x.json: cards[0], field "name": contains U+200D ZERO WIDTH JOINER; ')


# --- booleans a card type does not have -------------------------------------------------


@pytest.mark.parametrize("card_type", ["gate", "hero"])
@pytest.mark.parametrize("value", [False, None])
def test_a_gaterunners_gate_or_hero_may_say_false_or_null_for_instant(card_type, value):
    row = gr_card_row(1, type=card_type, level=None)
    if card_type == "gate":
        del row["power"], row["health"]
    row["instant"] = value
    (record,) = parse_card_file("gr.json", game_set_file("gaterunners", row)).cards

    assert record.type == card_type
    assert "instant" not in record.fields


def test_a_gaterunners_gate_with_instant_true_is_refused_as_today():
    raw = game_set_file("gaterunners", gr_card_row(1, type="gate", level=None, power=None, health=None, instant=True))

    assert errors_of("gr.json", raw) == [
        'gr.json: cards[0], field "instant": Gate cards have no Instant (only unit, action cards have it)'
    ]


def test_a_gaterunners_gate_with_an_instant_that_is_no_boolean_is_refused():
    raw = game_set_file("gaterunners", gr_card_row(1, type="gate", level=None, power=None, health=None, instant=0))

    assert errors_of("gr.json", raw) == ['gr.json: cards[0], field "instant": 0 is not a boolean (true or false)']


@pytest.mark.parametrize(("cell", "refused"), [("false", False), ("0", False), ("no", False), ("true", True)])
def test_a_gaterunners_csv_gate_reads_instant_like_json(cell, refused):
    row = csv_row("gaterunners", type="gate", level="", power="", health="", instant=cell)

    if refused:
        assert errors_of("gr.csv", csv_file([row])) == [
            'gr.csv: row 2, field "instant": Gate cards have no Instant (only unit, action cards have it)'
        ]
    else:
        (record,) = parse_card_file("gr.csv", csv_file([row])).cards
        assert record.fields == {}


# --- files without cards, UTF-16 --------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_a_csv_with_only_a_header_row_says_it_has_no_cards(game):
    header_only = b",".join(k.encode() for k in csv_row(game)) + b"\n"

    assert errors_of("x.csv", header_only) == ["x.csv: the file has no cards, only a header row"]


@pytest.mark.parametrize("game", GAMES)
def test_a_json_file_with_an_empty_card_list_says_it_has_no_cards(game):
    body = json.loads(one_card_file(game))
    body["cards"] = []

    assert errors_of("x.json", json.dumps(body).encode()) == ["x.json: cards: the file has no cards"]


UTF16 = "x.{ext}: the file looks like UTF-16 text; save it as UTF-8, the only encoding read"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
@pytest.mark.parametrize("ext", ["json", "csv"])
def test_a_utf16_file_is_named_as_such(encoding, ext):
    text = (
        one_card_file("gaterunners").decode()
        if ext == "json"
        else csv_file([csv_row("gaterunners", name="ランナー")]).decode()
    )
    raw = text.encode(encoding)

    assert [str(e) for e in check_file_content(f"x.{ext}", raw)] == [UTF16.format(ext=ext)]
    assert errors_of(f"x.{ext}", raw) == [UTF16.format(ext=ext)]


def test_a_choice_with_an_override_has_that_one_error():
    raw = one_card_file("rulers-gambit", colours=["red", "blue\u202e"])

    assert errors_of("x.json", raw) == [f'x.json: cards[0], field "colours": {RLO}']


def test_the_line_of_the_first_bracket_too_deep_is_named():
    body = json.loads(one_card_file("gate-ruler"))
    body["cards"].append(card_row(2, text="[[[[", attributes=[[[[[["x"]]]]]]))
    text = json.dumps(body, indent=1)
    # Indented, each bracket opens a line: the attributes' list is level 4 (on line `at`), the
    # fifth list inside it level 9, the first past the limit, 5 lines further.
    at = text[: text.index('"attributes"', text.index("T01-002"))].count("\n") + 1
    line = at + 5

    assert errors_of("x.json", text.encode()) == [TOO_DEEP.replace("line 1", f"line {line}")]


def test_a_csv_game_cell_with_an_override_has_that_one_error():
    raw = csv_file([{**csv_row("gaterunners"), "game": "gaterunners\u202e"}])

    assert errors_of("x.csv", raw) == [f'x.csv: row 2, field "game": {RLO}']
