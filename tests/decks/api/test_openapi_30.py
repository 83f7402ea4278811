"""The bodies' JSON Schema as OpenAPI 3.0 writes it (no database)."""

from __future__ import annotations

from decks.api.bodies import DeckValidateInput
from decks.api.schema import openapi_30


def test_it_writes_null_as_nullable():
    schema = {"anyOf": [{"type": "string", "pattern": "^x$"}, {"type": "null"}], "default": None, "title": "Geas"}

    assert openapi_30(schema) == {"type": "string", "pattern": "^x$", "default": None, "nullable": True}


def test_it_wraps_a_nullable_reference_in_all_of():
    schema = {"anyOf": [{"$ref": "#/components/schemas/DeckVerdict"}, {"type": "null"}]}

    assert openapi_30(schema) == {"allOf": [{"$ref": "#/components/schemas/DeckVerdict"}], "nullable": True}


def test_it_drops_titles_but_keeps_a_property_named_title():
    schema = {"title": "Book", "properties": {"title": {"type": "string", "title": "Title"}}}

    assert openapi_30(schema) == {"properties": {"title": {"type": "string"}}}


def test_the_validate_body_keeps_its_constraints():
    schema = openapi_30(DeckValidateInput.model_json_schema(mode="validation"))

    assert schema["required"] == ["ruler", "main"]
    assert schema["properties"]["geas"]["nullable"] is True
    assert schema["properties"]["ruler"]["pattern"] == "^[-a-zA-Z0-9_]+$"
    # Bounded since issue 14 (decks.limits.MAX_LINE_COUNT), as a saved deck's line is.
    assert schema["$defs"]["DeckLine"]["properties"]["count"] == {"type": "integer", "minimum": 1, "maximum": 99}
