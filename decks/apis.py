"""POST /api/v1/decks/validate/: judge a deck list against the rules in force on a date."""

from __future__ import annotations

import json
import re
from datetime import date
from typing import Any

from django.http.request import RawPostDataException
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from decks.rules.types import Report
from decks.selectors import DeckListLine, deck_judge


@extend_schema_field(OpenApiTypes.INT)
class CountField(serializers.Field):
    """A JSON integer of at least 1; DRF's IntegerField would also take "4" and 4.0."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int) or data < 1:
            raise serializers.ValidationError(f"Count must be a positive integer, got {data!r}.")
        return data

    def to_representation(self, value: int) -> int:
        return value


class DeckLineSerializer(serializers.Serializer):
    number = serializers.CharField(required=False, allow_blank=False)
    name = serializers.CharField(required=False, allow_blank=False)
    count = CountField()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("number" in attrs) == ("name" in attrs):
            raise serializers.ValidationError("Give exactly one of 'number' or 'name'.")
        return attrs


class DeckValidateApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []  # anonymous clients need no CSRF token

    class InputSerializer(serializers.Serializer):
        ruler = serializers.SlugField()
        geas = serializers.SlugField(required=False, allow_null=True, default=None)
        as_of = serializers.DateField(required=False, allow_null=True, default=None)
        attribute = serializers.CharField(required=False, allow_null=True, allow_blank=True, default=None)
        main = DeckLineSerializer(many=True)
        resources = DeckLineSerializer(many=True, required=False, default=list)

    class ViolationSerializer(serializers.Serializer):
        rule = serializers.CharField()
        message = serializers.CharField()
        cards = serializers.ListField(child=serializers.CharField())
        source = serializers.CharField()

    class SummarySerializer(serializers.Serializer):
        size = serializers.IntegerField()
        level = serializers.IntegerField()
        cnt = serializers.IntegerField()
        legends = serializers.IntegerField()
        factions = serializers.ListField(child=serializers.CharField())
        resources = serializers.IntegerField()

    @extend_schema_serializer(component_name="DeckValidation")
    class OutputSerializer(serializers.Serializer):
        legal = serializers.BooleanField()
        ruler = serializers.CharField()
        geas = serializers.CharField(allow_null=True)
        as_of = serializers.DateField()
        rules_effective_from = serializers.DateField()
        violations = serializers.ListField(child=serializers.DictField())
        summary = serializers.DictField()

    @extend_schema(request=InputSerializer, responses={200: OutputSerializer})
    def post(self, request: Request) -> Response:
        body = _json_object(request)
        data = validate_input_parse(body) if body is not None else None
        if data is None and not isinstance(request.data, dict):
            return Response({"error": "The body must be a JSON object."}, status=400)
        if data is None:
            # Not plainly well-formed: InputSerializer decides, and words any error (naming the item).
            serializer = self.InputSerializer(data=request.data)
            if not serializer.is_valid():
                return Response(
                    {"error": _first_error(serializer.errors), "errors": serializer.errors},
                    status=400,
                )
            data = serializer.validated_data
        judgement = deck_judge(
            ruler=data["ruler"],
            geas=data["geas"],
            on=data["as_of"] or timezone.localdate(),
            attribute=data["attribute"],
            main=[DeckListLine(**line) for line in data["main"]],
            resources=[DeckListLine(**line) for line in data["resources"]],
        )
        return Response(report_body(judgement.report, judgement))


# The fast path of the validate body. The nested InputSerializer took a fifth of the request's
# CPU (1.3 ms for 16 lines, docs/benchmarks.md), so a body whose every value already has exactly
# the shape InputSerializer accepts unchanged (a slug, an ISO date, a clean string, JSON integers
# of at least 1) is read here, giving the same validated data; anything else, valid or not, goes
# to InputSerializer, so its acceptance and its error messages stay the only ones.
_SLUG = re.compile(r"[-a-zA-Z0-9_]+")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_ABSENT = object()


def _reject_constant(name: str) -> Any:
    raise ValueError(name)  # NaN and Infinity: DRF's strict JSON parser refuses them too


def _json_object(request: Request) -> dict[str, Any] | None:
    """The body as a JSON object when it plainly is one (UTF-8 JSON), read without DRF's parser
    machinery; None to let request.data (and its error messages) decide."""
    if request.content_type != "application/json":
        return None
    try:
        raw = request.body
    except RawPostDataException:  # the stream was read already: request.data has it
        return None
    if not raw.startswith(b"{"):
        return None
    try:
        body = json.loads(raw, parse_constant=_reject_constant)
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


def validate_input_parse(body: dict[str, Any]) -> dict[str, Any] | None:
    """DeckValidateApi.InputSerializer's validated data for a plainly well-formed body; None to ask the serializer."""
    ruler = body.get("ruler")
    geas = body.get("geas")
    attribute = body.get("attribute")
    if not _is_slug(ruler) or not (geas is None or _is_slug(geas)):
        return None
    if not (attribute is None or _is_clean_text(attribute, blank=True)):
        return None
    as_of = body.get("as_of")
    if as_of is not None:
        if not isinstance(as_of, str) or not _ISO_DATE.fullmatch(as_of):
            return None
        try:
            as_of = date.fromisoformat(as_of)
        except ValueError:
            return None
    main = _lines_parse(body.get("main", _ABSENT))
    resources = _lines_parse(body.get("resources", []))
    if main is None or resources is None:
        return None
    return {"ruler": ruler, "geas": geas, "as_of": as_of, "attribute": attribute, "main": main, "resources": resources}


