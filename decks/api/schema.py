"""The OpenAPI schema of a pydantic body (decks.api.bodies), as drf-spectacular's own extension
makes it, adapted to the OpenAPI 3.0 document the rest of the API is described in.

drf-spectacular's PydanticExtension takes pydantic's JSON Schema (2020-12) as it is; this one
(a higher priority) also names the component after the model's `title`, reads a request body's
schema in pydantic's validation mode, and writes what OpenAPI 3.0 has no words for in its own:
`anyOf: [X, {type: null}]` becomes X with `nullable: true`, and per-field titles go.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.contrib.pydantic import PydanticExtension
from drf_spectacular.plumbing import ResolvedComponent
from pydantic.json_schema import model_json_schema


class DeckBodyExtension(PydanticExtension):
    target_class = "pydantic.BaseModel"
    match_subclasses = True
    priority = 1  # over drf-spectacular's PydanticExtension (priority 0)

    def get_name(self, auto_schema: Any, direction: str) -> str:
        super().get_name(auto_schema, direction)  # turns off the collision warning, as the parent does
        return self.target.model_config.get("title") or self.target.__name__

    def map_serializer(self, auto_schema: Any, direction: str) -> dict[str, Any]:
        mode = "validation" if direction == "request" else "serialization"
        schema = model_json_schema(self.target, ref_template="#/components/schemas/{model}", mode=mode)
        for name, sub_schema in schema.pop("$defs", {}).items():
            component = ResolvedComponent(
                name=name, type=ResolvedComponent.SCHEMA, object=name, schema=openapi_30(sub_schema)
            )
            auto_schema.registry.register_on_missing(component)
        return openapi_30(schema)


# Keys whose value is data or a map of names, not a schema: kept as they are, or their names kept.
_DATA = {"default", "enum", "const", "examples", "example"}
_NAMED = {"properties", "$defs", "patternProperties"}


def openapi_30(schema: Any) -> Any:
    """A JSON Schema (2020-12) as OpenAPI 3.0 writes it: `nullable` for null, no `title`s."""
    if isinstance(schema, list):
        return [openapi_30(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "title":
            continue
        if key in _NAMED:
            out[key] = {name: openapi_30(sub) for name, sub in value.items()}
        else:
            out[key] = value if key in _DATA else openapi_30(value)
    options = out.get("anyOf")
    if options and {"type": "null"} in options:
        others = [option for option in options if option != {"type": "null"}]
        del out["anyOf"]
        if len(others) > 1:
            out["anyOf"] = others
        elif "$ref" in others[0]:
            out["allOf"] = others  # a $ref takes no sibling keywords in OpenAPI 3.0
        else:
            out = {**others[0], **out}
        out["nullable"] = True
    return out
