"""Meters per constraint of the rules in force: pure tables, no Django, no database."""

from __future__ import annotations

import pytest

from decks.rules.meters import OK, OVER, UNDER, Meter, deck_meters
from decks.rules.rule_meters import names_shown
from decks.rules.types import ENERGY, EVENT, UNIT

from .deckmaker import card, deck_of, rules_for

APPRENTICE = rules_for("Apprentice")
LONE_BANNER = rules_for("Apprentice", geas="Oath of the Lone Banner")
CENTURION = rules_for("Centurion")
KNIGHT = rules_for("Knight")
EXVADER = rules_for("Exvader")
WM_ALPHA_2023 = rules_for("World Master Alpha 2020", 2023)

ENERGY_CARD = card("Basic Energy", ENERGY)


def by_key(meters: list[Meter]) -> dict[str, Meter]:
    return {m.key: m for m in meters}


def test_it_measures_an_apprentice_deck():
    deck = deck_of(
        (card("Red A", EVENT, faction="Crimson", level=2), 4),
        (card("Blue A", UNIT, faction="Azure", level=1, cnt=True), 3),
        (card("Legend", UNIT, faction="Azure", level=3, legend=True), 1),
    )

    meters = by_key(deck_meters(deck, APPRENTICE))

    assert list(meters) == ["size", "level", "cnt", "factions", "legends"]
    assert (meters["size"].text, meters["size"].state) == ("8/50", UNDER)
    assert (meters["level"].text, meters["level"].state) == ("14/50", OK)
    assert meters["cnt"].text == "3/16"
    assert (meters["factions"].text, meters["factions"].detail) == ("2/2", "Azure, Crimson")
    assert (meters["legends"].text, meters["legends"].detail) == ("1/2", "Legend")


def test_it_marks_meters_over_their_limit():
    deck = deck_of(
        *((card(f"Heavy {i}", EVENT, faction=f, level=9), 1) for i, f in enumerate(["Crimson", "Azure", "Verdant"] * 2))
    )

    meters = by_key(deck_meters(deck, APPRENTICE))

    assert meters["level"].over
    assert meters["level"].text == "54/50"
    assert meters["factions"].over
    assert meters["factions"].percent == 100
    assert not meters["cnt"].over


def test_it_shows_an_unlimited_level_cap():
    meters = by_key(deck_meters(deck_of((card("Heavy", EVENT, level=9), 4)), KNIGHT))

    assert meters["level"].text == "36 / unlimited"
    assert meters["level"].state == OK
    assert meters["level"].percent == 0


def test_it_follows_a_geas():
    meters = by_key(deck_meters(deck_of((card("Heavy", EVENT, level=9), 4)), LONE_BANNER))

    assert meters["level"].text == "36/55"
    assert meters["factions"].text == "1/1"


def test_it_splits_factions_into_units_and_non_units_for_centurion():
    deck = deck_of(
        (card("Red Drake", UNIT, faction="Crimson", attributes=["Dragon"]), 4),
        (card("Blue Drake", UNIT, faction="Azure", attributes=["Dragon"]), 4),
        (card("Robot", UNIT, faction="Azure", attributes=["Machine"]), 2),
        (card("Red Spell", EVENT, faction="Crimson"), 4),
        attribute="Dragon",
    )

    meters = by_key(deck_meters(deck, CENTURION))

    assert meters["factions_units"].text == "2 / unlimited"
    assert meters["factions_units"].detail == "Azure, Crimson"
    assert meters["factions_non_units"].text == "1/1"
    assert meters["attribute"].label == "Units with Dragon"
    assert (meters["attribute"].text, meters["attribute"].state) == ("8/10", UNDER)


def test_it_asks_for_an_attribute_when_none_is_chosen():
    meters = by_key(deck_meters(deck_of((card("Drake", UNIT, attributes=["Dragon"]), 4)), CENTURION))

    assert meters["attribute"].label == "Units with the chosen attribute (none chosen)"
    assert meters["attribute"].state == UNDER


