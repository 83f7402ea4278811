""" "Can I add this?" hints and meters of the data-driven games, and properties tying them to a
re-judgement. Pure: no Django, no database."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.rules.judge import addition_hints, game_meters, game_natural_section, judge, judging
from decks.rules.rule_meters import OK, OVER, UNDER
from decks.rules.types import DeckEntry, DeckSnapshot

from .deckmaker import DeckMaker, card, rules_for
from .gamedecks import (
    GATE_RULER,
    GATERUNNERS,
    RULERS_GAMBIT,
    gr_card,
    gr_legal,
    kingdom,
    rg_card,
    rg_legal,
    rg_main,
    snapshot,
)


def hints(game, sections, new, section=None):
    return [str(b) for b in addition_hints(judging(game, snapshot(**sections)), new, section=section)]


def test_a_card_that_fits_has_no_hint():
    sections = {**rg_legal(), "main": rg_main()[:-1]}

    assert hints(RULERS_GAMBIT, sections, rg_card("Blue Newcomer")) == []


@pytest.mark.parametrize(
    ("game", "sections", "new", "section", "expected"),
    [
        (RULERS_GAMBIT, rg_legal(), rg_card("Blue Newcomer"), None, ["the main deck is full (39/39)"]),
        (
            RULERS_GAMBIT,
            {**rg_legal(), "main": rg_main()[:-1]},
            rg_main()[0][0],
            None,
            ["would be a 3rd copy; at most 2"],
        ),
        (
            RULERS_GAMBIT,
            {**rg_legal(), "main": rg_main()[:-1]},
            rg_card("Ember Imp", colours=("red", "blue")),
            None,
            ["the Kingdom does not allow red"],
        ),
        (RULERS_GAMBIT, rg_legal(), kingdom("Tide Kingdom"), None, ["the Kingdom section is full (1/1)"]),
        (
            RULERS_GAMBIT,
            {**rg_legal(), "main": rg_main()[:-1]},
            kingdom("Tide Kingdom"),
            "main",
            ["a Kingdom-Ruler card does not go in the main deck"],
        ),
        (
            RULERS_GAMBIT,
            {"kingdom": [], "main": rg_main("red")},
            kingdom("Azure Kingdom"),
            None,
            [
                "would not allow Red Spell 0, Red Spell 1, Red Spell 2, "
                + ", ".join(f"Red Unit {i:02d}" for i in range(18))
                + " in the main deck"
            ],
        ),
        (GATERUNNERS, gr_legal(), gr_card("Gate of Dust", "gate"), None, ["the Gates section is full (3/3)"]),
        (GATERUNNERS, gr_legal(), gr_card("Seeker", "hero"), None, ["the Hero section is full (1/1)"]),
        (GATERUNNERS, gr_legal(), gr_card("Runner 00", level=0), None, []),
    ],
)
def test_it_says_why_a_card_cannot_be_added(game, sections, new, section, expected):
    assert hints(game, sections, new, section) == expected


def test_a_card_goes_to_the_section_whose_types_take_it():
    assert game_natural_section(RULERS_GAMBIT, kingdom()) == "kingdom"
    assert game_natural_section(RULERS_GAMBIT, rg_card("X", "spell")) == "main"
    assert game_natural_section(GATERUNNERS, gr_card("G", "gate")) == "gates"
    assert game_natural_section(GATE_RULER, card("Spark", "energy")) == "resources"


def test_gate_ruler_hints_are_the_ruler_registrys():
    rules = rules_for("Apprentice")
    deck = DeckMaker(rules).deck
    j = judging(GATE_RULER, deck, rules)
    extra = card("One Too Many", "event")

    assert [str(b) for b in addition_hints(j, extra)] == ["deck is full (50/50)"]


def test_gate_ruler_meters_are_the_ruler_registrys_and_need_the_rules_in_force():
    from decks.rules.meters import deck_meters

    rules = rules_for("Knight")
    deck = DeckMaker(rules).deck

    assert game_meters(judging(GATE_RULER, deck, rules)) == deck_meters(deck, rules)
    with pytest.raises(ValueError, match="gate-ruler: its rules come from a ruler"):
        game_meters(judging(GATE_RULER, deck))


def test_meters_read_the_deck_against_each_rule():
    sections = {**rg_legal(), "main": [*rg_main()[:-1], (rg_card("Ember Imp", colours=("red",)), 1)]}
    meters = {m.key: m for m in game_meters(judging(RULERS_GAMBIT, snapshot(**sections)))}

    assert (meters["deck_size"].text, meters["deck_size"].state) == ("39/39", OK)
    assert (meters["kingdom"].text, meters["kingdom"].state) == ("1/1", OK)
    assert (meters["max_copies"].value, meters["max_copies"].limit) == (2, 2)
    assert (meters["colour"].value, meters["colour"].state, meters["colour"].detail) == (1, OVER, "Ember Imp")


@pytest.mark.parametrize(("size", "state"), [(39, UNDER), (40, OK), (55, OK)])
def test_the_gaterunners_deck_meter_is_a_least_size(size, state):
    from .gamedecks import gr_main

    meters = {m.key: m for m in game_meters(judging(GATERUNNERS, snapshot(**{**gr_legal(), "main": gr_main(size)})))}

    assert (meters["deck_size"].value, meters["deck_size"].limit, meters["deck_size"].state) == (size, 40, state)


# ---------------------------------------------------------------- properties

COLOURS = ("blue", "red", "yellow", "green", "orange", "purple")
colour_sets = st.lists(st.sampled_from(COLOURS), max_size=2, unique=True).map(tuple)


# One card per name, as in a catalog (a card's facts never differ between two lines of a deck).
CATALOG = (
    rg_card("Blue Pawn", colours=("blue",)),
    rg_card("Red Pawn", colours=("red",)),
    rg_card("Violet Pawn", colours=("blue", "red")),
    rg_card("Grey Pawn", colours=()),
    rg_card("Blue Bolt", "spell", ("blue",)),
    rg_card("Sun Bolt", "spell", ("yellow", "orange")),
    kingdom("Azure Kingdom", ("blue",)),
    kingdom("Twin Kingdom", ("blue", "red")),
    kingdom("Ember Kingdom", ("red",)),
)
rg_cards = st.sampled_from(CATALOG)


@st.composite
def rg_decks(draw):
    kingdoms = draw(st.lists(st.tuples(rg_cards, st.integers(1, 2)), max_size=2))
    main = draw(st.lists(st.tuples(rg_cards, st.integers(1, 3)), max_size=25))
    return {"kingdom": kingdoms, "main": main}


@settings(max_examples=150, deadline=None)
@given(rg_decks(), rg_cards)
def test_a_copy_past_the_limit_always_breaks_max_copies(sections, new):
    deck = snapshot(**sections)
    copies = sum(e.count for s in ("kingdom", "main") for e in deck.section(s) if e.card.name == new.name)
    more = DeckSnapshot.of_sections(
        {"kingdom": deck.section("kingdom"), "main": (*deck.main, DeckEntry(new, 3 - copies if copies < 3 else 1))}
    )

    assert "max_copies" in judge(RULERS_GAMBIT, more).rules_broken()


def _one_more(deck, new, section):
    return DeckSnapshot.of_sections(
        {**{k: deck.section(k) for k in ("kingdom", "main")}, section: (*deck.section(section), DeckEntry(new, 1))}
    )


@settings(max_examples=300, deadline=None)
@given(rg_decks(), rg_cards, st.sampled_from(["kingdom", "main"]))
def test_a_hint_names_exactly_the_rules_one_more_copy_newly_breaks_or_worsens(sections, new, section):
    deck = snapshot(**sections)
    before = judge(RULERS_GAMBIT, deck).rules_broken()
    after = judge(RULERS_GAMBIT, _one_more(deck, new, section)).rules_broken()
    named = {b.rule for b in addition_hints(judging(RULERS_GAMBIT, deck), new, section=section)}

    assert named <= after
    assert after - before <= named


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(COLOURS), rg_cards, st.sampled_from(["kingdom", "main"]))
def test_on_a_deck_one_card_short_no_hint_means_the_copy_makes_it_legal(colour, new, section):
    sections = {**rg_legal(colour), "main": rg_main(colour)[:-1]}
    deck = snapshot(**sections)
    blockers = addition_hints(judging(RULERS_GAMBIT, deck), new, section=section)

    assert (blockers == []) == judge(RULERS_GAMBIT, _one_more(deck, new, section)).legal


@st.composite
def legal_rg_decks(draw):
    """A random legal Ruler's Gambit deck: a Kingdom of one or two colours and 39 main cards of
    its colours (or none), at most 2 copies each."""
    allowed = draw(st.lists(st.sampled_from(COLOURS), min_size=1, max_size=2, unique=True))
    pairs = draw(st.integers(0, 19))
    counts = [2] * pairs + [1] * (39 - 2 * pairs)
    main = []
    for i, count in enumerate(counts):
        colours = tuple(draw(st.lists(st.sampled_from(allowed), max_size=len(allowed), unique=True)))
        main.append((rg_card(f"Card {i:02d}", draw(st.sampled_from(["unit", "spell"])), colours), count))
    return {"kingdom": [(kingdom("Home", tuple(allowed)), 1)], "main": main}


@settings(max_examples=100, deadline=None)
@given(legal_rg_decks(), st.randoms(use_true_random=False))
def test_any_legal_deck_is_legal_and_stays_legal_under_reordering_and_splitting(sections, rnd: random.Random):
    assert judge(RULERS_GAMBIT, snapshot(**sections)).legal
    main = [(c, 1) for c, n in sections["main"] for _ in range(n)]
    rnd.shuffle(main)

    assert judge(RULERS_GAMBIT, snapshot(kingdom=sections["kingdom"], main=main)).legal


@settings(max_examples=100, deadline=None)
@given(legal_rg_decks(), st.data())
def test_one_more_copy_of_a_card_at_the_limit_in_a_legal_deck_always_breaks_max_copies(sections, data):
    at_limit = [c for c, n in sections["main"] if n == 2]
    new = data.draw(st.sampled_from(at_limit)) if at_limit else sections["main"][0][0]
    main = [*sections["main"], (new, 1 if at_limit else 2)]

    assert "max_copies" in judge(RULERS_GAMBIT, snapshot(kingdom=sections["kingdom"], main=main)).rules_broken()


GR_CATALOG = (
    gr_card("Wayfinder", "hero"),
    gr_card("Seeker", "hero"),
    gr_card("Gate of Dawn", "gate"),
    gr_card("Gate of Dusk", "gate"),
    gr_card("Runner", level=1),
    gr_card("Quick Strike", "action", cost=1, instant=True),
)
gr_cards = st.sampled_from(GR_CATALOG)


@settings(max_examples=200, deadline=None)
@given(
    st.fixed_dictionaries(
        {
            "hero": st.lists(st.tuples(gr_cards, st.integers(1, 2)), max_size=2),
            "gates": st.lists(st.tuples(gr_cards, st.integers(1, 3)), max_size=3),
            "main": st.lists(st.tuples(gr_cards, st.integers(1, 30)), max_size=4),
        }
    ),
    gr_cards,
    st.sampled_from(["hero", "gates", "main"]),
)
def test_gaterunners_hints_agree_with_a_rejudgement(sections, new, section):
    deck = snapshot(**sections)
    before = judge(GATERUNNERS, deck).rules_broken()
    after_deck = DeckSnapshot.of_sections(
        {
            **{k: deck.section(k) for k in ("hero", "gates", "main")},
            section: (*deck.section(section), DeckEntry(new, 1)),
        }
    )
    after = judge(GATERUNNERS, after_deck).rules_broken()
    named = {b.rule for b in addition_hints(judging(GATERUNNERS, deck), new, section=section)}

    assert named <= after
    assert after - before <= named


def test_the_copies_meter_names_three_of_the_cards_at_the_most_and_counts_the_rest():
    meters = {m.key: m for m in game_meters(judging(RULERS_GAMBIT, snapshot(**rg_legal())))}

    # 18 units at 2 copies each (rg_main): three named, 15 counted.
    assert (meters["max_copies"].value, meters["max_copies"].state) == (2, OK)
    assert meters["max_copies"].detail == "Blue Unit 00, Blue Unit 01, Blue Unit 02 and 15 more"
    assert meters["max_copies"].label == "Most copies of a card"


def test_the_identity_meter_names_three_of_the_cards_it_does_not_allow():
    reds = [(rg_card(f"Red Unit {i}", colours=("red",)), 1) for i in range(5)]
    sections = {**rg_legal(), "main": [*rg_main()[:-5], *reds]}
    meters = {m.key: m for m in game_meters(judging(RULERS_GAMBIT, snapshot(**sections)))}

    assert (meters["colour"].value, meters["colour"].state) == (5, OVER)
    assert meters["colour"].detail == "Red Unit 0, Red Unit 1, Red Unit 2 and 2 more"
    assert meters["colour"].label == "Cards the Kingdom does not allow"
    assert meters["colour"].label.values == {"section": "Kingdom"}
