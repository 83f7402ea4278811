"""Pages of the deck list (GET /api/v1/decks/): 50 decks a page, a public list's total cached."""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.utils.functional import cached_property
from django.utils.translation import gettext
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

from decks.models import Deck


class CachedCountPaginator(Paginator):
    """A paginator whose total is kept in the cache for DECK_LIST_COUNT_CACHE_SECONDS, per query.

    Counting 60 000 public decks is most of a list request's time (a sequential scan); a public
    list's total may lag a minute behind, a player's own list (small, exact) is not cached.
    """

    @cached_property
    def count(self) -> int:
        seconds = settings.DECK_LIST_COUNT_CACHE_SECONDS
        if not seconds:
            return super().count
        sql, params = self.object_list.query.sql_with_params()
        key = "deck-list-count:" + hashlib.sha256(f"{sql}|{params!r}".encode()).hexdigest()
        count = cache.get(key)
        if count is None:
            count = super().count
            cache.set(key, count, seconds)
        return count

    def page(self, number: Any) -> Any:
        # Django cuts the last page at `count`; with a total a minute old, cut at the page size only.
        number = self.validate_number(number)
        bottom = (number - 1) * self.per_page
        return self._get_page(self.object_list[bottom : bottom + self.per_page], number, self)


class DeckPagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 100

    def get_page_size(self, request: Request) -> int:
        """?page_size=<whole number of at least 1>, at most 100 kept (default 50); anything else is a
        400, where DRF quietly used the default."""
        raw = request.query_params.getlist(self.page_size_query_param)
        if raw in ([], [""]):  # an empty value is no value (the schema's allowEmptyValue)
            return self.page_size
        try:
            size = int(raw[-1])
        except ValueError:
            size = 0
        if len(raw) > 1 or size < 1:
            raise ValidationError({"page_size": [gettext("A whole number of at least 1.")]})
        return min(size, self.max_page_size)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        """DRF's page and page_size parameters, with the smallest value each takes (both 1)."""
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] in (self.page_query_param, self.page_size_query_param):
                parameter["schema"] = {**parameter["schema"], "minimum": 1}
        return parameters

    def paginate_queryset(self, queryset: QuerySet[Deck], request: Request, view: Any = None) -> list[Deck] | None:
        public = getattr(view, "public_listing", False)
        self.django_paginator_class = CachedCountPaginator if public else Paginator
        return super().paginate_queryset(queryset, request, view)
