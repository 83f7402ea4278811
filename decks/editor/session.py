"""The draft a visitor edits without an account, kept in the session (the editor, its text import, share link and odds read it)."""

from __future__ import annotations

from django.http import HttpRequest

from decks.drafts import deck_draft_new
from decks.models import DeckDraft

SESSION_DRAFT = "deck_draft"
# Set by a save that had to ask for an account first; the save completes after login.
SESSION_PENDING_SAVE = "deck_draft_pending_save"


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
