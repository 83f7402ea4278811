"""The games' data files carry every word a player reads in each language the site speaks (data/games/*.json):
labels, headings, nouns, sources and assumptions as {"en": ..., "ja": ...}; only a game's proper name may
lack a language (as its sources write it). A label reads as its English text and words itself per language."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from decks.rules.games import GameDataError, parse_game
from decks.rules.wording import Label, Wording, either, gettext_noop, labels_joined, lower_case

GAMES = Path(__file__).resolve().parents[3] / "data" / "games"
# The languages of the site (gatesite.settings.LANGUAGES) besides English, the data's own.
LANGUAGES = ("ja",)


def _games():
    return [parse_game(json.loads(path.read_text(encoding="utf-8"))) for path in sorted(GAMES.glob("*.json"))]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_label_of_every_game_has_its_text_in_each_language(language):
    missing = [
        f"{game.slug}: {where}"
        for game in _games()
        for where, label in game.labels()
        if where != "name" and not label.texts.get(language)
    ]
    counted = sum(1 for game in _games() for _ in game.labels())

    assert counted > 80
    assert missing == []


def test_the_check_finds_a_label_given_in_english_only():
    data = json.loads((GAMES / "rulers-gambit.json").read_text(encoding="utf-8"))
    data["card_types"][0]["label"] = "Unit"

    game = parse_game(data)

    assert [where for where, label in game.labels() if "ja" not in label.texts] == ["name", "card_types[unit].label"]


def test_a_label_is_its_english_text_and_keeps_the_others():
    label = parse_game(json.loads((GAMES / "gaterunners.json").read_text(encoding="utf-8"))).section("gates").label

    assert label == "Gates"
    assert label.in_language("ja") == "ゲート"
    assert label.in_language("pt") == "Gates"
    assert pickle.loads(pickle.dumps(label)).texts == label.texts


def test_a_label_without_english_or_with_a_bad_language_is_refused_naming_it():
    data = json.loads((GAMES / "gaterunners.json").read_text(encoding="utf-8"))
    data["sections"][1]["label"] = {"ja": "ゲート"}
    with pytest.raises(GameDataError, match=r"gaterunners: sections\[1\]\.label: the English text \('en'\) is missing"):
        parse_game(data)
    data["sections"][1]["label"] = {"en": "Gates", "Japanese": "ゲート"}
    with pytest.raises(GameDataError, match=r"sections\[1\]\.label: 'Japanese' is not a language code"):
        parse_game(data)


def test_sentence_parts_keep_each_language():
    red, blue = Label({"en": "red", "ja": "赤"}), Label({"en": "blue", "ja": "青"})

    assert labels_joined("/", [red, blue]).texts == {"en": "red/blue", "ja": "赤/青"}
    assert lower_case(Label({"en": "Colour", "ja": "色"})).texts == {"en": "colour", "ja": "色"}
    assert either([red]) is red
    worded = either([red, blue])
    assert worded == "red or blue"
    assert isinstance(worded, Wording)
    assert worded.values == {"items": (red,), "last": blue}


def test_two_labels_of_one_english_text_make_two_wordings():
    unit_a, unit_b = Label({"en": "Unit", "ja": "ユニット"}), Label({"en": "Unit", "ja": "ユニットカード"})
    template = gettext_noop("%(type)s cards")

    assert Wording(template, {"type": unit_a}).values["type"] is unit_a
    assert Wording(template, {"type": unit_b}).values["type"] is unit_b
