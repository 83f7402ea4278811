from __future__ import annotations

import datetime
import json

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError

from decks.models import MAX_LINE_COUNT, DeckDraft, new_public_id, validate_displayed_text
from tests.decks.factories import DeckCardFactory, DeckFactory


def test_a_draft_goes_through_the_session_unchanged():
    draft = DeckDraft(
        ruler="apprentice",
        geas="oath-of-the-lone-banner",
        attribute="Dragon",
        rules_date=datetime.date(2024, 1, 2),
        name="<b>Mine</b>",
        description="Two\\nlines",
        main={"TS-001": 4},
        resources={"TS-300": 3},
        considering={"TS-100": 1},
    )

    stored = json.loads(json.dumps(draft.to_session()))

    assert DeckDraft.from_session(stored) == draft


def test_a_draft_from_the_session_drops_silly_counts():
    draft = DeckDraft.from_session({"ruler": "apprentice", "main": {"A": 0, "B": 2, "C": MAX_LINE_COUNT + 1, "D": -1}})

    assert draft.main == {"B": 2}


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"ruler": "apprentice", "main": []},
        {"ruler": "apprentice", "rules_date": "soon"},
        {"ruler": "x", "main": {"A": "many"}},
    ],
)
def test_a_malformed_session_draft_raises(data):
    with pytest.raises((KeyError, TypeError, ValueError)):
        DeckDraft.from_session(data)


def test_with_section_drops_empty_lines():
    draft = DeckDraft(ruler="apprentice").with_section("main", {"A": 1, "B": 0})

    assert draft.main == {"A": 1}
    assert draft.numbers() == {"A"}


def test_public_ids_are_short_and_unguessable():
    ids = {new_public_id() for _ in range(1000)}

    assert len(ids) == 1000
    assert all(8 <= len(i) <= 20 for i in ids)


@pytest.mark.django_db
def test_a_deck_holds_a_printing_once_per_section_with_a_positive_count(rules):
    line = DeckCardFactory(count=2)
    DeckCardFactory(deck=line.deck, printing=line.printing, section="considering")

    with pytest.raises(IntegrityError):
        DeckCardFactory(deck=line.deck, printing=line.printing, section="main")


@pytest.mark.django_db
def test_a_deck_card_count_is_at_least_one(rules):
    with pytest.raises(IntegrityError):
        DeckCardFactory(count=0)


@pytest.mark.django_db
def test_a_deck_reads_as_its_name(rules):
    assert str(DeckFactory(name="Dragons")) == "Dragons"


def test_a_drafts_odds_key_follows_the_deck_and_the_rules_but_not_the_name_or_the_considering_board():
    from dataclasses import replace

    from decks.models import DeckDraft

    draft = DeckDraft(ruler="apprentice", main={"TS-001": 4}, resources={})
    key = draft.odds_key()

    assert replace(draft, name="Renamed", considering={"TS-002": 1}).odds_key() == key
    assert replace(draft, main={"TS-001": 3}).odds_key() != key
    assert replace(draft, ruler="knight").odds_key() != key
    assert replace(draft, resources={"TS-300": 1}).odds_key() != key


@pytest.mark.parametrize(
    "character",
    # Bidirectional embeddings, overrides and isolates; zero-width and invisible formatting characters.
    list("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u061c\u200b\u200c\u200d\u200e\u200f\u2060\ufeff"),
)
def test_it_refuses_text_with_a_bidirectional_or_zero_width_character(character):
    with pytest.raises(ValidationError, match=f"U\\+{ord(character):04X}"):
        validate_displayed_text(f"Ember{character}Rush")


@pytest.mark.parametrize("text", ["", "Ember Rush", "燃えさしの従騎士", "Élan — 2×", "Line 1\nLine 2\tend"])
def test_it_keeps_text_players_type(text):
    validate_displayed_text(text)  # raises for a refused text
