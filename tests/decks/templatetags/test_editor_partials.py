"""partial_memo renders a row's partial once per distinct row, and anew whenever what it shows changes."""

from __future__ import annotations

import pytest
from django.template import engines
from django.template.loader import render_to_string

from cards.models import Card
from decks.editor.browser import BrowserRow, CardHint
from decks.editor.state import DeckLine
from decks.rules.types import UNIT, CardFacts

SQUIRE = CardFacts(name="Ember <Squire>", type=UNIT, faction="Volnar", level=1, collector_numbers=("TS-001",))
PAGE = "decks/editor/editor.html"
# Every remembered part's key holds the catalog's token (read once per page): the database has it.
pytestmark = pytest.mark.django_db


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
    addable = memo("why", hint=CardHint("TS-001", 4, (), False), hint_oob=True)
    blocked = memo("why", hint=CardHint("TS-001", 4, ("5th copy; Apprentice allows 4",), False), hint_oob=True)
    in_place = memo("why", hint=CardHint("TS-001", 4, (), False), hint_oob=False)

    assert 'data-addable="true" hx-swap-oob="true"' in addable
    assert 'data-addable="false" hx-swap-oob="true"' in blocked
    assert "<li>5th copy; Apprentice allows 4</li>" in blocked
    assert "hx-swap-oob" not in in_place


def test_a_result_whose_card_text_changed_is_rendered_anew():
    def row(text: str) -> BrowserRow:
        card = Card(pk=7, name=SQUIRE.name, type=UNIT, text=text)
        return BrowserRow("TS-001", 0, (), False, card=card, facts=SQUIRE, other_numbers=(), section="main")

    assert "Draw a card." in memo("result", row=row("Draw a card."))
    assert "Draw two cards." in memo("result", row=row("Draw two cards."))


# ---------------------------------------------------------------- results: reused rows are the rows drawn afresh

LEGEND = CardFacts(
    name="Old Wyrm", type=UNIT, faction="Volnar", level=5, legend=True, collector_numbers=("TS-002", "PR-002")
)


def result_row(**changes) -> BrowserRow:
    """A result row; `changes` replace its hint's or its card's values (card_* for the card's fields)."""
    card_fields = {"pk": 9, "name": LEGEND.name, "type": UNIT, "level": 5, "legend": True, "text": "Fly.", "atk": 3}
    card_fields.update({k.removeprefix("card_"): v for k, v in changes.items() if k.startswith("card_")})
    values = {
        "number": "TS-002",
        "in_deck": 1,
        "blockers": (),
        "over_limit": False,
        "facts": LEGEND,
        "other_numbers": ("PR-002",),
        "section": "main",
        "playset": 1,
    }
    values.update({k: v for k, v in changes.items() if not k.startswith("card_")})
    return BrowserRow(card=Card(**card_fields), **values)


CHANGES = [
    {"number": "PR-002", "other_numbers": ("TS-002",)},
    {"in_deck": 0},
    {"in_deck": 2},
    {"blockers": ("Legend: 1 copy allowed",)},
    {"over_limit": True},
    {"section": "considering"},
    {"playset": 4},
    {"facts": CardFacts(name=LEGEND.name, type=UNIT, faction="Mirror", level=5, legend=True)},
    {"card_text": "Fly. Draw a card."},
    {"card_name_ja": "古竜"},
    {"card_atk": 4},
    {"card_hp": 2},
    {"card_stk": 1},
    {"card_type": "chant"},
]


def fresh(row: BrowserRow, view: str) -> str:
    return render_to_string(f"{PAGE}#result", {"row": row, "view": view})


def test_a_reused_result_is_byte_identical_to_one_drawn_afresh():
    for view in ("list", "grid"):
        for changes in [{}, *CHANGES]:
            row = result_row(**changes)
            first, again = memo("result", row=row, view=view), memo("result", row=result_row(**changes), view=view)
            assert first == again == fresh(row, view), (view, changes)


