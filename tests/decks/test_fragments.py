"""The editor's deck lines as decks/fragments.py renders them: a flagged line says what is wrong in words."""

from __future__ import annotations

import re

from decks.fragments import RULE_LABELS, deck_line, rule_label
from decks.rules.types import UNIT, CardFacts
from decks.selectors import DeckLine

SQUIRE = CardFacts(name="Ember <Squire>", type=UNIT, faction="Volnar", level=1)


def test_it_shows_a_flagged_line_in_words_and_keeps_the_codes_as_data():
    html = deck_line(DeckLine("TS-001", "main", 5, SQUIRE, ("max_copies", "cnt_cap")))

    problem = re.search(r'<span class="line-problem">(.*?)</span>\n', html).group(1)
    assert '<span data-rule="max_copies">Too many copies</span>' in problem
    assert '<span data-rule="cnt_cap">Over the CNT cap</span>' in problem
    assert "max_copies" not in re.sub(r"<[^>]+>", "", problem)  # no raw code among the words
    assert 'data-rules="max_copies cnt_cap"' in html
    assert 'class="line flagged"' in html


def test_it_leaves_deck_wide_rules_to_the_validation_panel():
    html = deck_line(DeckLine("TS-001", "main", 5, SQUIRE, ("level_cap", "max_copies", "deck_size")))

    problem = re.search(r'<span class="line-problem">(.*?)</span>\n', html).group(1)
    assert re.findall(r'data-rule="([^"]+)"', problem) == ["max_copies"]
    assert 'data-rules="level_cap max_copies deck_size"' in html


def test_a_line_flagged_by_nothing_shows_no_problem():
    html = deck_line(DeckLine("TS-001", "main", 4, SQUIRE, ("level_cap",)))
    assert "line-problem" not in html
    assert 'class="line"' in html


def test_every_rule_of_the_engine_has_words():
    from pathlib import Path

    checks = (Path(__file__).resolve().parents[2] / "decks" / "rules" / "checks.py").read_text(encoding="utf-8")
    codes = set(re.findall(r'Violation\(\s*"([a-z_]+)"', checks))
    assert codes, "no rule codes found in decks/rules/checks.py"
    assert codes - set(RULE_LABELS) <= {"deck_size", "level_cap"}
    assert rule_label("some_new_rule") == "Some new rule"


def test_it_escapes_the_card_name():
    html = deck_line(DeckLine("TS-001", "main", 1, SQUIRE))
    assert "Ember &lt;Squire&gt;" in html
    assert "<Squire>" not in html
