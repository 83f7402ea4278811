"""decks/editor/forms.py: a rename or a save refuses a name or description that spoofs its display."""

from __future__ import annotations

import pytest

from decks.editor.forms import DeckChangeForm, DeckSaveForm


@pytest.mark.parametrize(("field", "value"), [("name", "Ember\u202eRush"), ("description", "zero\u200bwidth")])
def test_it_refuses_a_rename_with_a_spoofing_character(field, value):
    form = DeckChangeForm({"action": "rename", field: value})

    assert not form.is_valid()
    assert "Invisible or text-direction control characters are not allowed" in form.error_text()
    assert field in form.errors


def test_it_takes_a_plain_rename():
    form = DeckChangeForm({"action": "rename", "name": "燃えさし Rush", "description": "Line 1\nLine 2"})

    assert form.is_valid(), form.errors


def test_the_save_form_refuses_a_spoofing_name():
    assert not DeckSaveForm({"name": "\u2066Squires"}).is_valid()
    assert DeckSaveForm({"name": "Squires"}).is_valid()
