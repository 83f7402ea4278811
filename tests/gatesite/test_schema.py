"""gatesite/schema.py: the schema documents the errors every operation can meet, with the body they have."""

from __future__ import annotations

import pytest
import yaml
from django.core.management import call_command


@pytest.fixture(scope="module")
def paths(tmp_path_factory):
    out = tmp_path_factory.mktemp("schema") / "schema.yaml"
    call_command("spectacular", "--file", str(out))
    return yaml.safe_load(out.read_text())["paths"]


def test_it_documents_a_too_large_and_unreadable_body_where_there_is_a_body(paths):
    for path, method in [
        ("/api/v1/decks/validate/", "post"),
        ("/api/v1/decks/", "post"),
        ("/api/v1/decks/{public_id}/", "put"),
        ("/api/v1/auth/token/", "post"),
    ]:
        responses = paths[path][method]["responses"]
        assert {"400", "413", "415", "429"} <= set(responses), (path, method)
    assert "413" not in paths["/api/v1/decks/"]["get"]["responses"]


def test_it_documents_a_page_past_the_list_and_a_bad_query(paths):
    # ?page=0 answers 404 and a bad as_of 400: both were missing from the schema.
    assert {"400", "404"} <= set(paths["/api/v1/decks/"]["get"]["responses"])
    assert {"400", "404"} <= set(paths["/api/v1/cards/"]["get"]["responses"])
    assert "400" in paths["/api/v1/rulers/"]["get"]["responses"]
    assert {"400", "404"} <= set(paths["/api/v1/rulers/{slug}/"]["get"]["responses"])


def test_it_keeps_what_an_operation_documents_itself(paths):
    patch = paths["/api/v1/decks/{public_id}/"]["patch"]["responses"]

    assert patch["400"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ApiError"}
    assert patch["409"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/StaleDeckError"}
    assert patch["413"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}


@pytest.mark.django_db
@pytest.mark.parametrize("query", [{"page": "0"}, {"page": "9999"}, {"page": "x"}])
def test_a_page_out_of_range_answers_the_documented_json_404(client, query):
    response = client.get("/api/v1/decks/", query)

    assert response.status_code == 404
    assert response.json() == {"detail": "Invalid page."}
