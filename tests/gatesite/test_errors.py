"""gatesite/errors.py: under /api/ every error is JSON, even where no API view answers; elsewhere the site's own error
pages (templates/400.html, 403.html, 404.html, 500.html), in the player's language."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.test import RequestFactory
from django.views import defaults

from gatesite.errors import bad_request, page_not_found, server_error

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/api/v1/nothing/", "/api/v1/decks/%C2%84/", "/api/v2/decks/", "/api/"])
def test_it_answers_an_unknown_api_path_with_a_json_404(client, path):
    response = client.get(path)

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"detail": "Not found."}


def test_it_keeps_the_html_404_page_outside_the_api(client):
    response = client.get("/no-such-page/")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_it_answers_a_body_too_large_outside_a_view_with_a_json_413():
    request = RequestFactory().post("/api/v1/decks/validate/")

    response = bad_request(request, RequestDataTooBig("too big"))

    assert response.status_code == 413
    assert "too large" in json.loads(response.content)["error"]


def test_it_answers_other_bad_api_requests_and_server_errors_with_json():
    request = RequestFactory().get("/api/v1/decks/")

    assert bad_request(request, ValueError()).status_code == 400
    assert server_error(request)["Content-Type"] == "application/json"
    assert page_not_found(RequestFactory().get("/cards/x/"), ValueError())["Content-Type"].startswith("text/html")


@pytest.mark.parametrize(
    ("language", "heading", "api"),
    [("ja", "ページが見つかりません", "見つかりません。"), ("en", "Page not found", "Not found.")],
)
def test_the_404_page_and_the_api_404_are_in_the_players_language(client, language, heading, api):
    """A dead share link shows the site's page (its header, a way back), not Django's bare English one."""
    client.cookies["django_language"] = language

    page = client.get("/d/no-such-deck/")
    answer = client.get("/api/v1/nothing/", headers={"accept-language": language})

    assert page.status_code == 404
    assert f"<h1>{heading}</h1>" in page.content.decode()
    assert 'href="/decks/new/"' in page.content.decode()
    assert answer.json() == {"detail": api}


@pytest.mark.parametrize(
    ("view", "status", "heading"),
    [(server_error, 500, "エラーが発生しました"), (lambda r: bad_request(r, ValueError()), 400, "不正なリクエスト")],
)
def test_the_500_and_400_pages_are_the_sites_own_in_the_players_language(view, status, heading):
    """Rendered without the request (no user, no context processors): a page of their own, in the active language."""
    from django.utils import translation

    with translation.override("ja"):
        response = view(RequestFactory().get("/decks/"))

    assert response.status_code == status
    assert f"<h1>{heading}</h1>" in response.content.decode()
    assert '<html lang="ja">' in response.content.decode()


def test_the_403_page_is_the_sites_own():

    request = RequestFactory().get("/admin/")
    request.user = AnonymousUser()
    response = defaults.permission_denied(request, PermissionDenied())

    assert response.status_code == 403
    assert "<h1>Not allowed</h1>" in response.content.decode()


def test_a_form_without_its_security_token_gets_the_sites_page_in_the_players_language():
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.cookies["django_language"] = "ja"

    response = client.post("/accounts/login/", {"username": "a", "password": "b"})

    assert response.status_code == 403
    assert "<h1>フォームを送信できませんでした</h1>" in response.content.decode()
    assert "Forbidden" not in response.content.decode()
