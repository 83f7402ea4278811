"""The sample deck builder: every ruler and geas gets a legal deck from the practice set.

Plain pytest, no Django, no database.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from functools import cache
from typing import Any

import pytest

from decks.rules.builder import build_legal_deck, choose_attribute
from decks.rules.engine import validate_deck
from decks.rules.ruleset import RulesInForce, rules_in_force
from decks.rules.types import ENERGY, UNIT, CardFacts, DeckSnapshot
from tests.cards.test_practice_set import DATA, PRACTICE_FILES, REAL_FILES, card_facts

RULES_PATH = DATA / "rules.json"
APPENDIX_A = "appendix-a-2023-12-04"


@cache
def rules_data() -> dict[str, Any]:
    return json.loads(RULES_PATH.read_text(encoding="utf-8"))


@cache
def practice_cards() -> tuple[CardFacts, ...]:
    return tuple(card_facts(PRACTICE_FILES))


@cache
def all_cards() -> tuple[CardFacts, ...]:
    return tuple(card_facts((*PRACTICE_FILES, *REAL_FILES)))


def ruler(name: str, document: str = APPENDIX_A) -> dict[str, Any]:
    for doc in rules_data()["documents"]:
        if doc["key"] == document:
            for obj in doc["rulers"]:
                if obj["name"] == name:
                    return obj
    raise LookupError(f"{name} not in {document}")


def ruler_cases() -> list[Any]:
    return [
        pytest.param(doc["key"], obj["name"], id=f"{doc['key']}:{obj['name']}")
        for doc in rules_data()["documents"]
        for obj in doc["rulers"]
    ]


def geas_cases() -> list[Any]:
    return [pytest.param(obj["name"], id=obj["name"]) for doc in rules_data()["documents"] for obj in doc["geases"]]


def geas(name: str) -> dict[str, Any]:
    for doc in rules_data()["documents"]:
        for obj in doc["geases"]:
            if obj["name"] == name:
                return obj
    raise LookupError(name)


def assert_legal(deck: DeckSnapshot | None, rules: RulesInForce) -> None:
    assert deck is not None, f"no deck found for {rules.ruler} {rules.geas or ''}"
    report = validate_deck(deck, rules)
    assert report.legal, [v.message for v in report.violations]


# --- every ruler and geas ------------------------------------------------------------------


def test_rules_data_has_every_ruler_and_geas() -> None:
    assert len(ruler_cases()) >= 26
    assert len(geas_cases()) >= 6


@pytest.mark.parametrize(("document", "name"), ruler_cases())
def test_every_ruler_revision_gets_a_legal_deck(document: str, name: str) -> None:
    rules = rules_in_force(ruler(name, document))
    assert_legal(build_legal_deck(practice_cards(), rules), rules)


@pytest.mark.parametrize("name", geas_cases())
def test_every_geas_gets_a_legal_deck(name: str) -> None:
    oath = geas(name)
    rules = rules_in_force(ruler(oath["target_ruler"]), oath)
    deck = build_legal_deck(practice_cards(), rules)
    assert_legal(deck, rules)
    # The geas's own limits hold, not just the ruler's.
    assert deck is not None
    summary = validate_deck(deck, rules).summary
    if rules.deck.level_cap is not None:
        assert summary.level <= rules.deck.level_cap
    assert summary.cnt <= (rules.deck.cnt_cap or 50)
    assert not rules.deck.banned_cards & {e.card.name for e in deck.main}


@pytest.mark.parametrize(("document", "name"), ruler_cases())
def test_real_cards_mixed_in_still_give_legal_decks(document: str, name: str) -> None:
    rules = rules_in_force(ruler(name, document))
    assert_legal(build_legal_deck(all_cards(), rules), rules)


# --- what the sample decks look like -----------------------------------------------------------


def test_the_builder_is_deterministic_whatever_the_card_order() -> None:
    rules = rules_in_force(ruler("Apprentice"))
    cards = practice_cards()
    first = build_legal_deck(cards, rules)
    assert first == build_legal_deck(tuple(reversed(cards)), rules)
    assert first == build_legal_deck(sorted(cards, key=lambda c: c.text), rules)


def test_centurion_builds_around_the_shared_dragon_attribute() -> None:
    rules = rules_in_force(ruler("Centurion"))
    assert choose_attribute(practice_cards(), rules) == "Dragon"
    deck = build_legal_deck(practice_cards(), rules)
    assert deck is not None
    assert deck.attribute == "Dragon"
    units = [e.card for e in deck.main if e.card.type == UNIT]
    assert units
    assert all("Dragon" in c.attributes for c in units)
    assert len({c.faction for c in units}) > 1
    assert len({e.card.faction for e in deck.main if e.card.type != UNIT}) == 1


def test_a_given_attribute_is_used() -> None:
    rules = rules_in_force(ruler("Vanquisher"))
    deck = build_legal_deck(practice_cards(), rules, attribute="Military")
    assert_legal(deck, rules)
    assert deck is not None
    assert deck.attribute == "Military"
    assert all("Military" in e.card.attributes for e in deck.main if e.card.type == UNIT)


def test_choose_attribute_is_none_for_rulers_without_the_rule() -> None:
    assert choose_attribute(practice_cards(), rules_in_force(ruler("Apprentice"))) is None


def test_janken_junkie_plays_six_copies_of_rock_paper_scissors_cards() -> None:
    rules = rules_in_force(ruler("Janken Junkie"))
    deck = build_legal_deck(practice_cards(), rules)
    assert_legal(deck, rules)
    assert deck is not None
    six = [e for e in deck.main if e.count == 6]
    assert six
    assert all("Rock-Paper-Scissors" in e.card.text for e in six)


@pytest.mark.parametrize("name", ["World Master Alpha 2020", "World Master Beta 2020"])
def test_world_master_decks_name_pool_printings(name: str) -> None:
    for document in ("rulebook-2020-11-26", APPENDIX_A):
        rules = rules_in_force(ruler(name, document))
        deck = build_legal_deck(practice_cards(), rules)
        assert_legal(deck, rules)
        assert deck is not None
        for entry in (*deck.main, *deck.resources):
            assert entry.printing is not None
            assert entry.printing.startswith(("MD", "2020"))
        assert not any(e.card.legend for e in deck.main)


def test_resource_cards_are_energy_and_main_deck_has_none() -> None:
    rules = rules_in_force(ruler("Legion"))
    deck = build_legal_deck(practice_cards(), rules)
    assert_legal(deck, rules)
    assert deck is not None
    assert sum(e.count for e in deck.resources) == 3
    assert all(e.card.type == ENERGY for e in deck.resources)
    assert all(e.card.type != ENERGY for e in deck.main)
    assert all(e.count == 1 for e in deck.main)


# --- small hand-made pools ------------------------------------------------------------------


def card(name: str, level: int, faction: str = "Volnar", **kw: Any) -> CardFacts:  # a unit unless told
    return CardFacts(name=name, type=kw.pop("type", UNIT), faction=faction, level=level, **kw)


def with_deck_rules(base: str, **changes: Any) -> RulesInForce:
    obj = copy.deepcopy(ruler(base))
    obj["deck_construction"].update(changes)
    return rules_in_force(obj)


def test_none_when_there_are_too_few_cards() -> None:
    cards = [card(f"Card {i}", 0) for i in range(12)]  # 48 copies, the deck needs 50
    assert build_legal_deck(cards, rules_in_force(ruler("Apprentice"))) is None
    assert build_legal_deck([*cards, card("Card 12", 0)], rules_in_force(ruler("Apprentice")))


def test_none_when_resources_are_needed_and_there_is_no_energy() -> None:
    cards = [card(f"Card {i}", 0) for i in range(13)]
    assert build_legal_deck(cards, rules_in_force(ruler("Knight"))) is None
    energy = CardFacts(name="Energy", type=ENERGY)
    assert_legal(
        build_legal_deck([*cards, energy], rules_in_force(ruler("Knight"))),
        rules_in_force(ruler("Knight")),
    )


def test_none_when_nothing_is_in_the_pool() -> None:
    cards = [card(f"Card {i}", 0, attributes=frozenset({"Knight"})) for i in range(20)]
    assert build_legal_deck(cards, rules_in_force(ruler("Exvader"))) is None


def test_the_level_cap_makes_it_reach_for_cheap_cards() -> None:
    cheap = [card(f"Cheap {i}", 0) for i in range(10)]
    dear = [card(f"Dear {i}", 5) for i in range(10)]
    rules = with_deck_rules("Apprentice", level_cap=50)
    deck = build_legal_deck([*cheap, *dear], rules)
    assert_legal(deck, rules)
    assert deck is not None
    # 40 copies of level 0 leave room for exactly 10 level-5 copies.
    assert validate_deck(deck, rules).summary.level == 50
    tighter = with_deck_rules("Apprentice", level_cap=49)
    assert build_legal_deck([*cheap, *dear], tighter) is None


def test_factions_are_kept_within_the_limit() -> None:
    cards: Sequence[CardFacts] = [
        card(f"{faction} {i}", 0, faction=faction) for faction in ("ATLAS", "Volnar", "Wonderverse") for i in range(5)
    ]  # 20 copies a faction: 3 factions are needed
    assert build_legal_deck(cards, rules_in_force(ruler("Apprentice"))) is None
    rules = rules_in_force(ruler("Highlander"))  # 1 copy each: 15 names only
    assert build_legal_deck(cards, rules) is None
    rules = rules_in_force(ruler("Swole King"))  # 3 factions, 3 resources
    energy = CardFacts(name="Energy", type=ENERGY)
    assert_legal(build_legal_deck([*cards, energy], rules), rules)


def test_cnt_and_legend_caps_are_respected() -> None:
    cnt = [card(f"Counter {i}", -1, cnt=True) for i in range(10)]
    legends = [card(f"Legend {i}", 3, legend=True) for i in range(5)]
    plain = [card(f"Plain {i}", 1) for i in range(10)]
    rules = rules_in_force(ruler("Frenzy"))  # no negatives, 1 legend, cap 30
    deck = build_legal_deck([*cnt, *legends, *plain], rules)
    assert deck is None  # 40 plain copies + 1 legend is not 50
    rules = rules_in_force(ruler("Apprentice"))
    deck = build_legal_deck([*cnt, *legends, *plain], rules)
    assert_legal(deck, rules)
    assert deck is not None
    summary = validate_deck(deck, rules).summary
    assert summary.cnt <= 16
    assert summary.legends <= 2
