"""Violation.later (decks/rules/types.py): a violation whose message is worded when first read is the violation
worded at once, in every way a caller can tell (==, hash, message, wording, repr, pickle, frozen)."""

from __future__ import annotations

import pickle
from dataclasses import FrozenInstanceError

import pytest
from hypothesis import given

from decks.rules.hints import judge_tally
from decks.rules.tally import Tally
from decks.rules.types import Violation
from decks.rules.wording import Wording

from .test_properties import PROPERTY_SETTINGS, scenarios


def _both(v: Violation) -> tuple[Violation, Violation]:
    """The violation made later and made worded at once, from the same template and values."""
    assert v.wording is not None
    template, values = v.wording.template, dict(v.wording.values)
    later = Violation.later(v.rule, template, values, v.cards, v.source)
    return later, Violation.worded(v.rule, Wording(template, values), v.cards, v.source)


@PROPERTY_SETTINGS
@given(scenarios())
def test_a_violation_worded_later_is_the_one_worded_at_once(case):
    _case, rules, deck = case
    for v in judge_tally(Tally.of(deck, rules), rules).violations:
        # Compared and hashed before anything reads its message: worded then.
        later, eager = _both(v)
        assert later == eager == v
        later, eager = _both(v)
        assert hash(later) == hash(eager) == hash(v)
        later, eager = _both(v)
        assert later.message == eager.message == v.message
        assert type(later.message) is Wording
        assert later.wording is later.message
        assert later.wording.template == eager.wording.template
        assert dict(later.wording.values) == dict(eager.wording.values)
        later, eager = _both(v)
        assert repr(later) == repr(eager)
        later, eager = _both(v)
        again = pickle.loads(pickle.dumps(later))
        assert again == eager
        assert again.wording.template == eager.wording.template


def test_a_violation_is_equal_by_its_rule_message_cards_and_source_only():
    plain = Violation("deck_size", "The deck has 3 cards.", ("A",), "a rule")
    assert plain == Violation("deck_size", "The deck has 3 cards.", ("A",), "a rule", Wording("other"))
    assert hash(plain) == hash(("deck_size", "The deck has 3 cards.", ("A",), "a rule"))
    assert plain != Violation("deck_size", "The deck has 3 cards.", ("B",), "a rule")
    assert plain != Violation("level_cap", "The deck has 3 cards.", ("A",), "a rule")
    assert plain.wording is None
    assert plain.__eq__(("deck_size", "The deck has 3 cards.", ("A",), "a rule")) is NotImplemented
    match plain:
        case Violation(rule, message, cards, source, wording):
            assert (rule, message, cards, source, wording) == (
                "deck_size",
                "The deck has 3 cards.",
                ("A",),
                "a rule",
                None,
            )


@pytest.mark.parametrize("made", ["plain", "later"])
def test_a_violation_is_frozen(made):
    v = (
        Violation("deck_size", "text")
        if made == "plain"
        else Violation.later("deck_size", "%(size)s cards", {"size": 3})
    )
    with pytest.raises(FrozenInstanceError):
        v.rule = "other"  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del v.cards
    assert v.message in ("text", "3 cards")
