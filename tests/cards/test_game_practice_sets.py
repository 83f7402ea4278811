"""The fictional practice sets of the games other than Gate Ruler (data/practice/games/*.json).

Pure checks of the files against their game's data, and one import into the catalog.
"""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from cards.games import game_get
from cards.importers.parsing import parse_card_file

PRACTICE_DIR = Path(__file__).resolve().parents[2] / "data" / "practice" / "games"
GENERATOR = PRACTICE_DIR / "generate_game_practice_sets.py"
FICTION = "(Fictional practice card.)"


def load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("generate_game_practice_sets", GENERATOR)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = load_generator()


def document(game: str) -> dict[str, Any]:
    return json.loads((PRACTICE_DIR / GEN.OUTPUT_FILES[game]).read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(GEN.documents()))
def test_the_committed_files_are_what_the_generator_writes(name):
    assert (PRACTICE_DIR / name).read_text(encoding="utf-8") == GEN.render(GEN.documents()[name])


@pytest.mark.parametrize("game", ["rulers-gambit", "gaterunners"])
def test_every_card_says_it_is_fictional_and_parses_against_its_game(game):
    doc = document(game)
    parsed = parse_card_file(GEN.OUTPUT_FILES[game], json.dumps(doc).encode())
    assert doc["game"] == game
    assert doc["set"]["name"].endswith("(fictional practice set)")
    assert all(card.text.startswith(FICTION) for card in parsed.cards)
    assert {card.game for card in parsed.cards} == {game}
    assert len({card.name for card in parsed.cards}) == len(parsed.cards)


def test_names_differ_from_every_other_shipped_card():
    """A card name is one card across the site, so no two shipped files of different games share one."""
    names: Counter[str] = Counter()
    data = PRACTICE_DIR.parent.parent
    for path in [*data.glob("practice/**/*.json"), *data.glob("real_cards/*.json")]:
        names.update({card["name"] for card in json.loads(path.read_text(encoding="utf-8"))["cards"]})
    games_names = {c["name"] for game in GEN.OUTPUT_FILES for c in document(game)["cards"]}
    assert [name for name in games_names if names[name] > 1] == []


def rulers_gambit_legal_pool(kingdom_colours: set[str]) -> list[dict[str, Any]]:
    """The main-deck cards a Kingdom of these colours allows (every colour of the card allowed)."""
    rules = game_get("rulers-gambit").rules
    allowed_types = next(r.params["allowed"]["main"] for r in rules if r.code == "card_type")
    return [
        c
        for c in document("rulers-gambit")["cards"]
        if c["type"] in allowed_types and set(c["colours"]) <= kingdom_colours
    ]


def test_every_kingdom_ruler_has_enough_cards_for_a_legal_deck():
    game = game_get("rulers-gambit")
    main_size = next(r.params["exactly"] for r in game.rules if r.code == "deck_size")
    max_copies = next(r.params["max"] for r in game.rules if r.code == "max_copies")
    kingdoms = [c for c in document("rulers-gambit")["cards"] if c["type"] == "kingdom-ruler"]
    single = {c["colours"][0] for c in kingdoms if len(c["colours"]) == 1}
    assert single == set(game.card_field("colours").choice_keys())
    assert sum(len(c["colours"]) > 1 for c in kingdoms) >= 3
    for kingdom in kingdoms:
        pool = rulers_gambit_legal_pool(set(kingdom["colours"]))
        assert len(pool) >= 20, kingdom["name"]
        assert len(pool) * max_copies >= main_size, kingdom["name"]


def test_every_spell_type_and_a_free_unit_are_there():
    cards = document("rulers-gambit")["cards"]
    assert {c["spell_type"] for c in cards if c["type"] == "spell"} == {"normal", "set", "quick-play", "equip"}
    assert any(c["type"] == "unit" and c["cost"] is None for c in cards)


def test_gaterunners_has_heroes_gates_and_a_main_deck():
    cards = document("gaterunners")["cards"]
    kinds = Counter(c["type"] for c in cards)
    assert kinds["hero"] >= 4
    assert kinds["gate"] >= 6
    assert kinds["unit"] + kinds["action"] >= 40
    assert any(c.get("instant") for c in cards if c["type"] == "unit")
    assert any(c.get("instant") for c in cards if c["type"] == "action")


@pytest.mark.django_db
def test_the_practice_sets_import_with_their_fields():
    from cards.models import Card, CardSet
    from cards.services import card_files_import

    paths = [str(PRACTICE_DIR / name) for name in GEN.OUTPUT_FILES.values()]
    result = card_files_import(paths=paths)

    assert result.cards.created == len(document("rulers-gambit")["cards"]) + len(document("gaterunners")["cards"])
    kingdom = Card.objects.get(name="Practice Kingdom of Tidewatch")
    assert (kingdom.game, kingdom.type) == ("rulers-gambit", "kingdom-ruler")
    assert kingdom.fields["colours"] == ["blue"]
    assert kingdom.fields["ruler_name"] == "Mock Monarch of Tidewatch"
    assert CardSet.objects.get(code="GR01").game == "gaterunners"
    again = card_files_import(paths=paths)  # a second run changes nothing
    assert (again.cards.created, again.cards.updated, again.printings.updated) == (0, 0, 0)
