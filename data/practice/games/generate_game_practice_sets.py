"""Generate the FICTIONAL practice sets of Ruler's Gambit and GateRunners as card-import JSON files.

Nothing in these files is a real card. Every name is invented, every card text starts with
"(Fictional practice card.)" and every set name ends with "(fictional practice set)". Costs,
stats and races are made up for these cards alone and say nothing about the real games; only
the colours, card types and spell types are the games' own (data/games/<slug>.json).

- RG01 ``RG01-NNN`` (Ruler's Gambit): a Kingdom-Ruler of each of the six colours and three of
  two colours; 22 single-colour main-deck cards per colour (14 units, 8 spells of every spell
  type) and 6 two-colour cards, so a legal deck (1 Kingdom-Ruler, 39 main cards, at most 2
  copies of a card) can be built for every colour and every two-colour Kingdom.
- GR01 ``GR01-NNN`` (GateRunners): 6 Heroes, 8 Gates, 30 units and 16 actions (some of them
  Instant), so a legal deck (1 Hero, 3 Gates, at least 40 main cards) can be built with any Hero.

They live in their own folder so that what reads every Gate Ruler practice file (data/practice/*.json:
decks.rules.practice, the benchmarks, the decks' tests) reads Gate Ruler's only; `make data` loads
both folders (the Makefile's DATA_FILES).

Run ``python data/practice/games/generate_game_practice_sets.py``; no randomness, so the output is
byte-identical on every run. A test fails if the committed files are stale.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FICTION = "(Fictional practice card.)"
SET_SUFFIX = "(fictional practice set)"

RG01 = {"code": "RG01", "name": f"Ruler's Gambit Practice Set 01 {SET_SUFFIX}", "release_date": "2025-06-01"}
GR01 = {"code": "GR01", "name": f"GateRunners Practice Set 01 {SET_SUFFIX}", "release_date": "2025-06-01"}
OUTPUT_FILES = {
    "rulers-gambit": "practice_rulers_gambit_rg01.json",
    "gaterunners": "practice_gaterunners_gr01.json",
}

# --- Ruler's Gambit -----------------------------------------------------------------------

COLOURS = ("blue", "red", "yellow", "green", "orange", "purple")
# Invented words per colour (a realm, units, spells), so that names are plainly fictional.
REALMS = {
    "blue": ("Tidewatch", ("Drill Tide Squire", "Mock Wave Archer", "Rehearsal Frost Sage")),
    "red": ("Emberhold", ("Drill Cinder Squire", "Mock Flame Archer", "Rehearsal Ash Sage")),
    "yellow": ("Sunreach", ("Drill Dawn Squire", "Mock Ray Archer", "Rehearsal Glow Sage")),
    "green": ("Mossgrove", ("Drill Leaf Squire", "Mock Thorn Archer", "Rehearsal Root Sage")),
    "orange": ("Amberfall", ("Drill Dust Squire", "Mock Sand Archer", "Rehearsal Clay Sage")),
    "purple": ("Duskmire", ("Drill Gloom Squire", "Mock Shade Archer", "Rehearsal Mist Sage")),
}
RACES = ("Human", "Elf", "Beast", "Golem", "Spirit")
RANKS = ("Novice", "Cadet", "Veteran", "Captain", "Champion")
SPELL_TYPES = ("normal", "set", "quick-play", "equip")
SPELL_WORDS = ("Practice Volley", "Training Ward", "Mock Ambush", "Drill Blade")
TWO_COLOUR_KINGDOMS = (("blue", "red"), ("yellow", "green"), ("orange", "purple"))
UNITS_PER_COLOUR = 14
SPELLS_PER_COLOUR = 8


def _unit(colours: list[str], name: str, i: int) -> dict[str, Any]:
    cost = None if i % 7 == 6 else i % 5  # some units have no COST: free to play
    return {
        "name": name,
        "type": "unit",
        "colours": colours,
        "cost": cost,
        "race": RACES[i % len(RACES)],
        "attack": 1 + (i * 3) % 6,
        "defence": 1 + (i * 5) % 6,
        "critical": 1 + i % 3,
        "rarity": "R" if i % 5 == 4 else "C",
        "text": f"{FICTION} When this unit attacks, draw 1 card if you control a {colours[0]} Kingdom.",
    }


def _spell(colours: list[str], name: str, i: int) -> dict[str, Any]:
    spell_type = SPELL_TYPES[i % len(SPELL_TYPES)]
    return {
        "name": name,
        "type": "spell",
        "colours": colours,
        "cost": i % 4,
        "spell_type": spell_type,
        "rarity": "U",
        "text": f"{FICTION} A {spell_type} spell: give a unit +{1 + i % 3} attack until the end of the turn.",
    }


def _kingdom(colours: list[str], realm: str, i: int) -> dict[str, Any]:
    return {
        "name": f"Practice Kingdom of {realm}",
        "type": "kingdom-ruler",
        "colours": colours,
        "lp": 20 + 5 * (i % 3),
        "awakening_cost": 3 + i % 3,
        "ruler_name": f"Mock Monarch of {realm}",
        "race": RACES[i % len(RACES)],
        "attack": 3 + i % 3,
        "defence": 3 + (i + 1) % 3,
        "critical": 2,
        "rarity": "SR",
        "text": f"{FICTION} Kingdom side: your {' and '.join(colours)} cards cost 1 less. Ruler side: once a turn, draw 1 card.",
    }


def rulers_gambit_cards() -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = []
    for n, colour in enumerate(COLOURS):
        realm, roles = REALMS[colour]
        cards.append(_kingdom([colour], realm, n))
        for i in range(UNITS_PER_COLOUR):
            role = roles[i % len(roles)]
            cards.append(_unit([colour], f"{RANKS[i // len(roles) % len(RANKS)]} {role} of {realm}", i))
        for i in range(SPELLS_PER_COLOUR):
            cards.append(_spell([colour], f"{SPELL_WORDS[i % 4]} of {realm} {'I' * (1 + i // 4)}", i))
    for n, pair in enumerate(TWO_COLOUR_KINGDOMS):
        realms = [REALMS[c][0] for c in pair]
        colours = list(pair)
        cards.append(_kingdom(colours, f"{realms[0]}-{realms[1]}", n))
        cards.append(_unit(colours, f"Drill Envoy of {realms[0]} and {realms[1]}", n))
        cards.append(_spell(colours, f"Mock Pact of {realms[0]} and {realms[1]}", n))
    return [{"number": f"RG01-{i:03d}", **card} for i, card in enumerate(cards, start=1)]


# --- GateRunners --------------------------------------------------------------------------

HEROES = ("Trainee Pathfinder", "Mock Warden", "Drill Scout", "Rehearsal Duelist", "Tutorial Seer", "Sparring Rogue")
GATES = ("Copper", "Willow", "Lantern", "Harbor", "Quarry", "Orchard", "Bell", "Mirror")
RUNNER_ROLES = ("Courier", "Lookout", "Sprinter", "Guard", "Tinkerer", "Climber")
RUNNER_PLACES = ("Copperway", "Willowrun", "Lanternline", "Harborstep", "Quarrypath")
ACTIONS = ("Practice Dash", "Drill Detour", "Mock Barricade", "Training Relay")
RUNNER_UNITS = 30
RUNNER_ACTIONS = 16


def gaterunners_cards() -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = []
    for i, hero in enumerate(HEROES):
        text = f"{FICTION} Hero's Journey: when you clear a Shield, your units get +1 power this turn."
        cards.append(
            {
                "name": f"{hero} (practice hero)",
                "type": "hero",
                "power": 2 + i % 3,
                "health": 18 + i,
                "rarity": "SR",
                "text": text,
            }
        )
    for gate in GATES:
        text = f"{FICTION} While this Gate stands, your units in its lane get +1 health."
        cards.append({"name": f"Practice {gate} Gate", "type": "gate", "rarity": "U", "text": text})
    for i in range(RUNNER_UNITS):
        name = f"{RUNNER_ROLES[i % len(RUNNER_ROLES)]} of {RUNNER_PLACES[i // len(RUNNER_ROLES)]} (practice)"
        instant = i % 5 == 0
        text = f"{FICTION} {'Instant. ' if instant else ''}When this unit enters, move it to any lane."
        cards.append(
            {
                "name": name,
                "type": "unit",
                "level": 1 + i % 4,
                "power": 1 + (i * 2) % 5,
                "health": 1 + (i * 3) % 5,
                "instant": instant,
                "rarity": "C",
                "text": text,
            }
        )
    for i in range(RUNNER_ACTIONS):
        instant = i % 3 == 0
        text = f"{FICTION} {'Instant. ' if instant else ''}Deal {1 + i % 3} damage to a unit in one lane."
        cards.append(
            {
                "name": f"{ACTIONS[i % 4]} {i // 4 + 1} (practice)",
                "type": "action",
                "cost": i % 4,
                "instant": instant,
                "rarity": "C",
                "text": text,
            }
        )
    return [{"number": f"GR01-{i:03d}", **card} for i, card in enumerate(cards, start=1)]


def documents() -> dict[str, dict[str, Any]]:
    """The file name -> the set file, for each game."""
    return {
        OUTPUT_FILES["rulers-gambit"]: {"game": "rulers-gambit", "set": RG01, "cards": rulers_gambit_cards()},
        OUTPUT_FILES["gaterunners"]: {"game": "gaterunners", "set": GR01, "cards": gaterunners_cards()},
    }


def render(document: dict[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def main() -> None:
    for name, document in documents().items():
        (HERE / name).write_text(render(document), encoding="utf-8")
        print(f"wrote {name}: {len(document['cards'])} cards")


if __name__ == "__main__":
    main()
