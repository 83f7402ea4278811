"""Decks of the data-driven games, made to order for the pure engine: synthetic cards, no Django.

Each legal deck sits at its game's boundaries (39 main cards and a single Kingdom; 40 main
cards, one Hero and three Gates), so a breach is one swap away. Expectations are written here
from the documents' numbers, never by asking the engine.
"""

from __future__ import annotations

import json
from pathlib import Path

from decks.rules.games import GameDefinition, parse_game
from decks.rules.types import CardFacts, DeckEntry, DeckSnapshot

GAMES = Path(__file__).resolve().parents[3] / "data" / "games"


def load_game(slug: str) -> GameDefinition:
    return parse_game(json.loads((GAMES / f"{slug}.json").read_text(encoding="utf-8")))


GATE_RULER = load_game("gate-ruler")
RULERS_GAMBIT = load_game("rulers-gambit")
GATERUNNERS = load_game("gaterunners")


def rg_card(name: str, type_: str = "unit", colours: tuple[str, ...] = ("blue",), **fields: object) -> CardFacts:
    return CardFacts(name, type_, fields={"colours": colours, **fields})


def kingdom(name: str = "Azure Kingdom", colours: tuple[str, ...] = ("blue",)) -> CardFacts:
    return rg_card(name, "kingdom-ruler", colours, lp=20, ruler_name=f"{name} Ruler")


def gr_card(name: str, type_: str = "unit", **fields: object) -> CardFacts:
    return CardFacts(name, type_, fields=fields)


def snapshot(**sections: list[tuple[CardFacts, int]]) -> DeckSnapshot:
    return DeckSnapshot.of_sections(
        {key: tuple(DeckEntry(card, count) for card, count in entries) for key, entries in sections.items()}
    )


def rg_main(colour: str = "blue") -> list[tuple[CardFacts, int]]:
    """39 cards: 18 units at the copy limit (2) and 3 single spells."""
    units = [(rg_card(f"{colour.title()} Unit {i:02d}", colours=(colour,), cost=i % 5), 2) for i in range(18)]
    spells = [(rg_card(f"{colour.title()} Spell {i}", "spell", (colour,), spell_type="normal"), 1) for i in range(3)]
    return units + spells


def rg_legal(colour: str = "blue") -> dict[str, list[tuple[CardFacts, int]]]:
    return {"kingdom": [(kingdom(f"{colour.title()} Kingdom", (colour,)), 1)], "main": rg_main(colour)}


def gr_main(size: int = 40) -> list[tuple[CardFacts, int]]:
    """`size` cards: units of 2 copies (and one single when the size is odd)."""
    cards = [(gr_card(f"Runner {i:02d}", level=i % 4, power=2, health=2), 2) for i in range(size // 2)]
    if size % 2:
        cards.append((gr_card("Quick Strike", "action", cost=1, instant=True), 1))
    return cards


def gr_legal() -> dict[str, list[tuple[CardFacts, int]]]:
    return {
        "hero": [(gr_card("Wayfinder", "hero", power=3, health=20), 1)],
        "gates": [(gr_card(f"Gate of {w}", "gate"), 1) for w in ("Dawn", "Dusk", "Noon")],
        "main": gr_main(),
    }
