from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static

from cards.models import Card, Geas, Printing, Ruler

from .health import health_report


def home(request: HttpRequest) -> HttpResponse:
    rulers = Ruler.objects.prefetch_related("geases")
    context = {
        "rulers": rulers,
        "card_count": Card.objects.count(),
        "printing_count": Printing.objects.count(),
        "geas_count": Geas.objects.count(),
    }
    return render(request, "home.html", context)


def healthz(request: HttpRequest) -> JsonResponse:
    """Each dependency's status (gatesite/health.py); 503 when the database is down, else 200."""
    report = health_report()
    return JsonResponse(report, status=200 if report["ok"] else 503)


def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers ask for on pages without a <link rel="icon"> (the admin, JSON): the site's icon."""
    return redirect(static("favicon.svg"), permanent=True)
