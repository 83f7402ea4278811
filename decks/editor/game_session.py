"""Which game the new-deck page opens, and the session's draft of each game.

The session keeps one draft (decks.editor.session, which the text import, share link and odds
read too); it carries its game. Picking another game on /decks/new/ puts the draft aside (by its
game) and takes up that game's draft again, or starts one: switching back and forth loses nothing.
"""

from __future__ import annotations

from typing import Any

from cards.games import UnknownGameError, default_game_slug, game_get
from decks.models import DeckDraft

from .session import SESSION_DRAFT

# Drafts of the games not being edited, by game slug (session JSON, as DeckDraft.to_session makes them).
SESSION_ASIDE = "deck_drafts_aside"


def _stored(session: Any) -> DeckDraft | None:
    raw = session.get(SESSION_DRAFT)
    if not raw:
        return None
    try:
        return DeckDraft.from_session(raw)
    except (KeyError, TypeError, ValueError):
        return None  # a draft of an older shape: the editors start afresh


def session_game_pick(session: Any, *, game: str | None) -> DeckDraft | None:
    """The draft of `game` (default: the game of the session's draft) made the session's draft.

    None when that is Gate Ruler's (its own editor opens the session's draft, as it always has).
    An unknown game counts as no choice.
    """
    current = _stored(session)
    current_game = current.game if current is not None else default_game_slug()
    try:
        wanted = game_get(game).slug if game else current_game
    except UnknownGameError:
        wanted = current_game
    if wanted != current_game:
        aside = dict(session.get(SESSION_ASIDE) or {})
        if current is not None:
            aside[current_game] = current.to_session()
        restored = aside.pop(wanted, None)
        session[SESSION_ASIDE] = aside
        if restored is not None:
            session[SESSION_DRAFT] = restored
        else:
            session.pop(SESSION_DRAFT, None)
    if game_get(wanted).identity == "ruler":
        return None
    draft = _stored(session)
    if draft is None or draft.game != wanted:
        draft = DeckDraft(game=wanted)
        session[SESSION_DRAFT] = draft.to_session()
    return draft


def session_game_draft(session: Any) -> DeckDraft | None:
    """The session's draft when it is of a game whose identity is a card (the game editor's), else None."""
    draft = _stored(session)
    if draft is None or game_get(draft.game).identity == "ruler":
        return None
    return draft
