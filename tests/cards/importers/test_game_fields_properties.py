"""Properties of the import of other games' cards, over cards drawn from each game's own data:
a valid card reads back exactly (JSON and CSV alike), and a value of the wrong kind is an error
naming its row and field."""

from __future__ import annotations

import csv
import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cards.games import games
from cards.importers.parsing import parse_card_file
from cards.importers.records import ImportFileError
from decks.rules.games import CardField, GameDefinition

OTHER_GAMES = [game for game in games().values() if not game.default]
SET = {"code": "PROP", "name": "Property Set", "release_date": "2025-01-01"}
INTS = st.integers(min_value=-5, max_value=99)
WORDS = st.text(alphabet="abcdefghij XYZ", min_size=1, max_size=12).map(str.strip).filter(bool)


def field_value(field: CardField) -> st.SearchStrategy[object]:
    if field.kind == "int":
        return st.none() | INTS if field.nullable or not field.required else INTS
    if field.kind == "bool":
        return st.booleans()
    if field.kind == "text":
        return WORDS
    keys = list(field.choice_keys())
    if field.many:
        return st.lists(st.sampled_from(keys), min_size=1, unique=True).map(lambda vs: sorted(vs, key=keys.index))
    return st.sampled_from(keys)


@st.composite
def game_cards(draw: st.DrawFn) -> tuple[GameDefinition, dict[str, object]]:
    game = draw(st.sampled_from(OTHER_GAMES))
    card_type = draw(st.sampled_from(game.type_keys()))
    card: dict[str, object] = {"number": "PROP-1", "name": draw(WORDS), "type": card_type}
    for field in game.card_fields:
        if card_type in field.types:
            card[field.key] = draw(field_value(field))
    return game, card


def as_csv(game: GameDefinition, card: dict[str, object]) -> bytes:
    row = {"set_code": SET["code"], "set_name": SET["name"], "release_date": SET["release_date"], "game": game.slug}
    for key, value in card.items():
        if isinstance(value, list):
            row[key] = "/".join(value)
        else:
            row[key] = "" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
    out = io.StringIO()
    writer = csv.DictWriter(out, list(row), lineterminator="\n")
    writer.writeheader()
    writer.writerow(row)
    return out.getvalue().encode()


@settings(max_examples=60, deadline=None)
@given(game_cards())
def test_a_valid_card_reads_back_the_same_from_json_and_csv(drawn):
    game, card = drawn
    raw = json.dumps({"game": game.slug, "set": SET, "cards": [card]}).encode()
    (from_json,) = parse_card_file("p.json", raw).cards
    (from_csv,) = parse_card_file("p.csv", as_csv(game, card)).cards

    expected = {k: v for k, v in card.items() if k not in ("number", "name", "type")}
    assert dict(from_json.fields) == {k: expected.get(k, False if k == "instant" else None) for k in from_json.fields}
    assert set(from_json.fields) == {f.key for f in game.card_fields if card["type"] in f.types}
    assert (from_json.game, from_json.type, dict(from_json.fields)) == (
        from_csv.game,
        from_csv.type,
        dict(from_csv.fields),
    )


@settings(max_examples=60, deadline=None)
@given(game_cards(), st.data())
def test_a_value_of_the_wrong_kind_is_an_error_naming_its_field(drawn, data):
    game, card = drawn
    fields = [f for f in game.card_fields if f.key in card]
    if not fields:
        return
    field = data.draw(st.sampled_from(fields))
    wrong = {
        "int": "seven",
        "bool": "maybe",
        "text": 7,
        "choices": ["no-such-choice"] if field.many else "no-such-choice",
    }
    card = {**card, field.key: wrong[field.kind]}
    raw = json.dumps({"game": game.slug, "set": SET, "cards": [card]}).encode()
    with pytest.raises(ImportFileError) as caught:
        parse_card_file("p.json", raw)
    assert [(e.row, e.field) for e in caught.value.errors] == [("cards[0]", field.key)]
