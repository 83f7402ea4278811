"""The rule registry: each rule declared once, with everything its consumers need (pure, no Django)."""

from __future__ import annotations

from dataclasses import fields

import pytest

from decks.rules.registry import RULES, field_label, line_label, rule_get
from decks.rules.ruleset import DeckRules

from .deckmaker import RULE_FIELDS


def test_it_declares_each_code_once():
    codes = [rule.code for rule in RULES]

    assert len(codes) == len(set(codes))
    assert all(rule_get(code) is rule for code, rule in zip(codes, RULES, strict=True))
    assert rule_get("no_such_rule") is None


def test_it_names_every_rules_field_exactly_once():
    named = [name for rule in RULES for name in rule.fields()]

    assert sorted(named) == sorted(f.name for f in fields(DeckRules))


def test_its_fields_agree_with_the_deck_makers_own_table():
    """deckmaker.RULE_FIELDS is written independently of the engine: the two must agree."""
    assert {rule.code: tuple(rule.fields()) for rule in RULES if rule.field} == RULE_FIELDS


@pytest.mark.parametrize(
    ("name", "label"),
    [
        ("max_copies", "copy limit"),
        ("max_copies_exceptions", "copy limit exceptions"),
        ("legend_max_copies", "copy limit for legendary cards"),
        ("banned_cards", "list of banned cards"),
    ],
)
def test_it_gives_each_field_its_words(name, label):
    assert field_label(name) == label


def test_it_refuses_a_field_no_rule_reads():
    with pytest.raises(KeyError):
        field_label("deck_colour")


def test_it_words_every_rule_that_names_its_cards_on_a_deck_line():
    deck_wide = {rule.code for rule in RULES if rule.line_label is None}

    assert deck_wide == {"deck_size", "level_cap"}
    assert line_label("max_copies") == "Too many copies"
    assert line_label("card_type") == "Wrong section for its type"
    assert line_label("deck_size") is None
    assert line_label("no_such_rule") is None


def test_it_gives_each_metered_rule_its_own_place_on_the_panel():
    ranks = [rule.meter_rank for rule in RULES if rule.meter is not None]

    assert len(ranks) == len(set(ranks))
    assert [rule.code for rule in sorted(RULES, key=lambda r: r.meter_rank) if rule.meter][:3] == [
        "deck_size",
        "level_cap",
        "cnt_cap",
    ]


def test_every_rule_has_a_check_and_a_hint():
    assert all(callable(rule.check) and callable(rule.hint) for rule in RULES)
