"""The drafts a visitor edits without an account, kept in the session: one draft per game.

The session's draft (SESSION_DRAFT) is the one being edited; it carries its game, and the editor, the
text import, the share link and the draw odds read it. Picking another game on /decks/new/ puts that
draft aside by its game (SESSION_ASIDE) and takes up the draft of the game picked, or starts one:
switching back and forth loses nothing. The keys and shapes are those sessions already hold.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from cards.games import UnknownGameError, default_game_slug, game_get
from decks.models import DeckDraft
from decks.saved_drafts import deck_draft_new

SESSION_DRAFT = "deck_draft"
# Set by a save that had to ask for an account first; the save completes after login.
SESSION_PENDING_SAVE = "deck_draft_pending_save"
# An unsaved draft with cards that another one replaced ("Save a copy" of a shared deck): kept for Undo.
SESSION_REPLACED = "deck_draft_replaced"
# Drafts of the games not being edited, by game slug (session JSON, as DeckDraft.to_session makes them).
SESSION_ASIDE = "deck_drafts_aside"


def _loaded(raw: Any) -> DeckDraft | None:
    if not raw:
        return None
    try:
        return DeckDraft.from_session(raw)
    except (KeyError, TypeError, ValueError):
        return None  # a draft from an older shape of the session: start afresh


def draft_new(game: str) -> DeckDraft:
    """An empty draft of `game`: a ruler's game starts with the first ruler of its rules."""
    if game_get(game).identity == "ruler":
        return deck_draft_new()
    return DeckDraft(game=game)


def session_draft(request: HttpRequest) -> DeckDraft:
    """The draft this session is editing; a new one of Gate Ruler when there is none (or one of an older shape)."""
    return _loaded(request.session.get(SESSION_DRAFT)) or deck_draft_new()


def _session_game(session: Any) -> str:
    """The game of the draft session_draft reads from `session` (the default game's when it holds none)."""
    draft = _loaded(session.get(SESSION_DRAFT))
    return draft.game if draft is not None else default_game_slug()


def session_draft_pick(session: Any, *, game: str | None) -> DeckDraft:
    """The draft of `game` (default: the game of the session's draft) made the session's draft.

    The draft of the game left is put aside, by its game; an unknown game counts as no choice.
    """
    current = _loaded(session.get(SESSION_DRAFT))
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
        current = _loaded(session.get(SESSION_DRAFT))
    if current is None or current.game != wanted:
        current = draft_new(wanted)
        if _session_game(session) != wanted:
            # Kept at once when the session would read as another game's draft, so that this game's changes
            # find it; otherwise the session already reads as this new draft, kept by its first change.
            session[SESSION_DRAFT] = current.to_session()
    return current


def draft_card_count(draft: DeckDraft) -> int:
    """Every copy in the draft (every section and the considering board): what starting over would throw away."""
    own = sum(draft.main.values()) + sum(draft.resources.values()) + sum(draft.considering.values())
    return own + sum(sum(counts.values()) for counts in draft.others.values())


def session_draft_replace(request: HttpRequest, draft: DeckDraft) -> None:
    """Make `draft` the session's draft; an unsaved one with cards is kept aside for the editor's Undo."""
    previous = _loaded(request.session.get(SESSION_DRAFT))
    if previous is not None and draft_card_count(previous):
        request.session[SESSION_REPLACED] = previous.to_session()
    else:
        request.session.pop(SESSION_REPLACED, None)
    request.session[SESSION_DRAFT] = draft.to_session()


def replaced_draft(request: HttpRequest) -> DeckDraft | None:
    """The draft session_draft_replace kept aside, while the player has not changed the new one."""
    return _loaded(request.session.get(SESSION_REPLACED))
