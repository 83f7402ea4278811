"""gatesite/schema.py: the schema documents the errors every operation can meet, with the body they have."""

from __future__ import annotations

import re

import pytest
import yaml
from django.core.management import call_command


@pytest.fixture(scope="module")
def schema(tmp_path_factory):
    out = tmp_path_factory.mktemp("schema") / "schema.yaml"
    call_command("spectacular", "--file", str(out))
    return yaml.safe_load(out.read_text())


@pytest.fixture(scope="module")
def paths(schema):
    return schema["paths"]


def _parameter(operation, name):
    return next(p for p in operation["parameters"] if p["name"] == name)


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


# Schemathesis's ST202 ("schema-valid request rejected"): each was a 400 for a request the schema allowed.
def test_the_rules_date_is_declared_a_date_that_may_be_sent_empty(paths):
    for path in ["/api/v1/rulers/", "/api/v1/rulers/{slug}/", "/api/v1/geases/"]:
        as_of = _parameter(paths[path]["get"], "as_of")
        assert as_of["schema"] == {"type": "string", "format": "date"}, path
        assert as_of["allowEmptyValue"] is True, path


def test_page_and_page_size_declare_their_minimum_of_one(paths):
    operation = paths["/api/v1/decks/"]["get"]
    assert _parameter(operation, "page")["schema"]["minimum"] == 1
    assert _parameter(operation, "page_size")["schema"]["minimum"] == 1


@pytest.mark.django_db
def test_an_empty_choice_is_refused_as_the_schema_does_not_allow_it(paths, client):
    assert "allowEmptyValue" not in _parameter(paths["/api/v1/cards/"]["get"], "type")
    response = client.get("/api/v1/cards/", {"type": ""})
    assert response.status_code == 400
    assert "type" in response.json()


def test_a_deck_line_gives_exactly_one_of_number_or_name(schema):
    components = schema["components"]["schemas"]
    for line in ["DeckLine", "DeckCardLineInput"]:
        assert components[line]["oneOf"] == [{"required": ["number"]}, {"required": ["name"]}], line


@pytest.mark.django_db
def test_an_empty_rules_date_means_today(client):
    assert client.get("/api/v1/rulers/", {"as_of": ""}).json() == client.get("/api/v1/rulers/").json()


@pytest.mark.django_db
def test_the_game_and_type_of_a_card_are_choices_the_schema_lists(paths, client):
    # ?game= (empty) answered 400 while the schema allowed any string (Schemathesis ST202).
    operation = paths["/api/v1/cards/"]["get"]
    assert set(_parameter(operation, "game")["schema"]["enum"]) == {"gate-ruler", "rulers-gambit", "gaterunners"}
    assert {"unit", "spell", "hero"} <= set(_parameter(operation, "type")["schema"]["enum"])
    assert client.get("/api/v1/cards/", {"game": ""}).status_code == 400
    assert client.get("/api/v1/cards/", {"game": "gaterunners"}).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "name", "where"),
    [
        ("/api/v1/cards/", "faction", "query"),
        ("/api/v1/cards/", "q", "query"),
        ("/api/v1/decks/", "card", "query"),
        ("/api/v1/statistics/", "ruler", "query"),
        ("/api/v1/cards/{number}/", "number", "path"),
    ],
)
def test_a_plain_string_parameter_says_it_has_no_control_character(paths, client, path, name, where):
    # ?faction=%24%00 answered a 400 for a value the schema allowed (Schemathesis ST202).
    pattern = _parameter(paths[path]["get"], name)["schema"]["pattern"]
    assert re.fullmatch(pattern, "Volnar ドラゴン $1")
    assert not re.fullmatch(pattern, "$\x00")
    assert not re.fullmatch(pattern, "a\x1fb")
    assert (where == "path") == (pattern.endswith("+$"))  # a path segment is never empty
    if where == "query":
        assert client.get(path, {name: "$\x00"}).status_code == 400


@pytest.mark.django_db
def test_a_body_that_must_name_something_is_required(paths, client):
    # An empty validate body answered 400 while the schema said the body could be left out (ST202).
    assert paths["/api/v1/decks/validate/"]["post"]["requestBody"]["required"] is True
    assert paths["/api/v1/decks/"]["post"]["requestBody"]["required"] is True
    assert client.post("/api/v1/decks/validate/", "", content_type="application/json").status_code == 400


@pytest.mark.django_db
def test_the_token_body_says_a_blank_username_or_password_is_refused(schema, client):
    # An empty username answered 400 while the schema allowed it (Schemathesis ST202).
    properties = schema["components"]["schemas"]["AuthToken"]["properties"]
    assert not re.search(properties["username"]["pattern"], "  ")
    assert re.search(properties["username"]["pattern"], "alice")
    assert properties["password"]["minLength"] == 1
    response = client.post("/api/v1/auth/token/", {"username": " ", "password": ""}, content_type="application/json")
    assert response.status_code == 400
