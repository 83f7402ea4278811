"""What each rule says it reads of a deck (registry: reads) and of a card (shared_by) is all it reads.

The card browser's hints (hints.Additions) trust these declarations to skip a check one more copy
cannot move and to share a rule's answer among cards alike: a check that read an aspect it does not
declare would be skipped wrongly. Pure: no Django, no database.
"""

from __future__ import annotations

from dataclasses import fields, replace

import pytest
from hypothesis import given

from decks.rules import tally as t
from decks.rules.hints import natural_section
from decks.rules.registry import RULES
from decks.rules.rule_hints import Addition
from decks.rules.ruleset import CopyException, RulesInForce
from decks.rules.tally import Tally
from decks.rules.types import EVENT, UNIT, CardFacts, DeckSnapshot

from .deckmaker import card as a_card
from .deckmaker import deck_of
from .test_hints_incremental import browser_pages
from .test_properties import CASES, PROPERTY_SETTINGS, scenarios

CARD_FACTS = {f.name for f in fields(CardFacts)}


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.code)
def test_it_declares_what_it_reads_in_the_tallys_words(rule):
    assert rule.reads
    assert rule.reads <= t.ASPECTS
    # Shared by facts of the card, never by its name (the name alone would share nothing).
    assert rule.shared_by is None or set(rule.shared_by) <= CARD_FACTS - {"name", "fields"}


@PROPERTY_SETTINGS
@given(browser_pages())
def test_a_check_reading_nothing_a_copy_moves_says_after_it_what_it_said_before(case):
    rules, deck, page = case
    tally = Tally.of(deck, rules)

    for card, printing, section in page:
        section = section or natural_section(card)
        moved = tally.moved_by(card, printing, section, rules)
        after = tally.plus_one(card, printing, section, rules)
        for rule in RULES:
            if not rule.reads & moved:
                assert rule.check(after, rules) == rule.check(tally, rules), rule.code


@PROPERTY_SETTINGS
@given(browser_pages())
def test_moved_by_names_every_count_a_copy_changes(case):
    rules, deck, page = case
    tally = Tally.of(deck, rules)

    for card, printing, section in page:
        section = section or natural_section(card)
        moved = tally.moved_by(card, printing, section, rules)
        after = tally.plus_one(card, printing, section, rules)
        lowest = rules.deck.lowest_copy_limit()
        changed = {
            t.SIZE: after.size != tally.size,
            t.COPIES: after.counts != tally.counts,
            t.PAST_LOWEST_LIMIT: {n: c for n, c in after.counts.items() if c > lowest}
            != {n: c for n, c in tally.counts.items() if c > lowest},
            t.NAMES: after.cards.keys() != tally.cards.keys(),
            t.PRINTINGS: after.printings != tally.printings,
            t.LEVELS: after.level != tally.level,
            t.CNT_CARDS: after.cnt != tally.cnt,
            t.FACTIONS: after.faction_counts != tally.faction_counts,
            t.RESOURCE_CARDS: after.resources != tally.resources,
        }
        assert {aspect for aspect, moves in changed.items() if moves} <= moved


@PROPERTY_SETTINGS
@given(scenarios())
def test_a_rule_the_rules_make_silent_says_nothing_of_any_deck(case):
    """Rules that make a rule silent (registry: silent) leave its check nothing to say, whatever the deck: the
    card browser's hints leave it out."""
    _case, rules, deck = case
    tally = Tally.of(deck, rules)

    for rule in RULES:
        if rule.silent is not None and rule.silent(rules.deck):
            assert rule.check(tally, rules) == [], rule.code


@pytest.mark.parametrize("rule", [rule for rule in RULES if rule.silent is not None], ids=lambda rule: rule.code)
def test_each_silent_rule_speaks_under_some_ruler(rule):
    # A declaration true of every ruler would leave the rule out of every hint: some ruler must enforce it.
    assert any(not rule.silent(case.rules.deck) for case in CASES), rule.code


def everything_broken(rules: RulesInForce) -> DeckSnapshot:
    """A deck that breaks every limit the rules set: many copies of high-level, negative-level, CNT and
    legendary units and events of many factions, lacking any attribute, outside any card pool, and every
    banned card."""
    entries = []
    for i in range(40):
        entries.append(
            (
                a_card(
                    f"Everything {i:02d}",
                    UNIT if i % 2 else EVENT,
                    faction=f"Faction {i % 10}",
                    level=-2 if i % 7 == 0 else 9,
                    cnt=True,
                    legend=i % 3 == 0,
                    collector_numbers=(f"ZZ-{i:03d}",),
                ),
                9,
            )
        )
    entries += [(a_card(name, EVENT, collector_numbers=("ZZ-999",)), 1) for name in sorted(rules.deck.banned_cards)]
    return deck_of(*entries)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_a_rule_is_silent_exactly_when_the_rules_let_it_say_nothing_of_a_deck_breaking_everything(case):
    rules = case.rules
    tally = Tally.of(everything_broken(rules), rules)

    for rule in RULES:
        if rule.silent is not None:
            assert rule.silent(rules.deck) == (rule.check(tally, rules) == []), rule.code


