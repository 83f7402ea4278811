"""Reads for decks: turn a deck list into the engine's Deck and judge it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from cards.selectors import (
    RulesChoice,
    attribute_exists,
    card_facts,
    cards_by_reference,
    rules_choice_get,
)
from decks.rules.engine import validate_deck
from decks.rules.types import Deck, DeckEntry, Report
from gatesite.errors import ApplicationError


@dataclass(frozen=True)
class DeckListLine:
    """One line of a deck list as a client sends it: a card by collector number or by name."""

    count: int
    number: str | None = None
    name: str | None = None


@dataclass(frozen=True)
class DeckJudgement:
    choice: RulesChoice
    deck: Deck
    report: Report


def deck_entries_resolve(
    *, main: Sequence[DeckListLine], resources: Sequence[DeckListLine]
) -> tuple[tuple[DeckEntry, ...], tuple[DeckEntry, ...]]:
    """Look up every card of a deck list; an unknown card raises ApplicationError naming its line."""
    lines = [*main, *resources]
    by_number, by_name = cards_by_reference(
        numbers=[ln.number for ln in lines if ln.number],
        names=[ln.name for ln in lines if ln.name],
    )
    facts: dict[str, Any] = {}

    def resolve(section: str, items: Sequence[DeckListLine]) -> tuple[DeckEntry, ...]:
        entries = []
        for i, line in enumerate(items):
            card = by_number.get(line.number) if line.number else by_name.get(line.name or "")
            if card is None:
                ref = f"collector number '{line.number}'" if line.number else f"name '{line.name}'"
                raise ApplicationError(f"{section}[{i}]: no card with {ref}.", field=f"{section}[{i}]")
            if card.name not in facts:
                facts[card.name] = card_facts(card)
            entries.append(DeckEntry(facts[card.name], line.count, line.number))
        return tuple(entries)

    return resolve("main", main), resolve("resources", resources)


def deck_judge(
    *,
    ruler: str,
    geas: str | None,
    on: date,
    attribute: str | None,
    main: Sequence[DeckListLine],
    resources: Sequence[DeckListLine],
) -> DeckJudgement:
    """Judge a deck list against the rules in force on a date."""
    choice = rules_choice_get(ruler_slug=ruler, geas_slug=geas, on=on)
    if attribute and not attribute_exists(attribute):
        raise ApplicationError(f"Unknown attribute '{attribute}'.", field="attribute")
    main_entries, resource_entries = deck_entries_resolve(main=main, resources=resources)
    deck = Deck(main=main_entries, resources=resource_entries, attribute=attribute or None)
    return DeckJudgement(choice, deck, validate_deck(deck, choice.rules))
