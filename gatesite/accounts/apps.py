from __future__ import annotations

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Sign-up, API tokens (stored hashed) and the sign-in lockout's answers."""

    name = "gatesite.accounts"
    label = "accounts"
    verbose_name = "Accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Connects the sign-in receiver that applies a player's stored language.
        from . import language  # noqa: F401