def test_a_copy_moves_the_copies_past_the_lowest_limit_only_when_it_takes_its_name_past_it():
    rules = CASES[0].rules
    lowest = rules.deck.lowest_copy_limit()
    card = a_card("Limit Probe", EVENT)
    under = Tally.of(deck_of((card, lowest - 1)), rules)
    at = Tally.of(deck_of((card, lowest)), rules)

    assert t.PAST_LOWEST_LIMIT not in under.moved_by(card, None, natural_section(card), rules)
    assert t.PAST_LOWEST_LIMIT in at.moved_by(card, None, natural_section(card), rules)
    # Without rules, no limit is known: every copy moves them.
    assert t.PAST_LOWEST_LIMIT in under.moved_by(card, None, natural_section(card), None)


@PROPERTY_SETTINGS
@given(scenarios())
def test_the_tally_counts_the_legendary_names(case):
    _case, rules, deck = case
    tally = Tally.of(deck, rules)

    assert tally.legends == sum(1 for card in tally.cards.values() if card.legend)


def test_the_lowest_copy_limit_is_the_fewest_any_exception_allows():
    deck_rules = CASES[0].rules.deck
    fewer = CopyException(text_contains="Only one", max_copies=1)
    more = CopyException(text_contains="Any number", max_copies=99)

    assert replace(deck_rules, max_copies=4, max_copies_exceptions=()).lowest_copy_limit() == 4
    assert replace(deck_rules, max_copies=4, max_copies_exceptions=(more, fewer)).lowest_copy_limit() == 1
    assert replace(deck_rules, max_copies=4, max_copies_exceptions=(more,)).lowest_copy_limit() == 4


@PROPERTY_SETTINGS
@given(browser_pages())
def test_a_named_only_rules_hint_says_nothing_against_a_copy_its_violation_does_not_name(case):
    """The card browser's hints skip a named-only rule's hint (registry: named_only) for a violation that does not
    name the copy: the hint must say nothing then, whatever the deck, the rules and the copy."""
    rules, deck, page = case
    tally = Tally.of(deck, rules)

    for card, printing, section in page:
        section = section or natural_section(card)
        after = tally.plus_one(card, printing, section, rules)
        addition = Addition(deck, rules, card, printing, section, tally.summary(), after.summary())
        for rule in RULES:
            if rule.named_only:
                assert rule.hint is not None, rule.code
                assert rule.hint(False, addition) is None, rule.code


def test_a_rule_whose_hint_speaks_of_copies_it_does_not_name_is_not_named_only():
    # The deck's size, its level total, its factions: said against any copy that would move them.
    by_code = {rule.code: rule for rule in RULES}
    for code in ("deck_size", "max_factions", "legend_cap", "level_cap", "cnt_cap", "resource_cards"):
        assert not by_code[code].named_only, code


@PROPERTY_SETTINGS
@given(browser_pages())
def test_the_totals_with_one_more_are_those_of_the_tally_with_it(case):
    rules, deck, page = case
    tally = Tally.of(deck, rules)

    for card, printing, section in page:
        section = section or natural_section(card)
        assert tally.summary_with_one_more(card, section) == tally.plus_one(card, printing, section, rules).summary()


@PROPERTY_SETTINGS
@given(browser_pages())
def test_a_hint_alone_says_what_its_check_on_the_deck_with_the_copy_would(case):
    """A rule whose hint alone speaks for its check (registry: hint_alone) gives, asked without the check, the
    reasons its violations of the deck with the copy would give (for a copy whose facts are its name's)."""
    rules, deck, page = case
    tally = Tally.of(deck, rules)
    before = tally.summary()

    for card, printing, section in page:
        section = section or natural_section(card)
        known = tally.cards.get(card.name)
        if known is not None and known != card:
            continue
        after = tally.plus_one(card, printing, section, rules)
        addition = Addition(deck, rules, card, printing, section, before, after.summary())
        for rule in RULES:
            if rule.hint_alone:
                assert rule.hint is not None, rule.code
                by_check = {rule.hint(card.name in v.cards, addition) for v in rule.check(after, rules)} - {None}
                alone = rule.hint(False, addition)
                assert by_check == ({alone} if alone else set()), rule.code


def test_a_rule_whose_hint_needs_its_check_is_not_hint_alone():
    # The level and CNT caps' hints say the total would grow, not whether it would pass the cap.
    by_code = {rule.code: rule for rule in RULES}
    for code in ("level_cap", "cnt_cap", "legend_cap", "max_copies"):
        assert not by_code[code].hint_alone, code
