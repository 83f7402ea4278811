"""The OpenAPI schema documents every status the API can answer (a drf-spectacular postprocessing hook).

Each operation declares its own answers (its success, its 400 body, 403, 409 …); the errors any
DRF view can give are added here once, where the operation can meet them, with the bodies
gatesite.errors writes:

- 400 with a body or query parameters (malformed JSON, a bad filter or date);
- 401 where a token is accepted (a wrong `Authorization: Token …` header is refused, even on
  endpoints anonymous clients may use);
- 404 with path parameters or pages (`?page=0`, a page past the last);
- 406 for an `Accept` header no renderer serves; 429 past a throttle's rate;
- 413 (a body over DATA_UPLOAD_MAX_MEMORY_SIZE) and 415 (a media type not read) with a body.

An optional query parameter that is not a plain string (a number, a boolean, a date) may also be
sent empty (`?legal=&page_size=&as_of=`,
as an HTML form sends "any"): it then means the parameter's default (`allowEmptyValue`).

A plain string parameter (a search term, a name, a collector number) says it has no control
character (a `pattern`): gatesite.control_characters answers such a query parameter with a 400
naming it and such a path with a 404. A body is `required` when its schema allows no empty object
(every one of its models requires a field), as the API answers an empty body with a 400.
"""

from __future__ import annotations

from typing import Any

from gatesite.control_characters import NO_CONTROL_CHARACTER_PATTERN

ERROR_COMPONENT = "Error"
_ERROR_SCHEMA = {
    "type": "object",
    "description": (
        "An error: `error` (a sentence, and `field` or `errors` for a body's fields), `detail` (DRF's "
        "answer for authentication, permission, not found and throttling), or a query parameter's "
        "name with its messages."
    ),
    "properties": {
        "error": {"type": "string"},
        "field": {"type": "string"},
        "errors": {"type": "object", "additionalProperties": {}},
        "detail": {"type": "string"},
    },
    "additionalProperties": {},
}
_WORDS = {
    "400": "The request is malformed (its JSON, a parameter or a field).",
    "401": "The credentials given are not valid.",
    "404": "Not found (or no such page).",
    "406": "No answer in the media type the Accept header asks for.",
    "413": "The request body is too large.",
    "415": "The request body's media type is not one this operation reads.",
    "429": "Too many requests: try again later.",
}
_METHODS = {"get", "put", "post", "patch", "delete", "head", "options", "trace"}


def document_errors(result: dict[str, Any], generator: Any, **kwargs: Any) -> dict[str, Any]:
    """Add the errors every operation can meet that it does not document itself (see the module)."""
    result.setdefault("components", {}).setdefault("schemas", {})[ERROR_COMPONENT] = _ERROR_SCHEMA
    for item in result.get("paths", {}).values():
        for method, operation in item.items():
            if method in _METHODS:
                _allow_empty_values(operation)
                _refuse_control_characters(operation)
                _require_bodies(operation, result["components"]["schemas"])
                responses = operation.setdefault("responses", {})
                for status in _statuses(operation):
                    responses.setdefault(status, _response(status))
    return result


def _allow_empty_values(operation: dict[str, Any]) -> None:
    for parameter in operation.get("parameters", []):
        optional = parameter.get("in") == "query" and not parameter.get("required")
        schema = parameter.get("schema", {})
        # A string of a format (`as_of`, a date) is no plain string: empty, it too means the default.
        # A choice (`sort`, `type`) is not: empty is none of its choices, a 400 (gatesite.filters).
        if optional and (schema.get("type") not in (None, "string") or "format" in schema):
            parameter["allowEmptyValue"] = True


def _refuse_control_characters(operation: dict[str, Any]) -> None:
    for parameter in operation.get("parameters", []):
        schema = parameter.get("schema", {})
        # A choice, a date or a slug has its own shape, which has no control character either.
        if schema.get("type") == "string" and not {"enum", "format", "pattern"} & schema.keys():
            # A path segment is never empty.
            pattern = NO_CONTROL_CHARACTER_PATTERN
            schema["pattern"] = pattern.replace("]*$", "]+$") if parameter.get("in") == "path" else pattern


def _require_bodies(operation: dict[str, Any], components: dict[str, Any]) -> None:
    body = operation.get("requestBody")
    if body is None or body.get("required"):
        return
    schemas = [media.get("schema", {}) for media in body.get("content", {}).values()]
    if schemas and all(_needs_a_field(schema, components) for schema in schemas):
        body["required"] = True


def _needs_a_field(schema: dict[str, Any], components: dict[str, Any]) -> bool:
    """Whether no empty object is valid by `schema`: it requires a field, or each of its alternatives does."""
    if "$ref" in schema:
        return _needs_a_field(components.get(schema["$ref"].rsplit("/", 1)[-1], {}), components)
    alternatives = schema.get("anyOf") or schema.get("oneOf")
    if alternatives:
        return all(_needs_a_field(alternative, components) for alternative in alternatives)
    return bool(schema.get("required"))


def _statuses(operation: dict[str, Any]) -> list[str]:
    places = {parameter.get("in") for parameter in operation.get("parameters", [])}
    names = {parameter.get("name") for parameter in operation.get("parameters", [])}
    body = "requestBody" in operation
    token = any("tokenAuth" in requirement for requirement in operation.get("security", []))
    statuses = ["406", "429"]
    if body or "query" in places:
        statuses.append("400")
    if token:
        statuses.append("401")
    if "path" in places or "page" in names:
        statuses.append("404")
    if body:
        statuses += ["413", "415"]
    return sorted(statuses)


def _response(status: str) -> dict[str, Any]:
    return {
        "description": _WORDS[status],
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"}}},
    }
