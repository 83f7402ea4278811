"""What a locked-out sign-in gets (django-axes' AXES_LOCKOUT_CALLABLE): JSON under /api/, a page elsewhere.

Axes counts failed sign-ins per username and per client address (AXES_LOCKOUT_PARAMETERS) on the
log-in page, the admin's and POST /api/v1/auth/token/; past AXES_FAILURE_LIMIT it answers this
instead of trying the password, until AXES_COOLOFF_TIME has passed or an admin unlocks.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

LOCKED_OUT = (
    "Too many failed sign-ins for this account or from this address. "
    "Try again in {minutes} minutes, or ask an administrator to unlock it."
)


def _cooloff_seconds() -> int:
    cooloff = settings.AXES_COOLOFF_TIME
    return int(cooloff.total_seconds()) if cooloff else 0


def lockout_response(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """429 with a message that says why and for how long; Retry-After for scripts."""
    seconds = _cooloff_seconds()
    message = LOCKED_OUT.format(minutes=max(1, round(seconds / 60)))
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": message}, status=429)
    else:
        response = render(request, "registration/locked_out.html", {"message": message}, status=429)
    if seconds:
        response["Retry-After"] = str(seconds)
    return response
