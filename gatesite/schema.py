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
"""

from __future__ import annotations

from typing import Any

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
