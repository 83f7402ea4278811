"""The card browser's incremental hints (Additions, Tally.plus_one) answer as a whole re-judgement would.

Random decks and cards (the strategies of test_properties), every ruler ± geas: the tally with one
more copy equals the deck with that copy counted afresh, and Additions.blockers equals the
hints worked out the old way, by judging the whole deck with one more copy (validate_deck).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from decks.rules.engine import validate_deck
from decks.rules.hints import Additions, natural_section
from decks.rules.registry import rule_get
from decks.rules.rule_hints import Addition
from decks.rules.ruleset import RulesInForce
from decks.rules.tally import Tally, with_one_more
from decks.rules.types import MAIN, RESOURCES, CardFacts, DeckSnapshot

from .deckmaker import card, deck_of, rules_for
from .test_properties import CASE_CHOICE, ENERGY_CARD, INDEX, PROPERTY_SETTINGS, card_pools, random_decks

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
