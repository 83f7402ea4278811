"""Draw odds of a deck: the session's draft (/decks/new/odds/) or a saved deck its viewer may read.

htmx gets the panel `decks/_odds.html` (deck pages load it lazily; the editor draws it with the
page and with each change's answer, decks/odds/panel.py); a plain GET gets it on a page of its
own, so the panel's form works without JavaScript. The odds themselves are pure (decks.rules.odds).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from decks.models import Deck, DeckDraft
from decks.saved_drafts import deck_draft_of
from decks.selectors import deck_get_for_viewer, deck_is_owned_by
from decks.session_drafts import session_draft

from .panel import odds_panel_context


@require_GET
def draft_odds(request: HttpRequest) -> HttpResponse:
    return _odds(request, draft=session_draft(request), deck=None, back=reverse("decks:new"))


@require_GET
def deck_odds(request: HttpRequest, public_id: str) -> HttpResponse:
    deck = deck_get_for_viewer(public_id=public_id, user=request.user)
    # The owner goes back to the editor, which opens every game's decks (decks/editor/views.py).
    back = reverse("decks:edit", args=[deck.public_id]) if deck_is_owned_by(deck=deck, user=request.user) else ""
    return _odds(request, draft=deck_draft_of(deck=deck), deck=deck, back=back)


def _odds(request: HttpRequest, *, draft: DeckDraft, deck: Deck | None, back: str) -> HttpResponse:
    context = {"deck": deck, "back": back, **odds_panel_context(draft=draft, params=request.GET)}
    template = "decks/_odds.html" if request.htmx else "decks/odds.html"
    return render(request, template, context)
