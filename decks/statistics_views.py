"""The statistics page (/stats/): precomputed figures only (decks.statistics), never a live aggregate."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from .statistics import statistics_overview


@require_GET
def statistics_page(request: HttpRequest) -> HttpResponse:
    """Ruler, faction and card shares, level curve and monthly trends; ?ruler=<slug> narrows to one ruler."""
    overview = statistics_overview(ruler_slug=request.GET.get("ruler") or None)
    return render(request, "stats/statistics.html", {"overview": overview})
