"""A deck line as the editor's `line` partial renders it: a flagged line says what is wrong in words."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string

from decks.editor.state import DeckLine, line_label
from decks.rules.registry import RULES
from decks.rules.types import UNIT, CardFacts

SQUIRE = CardFacts(name="Ember <Squire>", type=UNIT, faction="Volnar", level=1)
# The line's remembered parts are keyed by the catalog's token, read once per page: the database has it.
pytestmark = pytest.mark.django_db


def deck_line(line: DeckLine) -> str:
    return render_to_string("decks/editor/editor.html#line", {"line": line})


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


def test_every_rule_that_names_cards_has_words_on_a_deck_line():
    worded = {rule.code for rule in RULES if line_label(rule.code) != rule.code.replace("_", " ").capitalize()}
    assert {rule.code for rule in RULES} - worded == {"deck_size", "level_cap"}
    assert line_label("max_copies") == "Too many copies"
    assert line_label("some_new_rule") == "Some new rule"


def test_it_escapes_the_card_name():
    html = deck_line(DeckLine("TS-001", "main", 1, SQUIRE))
    assert "Ember &lt;Squire&gt;" in html
    assert "<Squire>" not in html


def test_its_buttons_post_the_change_form_and_have_ids_to_keep_the_focus_on():
    html = deck_line(DeckLine("TS-001", "main", 2, SQUIRE))

    assert '<li id="main-TS-001-row" class="line"' in html
    buttons = re.findall(r"<button ([^>]*)>", html)
    assert len(buttons) == 3
    for button in buttons:
        assert 'form="change-form"' in button
    assert 'value="remove main TS-001" id="main-TS-001-remove" data-key="-"' in html
    assert 'value="add main TS-001" id="main-TS-001-add" data-key="+"' in html
