"""Writes of the accounts feature: API tokens issued and revoked."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .models import ApiToken, PlayerProfile, api_token_digest


@transaction.atomic
def api_token_create(*, user: Any) -> tuple[ApiToken, str]:
    """A new token for the user and its key, shown this once: only its digest is stored."""
    now = timezone.now()
    # Expired tokens can never authenticate again: drop them rather than let them pile up.
    ApiToken.objects.filter(user=user, expires_at__lte=now).delete()
    key = secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user,
        digest=api_token_digest(key),
        prefix=key[:8],
        created_at=now,
        expires_at=now + timedelta(days=settings.API_TOKEN_TTL_DAYS),
    )
    return token, key


def api_tokens_revoke(*, user: Any, token: ApiToken | None = None) -> int:
    """Revoke one of the user's tokens, or all of them (token None); how many were revoked."""
    tokens = ApiToken.objects.filter(user=user)
    if token is not None:
        tokens = tokens.filter(pk=token.pk)
    deleted, _ = tokens.delete()
    return deleted


def player_language_set(*, user: Any, language: str) -> None:
    """Remember the interface language a signed-in player chose (one of settings.LANGUAGES)."""
    if language not in dict(settings.LANGUAGES):
        raise ValueError(f"language {language!r} is not one of settings.LANGUAGES")
    PlayerProfile.objects.update_or_create(user=user, defaults={"language": language})
