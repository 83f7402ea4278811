"""decks/editor/forms.py: a rename or a save refuses a name or description that spoofs its display."""

from __future__ import annotations

import pytest

from decks.editor.forms import CardFilterForm, DeckChangeForm, DeckSaveForm


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


# The editor's forms share their fields between instances (no deep copy per click): they must clean as
# forms that copy them do. A plain subclass collects its fields again into a plain dict, copied per form.
SHARED_FORM_INPUTS = {
    DeckChangeForm: [
        {"op": "add main TS-001", "base_version": "3"},
        {"op": "set_count resources TS-300 4", "base_version": "1"},
        {"op": "bogus main TS-001"},
        {"action": "set_ruler", "value": "apprentice", "base_version": "0"},
        {"action": "nope", "section": "sideboard", "base_version": "x"},
        {"action": "rename", "name": "A" * 101},
        {},
    ],
    CardFilterForm: [
        {"q": "dragon", "type": "unit", "level_min": "2", "cnt": "yes", "usable": "1", "view": "grid", "offset": "30"},
        {"level_max": "100", "legend": "maybe", "offset": "-1"},
        {"q": "", "faction": "", "set": "TS"},
        {},
    ],
}


@pytest.mark.parametrize("form_class", list(SHARED_FORM_INPUTS))
def test_forms_sharing_their_fields_clean_as_forms_that_copy_them(form_class):
    copying = type(f"Copying{form_class.__name__}", (form_class,), {})
    first = next(iter(form_class.base_fields))
    assert copying({}).fields[first] is not copying.base_fields[first]  # the reference does copy

    for data in SHARED_FORM_INPUTS[form_class]:
        shared, copied = form_class(data), copying(data)
        assert shared.is_valid() == copied.is_valid()
        assert shared.errors == copied.errors
        assert shared.cleaned_data == copied.cleaned_data
        assert [(f.name, f.value(), f.field.choices if hasattr(f.field, "choices") else None) for f in shared] == [
            (f.name, f.value(), f.field.choices if hasattr(f.field, "choices") else None) for f in copied
        ]
    # Shared: one form's fields are its class's, not a copy.
    assert all(form_class({}).fields[name] is field for name, field in form_class.base_fields.items())
