"""What each rule says it reads of a deck (registry: reads) and of a card (shared_by) is all it reads.

The card browser's hints (hints.Additions) trust these declarations to skip a check one more copy
cannot move and to share a rule's answer among cards alike: a check that read an aspect it does not
declare would be skipped wrongly. Pure: no Django, no database.
"""

from __future__ import annotations

from dataclasses import fields

import pytest
from hypothesis import given

from decks.rules import tally as t
from decks.rules.hints import natural_section
from decks.rules.registry import RULES
from decks.rules.tally import Tally
from decks.rules.types import CardFacts

from .test_hints_incremental import browser_pages
from .test_properties import PROPERTY_SETTINGS

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
        changed = {
            t.SIZE: after.size != tally.size,
            t.COPIES: after.counts != tally.counts,
            t.NAMES: after.cards.keys() != tally.cards.keys(),
            t.PRINTINGS: after.printings != tally.printings,
            t.LEVELS: after.level != tally.level,
            t.CNT_CARDS: after.cnt != tally.cnt,
            t.FACTIONS: after.faction_counts != tally.faction_counts,
            t.RESOURCE_CARDS: after.resources != tally.resources,
        }
        assert {aspect for aspect, moves in changed.items() if moves} <= moved
