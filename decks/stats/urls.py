"""/stats/: the statistics page (included at "stats/" by gatesite/urls.py; the URL name stays "statistics")."""

from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("", views.statistics_page, name="statistics"),
]
