"""The editor view tests' way to start from a draft: put it in the client's session, as the editor keeps it."""

from __future__ import annotations

from typing import Any

from decks.models import DeckDraft


def with_draft(client: Any, draft: DeckDraft) -> None:
    session = client.session
    session["deck_draft"] = draft.to_session()
    session.save()
