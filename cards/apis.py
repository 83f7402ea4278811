"""Read-only catalog and rules API: rulers, geases, cards."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_serializer
from rest_framework import generics, serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .filters import CardFilter
from .models import Card, Erratum, Geas, GeasRevision, Ruler, RulerRevision
from .selectors import card_get_by_collector_number, card_queryset


def _as_of(request: Request) -> date:
    raw = request.query_params.get("as_of")
    if not raw:
        return timezone.localdate()
    try:
        return date.fromisoformat(raw)
    except ValueError as exc:
        raise serializers.ValidationError({"as_of": f"'{raw}' is not a YYYY-MM-DD date."}) from exc


class RulerRevisionSerializer(serializers.ModelSerializer):
    class Meta:
        model = RulerRevision
        fields = ["effective_from", "document", "source"]


@extend_schema_serializer(component_name="Ruler")
class RulerOutputSerializer(serializers.Serializer):
    """The schema of a ruler's body (_ruler_body builds it); rules fields are null with no rules in force."""

    slug = serializers.SlugField()
    code = serializers.CharField(allow_null=True)
    name = serializers.CharField()
    name_ja = serializers.CharField(allow_null=True)
    rules_effective_from = serializers.DateField(allow_null=True)
    rules_document = serializers.CharField(allow_null=True)
    life = serializers.IntegerField(allow_null=True)
    atk = serializers.IntegerField(allow_null=True)
    stk = serializers.IntegerField(allow_null=True)
    zones = serializers.JSONField(allow_null=True)
    setup = serializers.JSONField(allow_null=True)
    start_of_turn = serializers.JSONField(allow_null=True)
    abilities = serializers.JSONField(allow_null=True)
    deck_construction = serializers.JSONField(allow_null=True)
    geases = serializers.ListField(child=serializers.SlugField())
    revisions = RulerRevisionSerializer(many=True)


@extend_schema_serializer(component_name="Geas")
class GeasOutputSerializer(serializers.Serializer):
    """The schema of a geas's body; its changes are null when it is not in force on the date."""

    slug = serializers.SlugField()
    name = serializers.CharField()
    ruler = serializers.SlugField()
    rules_effective_from = serializers.DateField(allow_null=True)
    modifications = serializers.JSONField(allow_null=True)
    additions = serializers.JSONField(allow_null=True)


def _ruler_body(ruler: Ruler, revision: RulerRevision | None) -> dict[str, Any]:
    data = revision.data if revision else {}
    return {
        "slug": ruler.slug,
        "code": ruler.code or None,
        "name": ruler.name,
        "name_ja": ruler.name_ja or None,
        "rules_effective_from": revision.effective_from if revision else None,
        "rules_document": revision.document if revision else None,
        "life": data.get("life"),
        "atk": data.get("atk"),
        "stk": data.get("stk"),
        "zones": data.get("zones"),
        "setup": data.get("setup"),
        "start_of_turn": data.get("start_of_turn"),
        "abilities": data.get("abilities"),
        "deck_construction": data.get("deck_construction"),
        "geases": [g.slug for g in ruler.geases.all()],
        "revisions": RulerRevisionSerializer(ruler.revisions.all(), many=True).data,
    }


def _revision_on(revisions: list[Any], on: date) -> Any:
    eligible = [r for r in revisions if r.effective_from <= on]
    return max(eligible, key=lambda r: r.effective_from) if eligible else None


_AS_OF = OpenApiParameter("as_of", OpenApiTypes.DATE, description="Rules date YYYY-MM-DD (default: today).")


class RulerListApi(APIView):
    """Every ruler with the rules in force on `as_of` (rulers with none in force show nulls)."""

    @extend_schema(
        operation_id="rulers_list",
        parameters=[_AS_OF],
        responses={200: RulerOutputSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        on = _as_of(request)
        rulers = Ruler.objects.prefetch_related("revisions", "geases")
        return Response([_ruler_body(r, _revision_on(list(r.revisions.all()), on)) for r in rulers])


class RulerDetailApi(APIView):
    @extend_schema(
        operation_id="rulers_retrieve",
        parameters=[_AS_OF],
        responses={200: RulerOutputSerializer},
    )
    def get(self, request: Request, slug: str) -> Response:
        ruler = get_object_or_404(Ruler.objects.prefetch_related("revisions", "geases"), slug=slug)
        return Response(_ruler_body(ruler, _revision_on(list(ruler.revisions.all()), _as_of(request))))


class GeasListApi(APIView):
    """Every geas: its target ruler and the modifications and additions in force on `as_of`."""

    @extend_schema(
        operation_id="geases_list",
        parameters=[_AS_OF],
        responses={200: GeasOutputSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        on = _as_of(request)
        body = []
        for geas in Geas.objects.select_related("ruler").prefetch_related("revisions"):
            revision: GeasRevision | None = _revision_on(list(geas.revisions.all()), on)
            body.append(
                {
                    "slug": geas.slug,
                    "name": geas.name,
                    "ruler": geas.ruler.slug,
                    "rules_effective_from": revision.effective_from if revision else None,
                    "modifications": revision.data["modifications"] if revision else None,
                    "additions": revision.data["additions"] if revision else None,
                }
            )
        return Response(body)


class CardOutputSerializer(serializers.ModelSerializer):
    faction = serializers.CharField(source="faction.name", default=None, allow_null=True)
    attributes = serializers.SerializerMethodField()
    printings = serializers.SerializerMethodField()

    class Meta:
        model = Card
        fields = [
            "name",
            "game",
            "name_ja",
            "type",
            "fields",
            "faction",
            "attributes",
            "level",
            "atk",
            "hp",
            "stk",
            "cnt",
            "legend",
            "text",
            "printings",
        ]

    def get_attributes(self, card: Card) -> list[str]:
        return [a.name for a in card.attributes.all()]

    def get_printings(self, card: Card) -> list[dict[str, str]]:
        return [
            {
                "collector_number": p.collector_number,
                "set": p.card_set.code,
                "rarity": p.rarity,
            }
            for p in card.printings.all()
        ]


class CardListApi(generics.ListAPIView):
    serializer_class = CardOutputSerializer
    filterset_class = CardFilter
    queryset = card_queryset()


class ErratumOutputSerializer(serializers.ModelSerializer):
    recorded_at = serializers.DateTimeField(source="created_at")

    class Meta:
        model = Erratum
        fields = ["field", "old_value", "new_value", "effective_date", "recorded_at"]


class CardDetailApi(APIView):
    """One card by any of its collector numbers: rules fields, printings and errata history (newest first)."""

    @extend_schema_serializer(component_name="CardDetail")
    class OutputSerializer(CardOutputSerializer):
        errata = ErratumOutputSerializer(many=True, read_only=True)

        class Meta(CardOutputSerializer.Meta):
            fields = [*CardOutputSerializer.Meta.fields, "errata"]

    @extend_schema(operation_id="cards_retrieve", responses={200: OutputSerializer})
    def get(self, request: Request, number: str) -> Response:
        card = card_get_by_collector_number(number=number)
        if card is None:
            raise NotFound(f"No card has the collector number '{number}'.")
        return Response(self.OutputSerializer(card).data)
