from __future__ import annotations

from django.apps import AppConfig


class CardsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "cards"
    verbose_name = "Card catalog and rules"

    def ready(self) -> None:
        from .catalog import connect_signals

        connect_signals()
