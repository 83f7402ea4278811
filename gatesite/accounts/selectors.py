"""Reads of the accounts feature: the API token a request presents."""

from __future__ import annotations

from django.utils import timezone

from .models import ApiToken, api_token_digest


def api_token_get(*, key: str) -> ApiToken | None:
    """The unexpired token whose digest matches, with its user (one query per API request)."""
    return (
        ApiToken.objects.select_related("user")
        .filter(digest=api_token_digest(key), expires_at__gt=timezone.now())
        .first()
    )
