"""judge(game, deck): each new game's legal deck, and for each code a deck that breaks only it at
the boundary. Pure: no Django, no database."""

from __future__ import annotations

import pytest

from decks.rules.engine import validate_deck
from decks.rules.judge import judge
from decks.rules.wording import english

from .deckmaker import DeckMaker, rules_for
from .gamedecks import (
    GATE_RULER,
    GATERUNNERS,
    RULERS_GAMBIT,
    gr_card,
    gr_legal,
    gr_main,
    kingdom,
    rg_card,
    rg_legal,
    rg_main,
    snapshot,
)


def codes(game, **sections):
    return judge(game, snapshot(**sections)).rules_broken()


def test_a_rulers_gambit_deck_of_a_kingdom_and_39_cards_is_legal():
    report = judge(RULERS_GAMBIT, snapshot(**rg_legal()))

    assert report.violations == ()
    assert report.summary.size == 39


def test_a_gaterunners_deck_of_a_hero_3_gates_and_40_cards_is_legal():
    report = judge(GATERUNNERS, snapshot(**gr_legal()))

    assert report.violations == ()
    assert report.summary.size == 40


def _rg(**changes):
    return {**rg_legal(), **changes}


def _gr(**changes):
    return {**gr_legal(), **changes}


BLUE = rg_main()
ONE_SPELL_LESS = BLUE[:-1]


@pytest.mark.parametrize(
    ("sections", "expected"),
    [
        pytest.param(_rg(main=ONE_SPELL_LESS), {"deck_size"}, id="38-main-cards"),
        pytest.param(_rg(main=[*BLUE, (rg_card("Extra"), 1)]), {"deck_size"}, id="40-main-cards"),
        pytest.param(_rg(kingdom=[]), {"kingdom"}, id="no-kingdom"),
        pytest.param(
            _rg(kingdom=[(kingdom("Azure Kingdom"), 1), (kingdom("Tide Kingdom"), 1)]), {"kingdom"}, id="2-kingdoms"
        ),
        pytest.param(_rg(main=[*BLUE[:-2], (BLUE[-2][0], 2)]), set(), id="2-copies-of-a-spell"),
        pytest.param(_rg(main=[*ONE_SPELL_LESS, (BLUE[0][0], 1)]), {"max_copies"}, id="3-copies"),
        pytest.param(
            _rg(main=[*ONE_SPELL_LESS, (rg_card("Ember Imp", colours=("red",)), 1)]),
            {"colour"},
            id="red-card-under-blue",
        ),
        pytest.param(
            _rg(main=[*ONE_SPELL_LESS, (kingdom("Tide Kingdom"), 1)]), {"card_type"}, id="kingdom-ruler-in-main"
        ),
        pytest.param(_rg(kingdom=[(rg_card("Blue Pawn"), 1)]), {"card_type"}, id="unit-as-kingdom"),
    ],
)
def test_rulers_gambit_breaks_only_the_rule_at_its_boundary(sections, expected):
    assert codes(RULERS_GAMBIT, **sections) == expected


MAIN_40 = gr_main(40)


@pytest.mark.parametrize(
    ("sections", "expected"),
    [
        pytest.param(_gr(main=gr_main(39)), {"deck_size"}, id="39-main-cards"),
        pytest.param(_gr(main=gr_main(41)), set(), id="41-main-cards-no-largest-size"),
        pytest.param(_gr(hero=[]), {"hero"}, id="no-hero"),
        pytest.param(
            _gr(hero=[(gr_card("Wayfinder", "hero"), 1), (gr_card("Seeker", "hero"), 1)]), {"hero"}, id="2-heroes"
        ),
        pytest.param(_gr(gates=gr_legal()["gates"][:2]), {"gates"}, id="2-gates"),
        pytest.param(_gr(gates=[*gr_legal()["gates"], (gr_card("Gate of Dust", "gate"), 1)]), {"gates"}, id="4-gates"),
        pytest.param(_gr(gates=[(gr_card("Gate of Dawn", "gate"), 3)]), set(), id="one-gate-three-times"),
        pytest.param(_gr(main=[(gr_card("Swarm", level=1), 40)]), set(), id="no-copy-limit"),
        pytest.param(
            _gr(main=[*MAIN_40[:-1], (MAIN_40[-1][0], 1), (gr_card("Seeker", "hero"), 1)]),
            {"card_type"},
            id="hero-in-main",
        ),
        pytest.param(
            _gr(main=[*MAIN_40[:-1], (MAIN_40[-1][0], 1), (gr_card("Gate of Dust", "gate"), 1)]),
            {"card_type"},
            id="gate-in-main",
        ),
        pytest.param(_gr(hero=[(gr_card("Gate of Dust", "gate"), 1)]), {"card_type"}, id="gate-as-hero"),
        pytest.param(
            _gr(gates=[*gr_legal()["gates"][:2], (gr_card("Runner 99"), 1)]), {"card_type"}, id="unit-as-gate"
        ),
    ],
)
def test_gaterunners_breaks_only_the_rule_at_its_boundary(sections, expected):
    assert codes(GATERUNNERS, **sections) == expected


