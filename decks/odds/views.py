"""Draw odds of a deck: the session's draft (/decks/new/odds/) or a saved deck its viewer may read.

htmx gets the panel `decks/_odds.html` (the editor and deck pages load it lazily and again after
each change); a plain GET gets it on a page of its own, so the panel's form works without
JavaScript. The odds themselves are pure (decks.rules.odds).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from decks.drafts import deck_draft_of
from decks.editor.session import session_draft
from decks.models import Deck, DeckDraft
from decks.selectors import deck_get_for_viewer, deck_is_owned_by
from gatesite.errors import ApplicationError

from .forms import MAX_PICKED, DrawOddsForm
from .selectors import DeckDrawOdds, deck_draw_odds


@dataclass(frozen=True)
class Chance:
    """A probability as the panel shows it: a rounded percent, the exact fraction, a bar height."""

    p: Fraction

    @property
    def percent(self) -> str:
        # Never round an uncertain chance to 0% or 100%.
        if self.p in (0, 1):
            return f"{int(self.p) * 100}%"
        value = float(self.p) * 100
        if value < 0.05:
            return "<0.1%"
        if value >= 99.95:
            return ">99.9%"
        return f"{value:.1f}%"

    @property
    def exact(self) -> str:
        return f"{self.p.numerator}/{self.p.denominator}"

    @property
    def height(self) -> str:
        """The bar's height in percent, as CSS wants it whatever the locale."""
        return f"{float(self.p) * 100:.2f}"


@dataclass(frozen=True)
class ChanceRow:
    turn: int
    seen_first: int
    seen_second: int
    first: Chance
    second: Chance


def _rows(odds: DeckDrawOdds) -> list[ChanceRow]:
    return [ChanceRow(r.turn, r.seen_first, r.seen_second, Chance(r.first), Chance(r.second)) for r in odds.rows]


@require_GET
def draft_odds(request: HttpRequest) -> HttpResponse:
    return _odds(request, draft=session_draft(request), deck=None, back=reverse("decks:new"))


@require_GET
def deck_odds(request: HttpRequest, public_id: str) -> HttpResponse:
    deck = deck_get_for_viewer(public_id=public_id, user=request.user)
    back = reverse("decks:edit", args=[deck.public_id]) if deck_is_owned_by(deck=deck, user=request.user) else ""
    return _odds(request, draft=deck_draft_of(deck=deck), deck=deck, back=back)


def _odds(request: HttpRequest, *, draft: DeckDraft, deck: Deck | None, back: str) -> HttpResponse:
    form = DrawOddsForm(request.GET)
    errors = []
    if form.is_valid():
        group, k = form.cleaned_data["group"], form.cleaned_data["k"] or 1
    else:
        errors = [f"{field}: {' '.join(messages)}" for field, messages in form.errors.items()]
        group, k = "", 1
    picked = [name[:200] for name in request.GET.getlist("card")[:MAX_PICKED]]
    context: dict[str, Any] = {
        "deck": deck,
        "back": back,
        "odds_errors": errors,
        "odds_loaded": True,
        "odds_draft": draft,
    }
    try:
        odds = deck_draw_odds(draft=draft, group=group, picked=picked, k=k)
    except ApplicationError as exc:
        context["odds_errors"] = [*errors, exc.message]
        context["odds"] = None
    else:
        most = min(odds.group.count, 10) if odds.group else 1
        context.update(odds=odds, odds_rows=_rows(odds), k_choices=range(1, max(1, most) + 1))
    template = "decks/_odds.html" if request.htmx else "decks/odds.html"
    return render(request, template, context)
