"""decks.drafts: every deck reaches the engine through one adapter, with one rule for unknown cards."""

from __future__ import annotations

import dataclasses
import datetime

import pytest

from cards.games import default_game
from cards.models import Printing
from decks import drafts
from decks.card_facts import card_facts_by_number
from decks.drafts import (
    DeckListLine,
    _lines_resolve,
    deck_draft_judge,
    deck_judge,
    deck_snapshot_of,
    draft_section_of_lines,
)
from decks.models import DeckDraft
from gatesite.errors import ApplicationError
from tests.decks.factories import legal_apprentice_main

pytestmark = pytest.mark.django_db

ON = datetime.date(2026, 11, 22)


def _lines(counts):
    return [DeckListLine(count=c, number=n) for n, c in counts.items()]


def test_it_names_the_line_of_an_unknown_card_in_a_typed_list(deck_catalog):
    lines = [DeckListLine(count=4, number="TS-001"), DeckListLine(count=1, name="No Such Card")]

    with pytest.raises(ApplicationError, match=r"main\[1\]: no card with name 'No Such Card'\.") as caught:
        deck_judge(ruler="apprentice", geas=None, on=ON, attribute=None, main=lines, resources=[])

    assert caught.value.field == "main[1]"


def test_it_leaves_out_and_lists_a_printing_a_stored_deck_names_that_the_catalog_lost(deck_catalog):
    main = {**legal_apprentice_main(), "TS-999": 2}

    judgement = deck_draft_judge(draft=DeckDraft(ruler="apprentice", main=main, rules_date=ON))

    assert judgement.missing == ("TS-999",)
    assert "TS-999" not in {entry.printing for entry in judgement.deck.main}
    assert judgement.report.summary.size == 50


def test_a_typed_list_and_the_same_deck_as_a_draft_get_the_same_verdict(deck_catalog):
    main = {**legal_apprentice_main(), "TS-100": 1}  # 51 cards, two factions: not legal

    typed = deck_judge(ruler="apprentice", geas=None, on=ON, attribute=None, main=_lines(main), resources=[])
    stored = deck_draft_judge(draft=DeckDraft(ruler="apprentice", main=main, rules_date=ON))

    assert not typed.report.legal
    assert typed.report == stored.report
    assert typed.deck == stored.deck


def test_a_card_named_by_name_stands_for_any_printing_of_it(deck_catalog):
    lines = [DeckListLine(count=3, name="Ember Squire 1"), DeckListLine(count=1, number="TS-901")]

    judgement = deck_judge(ruler="apprentice", geas=None, on=ON, attribute=None, main=lines, resources=[])

    assert {(e.printing, e.count) for e in judgement.deck.main} == {(None, 3), ("TS-901", 1)}


def test_a_deck_to_be_saved_is_bounded_but_a_list_to_judge_is_not(deck_catalog):
    lines = [DeckListLine(count=60, number="TS-001"), DeckListLine(count=60, number="TS-001")]

    assert draft_section_of_lines(section="main", lines=lines) == {"TS-001": 120}
    with pytest.raises(ApplicationError, match=r"main\[1\]: a deck keeps at most .* copies of one printing"):
        draft_section_of_lines(section="main", lines=lines, bounded=True)


def test_the_snapshot_judges_main_and_resources_only(deck_catalog):
    facts = card_facts_by_number(default_game(), Printing.objects.values_list("collector_number", flat=True))
    snapshot = deck_snapshot_of(
        game=default_game(),
        sections={"main": {"TS-001": 2}, "resources": {"TS-300": 1}, "considering": {"TS-002": 4}},
        attribute="",
        facts=facts,
    )

    assert [(e.printing, e.count) for e in snapshot.main] == [("TS-001", 2)]
    assert [(e.printing, e.count) for e in snapshot.resources] == [("TS-300", 1)]
    assert snapshot.attribute is None


