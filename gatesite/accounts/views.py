"""Sign-up (accounts/signup/), the language switch (i18n/setlang/); the rest of accounts/ is django.contrib.auth.urls."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views import i18n as i18n_views
from django.views.decorators.http import require_http_methods

from .forms import SignupForm
from .services import player_language_set


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
        login(request, user, backend="gatesite.accounts.backends.PlayerBackend")
        return redirect(next_url or settings.LOGIN_REDIRECT_URL)
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


@require_http_methods(["POST"])
def language_set(request: HttpRequest) -> HttpResponse:
    """Django's set_language (the cookie, then back to the page); a signed-in player's profile keeps it too."""
    response = i18n_views.set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        player_language_set(user=request.user, language=language)
    return response
