from __future__ import annotations

import re

import pytest
from django.core.management import call_command


def test_it_generates_the_openapi_schema_without_warnings(tmp_path):
    out = tmp_path / "schema.yaml"

    call_command("spectacular", "--fail-on-warn", "--file", str(out))

    schema = out.read_text()
    for path in (
        "/api/v1/rulers/",
        "/api/v1/rulers/{slug}/",
        "/api/v1/geases/",
        "/api/v1/cards/",
        "/api/v1/cards/{number}/",
        "/api/v1/decks/validate/",
        "/api/v1/decks/",
        "/api/v1/decks/{public_id}/",
        "/api/v1/auth/token/",
    ):
        assert f"  {path}:" in schema


@pytest.mark.django_db
def test_it_serves_the_schema_and_the_browsable_docs(client):
    assert client.get("/api/v1/schema/").status_code == 200
    docs = client.get("/api/v1/docs/")
    assert docs.status_code == 200
    # Swagger UI comes from this server's static files (drf-spectacular-sidecar), never a CDN: works offline.
    html = docs.content.decode()
    assert "cdn.jsdelivr.net" not in html
    bundle = re.search(r'src="([^"]*swagger-ui-bundle\.js)"', html)
    assert bundle
    assert bundle.group(1).startswith("/static/")
    assert client.get(bundle.group(1)).status_code == 200


def test_it_documents_every_deck_operation_and_its_errors(tmp_path):
    import yaml

    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--file", str(out))
    paths = yaml.safe_load(out.read_text())["paths"]

    assert set(paths["/api/v1/decks/"]) == {"get", "post"}
    assert set(paths["/api/v1/decks/{public_id}/"]) >= {"get", "put", "patch", "delete"}
    # With the errors any request with a body can meet (gatesite/schema.py): 406, 413, 415, 429.
    assert set(paths["/api/v1/decks/{public_id}/"]["patch"]["responses"]) == {
        "200",
        "400",
        "401",
        "403",
        "404",
        "406",
        "409",
        "413",
        "415",
        "429",
    }
    assert {p["name"] for p in paths["/api/v1/decks/"]["get"]["parameters"]} >= {
        "public",
        "ruler",
        "geas",
        "faction",
        "card",
        "legal",
        "sort",
        "page",
        "page_size",
    }
