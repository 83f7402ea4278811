"""Sections that other apps add to the card page, without the catalog importing them.

`cards` sits below `decks`: the card page may not call the decks' statistics. An app above it
registers a provider in its AppConfig.ready() (decks: the "In public decks" figures); the page
renders each provider's section, in the order they were registered, after its own content.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .models import Card


@dataclass(frozen=True, slots=True)
class CardPageSection:
    """A template rendered into the card page, with the page's context plus `context`."""

    template: str
    context: dict[str, Any] = field(default_factory=dict)


CardPageSectionProvider = Callable[[Card], CardPageSection | None]

_providers: list[CardPageSectionProvider] = []


def card_page_section_register(provider: CardPageSectionProvider) -> CardPageSectionProvider:
    """Add a section to every card page; registering the same provider again changes nothing (ready() may rerun)."""
    if provider not in _providers:
        _providers.append(provider)
    return provider


def card_page_sections(*, card: Card) -> list[CardPageSection]:
    """The registered sections for this card; a provider answering None leaves its section out."""
    return [section for provider in _providers if (section := provider(card)) is not None]
