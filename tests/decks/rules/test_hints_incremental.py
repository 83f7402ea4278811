"""The card browser's incremental hints (Additions, Tally.plus_one) answer as a whole re-judgement would.

Random decks and cards (the strategies of test_properties), every ruler of every revision ± geas:
the tally with one more copy equals the deck with that copy counted afresh, and Additions.blockers
equals the hints worked out the old way, by judging the whole deck with one more copy
(validate_deck), for one card or a whole page of them against one count.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from decks.rules.engine import validate_deck
from decks.rules.hints import Additions, natural_section
from decks.rules.judge import addition_hints, judging
from decks.rules.registry import rule_get
from decks.rules.rule_hints import Addition
from decks.rules.ruleset import RulesInForce
from decks.rules.tally import Tally, with_one_more
from decks.rules.types import EVENT, MAIN, RESOURCES, UNIT, CardFacts, DeckEntry, DeckSnapshot

from .deckmaker import card, deck_of, rules_for
from .gamedecks import GATE_RULER
from .test_properties import (
    CASE_CHOICE,
    ENERGY_CARD,
    INDEX,
    PROPERTY_SETTINGS,
    card_pools,
    random_decks,
    scenarios,
)

SECTIONS = st.sampled_from([None, MAIN, RESOURCES])


def rejudged_blockers(
    deck: DeckSnapshot, rules: RulesInForce, card: CardFacts, printing: str | None, section: str | None
) -> list[str]:
    """The hints as they were worked out before Additions: two whole judgements per card."""
    section = section or natural_section(card)
    before = validate_deck(deck, rules)
    after = validate_deck(with_one_more(deck, card, printing, section), rules)
    addition = Addition(deck, rules, card, printing, section, before.summary, after.summary)
    reasons: list[str] = []
    for violation in after.violations:
        rule = rule_get(violation.rule)
        if rule is None or rule.hint is None:
            reason = None if violation in before.violations else violation.message
        else:
            reason = rule.hint(card.name in violation.cards, addition)
        if reason and reason not in reasons:
            reasons.append(reason)
    return reasons


@st.composite
def additions(draw: st.DrawFn) -> tuple[RulesInForce, DeckSnapshot, CardFacts, str | None, str | None]:
    rules = draw(CASE_CHOICE).rules
    deck = draw(random_decks())
    pool = [*draw(card_pools()), *(e.card for e in deck.main), ENERGY_CARD]
    card = pool[draw(INDEX) % len(pool)]
    numbers = card.collector_numbers
    printing = None if not numbers or draw(st.booleans()) else numbers[draw(INDEX) % len(numbers)]
    return rules, deck, card, printing, draw(SECTIONS)


@PROPERTY_SETTINGS
@given(additions())
def test_the_tally_with_one_more_equals_counting_the_deck_with_it(case):
    rules, deck, card, printing, section = case
    section = section or natural_section(card)

    incremental = Tally.of(deck, rules).plus_one(card, printing, section, rules)

    assert incremental == Tally.of(with_one_more(deck, card, printing, section), rules)


@PROPERTY_SETTINGS
@given(additions())
def test_incremental_hints_equal_a_whole_rejudgement(case):
    rules, deck, card, printing, section = case

    assert Additions.of(deck, rules).blockers(card, printing, section) == rejudged_blockers(
        deck, rules, card, printing, section
    )


def test_one_count_serves_many_cards_and_leaves_the_deck_as_it_was():
    rules = rules_for("Apprentice")
    deck = deck_of(*((card(f"Filler {i:02d}", "event", faction="Crimson", level=1), 4) for i in range(12)))
    judge = Additions.of(deck, rules)
    before = Tally.of(deck, rules)

    first = judge.blockers(card("Filler 00", "event", faction="Crimson", level=1), None)
    second = judge.blockers(card("Newcomer", "event", faction="Azure", level=3), None)

    assert first == ["5th copy; Apprentice allows 4"]
    assert second == rejudged_blockers(deck, rules, card("Newcomer", "event", faction="Azure", level=3), None, None)
    assert judge.tally == before


# ---------------------------------------------------------------- one deck, many cards (the card browser)

TWIN_NAMES = [f"Twin {i}" for i in range(4)]


def near_twins(card: CardFacts) -> list[CardFacts]:
    """The card with one fact changed (each way the rules tell cards apart)."""
    return [
        replace(card, type=UNIT if card.type != UNIT else EVENT),
        replace(card, faction=None if card.faction else "Crimson"),
        replace(card, level=(card.level or 0) + 1),
        replace(card, level=-1),
        replace(card, cnt=not card.cnt),
        replace(card, legend=not card.legend),
        replace(card, attributes=card.attributes ^ {"Dragon"}),
        replace(card, text="Play a round of Rock-Paper-Scissors." if not card.text else ""),
        replace(card, collector_numbers=("MD01-777",)),
    ]


@st.composite
def browser_pages(
    draw: st.DrawFn,
) -> tuple[RulesInForce, DeckSnapshot, list[tuple[CardFacts, str | None, str | None]]]:
    """Rules, a deck (random, or a ruler's boundary deck edited), and the cards a browser page tests
    against it: cards of the deck, cards new to it, and twins (the same facts under another name),
    in the deck and new, so what one card's test works out is shared with the next."""
    _case, rules, deck = draw(scenarios())
    pool = [*draw(card_pools()), *(e.card for e in deck.main), ENERGY_CARD]
    if draw(st.booleans()):
        # A twin of a deck card in the deck too: two names alike in everything a rule reads.
        base = pool[draw(INDEX) % len(pool)]
        deck = replace(deck, main=(*deck.main, DeckEntry(replace(base, name=TWIN_NAMES[0]), draw(st.integers(1, 3)))))
        pool.append(deck.main[-1].card)
    page = []
    for _ in range(draw(st.integers(1, 8))):
        shown = pool[draw(INDEX) % len(pool)]
        if draw(st.booleans()):
            shown = replace(shown, name=TWIN_NAMES[draw(INDEX) % len(TWIN_NAMES)])
            # Or a near twin, one fact apart: what a rule's shared_by must not leave out.
            shown = draw(st.sampled_from([shown, *near_twins(shown)]))
        numbers = shown.collector_numbers
        printing = None if not numbers or draw(st.booleans()) else numbers[draw(INDEX) % len(numbers)]
        page.append((shown, printing, draw(SECTIONS)))
    return rules, deck, page


@PROPERTY_SETTINGS
@given(browser_pages())
def test_one_count_tests_a_whole_page_as_whole_rejudgements_would(case):
    """Additions skips the checks a copy cannot move and shares a rule's answer among cards alike in what
    it reads (registry: reads, shared_by): every card of the page still gets the answer of judging
    the whole deck with its copy, whatever came before it."""
    rules, deck, page = case
    additions = Additions.of(deck, rules, validate_deck(deck, rules))

    for new, printing, section in page:
        assert additions.blockers(new, printing, section) == rejudged_blockers(deck, rules, new, printing, section)


@PROPERTY_SETTINGS
@given(browser_pages())
def test_the_gate_ruler_game_hints_are_whole_rejudgements_too(case):
    """The Gate Ruler game's data (data/games/gate-ruler.json, kind ruler_rules) asks the same hints."""
    rules, deck, page = case
    counted = judging(GATE_RULER, deck, rules)

    for new, printing, section in page:
        hints = [str(b) for b in addition_hints(counted, new, section=section, printing=printing)]
        assert hints == rejudged_blockers(deck, rules, new, printing, section)


def test_cards_alike_share_a_rules_answer_but_not_their_names_copies():
    """Two level-3 Crimson events new to a full deck: the level cap and the deck's size say the same of
    both; the copy limit speaks of its own card only."""
    rules = rules_for("Apprentice")
    deck = deck_of(*((card(f"Filler {i:02d}", "event", faction="Crimson", level=1), 4) for i in range(12)))
    deck = replace(deck, main=(*deck.main, DeckEntry(card("Quad", "event", faction="Crimson", level=3), 2)))
    additions = Additions.of(deck, rules)
    twin = card("Twin", "event", faction="Crimson", level=3)

    assert additions.blockers(twin, None) == ["deck is full (50/50)", "level total would be 57/50"]
    assert additions.blockers(card("Quad", "event", faction="Crimson", level=3), None) == [
        "deck is full (50/50)",
        "level total would be 57/50",
    ]
    assert additions.blockers(card("Filler 00", "event", faction="Crimson", level=1), None) == [
        "deck is full (50/50)",
        "5th copy; Apprentice allows 4",
        "level total would be 55/50",
    ]


def test_a_unit_and_an_event_of_one_faction_are_not_alike_to_a_limit_on_non_units():
    """Centurion limits the factions of its non-units only: a unit of a new faction is no reason, an
    event of that faction is, whichever the browser tests first."""
    rules = rules_for("Centurion")
    deck = replace(deck_of((card("Crimson Spell", "event", faction="Crimson", level=1), 2)), attribute="Dragon")
    additions = Additions.of(deck, rules)
    unit = card("Azure Unit", "unit", faction="Azure", level=1, attributes=frozenset({"Dragon"}))
    event = card("Azure Spell", "event", faction="Azure", level=1)

    assert additions.blockers(unit, None) == rejudged_blockers(deck, rules, unit, None, None)
    assert additions.blockers(event, None) == rejudged_blockers(deck, rules, event, None, None)
    assert "would be a 2nd faction among non-units" in additions.blockers(event, None)
    assert "would be a 2nd faction among non-units" not in additions.blockers(unit, None)


def test_names_alike_but_for_their_text_and_copies_do_not_share_the_copy_limits_answer():
    """Janken Junkie allows 6 copies of a Rock-Paper-Scissors card and 4 of any other: two units alike in
    everything but their text (or their copies in the deck) get their own copy limit's answer, in any order."""
    rules = rules_for("Janken Junkie")
    plain = card("Plain Brawler", "unit", faction="Crimson", level=1)
    janken = card("Janken Brawler", "unit", faction="Crimson", level=1, text="Play a round of Rock-Paper-Scissors.")
    fewer = card("Other Brawler", "unit", faction="Crimson", level=1)
    deck = deck_of((plain, 4), (janken, 4), (fewer, 2))

    for order in ([plain, janken, fewer], [janken, fewer, plain], [fewer, plain, janken]):
        additions = Additions.of(deck, rules)
        for shown in order:
            assert additions.blockers(shown, None) == rejudged_blockers(deck, rules, shown, None, None), shown.name
    assert "5th copy; Janken Junkie allows 4" in Additions.of(deck, rules).blockers(plain, None)
    assert not any("copy" in reason for reason in Additions.of(deck, rules).blockers(janken, None))
