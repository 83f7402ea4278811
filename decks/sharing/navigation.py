"""Where the deck page's small forms lead: back where they were posted from, or to log in first.

Shared by the deck page's forms and My decks' (tags, archive), which post from either page.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from decks.models import Deck


def back_to_page(request: HttpRequest, deck: Deck) -> HttpResponse:
    """Back where the form was posted from (the editor, My decks, the deck page); the deck page by default."""
    next_url = request.POST.get("next", "")
    if next_url and url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(next_url)
    return redirect("deckpages:page", deck.public_id)


def login_first(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """login_required, coming back to the deck page: the write URLs answer POSTs only, not the GET after login."""

    @wraps(view)
    def wrapped(request: HttpRequest, public_id: str, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(reverse("deckpages:page", args=[public_id]))
        return view(request, public_id, **kwargs)

    return wrapped
