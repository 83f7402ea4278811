from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from decks import views as deck_views

from . import apis, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz/", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/signup/", deck_views.signup, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("decks/", include("decks.urls")),
    path("", include("decks.page_urls")),
    path("cards/", include("cards.urls")),
    path("api/v1/", include("cards.api_urls")),
    path("api/v1/", include("decks.api_urls")),
    path("api/v1/ping/", apis.PingApi.as_view(), name="ping"),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="schema"),
    path(
        "api/v1/docs/",
        SpectacularSwaggerView.as_view(url_name="schema"),
        name="api-docs",
    ),
]
