"""Statistics over public decks: its own Django app inside decks/ (models, services, selectors, pages, tasks)."""

from __future__ import annotations

from django.apps import AppConfig


class StatsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "decks.stats"
    label = "stats"
    verbose_name = "Statistics"

    def ready(self) -> None:
        # Decks only announce their changes (decks.signals); statistics listens, so the decks code
        # never imports statistics and the dependency points one way: from stats up to decks.
        from cards.card_page import card_page_section_register
        from decks.signals import deck_changed

        from .receivers import card_page_statistics, deck_changed_receive

        deck_changed.connect(deck_changed_receive, dispatch_uid="stats.deck_changed")
        # The card page is the catalog's; its statistics section is ours, registered, never imported by cards.
        card_page_section_register(card_page_statistics)
