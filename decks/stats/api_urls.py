"""/api/v1/statistics/ (included at "api/v1/statistics/" by gatesite/urls.py; the URL name stays "statistics-api")."""

from __future__ import annotations

from django.urls import path

from . import apis

urlpatterns = [
    path("", apis.StatisticsApi.as_view(), name="statistics-api"),
]
