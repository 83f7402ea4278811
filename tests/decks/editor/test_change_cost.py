"""What one editor change costs the server: its queries and its rendering, counted (never timed).

The counts are the ones measured when issue 15 was done (docs/benchmarks.md, "Speed (issue 15)");
a test fails when a change needs more. The draw odds come in the same answer with no query of
their own (they reuse the change's judgement), and rows that did not change are not rendered again.
"""

from __future__ import annotations

import dataclasses
import re
from types import SimpleNamespace

import pytest

from decks.models import DeckDraft
from decks.services import deck_create_from_draft
from decks.templatetags import editor_partials
from tests.decks.factories import legal_apprentice_main

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
SHOWN = " ".join(f"TS-{n:03d}" for n in range(1, 14))
# A saved deck's change: the deck with its lines (one query, for the draft and for the save), the
# catalog token (SQLite reads it; PostgreSQL is told), session, user, then the save (savepoint, the
# deck's conditional update of what changed, the line written, the version's snapshot, release).
SAVED_CHANGE_QUERIES = 9
# A draft's change: session, default ruler, the printing's existence, the catalog token, user, session saved.
DRAFT_CHANGE_QUERIES = 8


@pytest.fixture
def saved(deck_catalog, user, client):
    client.force_login(user)
    return deck_create_from_draft(owner=user, draft=DeckDraft(ruler="apprentice", main=legal_apprentice_main()))


def change(client, deck, op, version):
    return client.post(
        f"/decks/{deck.public_id}/change/", {"op": op, "base_version": version, "shown": SHOWN}, headers=HX
    )


def test_a_saved_decks_change_with_its_odds_and_hints_keeps_its_queries(client, saved, django_assert_max_num_queries):
    change(client, saved, "remove main TS-001", saved.version)  # the catalog memory filled

    with django_assert_max_num_queries(SAVED_CHANGE_QUERIES):
        response = change(client, saved, "add main TS-001", saved.version + 1)

    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="draw-odds"' in html
    assert html.count('hx-swap-oob="true"') > 13  # the panels, the odds and the 13 hints


def test_a_drafts_change_keeps_its_queries(client, deck_catalog, django_assert_max_num_queries):
    client.post("/decks/new/change/", {"op": "add main TS-002", "shown": SHOWN}, headers=HX)

    with django_assert_max_num_queries(DRAFT_CHANGE_QUERIES):
        response = client.post("/decks/new/change/", {"op": "add main TS-001", "shown": SHOWN}, headers=HX)

    assert response.status_code == 200
    assert 'id="draw-odds"' in response.content.decode()


def test_a_change_renders_only_the_rows_that_changed(client, saved, monkeypatch):
    monkeypatch.setattr(editor_partials, "_rows", {})  # none of other tests' rows, never cleared midway
    change(client, saved, "remove main TS-001", saved.version)
    change(client, saved, "add main TS-001", saved.version + 1)  # every row of both states rendered once
    rendered = len(editor_partials._rows)

    change(client, saved, "remove main TS-001", saved.version + 2)

    # The deck is as after the first change: its 13 lines and 13 hints, the draw odds' options and
    # help are remembered, none drawn again.
    assert len(editor_partials._rows) == rendered
    before = set(editor_partials._rows)
    change(client, saved, "remove main TS-002", saved.version + 3)
    # What moved is drawn again: one line (TS-002: 3 copies now) and its hint, the draw odds'
    # picker options that count it ("… (3)"), the deck size and level total meters, its
    # level's bar and its faction's (and the charts that hold them), the tabs' and the headings' counts; the
    # other rows (the other lines and hints, the other meters, the verdict: as many problems as before) are not.
    new = [(key[0].name, dict(key[2])) for key in editor_partials._rows if key not in before]
    drawn = sorted((name, _what(values)) for name, values in new)
    # The draw odds' summary and the help say the new size (48 cards); their table is as it was (every card
    # of the deck is a level-1 unit, the group shown: 100% on every turn), and so are the k options (1 to 10).
    assert drawn == [
        ("curve-bar", "1"),
        ("deck-charts", "0 48"),
        ("deck-heading", "48/50 cards"),
        ("editor-tabs", "48/50 cards"),
        ("faction-bar", "Volnar"),
        ("group-heading", "Units (48)"),
        ("group-option", "card:Ember Squire 2"),
        ("group-option", "faction:Volnar"),
        ("group-option", "units-level-1"),
        ("line", "TS-002"),
        ("meter", "level"),
        ("meter", "size"),
        ("odds-help-items", "48 cards"),
        ("odds-summary", "48 cards"),
        ("why", "TS-002"),
    ]


