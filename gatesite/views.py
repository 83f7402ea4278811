from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static

from cards.models import Card, Geas, Printing, Ruler


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
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"ok": True, "database": connection.vendor})


def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers ask for on pages without a <link rel="icon"> (the admin, JSON): the site's icon."""
    return redirect(static("favicon.svg"), permanent=True)
