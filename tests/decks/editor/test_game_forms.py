"""decks/editor/game_forms.py: a card button's op names the considering board's moves and a count, as Gate Ruler's do."""

from __future__ import annotations

import pytest

from decks.editor.game_forms import GameChangeForm
from decks.editor.game_services import GameChange


@pytest.mark.parametrize(
    ("op", "expected"),
    [
        ("add considering RGT-040", GameChange("add", "RGT-040", "considering")),
        ("to_considering gates GRT-013", GameChange("to_considering", "GRT-013", "gates")),
        ("to_deck kingdom RGT-002", GameChange("to_deck", "RGT-002", "kingdom")),
        ("set_count main RGT-011 3", GameChange("set_count", "RGT-011", "main", count="3")),
    ],
)
def test_it_reads_a_card_buttons_op(op, expected):
    form = GameChangeForm({"op": op})

    assert form.is_valid(), form.errors
    assert form.change() == expected


@pytest.mark.parametrize("op", ["add main RGT-011 3", "set_count main RGT-011 3 4", "rename main RGT-011", "add main"])
def test_it_refuses_an_op_that_is_not_a_card_change(op):
    form = GameChangeForm({"op": op})

    assert not form.is_valid()
    assert "is not a change (action, section, collector number)." in form.error_text()
