"""A signed-in player's language: stored in their profile, applied on sign-in.

Django's LocaleMiddleware reads the language cookie; signing in is where the profile's choice
becomes that cookie (so the next pages, and other devices the player signs in on, follow it).
The `user_logged_in` signal has no response to set a cookie on, so it marks the request and
`PlayerLanguageMiddleware` writes the cookie on the way out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from .selectors import player_language_get

_CHOSEN = "_player_language"


@receiver(user_logged_in, dispatch_uid="accounts.player_language_on_login")
def player_language_on_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """On sign-in, switch to the language stored in the player's profile, if they chose one."""
    if request is None:
        return
    language = player_language_get(user=user)
    if language:
        setattr(request, _CHOSEN, language)
        translation.activate(language)
        request.LANGUAGE_CODE = language


class PlayerLanguageMiddleware:
    """Sets the language cookie when a sign-in applied the player's stored language."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        language = getattr(request, _CHOSEN, "")
        if language:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                language,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        return response
