"""partial_memo renders a row's partial once per distinct row, and anew whenever what it shows changes."""

from __future__ import annotations

from django.template import engines
from django.template.loader import render_to_string

from cards.models import Card
from decks.editor.browser import BrowserRow, CardHint
from decks.editor.state import DeckLine
from decks.rules.types import UNIT, CardFacts

SQUIRE = CardFacts(name="Ember <Squire>", type=UNIT, faction="Volnar", level=1, collector_numbers=("TS-001",))
PAGE = "decks/editor/editor.html"


def memo(name: str, **values) -> str:
    loop = engines["django"].from_string("{% load editor_partials %}{% partial_memo name " + _kwargs(values) + " %}")
    # A template of its own would look for the partial in itself: render as if in the editor's page.
    loop.template.origin.template_name = PAGE
    return loop.render({"name": name, **{f"v_{k}": v for k, v in values.items()}})


def _kwargs(values: dict) -> str:
    return " ".join(f"{k}=v_{k}" for k in values)


def test_it_renders_what_the_partial_renders():
    line = DeckLine("TS-001", "main", 2, SQUIRE, ("max_copies",))
    assert memo("line", line=line) == render_to_string(f"{PAGE}#line", {"line": line})
    assert memo("line", line=line) == memo("line", line=line)


def test_a_line_that_changed_is_rendered_anew():
    assert 'data-count="2"' in memo("line", line=DeckLine("TS-001", "main", 2, SQUIRE))
    assert 'data-count="3"' in memo("line", line=DeckLine("TS-001", "main", 3, SQUIRE))


def test_a_hint_is_keyed_by_what_it_shows_and_by_being_out_of_band():
    addable = memo("why", hint=CardHint("TS-001", 4, [], False), hint_oob=True)
    blocked = memo("why", hint=CardHint("TS-001", 4, ["5th copy; Apprentice allows 4"], False), hint_oob=True)
    in_place = memo("why", hint=CardHint("TS-001", 4, [], False), hint_oob=False)

    assert 'data-addable="true" hx-swap-oob="true"' in addable
    assert 'data-addable="false" hx-swap-oob="true"' in blocked
    assert "<li>5th copy; Apprentice allows 4</li>" in blocked
    assert "hx-swap-oob" not in in_place


def test_a_result_whose_card_text_changed_is_rendered_anew():
    def row(text: str) -> BrowserRow:
        card = Card(pk=7, name=SQUIRE.name, type=UNIT, text=text)
        return BrowserRow("TS-001", 0, [], False, card=card, facts=SQUIRE, other_numbers=(), section="main")

    assert "Draw a card." in memo("result", row=row("Draw a card."))
    assert "Draw two cards." in memo("result", row=row("Draw two cards."))
