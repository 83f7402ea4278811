"""Moved: statistics is its own app, decks.stats (selectors, services, models, …).

Kept only so `from decks.statistics import card_statistics` (the card page's hook) works while
that import moves to decks.stats.selectors; delete this module once nothing imports it.
"""

from __future__ import annotations

from decks.stats.selectors import card_statistics

__all__ = ["card_statistics"]
