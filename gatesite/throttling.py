"""API throttles whose rates are read when a request comes, not when the module is imported.

DRF's throttles copy DEFAULT_THROTTLE_RATES into a class attribute at import time, so a test's
settings override (or a rate of "off") would never reach them; these read the current settings.
"""

from __future__ import annotations

from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle, SimpleRateThrottle, UserRateThrottle

OFF = frozenset({"", "off", "none", "0"})


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


class UserThrottle(UserRateThrottle):
    """Authenticated clients, per user (scope "user")."""

    def get_rate(self) -> str | None:
        return _current_rate(self)


class TokenThrottle(ScopedRateThrottle):
    """POST /api/v1/auth/token/ (scope "token"): password guesses, per client IP."""

    scope_attr = "throttle_scope"

    def get_rate(self) -> str | None:
        return _current_rate(self)
