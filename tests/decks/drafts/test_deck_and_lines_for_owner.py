"""deck_and_lines_for_owner: an editor change's deck and lines in one query, the same as the ORM's two."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import Http404
from django.test.utils import CaptureQueriesContext

from decks.models import Deck
from decks.saved_drafts import deck_and_lines_for_owner, deck_lines_of
from decks.selectors import deck_get_for_owner
from decks.services import deck_create_from_draft
from tests.decks.factories import DeckFactory, every_field_draft, game_deck, legal_apprentice_main, runners_draft

pytestmark = pytest.mark.django_db


def field_values(deck: Deck) -> list[tuple[str, object, type]]:
    """Every column's value as the model holds it, with its type (a date is not its text, a bool not 0/1)."""
    return [(f.attname, getattr(deck, f.attname), type(getattr(deck, f.attname))) for f in Deck._meta.concrete_fields]


def assert_as_the_orm_gives(deck: Deck, user) -> None:
    orm = deck_get_for_owner(public_id=deck.public_id, user=user, write=True)
    mine, lines = deck_and_lines_for_owner(public_id=deck.public_id, user=user, write=True)

    assert field_values(mine) == field_values(orm)
    assert (mine.ruler, mine.geas) == (orm.ruler, orm.geas)
    assert (mine.ruler and mine.ruler.slug, mine.geas and mine.geas.slug) == (
        orm.ruler and orm.ruler.slug,
        orm.geas and orm.geas.slug,
    )
    assert not mine._state.adding
    assert mine._state.db == orm._state.db
    # The same lines in the same order (the draft's sections keep it).
    assert list(lines.items()) == list(deck_lines_of(deck=orm).items())


def test_it_is_the_deck_and_lines_of_the_orm_in_one_query(deck_catalog, user):
    draft = every_field_draft()
    deck = deck_create_from_draft(owner=user, draft=draft)
    Deck.objects.filter(pk=deck.pk).update(illegal_since=datetime.date(2024, 6, 2), legal=False, archived=True)

    deck_get_for_owner(public_id=deck.public_id, user=user)  # the catalog memory (ruler, geas) filled
    with CaptureQueriesContext(connection) as queries:
        mine, lines = deck_and_lines_for_owner(public_id=deck.public_id, user=user)

    # One query of the decks' tables (besides, on SQLite, the catalog memory's check of its version).
    assert len([q for q in queries.captured_queries if "decks_deck" in q["sql"]]) == 1

    assert mine.rules_date == datetime.date(2024, 5, 1)
    assert mine.illegal_since == datetime.date(2024, 6, 2)
    assert (mine.legal, mine.archived) == (False, True)
    assert mine.updated_at.tzinfo is not None
    assert lines[("TS-150", "considering")][1] == 3
    assert len(lines) == len(legal_apprentice_main()) + 3
    assert_as_the_orm_gives(deck, user)


def test_an_empty_deck_with_no_geas_no_date_and_no_verdict(deck_catalog, user):
    deck = DeckFactory(owner=user)

    mine, lines = deck_and_lines_for_owner(public_id=deck.public_id, user=user)

    assert (lines, mine.geas, mine.rules_date, mine.legal) == ({}, None, None, None)
    assert_as_the_orm_gives(deck, user)


def test_another_games_deck_has_no_ruler_and_its_sections_lines(deck_catalog, game_catalog, user):
    deck = game_deck(user, runners_draft(), visibility="private")

    mine, lines = deck_and_lines_for_owner(public_id=deck.public_id, user=user)

    assert (mine.game, mine.ruler) == ("gaterunners", None)
    assert {number for number, section in lines if section == "gates"} == {"GRT-011", "GRT-012", "GRT-013"}
    assert_as_the_orm_gives(deck, user)


@pytest.mark.parametrize("visibility", ["private", "unlisted", "public"])
@pytest.mark.parametrize("write", [False, True])
def test_it_answers_anyone_but_the_owner_as_deck_get_for_owner(deck_catalog, user, other_user, visibility, write):
    deck = DeckFactory(owner=user, visibility=visibility)

    for someone in (other_user, AnonymousUser()):
        with pytest.raises((Http404, PermissionDenied)) as orm:
            deck_get_for_owner(public_id=deck.public_id, user=someone, write=write)
        with pytest.raises((Http404, PermissionDenied)) as mine:
            deck_and_lines_for_owner(public_id=deck.public_id, user=someone, write=write)
        assert type(mine.value) is type(orm.value)
        assert str(mine.value) == str(orm.value)
    expected = PermissionDenied if write and visibility != "private" else Http404
    assert type(mine.value) is expected


def test_it_is_404_for_an_unknown_id_or_a_primary_key(deck_catalog, user):
    deck = DeckFactory(owner=user)

    for unknown in ("nope", str(deck.pk)):
        with pytest.raises(Http404):
            deck_and_lines_for_owner(public_id=unknown, user=user, write=True)
