"""Reads of the accounts feature: the API token a request presents, the language a player chose."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from .models import ApiToken, PlayerProfile, api_token_digest


def api_token_get(*, key: str) -> ApiToken | None:
    """The unexpired token whose digest matches, with its user (one query per API request)."""
    return (
        ApiToken.objects.select_related("user")
        .filter(digest=api_token_digest(key), expires_at__gt=timezone.now())
        .first()
    )


def player_language_get(*, user: Any) -> str:
    """The interface language the player chose, or "" when they never chose one."""
    return PlayerProfile.objects.filter(user=user).values_list("language", flat=True).first() or ""
