from __future__ import annotations

import json
from pathlib import Path

import pytest

from decks.rules.games import GameDataError, parse_game

GAMES = Path(__file__).resolve().parents[3] / "data" / "games"


def _load(slug: str) -> dict:
    return json.loads((GAMES / f"{slug}.json").read_text(encoding="utf-8"))


def test_every_shipped_game_file_parses_with_its_slug_as_file_name():
    for path in GAMES.glob("*.json"):
        assert parse_game(json.loads(path.read_text(encoding="utf-8"))).slug == path.stem


def test_rulers_gambit_sections_and_rule_codes_are_the_documented_ones():
    game = parse_game(_load("rulers-gambit"))
    assert game.section_keys() == ("kingdom", "main")
    assert [r.code for r in game.rules] == ["kingdom", "deck_size", "card_type", "max_copies", "colour"]
    assert game.card_field("colours").choice_keys() == ("blue", "red", "yellow", "green", "orange", "purple")


def test_a_field_of_an_unknown_card_type_is_named():
    data = _load("gaterunners")
    data["card_fields"][0]["types"] = ["unit", "spell"]
    with pytest.raises(GameDataError, match=r"gaterunners: card_fields\[0\]\.types: unknown card type 'spell'"):
        parse_game(data)


def test_a_missing_key_is_named():
    data = _load("rulers-gambit")
    del data["rules"][1]["kind"]
    with pytest.raises(GameDataError, match=r"rulers-gambit: rules\[1\]: missing key 'kind'"):
        parse_game(data)