def _what(values: dict) -> str:
    """What a remembered row was drawn for, in a word: a line's number, a hint's, a bar's label, a deck size."""
    if "curve" in values:  # the charts: the bars' counts
        return " ".join(str(_fields(bar)["count"]) for bar in values["curve"])
    if "groups" in values:  # the odds' picker: its options' counts
        return " ".join(option.text for option in values["groups"])
    if "label" in values and "count" in values:  # a group's heading
        return f"{values['label']} ({values['count']})"
    if "count" in values and "size" in values:  # the editor's tabs, the deck's heading
        return f"{values['count']}/{values['size']} cards"
    if "size" in values:
        return f"{values['size']} cards"
    value = next(iter(values.values()))
    if isinstance(value, tuple) and value and isinstance(value[0], type):  # a dataclass's key: its type, its fields
        value = SimpleNamespace(**_fields(value))
    if hasattr(value, "deck_size"):
        return f"{value.deck_size} cards"
    if isinstance(value, tuple) and value and hasattr(value[0], "turn"):  # the odds' rows
        return f"{len(value)} turns"
    return getattr(value, "number", None) or getattr(value, "key", None) or getattr(value, "label", None) or value[0]


def _fields(key: tuple) -> dict:
    """A dataclass's remembered key (its type, its fields' values; or the dataclass itself, its own key) as its
    fields by name."""
    if dataclasses.is_dataclass(key):
        return {f.name: getattr(key, f.name) for f in dataclasses.fields(key)}
    return dict(zip((f.name for f in dataclasses.fields(key[0])), key[1], strict=True))


def _digests(html: str) -> str:
    """The page's hints as editor.js sends them along with a change: "ref:digest" each."""
    return " ".join(f"{ref}:{digest}" for ref, digest in re.findall(r'id="why-([^"]+)" data-digest="([^"]+)"', html))


def test_a_change_redraws_only_the_hints_that_differ_from_the_pages(client, saved):
    # Three copies of TS-001 (Apprentice allows four): taking one out changes its own hint ("2 in deck")
    # and no other, as long as the deck was short of its size before and after.
    change(client, saved, "remove main TS-001", saved.version)
    page = change(client, saved, "remove main TS-002", saved.version + 1).content.decode()
    shown = _digests(page)
    assert len(shown.split()) == 13

    response = client.post(
        f"/decks/{saved.public_id}/change/",
        {"op": "remove main TS-001", "base_version": saved.version + 2, "shown": SHOWN, "hinted": shown},
        headers=HX,
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert re.findall(r'id="why-([^"]+)"', html) == ["TS-001"]
    # Without the page's digests (no JavaScript said them), every hint is drawn.
    again = change(client, saved, "add main TS-001", saved.version + 3).content.decode()
    assert len(re.findall(r'id="why-([^"]+)"', again)) == 13


def test_a_hints_digest_follows_what_it_shows_and_the_language():
    from django.utils import translation

    from decks.editor.browser import CardHint, hints_changed

    hint = CardHint("TS-001", 2, (), over_limit=False)
    assert hint.digest == CardHint("TS-001", 2, (), over_limit=False).digest
    assert (
        len(
            {
                hint.digest,
                CardHint("TS-001", 3, (), over_limit=False).digest,
                CardHint("TS-001", 2, ("deck is full (50/50)",), over_limit=False).digest,
                CardHint("TS-001", 2, (), over_limit=True).digest,
                CardHint("TS-002", 2, (), over_limit=False).digest,
            }
        )
        == 5
    )
    english = hint.digest
    with translation.override("ja"):
        assert CardHint("TS-001", 2, (), over_limit=False).digest != english
    other = CardHint("TS-002", 1, (), over_limit=False)
    assert hints_changed([hint, other], None) == [hint, other]
    assert hints_changed([hint, other], f"TS-001:{hint.digest} TS-002:0000") == [other]
    assert hints_changed([hint, other], "") == [hint, other]
