"""Filters over decks, shared by the browse page and GET /api/v1/decks/ (one definition of "filter by …")."""

from __future__ import annotations

import django_filters
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils.functional import lazy

from cards.games import games
from cards.models import Card, Printing
from cards.names import localized_name
from decks.models import SECTIONS, Deck, DeckCard, Section
from gatesite.filters import StrictBooleanFilter, StrictChoiceFilter

_name_shown = lazy(localized_name, str)


class DeckFilter(django_filters.FilterSet):
    """?game=rulers-gambit&ruler=apprentice&geas=oath-of-…&faction=volnar&card=Ember%20Squire&legal=true&sort=newest|most_copied."""

    game = StrictChoiceFilter(
        # Each game's name in the language of the page that draws the choice (lazily: the list is made once).
        choices=[(slug, _name_shown(game.name)) for slug, game in games().items()],
        field_name="game",
        help_text="The deck's game (data/games/<slug>.json): gate-ruler, rulers-gambit or gaterunners.",
    )
    ruler = django_filters.CharFilter(field_name="ruler__slug", help_text="Ruler slug.")
    geas = django_filters.CharFilter(field_name="geas__slug", help_text="Geas slug.")
    faction = django_filters.CharFilter(method="filter_faction", help_text="Faction slug or name: decks that play it.")
    card = django_filters.CharFilter(
        method="filter_card",
        help_text="A card by name or by any of its collector numbers (every printing of the name counts), "
        "else part of a name: decks that play it.",
    )
    legal = StrictBooleanFilter(help_text="The verdict at the deck's last save or revalidation.")
    sort = StrictChoiceFilter(
        choices=[(key, key) for key in ("newest", "-newest", "most_copied", "-most_copied")],
        method="filter_sort",
        empty_label=None,
        help_text="newest (default) or most_copied; a leading '-' reverses.",
    )

    class Meta:
        model = Deck
        fields = ["game", "ruler", "geas", "legal"]

    def filter_queryset(self, queryset: QuerySet[Deck]) -> QuerySet[Deck]:
        if not self.form.cleaned_data.get("sort"):
            queryset = self.filter_sort(queryset, "sort", "newest")
        return super().filter_queryset(queryset)

    def filter_sort(self, queryset: QuerySet[Deck], name: str, value: str) -> QuerySet[Deck]:
        # Both orders have an index with visibility (browse lists public decks).
        field = _SORT_FIELDS[value.lstrip("-")]
        descending = not value.startswith("-")
        return queryset.order_by(f"-{field}" if descending else field, "-pk" if descending else "pk")

    def filter_faction(self, queryset: QuerySet[Deck], name: str, value: str) -> QuerySet[Deck]:
        printings = Printing.objects.filter(Q(card__faction__slug=value) | Q(card__faction__name__iexact=value))
        return self._playing(queryset, _ids(printings), sections=[Section.MAIN])

    def filter_card(self, queryset: QuerySet[Deck], name: str, value: str) -> QuerySet[Deck]:
        # The card is the name (all its printings count, as for the rules): by its exact name or one
        # of its collector numbers, else by part of a name.
        value = value.strip()
        exact = Card.objects.filter(Q(name__iexact=value) | Q(printings__collector_number=value))
        ids = _ids(Printing.objects.filter(card__in=exact)) or _ids(
            Printing.objects.filter(card__name__icontains=value)
        )
        return self._playing(queryset, ids, sections=_PLAYED_SECTIONS)

    @staticmethod
    def _playing(queryset: QuerySet[Deck], printing_ids: list[int], sections: list[str]) -> QuerySet[Deck]:
        # The printings first (a few ids), then one index probe per deck on (deck, printing): joining
        # the catalog inside the EXISTS made every probe match names or factions row by row.
        plays = DeckCard.objects.filter(deck=OuterRef("pk"), printing_id__in=printing_ids, section__in=sections)
        return queryset.filter(Exists(plays))


def _ids(printings: QuerySet[Printing]) -> list[int]:
    return list(printings.values_list("pk", flat=True))


# Every section of a deck but the owner's considering board (a game's kingdom, hero and gates too).
_PLAYED_SECTIONS = [key for key in SECTIONS if key != Section.CONSIDERING]
_SORT_FIELDS = {"newest": "created_at", "most_copied": "copies_count"}