@pytest.mark.parametrize(
    ("main", "resources"),
    [
        ({**legal_apprentice_main(), "TS-100": 1}, {}),  # not legal: 51 cards, two factions
        ({"TS-001": 2, "TS-901": 2, "TS-200": 3}, {"TS-300": 3}),  # a reprint, a legend over its limit
        ({}, {}),
    ],
)
def test_a_list_of_printings_already_remembered_is_judged_as_any_typed_list(deck_catalog, monkeypatch, main, resources):
    # Lines given twice over (counted together), and once more by name, which the catalog memory does not
    # short-cut: the first judgement fills the memory, the second takes the one-pass way for known printings.
    def lines(counts, *, by_name=False):
        out = [DeckListLine(count=1, number=n) for n in counts] + [
            DeckListLine(count=c - 1, number=n) for n, c in counts.items() if c > 1
        ]
        return out + ([DeckListLine(count=1, name="Frost Hare")] if by_name else [])

    def judged(*, by_name):
        return deck_judge(
            ruler="knight",
            geas=None,
            on=ON,
            attribute=None,
            main=lines(main, by_name=by_name),
            resources=lines(resources),
        )

    first = judged(by_name=False)
    resolved = []
    monkeypatch.setattr(drafts, "_lines_resolve", lambda *args: resolved.append(args) or _lines_resolve(*args))
    second = judged(by_name=False)
    assert resolved == []  # the one pass
    with_a_name = judged(by_name=True)
    assert len(resolved) == 1

    assert first == second
    assert second.deck.main == tuple(sorted(second.deck.main, key=lambda e: e.printing))
    assert {e.printing: e.count for e in second.deck.main} == main
    assert {e.printing: e.count for e in second.deck.resources} == resources
    assert second.draft.main == main
    assert second.draft.resources == resources
    assert second.facts == card_facts_by_number(default_game(), [*main, *resources])
    assert with_a_name.deck.main != second.deck.main
    assert with_a_name.report.summary.size == second.report.summary.size + 1


def test_an_entry_made_once_is_the_same_object_for_the_same_card_count_and_printing(monkeypatch):
    from decks.rules.practice import card_facts
    from decks.rules.types import DeckEntry

    monkeypatch.setattr(drafts, "_ENTRIES", {})
    card = card_facts()[0]
    twin = dataclasses.replace(card)  # equal facts, another object

    first = drafts.deck_entry(card, 2, "GR-001")

    assert first == DeckEntry(card, 2, "GR-001")
    assert first.card is card
    assert drafts.deck_entry(card, 2, "GR-001") is first
    assert drafts.deck_entry(card, 3, "GR-001") == DeckEntry(card, 3, "GR-001")
    assert drafts.deck_entry(card, 2, None) == DeckEntry(card, 2, None)
    assert drafts.deck_entry(twin, 2, "GR-001") is not first
    assert drafts.deck_entry(twin, 2, "GR-001").card is twin


def test_the_remembered_entries_are_emptied_when_full_and_still_right(monkeypatch):
    from decks.rules.practice import card_facts
    from decks.rules.types import DeckEntry

    monkeypatch.setattr(drafts, "_ENTRIES", {})
    monkeypatch.setattr(drafts, "MAX_ENTRIES", 3)
    facts = {f"GR-{i:03}": card for i, card in enumerate(card_facts()[:5])}
    sections = {"main": {number: 1 + i for i, number in enumerate(facts)}}

    for _ in range(2):
        snapshot = deck_snapshot_of(game=default_game(), sections=sections, attribute=None, facts=facts)
        assert snapshot.main == tuple(DeckEntry(facts[n], c, n) for n, c in sorted(sections["main"].items()))
        assert len(drafts._ENTRIES) <= 3


@pytest.mark.parametrize(
    ("ruler", "main", "resources", "attribute"),
    [
        ("apprentice", legal_apprentice_main(), {}, ""),  # legal
        ("apprentice", {**legal_apprentice_main(), "TS-100": 1}, {}, ""),  # 51 cards, two factions
        ("knight", {"TS-001": 4, "TS-100": 9, "TS-200": 2}, {"TS-300": 2}, ""),
        ("centurion", {"TS-001": 4, "TS-100": 1}, {"TS-001": 1}, "Dragon"),
    ],
)
def test_a_game_judged_by_its_ruler_gets_the_rules_engines_report_through_judge(
    deck_catalog, ruler, main, resources, attribute
):
    from cards.rules_selectors import rules_choice_get
    from decks.rules.engine import validate_deck

    draft = DeckDraft(ruler=ruler, main=main, resources=resources, attribute=attribute, rules_date=ON)
    judgement = deck_draft_judge(draft=draft)

    direct = validate_deck(judgement.deck, rules_choice_get(ruler_slug=ruler, geas_slug=None, on=ON).rules)
    assert judgement.report == direct
    assert judgement.report.summary == direct.summary
    assert [v.message for v in judgement.report.violations] == [v.message for v in direct.violations]
