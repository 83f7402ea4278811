"""gatesite/parsers.py: every JSON body the API reads answers 400 when nested too deeply and 413 when too large."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.django_db

# Deeper than any JSON reader goes: Python's json module recurses once per level (RecursionError,
# a 500 before), pydantic's stops at 200 levels.
DEEP = '{"ruler":"apprentice","main":' + "[" * 100_000 + "]" * 100_000 + "}"
CHARSET = "application/json; charset=utf-8"


@pytest.mark.parametrize("content_type", ["application/json", CHARSET])
@pytest.mark.parametrize("url", ["/api/v1/decks/validate/", "/api/v1/auth/token/", "/api/v1/decks/"])
def test_it_refuses_a_deeply_nested_body_with_a_400(client, user, url, content_type):
    client.force_login(user)  # /api/v1/decks/ reads a body only from a signed-in client

    response = client.post(url, DEEP, content_type=content_type)

    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"error": "Malformed JSON: JSON parse error - the body is nested too deeply."}


def test_it_refuses_a_nested_token_request_naming_the_nesting(client):
    response = client.post("/api/v1/auth/token/", "[" * 5000 + "]" * 5000, content_type="application/json")

    assert response.status_code == 400
    assert response.json() == {"error": "Malformed JSON: JSON parse error - the body is nested too deeply."}


@pytest.mark.parametrize("content_type", ["application/json", CHARSET])
@pytest.mark.parametrize("url", ["/api/v1/decks/validate/", "/api/v1/auth/token/"])
def test_it_refuses_a_body_over_the_size_limit_with_a_413(client, settings, url, content_type):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = json.dumps({"ruler": "apprentice", "main": [], "username": "x" * 2000, "password": "y"})

    response = client.post(url, body, content_type=content_type)

    assert response.status_code == 413
    assert response.json() == {"error": "The request body is too large (at most 1000 bytes)."}


def test_it_reads_a_body_at_the_size_limit(client, settings, user):
    body = json.dumps({"username": "alice", "password": "correct horse battery"})
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = len(body)

    response = client.post("/api/v1/auth/token/", body, content_type=CHARSET)

    assert response.status_code == 200
    assert response.json()["token"]


def test_it_refuses_a_form_over_the_size_limit_with_a_413(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000

    response = client.post(
        "/api/v1/auth/token/", f"username={'x' * 2000}&password=y", content_type="application/x-www-form-urlencoded"
    )

    assert response.status_code == 413
    assert "too large" in response.json()["error"]
