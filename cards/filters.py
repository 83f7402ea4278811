from __future__ import annotations

import django_filters
from django import forms

from gatesite.filters import StrictBooleanFilter, StrictChoiceFilter

from .games import default_game_slug, games
from .models import Card


def game_choices() -> list[tuple[str, str]]:
    return [(slug, game.name) for slug, game in games().items()]


def type_choices() -> list[tuple[str, str]]:
    """Every game's card types (a type of another game than ?game= simply matches nothing)."""
    seen = {t.key: t.label for game in games().values() for t in game.card_types}
    return list(seen.items())


class _IntegerFilter(django_filters.NumberFilter):
    """A whole number, as the schema says (a NumberFilter took 0.5): anything else is a 400."""

    field_class = forms.IntegerField


class CardFilter(django_filters.FilterSet):
    """Filters of GET /api/v1/cards/: ?faction=volnar&type=unit&level_min=0&level_max=2&attribute=Dragon&cnt=true&legend=false&set=GB01.

    ?game= picks the game (default: Gate Ruler, whose answers are as before); ?q= is the card
    browser's search, with the game's own fields (c:red t:spell cost<=2 for Ruler's Gambit).
    """

    # The choices as lists (the games are data read once per process), so the schema lists them too:
    # `?game=` (empty) or an unknown slug is a 400, and the schema says so with its enum.
    game = StrictChoiceFilter(choices=game_choices(), method="filter_game", help_text="Game slug.")
    q = django_filters.CharFilter(method="filter_q", help_text="Search, in the card browser's syntax of the game.")
    faction = django_filters.CharFilter(method="filter_faction", help_text="Faction slug or name.")
    # ?type= (empty) is none of the choices the schema lists: a 400, as for the decks' ?sort=.
    type = StrictChoiceFilter(choices=type_choices())
    level = _IntegerFilter()
    level_min = _IntegerFilter(field_name="level", lookup_expr="gte")
    level_max = _IntegerFilter(field_name="level", lookup_expr="lte")
    attribute = django_filters.CharFilter(field_name="attributes__name", lookup_expr="iexact", distinct=True)
    cnt = StrictBooleanFilter()
    legend = StrictBooleanFilter()
    set = django_filters.CharFilter(field_name="printings__card_set__code", lookup_expr="iexact", distinct=True)
    name = django_filters.CharFilter(field_name="name", lookup_expr="icontains")

    class Meta:
        model = Card
        fields = ["faction", "type", "level", "cnt", "legend"]

    def filter_queryset(self, queryset):  # type: ignore[no-untyped-def]
        # The game applies even when ?game= is absent: the default game's cards only.
        if not self.form.cleaned_data.get("game"):
            queryset = queryset.filter(game=default_game_slug())
        return super().filter_queryset(queryset)

    def filter_game(self, queryset, name, value):  # type: ignore[no-untyped-def]
        return queryset.filter(game=value)

    def filter_q(self, queryset, name, value):  # type: ignore[no-untyped-def]
        from rest_framework.exceptions import ValidationError

        from .search import QueryError
        from .selectors import card_search_filter

        game = self.form.cleaned_data.get("game") or default_game_slug()
        try:
            return card_search_filter(queryset, query=value, game=game)
        except QueryError as exc:
            raise ValidationError({"q": [exc.message]}) from exc

    def filter_faction(self, queryset, name, value):  # type: ignore[no-untyped-def]
        from django.db.models import Q

        return queryset.filter(Q(faction__slug=value) | Q(faction__name__iexact=value))