def test_it_counts_resources_only_for_rulers_that_prepare_them_or_decks_that_have_them():
    assert "resources" not in by_key(deck_meters(deck_of(), APPRENTICE))

    knight = by_key(deck_meters(deck_of(resources=[(ENERGY_CARD, 2)]), KNIGHT))
    assert (knight["resources"].text, knight["resources"].state) == ("2/3", UNDER)

    stray = by_key(deck_meters(deck_of(resources=[(ENERGY_CARD, 1)]), APPRENTICE))
    assert (stray["resources"].text, stray["resources"].state) == ("1/0", OVER)


def test_it_has_a_quota_per_faction_and_a_pool_meter_for_world_master():
    deck = deck_of(
        (card("Old Red", EVENT, faction="Crimson", collector_numbers=("MD01-001",)), 4),
        *((card(f"Old Blue {i}", EVENT, faction="Azure", collector_numbers=(f"2020X-{i}",)), 4) for i in range(4)),
        (card("New Red", EVENT, faction="Crimson", collector_numbers=("GR01-001",)), 1),
    )

    meters = by_key(deck_meters(deck, WM_ALPHA_2023))

    assert meters["quota:Azure"].text == "16/12"
    assert meters["quota:Azure"].over
    assert meters["quota:Crimson"].text == "5/12"
    assert meters["pool"].text == "1/0"
    assert meters["pool"].detail == "New Red"
    assert meters["pool"].over
    assert meters["legends"].text == "0/0"


def test_it_shows_an_empty_quota_and_describes_the_pool_when_nothing_is_outside():
    meters = by_key(deck_meters(deck_of(), WM_ALPHA_2023))

    assert meters["quota"].text == "0/12"
    assert meters["pool"].state == OK
    assert meters["pool"].detail.startswith("cards with a collector number starting with")


def test_it_describes_a_faction_and_attribute_pool():
    meters = by_key(deck_meters(deck_of((card("Stranger", UNIT, faction="Crimson"), 1)), EXVADER))

    assert meters["pool"].text == "1/0"
    assert meters["factions"].text == "1 / unlimited"


@pytest.mark.parametrize(
    ("meter", "state", "percent"),
    [
        (Meter("x", "X", 0, 0), OK, 0),
        (Meter("x", "X", 1, 0), OVER, 100),
        (Meter("x", "X", 5, 10), OK, 50),
        (Meter("x", "X", 5, 10, exact=True), UNDER, 50),
        (Meter("x", "X", 10, 10, exact=True), OK, 100),
        (Meter("x", "X", 12, 10, exact=True), OVER, 100),
        (Meter("x", "X", 12, None), OK, 0),
        # A level total below zero (cards of level -1) draws an empty bar, not `width: -16%`.
        (Meter("level", "Level", -8, 50), OK, 0),
        (Meter("x", "X", -1, 0), OK, 0),
    ],
)
def test_its_state_and_fill(meter, state, percent):
    assert meter.state == state
    assert meter.percent == percent
    assert meter.over == (state == OVER)


def test_a_meter_names_at_most_three_cards_then_counts_the_rest():
    assert names_shown("cards", []) == ""
    assert names_shown("cards", ["A", "B", "C"]) == "A, B, C"
    many = names_shown("cards", [f"Card {i:02d}" for i in range(19)])

    assert many == "Card 00, Card 01, Card 02 and 16 more"
    # Kept as words: the names and the count, worded again in the player's language.
    assert (many.template, many.values["more"]) == ("%(names)s and %(more)s more", 16)
    assert many.values["names"].values == {"cards": ("Card 00", "Card 01", "Card 02")}


def test_a_deck_of_many_factions_names_three_of_them():
    factions = ("Azure", "Crimson", "Jade", "Onyx", "Violet")
    deck = deck_of(*((card(f"{f} A", EVENT, faction=f), 1) for f in factions))

    meters = by_key(deck_meters(deck, APPRENTICE))

    assert (meters["factions"].text, meters["factions"].state) == ("5/2", OVER)
    assert meters["factions"].detail == "Azure, Crimson, Jade and 2 more"


@pytest.mark.parametrize(
    ("value", "text", "state"),
    [(41, "41 · at least 40", OK), (40, "40 · at least 40", OK), (12, "12 · at least 40", UNDER)],
)
def test_an_at_least_meter_reads_as_met_past_its_limit_not_over_it(value, text, state):
    meter = Meter("size", "Main deck", value, 40, at_least=True)

    assert (meter.text, meter.state, meter.over) == (text, state, False)
    assert "/" not in meter.text