def _lines_parse(items: Any) -> list[dict[str, Any]] | None:
    if not isinstance(items, list):
        return None
    lines = []
    for item in items:
        if not isinstance(item, dict):
            return None
        count = item.get("count")
        if type(count) is not int or count < 1:
            return None
        number, name = item.get("number", _ABSENT), item.get("name", _ABSENT)
        if number is not _ABSENT and name is _ABSENT and _is_clean_text(number):
            lines.append({"number": number, "count": count})
        elif name is not _ABSENT and number is _ABSENT and _is_clean_text(name):
            lines.append({"name": name, "count": count})
        else:
            return None
    return lines


def _is_slug(value: Any) -> bool:
    return isinstance(value, str) and _SLUG.fullmatch(value) is not None


def _is_clean_text(value: Any, *, blank: bool = False) -> bool:
    """A string a DRF CharField keeps as it is: no surrounding space (it trims), no NUL or lone surrogate (it refuses)."""
    if not isinstance(value, str) or (not value and not blank) or value != value.strip() or "\x00" in value:
        return False
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
    return True


def report_body(report: Report, judgement: Any) -> dict[str, Any]:
    s = report.summary
    return {
        "legal": report.legal,
        "ruler": judgement.choice.ruler.slug,
        "geas": judgement.choice.geas.slug if judgement.choice.geas else None,
        "as_of": judgement.choice.on.isoformat(),
        "rules_effective_from": judgement.choice.ruler_revision.effective_from.isoformat(),
        "violations": [
            {
                "rule": v.rule,
                "message": v.message,
                "cards": list(v.cards),
                "source": v.source,
            }
            for v in report.violations
        ],
        "summary": {
            "size": s.size,
            "level": s.level,
            "cnt": s.cnt,
            "legends": s.legends,
            "factions": list(s.factions),
            "resources": s.resources,
        },
    }


def _first_error(errors: Any, path: str = "") -> str:
    """The first validation error as one sentence naming its field, e.g. "main[2].count: …"."""
    if isinstance(errors, dict):
        for key, value in errors.items():
            if key == "non_field_errors":
                where = path
            elif isinstance(key, int):  # DRF reports a bad list item as {index: errors}
                where = f"{path}[{key}]"
            else:
                where = f"{path}.{key}".lstrip(".")
            if found := _first_error(value, where):
                return found
    elif isinstance(errors, list):
        for i, value in enumerate(errors):
            if isinstance(value, dict | list):
                if found := _first_error(value, f"{path}[{i}]"):
                    return found
            elif value:
                return f"{path}: {value}" if path else str(value)
    return ""
