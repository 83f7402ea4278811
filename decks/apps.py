from __future__ import annotations

from django.apps import AppConfig


class DecksConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "decks"
    verbose_name = "Decks"

    def ready(self) -> None:
        # The catalog announces, the decks listen: cards never imports decks (import-linter).
        from cards.signals import cards_changed, rules_changed

        from .revalidation import receivers

        rules_changed.connect(receivers.revalidate_on_rules_changed, dispatch_uid="decks.revalidate_on_rules_changed")
        cards_changed.connect(receivers.revalidate_on_cards_changed, dispatch_uid="decks.revalidate_on_cards_changed")
