"""My decks and sign-up (the deck editor is in decks/editor/)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods

from .forms import SignupForm
from .page_forms import DeckSearchForm
from .selectors import my_decks_get


@login_required
@require_GET
def deck_list(request: HttpRequest) -> HttpResponse:
    """My decks: searched by name, ruler or card, filtered by tag; archived ones only when asked for."""
    search = DeckSearchForm(request.GET)
    mine = my_decks_get(user=request.user, **search.search_kwargs())
    return render(request, "decks/deck_list.html", {"decks": mine.decks, "tags": mine.tags, "search": search})


# ---------------------------------------------------------------- accounts


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Django's UserCreationForm; logs the new player in (the session, and its draft, carry over)."""
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = ""
    if request.user.is_authenticated:
        return redirect(next_url or settings.LOGIN_REDIRECT_URL)
    form = SignupForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(next_url or settings.LOGIN_REDIRECT_URL)
    return render(request, "registration/signup.html", {"form": form, "next": next_url})
