"""decks/editor/forms.py: a card button's op names any game's sections, the considering board's moves and a count."""

from __future__ import annotations

import pytest

from decks.editor.forms import DeckChangeForm
from decks.editor.services import DraftChange


@pytest.mark.parametrize(
    ("op", "expected"),
    [
        ("add considering RGT-040", DraftChange("add", "RGT-040", "considering")),
        ("to_considering gates GRT-013", DraftChange("to_considering", "GRT-013", "gates")),
        ("to_deck kingdom RGT-002", DraftChange("to_deck", "RGT-002", "kingdom")),
        ("set_count main RGT-011 3", DraftChange("set_count", "RGT-011", "main", value="3")),
    ],
)
def test_it_reads_a_card_buttons_op(op, expected):
    form = DeckChangeForm({"op": op})

    assert form.is_valid(), form.errors
    assert form.change() == expected


@pytest.mark.parametrize("op", ["add main RGT-011 3", "set_count main RGT-011 3 4", "rename main RGT-011", "add main"])
def test_it_refuses_an_op_that_is_not_a_card_change(op):
    form = DeckChangeForm({"op": op})

    assert not form.is_valid()
    assert "is not a change (action, section, collector number)." in form.error_text()
