"""API throttles whose rates are read when a request comes, not when the module is imported.

DRF's throttles copy DEFAULT_THROTTLE_RATES into a class attribute at import time, so a test's
settings override (or a rate of "off") would never reach them; these read the current settings.

The client's address is `client_ip`, the same for the throttles and the sign-in lockout (axes).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle, SimpleRateThrottle, UserRateThrottle

OFF = frozenset({"", "off", "none", "0"})


def client_ip(request: HttpRequest, *args: Any, **kwargs: Any) -> str:
    """The client's address: REMOTE_ADDR, or with NUM_PROXIES trusted proxies in front, the address the
    outermost of them saw (that many entries from the right of X-Forwarded-For).

    Entries further left are whatever the client wrote, so they are never read: with DRF's default
    (NUM_PROXIES unset) a forged header gave every request a new address and a fresh limit.
    """
    remote_addr = str(request.META.get("REMOTE_ADDR") or "")
    num_proxies = settings.NUM_PROXIES
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if num_proxies <= 0 or not forwarded:
        return remote_addr
    addresses = [address.strip() for address in forwarded.split(",")]
    return addresses[-min(num_proxies, len(addresses))] or remote_addr


def _current_rate(throttle: SimpleRateThrottle) -> str | None:
    """The configured rate of the throttle's scope; None (no limit) when absent or "off"."""
    rate = api_settings.DEFAULT_THROTTLE_RATES.get(throttle.scope)
    if rate is None or str(rate).strip().lower() in OFF:
        return None
    return str(rate)


class AnonThrottle(AnonRateThrottle):
    """Anonymous clients, per IP address (scope "anon")."""

    def get_rate(self) -> str | None:
        return _current_rate(self)

    def get_ident(self, request: Any) -> str:
        return client_ip(request)


class UserThrottle(UserRateThrottle):
    """Authenticated clients, per user (scope "user"); anonymous ones per address, as AnonThrottle."""

    def get_rate(self) -> str | None:
        return _current_rate(self)

    def get_ident(self, request: Any) -> str:
        return client_ip(request)


class TokenThrottle(ScopedRateThrottle):
    """POST /api/v1/auth/token/ (scope "token"): password guesses, per client IP."""

    scope_attr = "throttle_scope"

    def get_rate(self) -> str | None:
        return _current_rate(self)

    def get_ident(self, request: Any) -> str:
        return client_ip(request)