@pytest.mark.parametrize(
    ("kingdom_colours", "card_colours", "legal"),
    [
        pytest.param(("blue",), ("blue", "red"), False, id="multi-colour-card-needs-every-colour"),
        pytest.param(("blue", "red"), ("blue", "red"), True, id="multi-colour-kingdom-allows-both"),
        pytest.param(("blue", "red"), ("red",), True, id="multi-colour-kingdom-allows-each"),
        pytest.param(("blue", "red"), ("red", "green"), False, id="one-colour-outside"),
        pytest.param(("blue",), (), True, id="colourless-card-anywhere"),
    ],
)
def test_the_colour_readings_the_data_assumes(kingdom_colours, card_colours, legal):
    sections = _rg(
        kingdom=[(kingdom("Kingdom", kingdom_colours), 1)],
        main=[*rg_main()[:-1], (rg_card("Prism", colours=card_colours), 1)],
    )

    assert codes(RULERS_GAMBIT, **sections) == (set() if legal else {"colour"})


def test_each_violation_says_the_numbers_and_carries_its_rules_source():
    sections = _rg(
        main=[*ONE_SPELL_LESS[:-1], (BLUE[0][0], 1), (rg_card("Ember Imp", colours=("red",)), 1)],
        kingdom=[(kingdom("Fire Kingdom", ("blue",)), 1)],
    )
    report = judge(RULERS_GAMBIT, snapshot(**sections))
    by_code = {v.rule: v for v in report.violations}

    assert by_code["max_copies"].message == "3 copies of Blue Unit 00; a deck may have at most 2."
    assert by_code["colour"].message == "Colour not allowed by the Kingdom Fire Kingdom (blue): Ember Imp (red)."
    assert by_code["colour"].cards == ("Ember Imp",)
    assert by_code["colour"].source == "Game Cards: The Kingdom card dictates what colour you can put in your deck"
    assert set(by_code) == {"max_copies", "colour"}


@pytest.mark.parametrize(
    ("game", "sections", "message"),
    [
        (RULERS_GAMBIT, _rg(main=ONE_SPELL_LESS), "The main deck has 38 cards; it must have exactly 39."),
        (RULERS_GAMBIT, _rg(kingdom=[]), "The Kingdom section has 0 cards; it must have exactly 1."),
        (GATERUNNERS, _gr(main=gr_main(39)), "The main deck has 39 cards; it must have at least 40."),
        (GATERUNNERS, _gr(gates=gr_legal()["gates"][:1]), "The Gates section has 1 card; it must have exactly 3."),
        (
            RULERS_GAMBIT,
            _rg(main=[*ONE_SPELL_LESS, (kingdom("Tide Kingdom"), 1)]),
            "Only Unit or Spell cards go in the main deck: Tide Kingdom.",
        ),
    ],
)
def test_messages_are_plain_words_with_the_numbers_and_the_datas_labels(game, sections, message):
    (violation,) = judge(game, snapshot(**sections)).violations

    assert violation.message == message
    assert violation.wording is not None
    assert violation.wording.template % {k: english(v) for k, v in violation.wording.values.items()} == message


def test_a_deck_with_no_kingdom_is_not_judged_by_colour_the_kingdom_rule_says_why():
    sections = _rg(kingdom=[], main=[*ONE_SPELL_LESS, (rg_card("Ember Imp", colours=("red",)), 1)])

    assert codes(RULERS_GAMBIT, **sections) == {"kingdom"}


@pytest.mark.parametrize("ruler", ["Apprentice", "Knight", "Centurion", "World Master Alpha 2020"])
def test_gate_ruler_judged_as_a_game_is_judged_exactly_as_before(ruler):
    rules = rules_for(ruler, 2023) if ruler.startswith("World") else rules_for(ruler)
    maker = DeckMaker(rules)
    for deck in [maker.deck, *(breach.deck for breach in maker.breaches())]:
        before = validate_deck(deck, rules)
        after = judge(GATE_RULER, deck, rules)

        assert after.violations == before.violations
        assert [v.message for v in after.violations] == [v.message for v in before.violations]
        assert after.summary == before.summary


def test_gate_ruler_without_the_rules_in_force_is_refused_by_name():
    with pytest.raises(ValueError, match="gate-ruler: its rules come from a ruler"):
        judge(GATE_RULER, snapshot(main=[]))
