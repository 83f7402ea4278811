"""HTML pages of the catalog."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from decks.statistics import card_statistics

from .selectors import card_get_by_collector_number


def card_detail(request: HttpRequest, number: str) -> HttpResponse:
    """A card by one of its collector numbers: rules fields, text, printings, errata history and play figures."""
    card = card_get_by_collector_number(number=number)
    if card is None:
        raise Http404(f"No card has the collector number {number!r}.")
    context = {"card": card, "number": number, "stats": card_statistics(card=card)}
    return render(request, "cards/card_detail.html", context)
