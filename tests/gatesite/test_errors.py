"""gatesite/errors.py: under /api/ every error is JSON, even where no API view answers; elsewhere Django's pages."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import RequestDataTooBig
from django.test import RequestFactory

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
