"""The card data files: the fictional practice set (data/practice/) and the real cards
(data/real_cards/). Plain pytest, no Django, no database.

The loaders here (printings, and card_facts from decks.rules.practice) are also used by
tests/decks/rules/test_builder.py.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections import defaultdict
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from decks.rules.practice import card_facts
from decks.rules.types import CARD_TYPES, ENERGY, UNIT, CardFacts

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "data"
PRACTICE_DIR = DATA / "practice"
REAL_DIR = DATA / "real_cards"
GENERATOR = PRACTICE_DIR / "generate_practice_set.py"
PRACTICE_FILES = (
    PRACTICE_DIR / "practice_set_ps01.json",
    PRACTICE_DIR / "practice_starter_ps00.json",
    PRACTICE_DIR / "practice_md.json",
)
REAL_FILES = tuple(sorted(REAL_DIR.glob("*.json")))

NUMBER = re.compile(r"^(\d{4}[A-Z]{2}\d{2}|MD[A-Z0-9]*|GPR|TD\d{2})-[A-Z0-9]+$")
FACTIONS = {
    "Volnar": "ウォルナー",
    "Yomajin Front": "東妖軍",
    "ATLAS": "ATLAS",
    "Wonderverse": "マジカルユニバース",
    "侵略次元": "侵略次元",
}
# Every printing of a name must agree on these.
RULES_FIELDS = (
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
)
CARD_KEYS = {"number", "name", *RULES_FIELDS, "rarity"}
FICTION = "(Fictional practice card.)"
PARAPHRASE = "[Paraphrase, not the printed text] "


@cache
def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def printings(paths: Iterable[Path]) -> list[dict[str, Any]]:
    """Every card entry of the files, each with the code of its set under "set"."""
    out = []
    for path in paths:
        document = load(path)
        out.extend({**card, "set": document["set"]["code"]} for card in document["cards"])
    return out


def load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("generate_practice_set", GENERATOR)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # Registered before running it: dataclasses look their module up in sys.modules.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


# --- the generator ---------------------------------------------------------------------


def test_generator_is_deterministic(tmp_path: Path) -> None:
    generator = load_generator()
    first = {p.name: p.read_bytes() for p in generator.main(tmp_path / "first")}
    second = {p.name: p.read_bytes() for p in generator.main(tmp_path / "second")}
    assert first == second
    assert set(first) == {p.name for p in PRACTICE_FILES} | {"factions.json"}


def test_committed_files_match_the_generator(tmp_path: Path) -> None:
    generator = load_generator()
    for path in generator.main(tmp_path):
        committed = DATA / path.name if path.name == "factions.json" else PRACTICE_DIR / path.name
        assert committed.read_bytes() == path.read_bytes(), (
            f"{committed} is stale: run python data/practice/generate_practice_set.py"
        )


# --- shape of every card file ------------------------------------------------------------


def test_every_file_has_the_import_shape() -> None:
    factions = set(FACTIONS)
    for path in (*PRACTICE_FILES, *REAL_FILES):
        document = load(path)
        assert set(document) == {"set", "cards"}, path
        assert set(document["set"]) == {"code", "name", "release_date"}, path
        date = document["set"]["release_date"]
        assert date is None or re.fullmatch(r"\d{4}-\d{2}-\d{2}", date), path
        for card in document["cards"]:
            where = f"{path.name} {card['number']}"
            assert CARD_KEYS <= set(card) <= CARD_KEYS | {"name_ja"}, where
            assert card["type"] in CARD_TYPES, where
            energy = card["type"] == ENERGY
            assert (card["faction"] is None) == energy, where
            assert energy or card["faction"] in factions, where
            assert (card["level"] is None) == energy, where
            assert energy or isinstance(card["level"], int), where
            for stat in ("atk", "hp", "stk"):
                if card["type"] == UNIT:
                    assert isinstance(card[stat], int), where
                else:
                    assert card[stat] is None, where
            assert isinstance(card["cnt"], bool), where
            assert isinstance(card["legend"], bool), where
            assert all(isinstance(a, str) and a for a in card["attributes"]), where


def test_every_printing_number_has_the_real_format_and_is_unique() -> None:
    numbers = [p["number"] for p in printings((*PRACTICE_FILES, *REAL_FILES))]
    bad = [n for n in numbers if not NUMBER.match(n)]
    assert not bad
    assert len(numbers) == len(set(numbers))


def test_printings_of_a_name_agree_on_the_rules_fields() -> None:
    by_name: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for entry in printings((*PRACTICE_FILES, *REAL_FILES)):
        by_name[entry["name"]].append(entry)
    for name, entries in by_name.items():
        for field in (*RULES_FIELDS, "name_ja"):
            values = {json.dumps(e.get(field), ensure_ascii=False) for e in entries}
            assert len(values) == 1, f"{name}: printings disagree on {field}: {values}"


def test_factions_file() -> None:
    assert load(DATA / "factions.json") == [{"name": name, "name_ja": name_ja} for name, name_ja in FACTIONS.items()]


# --- the practice set is fictional and labelled so --------------------------------------------


def test_practice_sets_and_texts_say_they_are_fictional() -> None:
    for path in PRACTICE_FILES:
        document = load(path)
        assert document["set"]["name"].endswith("(fictional practice set)")
        for card in document["cards"]:
            assert card["text"].startswith(FICTION), card["name"]
            assert card.get("name_ja"), card["name"]


SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def test_no_practice_card_text_says_a_sentence_twice() -> None:
    # "【CNT】: Deal 2 damage to an enemy unit. Deal 2 damage to an enemy unit." was shipped once:
    # the 【CNT】 line is compared by its effect, after the label.
    for card in printings(PRACTICE_FILES):
        sentences = [s.split(": ", 1)[-1] for s in SENTENCE_END.split(card["text"]) if s]
        repeated = {s for s in sentences if sentences.count(s) > 1}
        assert not repeated, f"{card['number']} {card['name']}: says {sorted(repeated)} twice"


def test_practice_names_are_not_real_card_names() -> None:
    real = {p["name"] for p in printings(REAL_FILES)} | {
        p["name_ja"] for p in printings(REAL_FILES) if p.get("name_ja")
    }
    assert real, "data/real_cards has no cards"
    for card in printings(PRACTICE_FILES):
        assert card["name"] not in real
        assert card["name_ja"] not in real
    # The one card name the rules mention (a geas bans it) is a real card.
    assert "Sludge Zombie" not in {c["name"] for c in printings(PRACTICE_FILES)}


def test_practice_set_has_what_every_ruler_needs() -> None:
    cards = card_facts(PRACTICE_FILES)
    by_faction: dict[str | None, list[CardFacts]] = defaultdict(list)
    for card in cards:
        by_faction[card.faction].append(card)
    assert set(by_faction) == {*FACTIONS, None}
    assert len(by_faction[None]) >= 3
    assert all(c.type == ENERGY for c in by_faction[None])
    for faction in FACTIONS:
        own = by_faction[faction]
        assert sum(c.level == 0 for c in own) >= 8, faction
        assert any(c.level is not None and c.level < 0 for c in own), faction
        assert any(c.cnt for c in own), faction
        assert sum(c.legend for c in own) >= 2, faction
        assert any(c.type == UNIT and "Dragon" in c.attributes for c in own), faction
        assert any({"Betrayal", "Desecrate"} & c.attributes for c in own), faction
        assert any("Rock-Paper-Scissors" in c.text for c in own), faction
        world_master = [
            c for c in own if not c.legend and any(n.startswith(("MD", "2020")) for n in c.collector_numbers)
        ]
        assert len(world_master) >= 3, faction
    reprinted = [c for c in cards if len({n.split("-")[0] for n in c.collector_numbers}) > 1]
    assert len(reprinted) >= 5


# --- the real cards ----------------------------------------------------------------------


def test_real_cards_are_complete_and_paraphrased() -> None:
    cards = printings(REAL_FILES)
    assert cards
    for card in cards:
        assert card["text"].startswith(PARAPHRASE), card["name"]
        assert not card["text"].startswith(PARAPHRASE + FICTION)
        if card["type"] != ENERGY:
            assert card["level"] is not None
    for path in REAL_FILES:
        document = load(path)
        assert path.name == document["set"]["code"].lower() + ".json"
        assert all(c["number"].startswith(("20", "TD", "MD", "GPR")) for c in document["cards"])
