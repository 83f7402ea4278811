"""The draw-odds panel's rows and group options, remembered by value, are those worked out afresh: in each
language, for each deck and question, and with the catalog's names as they are now."""

from __future__ import annotations

import pytest
from django.http import QueryDict
from django.utils import translation

from cards.models import Card
from decks.models import DeckDraft
from decks.odds import panel
from decks.odds.panel import Chance, ChanceRow, GroupOption, odds_panel_context
from decks.wording import word
from tests.decks.factories import legal_apprentice_main

pytestmark = pytest.mark.django_db

QUESTIONS = ["", "group=cnt", "group=card%3AEmber+Squire+1&k=2", "group=faction%3AVolnar&k=3", "group=nope&k=99"]


def _forget() -> None:
    panel._rows_made.clear()
    panel._options_made.clear()
    panel._described.cache_clear()
    panel._summary_words.cache_clear()


def _afresh(context):
    """The rows and options as the panel made them before they were remembered: worded now, each time."""
    odds = context["odds"]
    rows = tuple(
        ChanceRow(r.turn, r.seen_first, r.seen_second, Chance.of(r.first), Chance.of(r.second)) for r in odds.rows
    )
    chosen = odds.group.key if odds.group else None
    options = {"groups": [], "cards": []}
    for g in odds.groups:
        options["cards" if g.single_card else "groups"].append(
            GroupOption(g.key, f"{word(g.label)} ({g.count})", g.key == chosen)
        )
    return rows, options


def _drafts():
    main = legal_apprentice_main()
    yield DeckDraft(ruler="apprentice", main=main)
    yield DeckDraft(ruler="apprentice", main={**main, "TS-100": 2, "TS-150": 1})
    yield DeckDraft(ruler="knight", main={**main, "TS-200": 1})
    yield DeckDraft(ruler="apprentice", main={"TS-001": 1})


@pytest.mark.parametrize("language", ["en", "ja"])
def test_remembered_rows_and_options_are_those_made_afresh(deck_catalog, language):
    _forget()
    with translation.override(language):
        for _round in range(2):  # the first time made, the second remembered
            for draft in _drafts():
                for question in QUESTIONS:
                    context = odds_panel_context(draft=draft, params=QueryDict(question))
                    rows, options = _afresh(context)
                    assert context["odds_rows"] == rows
                    assert context["odds_options"] == options
                    summary = context["odds_summary"]
                    assert summary.pattern == word(context["odds"].pattern.summary())
                    assert context["odds_help"].describe == tuple(context["odds"].pattern.describe())


def test_the_rows_follow_the_language_and_the_options_the_catalogs_names(deck_catalog):
    _forget()
    draft = DeckDraft(ruler="apprentice", main=legal_apprentice_main())
    params = QueryDict("group=card%3AEmber+Squire+1")
    english = odds_panel_context(draft=draft, params=params)
    with translation.override("ja"):
        japanese = odds_panel_context(draft=draft, params=params)
        assert japanese["odds_rows"][0].first.title != english["odds_rows"][0].first.title

        Card.objects.filter(name="Ember Squire 1").update(name_ja="エンバー・スクワイア1")
        from cards.catalog import catalog_version_bump

        catalog_version_bump()  # what a save of the card (or an import) does
        renamed = odds_panel_context(draft=draft, params=params)
        assert renamed["odds_options"] == _afresh(renamed)[1]

    assert "エンバー・スクワイア1 (4)" in [o.text for o in renamed["odds_options"]["cards"]]
    assert "エンバー・スクワイア1 (4)" not in [o.text for o in japanese["odds_options"]["cards"]]
