from __future__ import annotations

import django_filters
from django import forms

from gatesite.filters import StrictBooleanFilter, StrictChoiceFilter

from .models import Card, CardType


class _IntegerFilter(django_filters.NumberFilter):
    """A whole number, as the schema says (a NumberFilter took 0.5): anything else is a 400."""

    field_class = forms.IntegerField


class CardFilter(django_filters.FilterSet):
    """Filters of GET /api/v1/cards/: ?faction=volnar&type=unit&level_min=0&level_max=2&attribute=Dragon&cnt=true&legend=false&set=GB01."""

    faction = django_filters.CharFilter(method="filter_faction", help_text="Faction slug or name.")
    type = StrictChoiceFilter(choices=CardType.choices)
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

    def filter_faction(self, queryset, name, value):  # type: ignore[no-untyped-def]
        from django.db.models import Q

        return queryset.filter(Q(faction__slug=value) | Q(faction__name__iexact=value))
