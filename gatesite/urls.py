from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from decks import urls as deck_urls
from decks.decklists import urls as decklist_urls
from decks.stats import views as stats_views

from . import apis, views
from .accounts import views as account_views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz/", views.healthz, name="healthz"),
    # Browsers ask for /favicon.ico on pages without a <link rel="icon"> (the admin, the API docs, JSON).
    path("favicon.ico", views.favicon, name="favicon"),
    # Statistics' admin moved from the decks app to its own (label "stats"): old bookmarks still work.
    re_path(r"^admin/decks/statisticsrun/(?P<rest>.*)$", stats_views.statistics_admin_moved),
    path("admin/", admin.site.urls),
    path("accounts/signup/", account_views.signup, name="signup"),
    # Django's set_language (name "set_language" as in django.conf.urls.i18n), which also stores a player's choice.
    path("i18n/setlang/", account_views.language_set, name="set_language"),
    # Django's login, logout and password change (django.contrib.auth.urls without the password reset: an
    # account has no e-mail address, since sign-up asks for none, and no mail is sent; its pages were the admin's).
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password_change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("decks/", include("decks.urls")),
    path("", include(decklist_urls.export_urlpatterns)),
    path("", include((deck_urls.deckpage_urlpatterns, "deckpages"))),
    path("cards/", include("cards.urls")),
    path("stats/", include("decks.stats.urls")),
    path("api/v1/", include("cards.api_urls")),
    path("api/v1/", include("decks.api.urls")),
    path("api/v1/ping/", apis.PingApi.as_view(), name="ping"),
    path("api/v1/auth/token/", apis.TokenApi.as_view(), name="api-token"),
    path("api/v1/auth/token/revoke/", apis.TokenRevokeApi.as_view(), name="api-token-revoke"),
    path("api/v1/statistics/", include("decks.stats.api_urls")),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="schema"),
    path(
        "api/v1/docs/",
        # The split view serves its start-up script as a file (?script): no inline script, as the CSP asks.
        SpectacularSwaggerSplitView.as_view(url_name="schema"),
        name="api-docs",
    ),
]

# Under /api/ every error is JSON, even when no API view answers (gatesite/errors.py).
handler400 = "gatesite.errors.bad_request"
handler404 = "gatesite.errors.page_not_found"
handler500 = "gatesite.errors.server_error"
