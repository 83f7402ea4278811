from __future__ import annotations

import django_filters

from .models import Card, CardType


class CardFilter(django_filters.FilterSet):
    """Filters of GET /api/v1/cards/: ?faction=volnar&type=unit&level_min=0&level_max=2&attribute=Dragon&cnt=true&legend=false&set=GB01."""

    faction = django_filters.CharFilter(method="filter_faction", help_text="Faction slug or name.")
    type = django_filters.ChoiceFilter(choices=CardType.choices)
    level = django_filters.NumberFilter()
    level_min = django_filters.NumberFilter(field_name="level", lookup_expr="gte")
    level_max = django_filters.NumberFilter(field_name="level", lookup_expr="lte")
    attribute = django_filters.CharFilter(field_name="attributes__name", lookup_expr="iexact", distinct=True)
    cnt = django_filters.BooleanFilter()
    legend = django_filters.BooleanFilter()
    set = django_filters.CharFilter(field_name="printings__card_set__code", lookup_expr="iexact", distinct=True)
    name = django_filters.CharFilter(field_name="name", lookup_expr="icontains")

    class Meta:
        model = Card
        fields = ["faction", "type", "level", "cnt", "legend"]

    def filter_faction(self, queryset, name, value):  # type: ignore[no-untyped-def]
        from django.db.models import Q

        return queryset.filter(Q(faction__slug=value) | Q(faction__name__iexact=value))
