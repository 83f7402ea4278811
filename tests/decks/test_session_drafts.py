"""The session's draft of each game: which new draft is kept in the session at once, and which by its first change."""

from __future__ import annotations

import pytest

from decks.models import DeckDraft
from decks.session_drafts import SESSION_ASIDE, SESSION_DRAFT, session_draft_pick

pytestmark = pytest.mark.django_db


def test_a_new_draft_of_the_game_an_empty_session_reads_as_is_kept_by_its_first_change(deck_catalog):
    session: dict = {}

    draft = session_draft_pick(session, game="gate-ruler")

    assert draft.game == "gate-ruler"
    assert draft.ruler, "a ruler's game starts with the first ruler"
    assert SESSION_DRAFT not in session


def test_a_new_draft_of_another_game_is_kept_at_once(deck_catalog):
    session: dict = {}

    draft = session_draft_pick(session, game="rulers-gambit")

    assert draft == DeckDraft(game="rulers-gambit")
    assert DeckDraft.from_session(session[SESSION_DRAFT]) == draft


def test_going_back_to_the_default_game_puts_the_other_draft_aside_and_keeps_nothing_new(deck_catalog):
    session: dict = {}
    session_draft_pick(session, game="gaterunners")

    draft = session_draft_pick(session, game="gate-ruler")

    assert draft.game == "gate-ruler"
    assert SESSION_DRAFT not in session
    assert DeckDraft.from_session(session[SESSION_ASIDE]["gaterunners"]).game == "gaterunners"
