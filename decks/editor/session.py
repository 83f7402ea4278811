"""The draft a visitor edits without an account, kept in the session (the editor, its text import, share link and odds read it)."""

from __future__ import annotations

from django.http import HttpRequest

from decks.models import DeckDraft
from decks.saved_drafts import deck_draft_new

SESSION_DRAFT = "deck_draft"
# Set by a save that had to ask for an account first; the save completes after login.
SESSION_PENDING_SAVE = "deck_draft_pending_save"
# An unsaved draft with cards that another one replaced ("Save a copy" of a shared deck): kept for Undo.
SESSION_REPLACED = "deck_draft_replaced"


def session_draft(request: HttpRequest) -> DeckDraft:
    """The draft this session is editing; a new one when there is none (or one of an older shape)."""
    raw = request.session.get(SESSION_DRAFT)
    if raw:
        try:
            return DeckDraft.from_session(raw)
        except (KeyError, TypeError, ValueError):
            pass  # a draft from an older shape of the session: start afresh
    return deck_draft_new()


def draft_card_count(draft: DeckDraft) -> int:
    """Every copy in the draft (deck, resources and considering board): what starting over would throw away."""
    return sum(draft.main.values()) + sum(draft.resources.values()) + sum(draft.considering.values())


def session_draft_replace(request: HttpRequest, draft: DeckDraft) -> None:
    """Make `draft` the session's draft; an unsaved one with cards is kept aside for the editor's Undo."""
    previous = session_draft(request)
    if draft_card_count(previous):
        request.session[SESSION_REPLACED] = previous.to_session()
    else:
        request.session.pop(SESSION_REPLACED, None)
    request.session[SESSION_DRAFT] = draft.to_session()


def replaced_draft(request: HttpRequest) -> DeckDraft | None:
    """The draft session_draft_replace kept aside, while the player has not changed the new one."""
    raw = request.session.get(SESSION_REPLACED)
    if not raw:
        return None
    try:
        return DeckDraft.from_session(raw)
    except (KeyError, TypeError, ValueError):
        return None
