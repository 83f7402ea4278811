from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from decks import statistics_apis, statistics_views
from decks import text_views as deck_text_views
from decks import views as deck_views

from . import apis, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz/", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/signup/", deck_views.signup, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("decks/", include("decks.urls")),
    path("d/<str:public_id>/export.txt", deck_text_views.deck_export_text, name="deck-export-text"),
    path("d/<str:public_id>/export.json", deck_text_views.deck_export_json, name="deck-export-json"),
    path("d/<str:public_id>/sheet/", deck_text_views.deck_sheet, name="deck-sheet"),
    path("", include("decks.page_urls")),
    path("cards/", include("cards.urls")),
    path("stats/", statistics_views.statistics_page, name="statistics"),
    path("api/v1/", include("cards.api_urls")),
    path("api/v1/", include("decks.api.urls")),
    path("api/v1/ping/", apis.PingApi.as_view(), name="ping"),
    path("api/v1/auth/token/", apis.TokenApi.as_view(), name="api-token"),
    path("api/v1/statistics/", statistics_apis.StatisticsApi.as_view(), name="statistics-api"),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="schema"),
    path(
        "api/v1/docs/",
        SpectacularSwaggerView.as_view(url_name="schema"),
        name="api-docs",
    ),
]
