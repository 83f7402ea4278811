"""HTML pages of the catalog."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from .card_page import card_page_sections
from .selectors import card_get_by_collector_number, card_number_get_by_name


def card_detail(request: HttpRequest, number: str) -> HttpResponse:
    """A card by one of its collector numbers: rules fields, text, printings, errata history, and the sections other apps add (play figures)."""
    card = card_get_by_collector_number(number=number)
    if card is None:
        raise Http404(f"No card has the collector number {number!r}.")
    context = {"card": card, "number": number, "sections": card_page_sections(card=card)}
    return render(request, "cards/card_detail.html", context)


def card_by_name(request: HttpRequest) -> HttpResponse:
    """/cards/?name=<English name>: the card's page, for pages that know a card by name only (compare)."""
    name = request.GET.get("name", "")
    number = card_number_get_by_name(name=name)
    if number is None:
        raise Http404(f"No card is named {name!r}.")
    return redirect("cards:detail", number=number)
