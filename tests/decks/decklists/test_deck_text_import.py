"""Reading a pasted deck list against the catalog (decks.selectors.deck_text_import) and writing one."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from cards.games import default_game
from cards.models import Geas, Printing, Ruler, RulerRevision
from cards.rules_selectors import rules_choice_get
from decks.card_facts import card_facts_by_number
from decks.decklists.selectors import (
    deck_draft_from_link,
    deck_draft_link,
    deck_draft_text,
    deck_draft_validate_body,
    deck_text_import,
)
from decks.models import DeckDraft
from decks.rules.builder import build_legal_deck
from gatesite.errors import ApplicationError
from tests.cards.factories import CardFactory, CardSetFactory, PrintingFactory
from tests.decks.factories import legal_apprentice_main

pytestmark = pytest.mark.django_db


def _sample_drafts() -> list[DeckDraft]:
    """A legal deck (decks.rules.builder) for every ruler, and every geas on its ruler, from the catalog."""
    facts = card_facts_by_number(default_game(), Printing.objects.values_list("collector_number", flat=True))
    cards = list({f.name: f for f in facts.values()}.values())
    today = timezone.localdate()
    choices = [(ruler.slug, None) for ruler in Ruler.objects.all()]
    choices += [(geas.ruler.slug, geas.slug) for geas in Geas.objects.select_related("ruler")]
    drafts = []
    for ruler, geas in choices:
        on = today
        try:
            choice = rules_choice_get(ruler_slug=ruler, geas_slug=geas, on=on)
        except ApplicationError:  # rules only in force from a later date: judge the deck by that date
            on = RulerRevision.objects.filter(ruler__slug=ruler).order_by("effective_from").first().effective_from
            choice = rules_choice_get(ruler_slug=ruler, geas_slug=geas, on=on)
        deck = build_legal_deck(cards, choice.rules)
        assert deck is not None, (ruler, geas)
        drafts.append(
            DeckDraft(
                ruler=ruler,
                geas=geas,
                attribute=deck.attribute or "",
                rules_date=None if on == today else on,
                name=f"Sample {ruler} {geas or ''}".strip(),
                main={e.printing or e.card.collector_numbers[0]: e.count for e in deck.main},
                resources={e.printing or e.card.collector_numbers[0]: e.count for e in deck.resources},
            )
        )
    return drafts


def test_every_rulers_sample_deck_round_trips_through_text(practice_set):
    drafts = _sample_drafts()
    assert len(drafts) >= Ruler.objects.count() >= 20

    for draft in drafts:
        text = deck_draft_text(draft=draft)
        # Into the same deck: exactly the same deck, printings and all.
        same = deck_text_import(text=text, draft=draft)
        assert same.errors == (), (draft.ruler, [str(e) for e in same.errors])
        assert same.draft == draft, draft.ruler
        assert same.state.report.legal, (draft.ruler, draft.geas)
        # Into a new draft of another ruler: the same cards and rules (printings chosen by the importer).
        fresh = deck_text_import(
            text=text, draft=DeckDraft(ruler="knight" if draft.ruler != "knight" else "apprentice")
        )
        assert fresh.errors == ()
        assert (fresh.draft.ruler, fresh.draft.geas, fresh.draft.attribute, fresh.draft.rules_date) == (
            draft.ruler,
            draft.geas,
            draft.attribute,
            draft.rules_date,
        )
        assert _by_name(fresh.draft.main) == _by_name(draft.main), draft.ruler
        assert _by_name(fresh.draft.resources) == _by_name(draft.resources), draft.ruler
        assert fresh.state.report.legal, (draft.ruler, draft.geas, [v.message for v in fresh.state.report.violations])


def _by_name(counts):
    facts = card_facts_by_number(default_game(), counts)
    out = {}
    for number, count in counts.items():
        out[facts[number].name] = out.get(facts[number].name, 0) + count
    return out


def test_it_writes_the_deck_as_text(deck_catalog):
    draft = DeckDraft(
        ruler="apprentice",
        name="Squires",
        main={"TS-001": 2, "TS-901": 2, "TS-150": 1},
        rules_date=datetime.date(2024, 6, 1),
    )

    text = deck_draft_text(draft=draft)

    assert text.splitlines() == [
        "# Squires",
        "Ruler: Apprentice",
        "Rules date: 2024-06-01",
        "",
        "# Units (4)",
        "4 Ember Squire 1",
        "",
        "# Events (1)",
        "1 Frost Hare",
    ]


def test_it_keeps_the_decks_split_between_printings(deck_catalog):
    draft = DeckDraft(ruler="apprentice", main={"TS-001": 1, "TS-901": 3})

    same = deck_text_import(text="Ruler: Apprentice\n4 Ember Squire 1\n", draft=draft)
    more = deck_text_import(text="Ruler: Apprentice\n6 Ember Squire 1\n", draft=draft)
    fewer = deck_text_import(text="Ruler: Apprentice\n2 Ember Squire 1\n", draft=draft)

    assert same.draft.main == {"TS-001": 1, "TS-901": 3}
    assert more.draft.main == {"TS-001": 1, "TS-901": 5}
    assert fewer.draft.main == {"TS-901": 2}


def test_it_picks_the_newest_printing_for_a_card_the_deck_does_not_have(deck_catalog):
    card = CardFactory(name="Reprinted Hero", level=1)
    PrintingFactory(
        card=card, collector_number="OLD-001", card_set=CardSetFactory(release_date=datetime.date(2020, 1, 1))
    )
    PrintingFactory(
        card=card, collector_number="NEW-001", card_set=CardSetFactory(release_date=datetime.date(2025, 1, 1))
    )

    result = deck_text_import(text="3 Reprinted Hero", draft=DeckDraft(ruler="apprentice"))

    assert result.draft.main == {"NEW-001": 3}


def test_a_text_without_a_ruler_keeps_the_drafts_rules_and_the_considering_board(deck_catalog):
    draft = DeckDraft(
        ruler="centurion", attribute="Dragon", rules_date=datetime.date(2025, 1, 1), considering={"TS-100": 1}
    )

    result = deck_text_import(text="4 Ember Squire 2\n", draft=draft)

    assert result.draft.ruler == "centurion"
    assert result.draft.attribute == "Dragon"
    assert result.draft.rules_date == datetime.date(2025, 1, 1)
    assert result.draft.considering == {"TS-100": 1}
    assert result.draft.main == {"TS-002": 4}
    assert result.kept == ("ruler", "geas", "attribute", "rules date")


def test_a_text_with_a_ruler_says_the_whole_deck(deck_catalog):
    draft = DeckDraft(ruler="centurion", attribute="Dragon", rules_date=datetime.date(2025, 1, 1), main={"TS-100": 4})

    result = deck_text_import(text="Ruler: Apprentice\n1 Frost Hare\n", draft=draft)

    assert (result.draft.ruler, result.draft.geas, result.draft.attribute, result.draft.rules_date) == (
        "apprentice",
        None,
        "",
        None,
    )
    assert result.draft.main == {"TS-150": 1}
    assert result.kept == ()


def test_bad_card_lines_are_left_out_with_suggestions(deck_catalog):
    result = deck_text_import(
        text="Ruler: Apprentice\n4 Ember Squre 1\n2 Frost Hare\n", draft=DeckDraft(ruler="apprentice")
    )

    assert not result.blocked
    assert result.draft.main == {"TS-150": 2}
    assert [(e.number, e.suggestion) for e in result.errors] == [(2, "Ember Squire 1")]


def test_an_unknown_ruler_leaves_nothing_to_confirm(deck_catalog):
    result = deck_text_import(text="Ruler: Apprentise\n2 Frost Hare\n", draft=DeckDraft(ruler="apprentice"))

    assert result.blocked
    assert result.fingerprint == ""
    assert [(e.number, e.field, e.suggestion) for e in result.errors] == [(1, "ruler", "Apprentice")]


def test_a_geas_for_another_ruler_is_refused_on_its_line(deck_catalog):
    geas = Geas.objects.exclude(ruler__slug="apprentice").first()

    result = deck_text_import(text=f"Ruler: Apprentice\nGeas: {geas.name}\n", draft=DeckDraft(ruler="apprentice"))

    assert result.blocked
    assert [(e.number, e.field) for e in result.errors] == [(2, "geas")]


def test_the_fingerprint_names_the_result(deck_catalog):
    draft = DeckDraft(ruler="apprentice")
    first = deck_text_import(text="2 Frost Hare", draft=draft)

    assert first.fingerprint == deck_text_import(text="2  frost hare", draft=draft).fingerprint
    assert first.fingerprint != deck_text_import(text="3 Frost Hare", draft=draft).fingerprint


def test_the_validate_body_names_printings(deck_catalog):
    draft = DeckDraft(ruler="apprentice", geas=None, main={"TS-002": 4, "TS-001": 1}, resources={"TS-300": 2})

    assert deck_draft_validate_body(draft=draft) == {
        "ruler": "apprentice",
        "geas": None,
        "as_of": None,
        "attribute": None,
        "main": [{"number": "TS-001", "count": 1}, {"number": "TS-002", "count": 4}],
        "resources": [{"number": "TS-300", "count": 2}],
    }


def test_a_draft_survives_its_share_link(deck_catalog):
    draft = DeckDraft(ruler="apprentice", name="Squires", main=legal_apprentice_main(), resources={"TS-300": 1})

    assert deck_draft_from_link(code=deck_draft_link(draft=draft)) == draft


def test_a_bad_link_is_an_application_error(db):
    with pytest.raises(ApplicationError, match="damaged"):
        deck_draft_from_link(code="1AAAA")
