"""POST /api/v1/decks/validate/: judge a deck list against the rules in force on a date."""

from __future__ import annotations

from typing import Any

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
        if not isinstance(request.data, dict):
            return Response({"error": "The body must be a JSON object."}, status=400)
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
