"""API tokens, stored as their SHA-256 digest: the database never holds a token that works."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models
from django.utils import timezone


def api_token_digest(key: str) -> str:
    """The stored form of a token. A plain SHA-256 is enough: a token has 256 random bits, so there
    is no dictionary to try (a slow password hash would cost every API request for nothing)."""
    return hashlib.sha256(key.encode()).hexdigest()


class ApiToken(models.Model):
    """One API token of a user: `Authorization: Token <key>` until `expires_at`, or until revoked (deleted)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    digest = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(
        max_length=8, editable=False, help_text="The token's first characters, to tell a user's tokens apart."
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = "API token"
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user})"

    @property
    def expired(self) -> bool:
        return self.expires_at <= timezone.now()


class PlayerProfile(models.Model):
    """What a player chose for the site itself: for now the interface language, applied on sign-in."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_profile")
    # One of settings.LANGUAGES; empty: the player never chose, the browser's language decides.
    language = models.CharField(max_length=10, blank=True, default="")

    class Meta:
        verbose_name = "player profile"

    def __str__(self) -> str:
        return f"{self.user} ({self.language or 'browser language'})"
