"""The statistics page (/stats/): precomputed figures only (decks.stats.selectors), never a live aggregate."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.views.decorators.http import require_GET

from .selectors import statistics_overview


@require_GET
def statistics_page(request: HttpRequest) -> HttpResponse:
    """Ruler, faction and card shares, level curve and monthly trends; ?ruler=<slug> narrows to one ruler."""
    overview = statistics_overview(ruler_slug=request.GET.get("ruler") or None)
    return render(request, "stats/statistics.html", {"overview": overview})


def statistics_admin_moved(request: HttpRequest, rest: str) -> HttpResponse:
    """/admin/decks/statisticsrun/… → /admin/stats/statisticsrun/… (the runs' admin moved with the app).

    308 keeps the method and body, so a recompute POST from a page loaded before the move still works
    (the admin checks permissions and the CSRF token at the new address).
    """
    target = f"/admin/stats/statisticsrun/{rest}"
    if request.META.get("QUERY_STRING"):
        target += f"?{request.META['QUERY_STRING']}"
    return HttpResponsePermanentRedirect(target, preserve_request=True)
