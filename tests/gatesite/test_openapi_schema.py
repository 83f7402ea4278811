from __future__ import annotations

import pytest
from django.core.management import call_command


def test_it_generates_the_openapi_schema_without_warnings(tmp_path):
    out = tmp_path / "schema.yaml"

    call_command("spectacular", "--fail-on-warn", "--file", str(out))

    schema = out.read_text()
    for path in ("/api/v1/rulers/", "/api/v1/geases/", "/api/v1/cards/", "/api/v1/decks/validate/"):
        assert f"  {path}:" in schema


@pytest.mark.django_db
def test_it_serves_the_schema_and_the_browsable_docs(client):
    assert client.get("/api/v1/schema/").status_code == 200
    assert client.get("/api/v1/docs/").status_code == 200
