"""GET /api/v1/statistics/: the precomputed statistics (decks.stats.selectors), never a live aggregate."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .selectors import statistics_overview


class ShareSerializer(serializers.Serializer):
    label = serializers.CharField()
    decks = serializers.IntegerField()
    share = serializers.FloatField()
    detail = serializers.CharField()
    href = serializers.CharField()


class MonthSerializer(serializers.Serializer):
    month = serializers.DateField()
    decks = serializers.IntegerField()
    shares = ShareSerializer(many=True)


class GameSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    decks = serializers.IntegerField(help_text="The game's public decks counted.")
    identity_label = serializers.CharField(help_text="What the game's identity cards are called (Kingdom, Hero).")
    identity = ShareSerializer(many=True, help_text="Each identity card's share of the game's public decks.")
    cards = ShareSerializer(many=True, help_text="The most played main-deck cards; detail: average copies per deck.")


class StatisticsApi(APIView):
    permission_classes = [AllowAny]

    class OutputSerializer(serializers.Serializer):
        computed_at = serializers.DateTimeField(allow_null=True)
        changes_since = serializers.IntegerField(help_text="Public deck saves not yet counted (next refresh).")
        ruler = serializers.CharField(allow_null=True, source="scope.slug", default=None)
        decks = serializers.IntegerField()
        avg_size = serializers.FloatField()
        avg_cnt = serializers.FloatField()
        rulers = ShareSerializer(many=True)
        factions = ShareSerializer(many=True)
        faction_pairs = ShareSerializer(many=True)
        top_cards = ShareSerializer(many=True)
        curve = ShareSerializer(many=True, help_text="label: level; detail: average copies per deck.")
        months = MonthSerializer(many=True)
        games = GameSerializer(
            many=True, help_text="Each other game with public decks (the figures above are Gate Ruler's)."
        )

    @extend_schema(
        parameters=[OpenApiParameter("ruler", OpenApiTypes.STR, description="A ruler's slug: figures of its decks.")],
        responses=OutputSerializer,
    )
    def get(self, request: Request) -> Response:
        overview = statistics_overview(ruler_slug=request.query_params.get("ruler") or None)
        return Response(self.OutputSerializer(overview).data)