def test_a_change_of_anything_a_result_shows_draws_it_anew():
    for view in ("list", "grid"):
        plain = memo("result", row=result_row(), view=view)
        for changes in CHANGES:
            assert memo("result", row=result_row(**changes), view=view) != plain, (view, changes)
    assert memo("result", row=result_row(), view="grid") != memo("result", row=result_row(), view="list")


@pytest.mark.django_db  # the Japanese names of the game's words are read from the catalog
def test_a_result_is_drawn_anew_in_another_language():
    from django.utils import translation

    english = memo("result", row=result_row(blockers=("Legend: 1 copy allowed",)), view="list")
    with translation.override("ja"):
        japanese = memo("result", row=result_row(blockers=("Legend: 1 copy allowed",)), view="list")
        assert japanese == fresh(result_row(blockers=("Legend: 1 copy allowed",)), "list")
    assert japanese != english


# ---------------------------------------------------------------- a page of results in one tag


def memo_each(rows: list, view: str) -> str:
    loop = engines["django"].from_string(
        '{% load editor_partials %}{% partial_memo_each "result" "row" rows view=view %}'
    )
    loop.template.origin.template_name = PAGE
    return loop.render({"rows": rows, "view": view})


def test_a_page_of_results_is_each_result_drawn_in_turn(monkeypatch):
    from decks.templatetags import editor_partials

    rows = [result_row(**changes) for changes in [{}, *CHANGES]]
    for view in ("list", "grid"):
        monkeypatch.setattr(editor_partials, "_rows", {})
        page = memo_each(rows, view)
        drawn = len(editor_partials._rows)

        assert page == "".join(fresh(row, view) for row in rows)
        assert drawn == len(rows)
        # The same rows, remembered under the keys partial_memo uses: one by one, none drawn again.
        assert "".join(memo("result", row=row, view=view) for row in rows) == page
        assert len(editor_partials._rows) == drawn
    assert memo_each([], "list") == ""


@pytest.mark.django_db  # the Japanese names of the game's words are read from the catalog
def test_a_render_reads_its_language_once_and_each_render_its_own(monkeypatch):
    from django.utils import translation

    from decks.templatetags import editor_partials

    page = engines["django"].from_string(
        '{% load editor_partials %}{% partial_memo "why" hint=hint %}{% partial_memo_each "result" "row" rows view="list" %}'
        '{% partial_memo "why" hint=hint %}'
    )
    page.template.origin.template_name = PAGE
    hint, rows = CardHint("TS-001", 4, ("Legend: 1 copy allowed",), False), [result_row(), result_row(in_deck=2)]
    asked = []
    real = editor_partials.get_language
    monkeypatch.setattr(editor_partials, "get_language", lambda: asked.append(1) or real())

    english = page.render({"hint": hint, "rows": rows})
    assert len(asked) == 1
    with translation.override("ja"):
        japanese = page.render({"hint": hint, "rows": rows})
        assert japanese == memo("why", hint=hint) + "".join(fresh(row, "list") for row in rows) + memo("why", hint=hint)
    assert len(asked) == 4  # one per render (the two of `memo` included)
    assert japanese != english
    assert english == page.render({"hint": hint, "rows": rows})


def _memo_localized(l10n: str, line: DeckLine) -> str:
    loop = engines["django"].from_string(
        "{% load l10n editor_partials %}{% localize " + l10n + ' %}{% partial_memo "line" line=line %}{% endlocalize %}'
    )
    loop.template.origin.template_name = PAGE
    return loop.render({"line": line})


def test_a_part_shows_its_numbers_localized_as_its_page_does(settings):
    # With a thousand separator, a localized number reads differently: a part drawn in a {% localize off %}
    # answer (a change's) is drawn so, and not reused for a page that localizes, nor the other way round.
    settings.USE_THOUSAND_SEPARATOR = True
    line = DeckLine("TS-001", "main", 1234, SQUIRE)

    assert 'data-count="1234"' in _memo_localized("off", line)
    assert 'data-count="1,234"' in _memo_localized("on", line)
    assert 'data-count="1234"' in _memo_localized("off", line)
