from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .parsers import FormParser, JSONParser
from .throttling import TokenThrottle


class PingApi(APIView):
    """The cheapest DRF endpoint: the baseline the benchmarks compare real endpoints with."""

    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(operation_id="ping_post", request=None, responses={200: OpenApiTypes.OBJECT})
    def post(self, request: Request) -> Response:
        return Response({"ok": True})

    @extend_schema(operation_id="ping_get", responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        return Response({"ok": True})


class TokenApi(ObtainAuthToken):
    """POST a username and password, get the API token of that account (the same one every time)."""

    throttle_classes = [TokenThrottle]
    throttle_scope = "token"
    parser_classes = [JSONParser, FormParser]
