"""Read-only catalog and rules API: rulers, geases, cards.

Every answer is worked out once per catalog version in each process (cards.catalog) and carries
an ETag made of that version, the date the rules are read on and the URL, with Cache-Control
asking clients and proxies to revalidate: a client that sends the ETag back (If-None-Match) gets
a 304 with no body until an import or a rules load changes the catalog.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from hashlib import blake2b
from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.http import parse_etags
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_serializer
from rest_framework import generics, serializers
from rest_framework.exceptions import NotFound
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from gatesite.clock import site_today

from .catalog import catalog_answer_remembered, catalog_remembered, catalog_token
from .filters import CardFilter
from .models import Card, Erratum, Geas, GeasRevision, Ruler, RulerRevision
from .selectors import card_get_by_collector_number, card_queryset


def _catalog_etag(request: Request, on: date) -> str:
    """The answer's version: the catalog's, the rules date (today's by default), the URL asked and
    the format answered (JSON, or the browsable API's HTML: the same URL, two representations)."""
    asked = f"{request.accepted_renderer.format} {request.get_full_path()}".encode()
    return f'"{catalog_token()}-{on.isoformat()}-{blake2b(asked, digest_size=8).hexdigest()}"'


def _catalog_answer(request: Request, *, on: date, body: Callable[[], Any]) -> HttpResponse:
    """A 304 when the client has this version already; else the body, remembered with the catalog.

    JSON (every client but the browsable API) is remembered rendered, so an answer costs no
    query and no serialization until the catalog changes.
    """
    etag = _catalog_etag(request, on)
    # From META, not request.headers: that builds a mapping of every header first (~a tenth of the
    # difference between a remembered answer and ping's).
    if etag in parse_etags(request.META.get("HTTP_IF_NONE_MATCH", "")):
        response = HttpResponse(status=304)
    elif request.accepted_renderer.format == "json":
        key = ("api", request.build_absolute_uri(), on)
        rendered = catalog_answer_remembered(key, lambda: JSONRenderer().render(body()))
        response = HttpResponse(rendered, content_type="application/json")
    else:
        response = Response(body())
    response["ETag"] = etag
    # Public (nothing in it depends on who asks), but asked again each time: revalidated with the ETag.
    # Written as patch_cache_control(public=True, no_cache=True) and patch_vary_headers(["Accept"])
    # write them on a response that has neither header yet, without parsing what is not there.
    response["Cache-Control"] = "public, no-cache"
    response["Vary"] = "Accept"
    return response


def _as_of(request: Request) -> date:
    raw = request.query_params.get("as_of")
    if not raw:
        return site_today()
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
    def get(self, request: Request) -> HttpResponse:
        on = _as_of(request)
        return _catalog_answer(request, on=on, body=lambda: _rulers_body(on))


class RulerDetailApi(APIView):
    @extend_schema(
        operation_id="rulers_retrieve",
        parameters=[_AS_OF],
        responses={200: RulerOutputSerializer},
    )
    def get(self, request: Request, slug: str) -> HttpResponse:
        on = _as_of(request)
        if not catalog_remembered(("ruler-exists", slug), lambda: Ruler.objects.filter(slug=slug).exists()):
            raise NotFound(gettext("No ruler '%(slug)s'.") % {"slug": slug})
        return _catalog_answer(request, on=on, body=lambda: _ruler_detail_body(slug, on))


def _rulers_body(on: date) -> list[dict[str, Any]]:
    rulers = Ruler.objects.prefetch_related("revisions", "geases")
    return [_ruler_body(r, _revision_on(list(r.revisions.all()), on)) for r in rulers]


def _ruler_detail_body(slug: str, on: date) -> dict[str, Any]:
    ruler = get_object_or_404(Ruler.objects.prefetch_related("revisions", "geases"), slug=slug)
    return _ruler_body(ruler, _revision_on(list(ruler.revisions.all()), on))


class GeasListApi(APIView):
    """Every geas: its target ruler and the modifications and additions in force on `as_of`."""

    @extend_schema(
        operation_id="geases_list",
        parameters=[_AS_OF],
        responses={200: GeasOutputSerializer(many=True)},
    )
    def get(self, request: Request) -> HttpResponse:
        on = _as_of(request)
        return _catalog_answer(request, on=on, body=lambda: _geases_body(on))


def _geases_body(on: date) -> list[dict[str, Any]]:
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
    return body


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

    def list(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:
        # The page is the same until the catalog changes, whatever the date (cards have no rules date).
        return _catalog_answer(request, on=date.min, body=lambda: super(CardListApi, self).list(request).data)


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
    def get(self, request: Request, number: str) -> HttpResponse:
        card = card_get_by_collector_number(number=number)
        if card is None:
            raise NotFound(gettext("No card has the collector number '%(number)s'.") % {"number": number})
        return _catalog_answer(request, on=date.min, body=lambda: self.OutputSerializer(card).data)
