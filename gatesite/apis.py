from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_serializer, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .accounts.services import api_token_create, api_tokens_revoke
from .parsers import FormParser, JSONParser
from .throttling import TokenThrottle

_ERROR = inline_serializer("TokenError", {"detail": serializers.CharField()})


# DRF's, with its schema saying what it refuses as blank: Schemathesis found an empty username
# answered 400 while the schema allowed it (issue 24).
@extend_schema_serializer(component_name="AuthToken")
class TokenInputSerializer(AuthTokenSerializer):
    """A username (trimmed, so with a character besides spaces) and a password (not empty)."""

    username = serializers.RegexField(r"\S", write_only=True)
    password = serializers.CharField(
        style={"input_type": "password"}, trim_whitespace=False, write_only=True, min_length=1
    )


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


class TokenApi(APIView):
    """POST a username and password, get a new API token (shown this once; stored hashed) and its expiry."""

    permission_classes = [AllowAny]
    # Credentials come in the body: no session (and so no CSRF check) on the way in.
    authentication_classes: list[Any] = []
    throttle_classes = [TokenThrottle]
    throttle_scope = "token"
    parser_classes = [JSONParser, FormParser]
    renderer_classes = [JSONRenderer]

    class TokenOutputSerializer(serializers.Serializer):
        token = serializers.CharField()
        expiry = serializers.DateTimeField()

    @extend_schema(
        request=TokenInputSerializer,
        responses={
            200: TokenOutputSerializer,
            400: OpenApiResponse(OpenApiTypes.OBJECT, description="Wrong username or password, or a bad body."),
            429: OpenApiResponse(_ERROR, description="Too many tries: throttled, or sign-in locked out."),
        },
    )
    def post(self, request: Request) -> Response:
        # Django's own request, not DRF's wrapper: django-axes marks a locked-out sign-in on the request it
        # is given, and its middleware (which turns that into the 429) only sees Django's.
        serializer = TokenInputSerializer(data=request.data, context={"request": request._request})
        serializer.is_valid(raise_exception=True)
        token, key = api_token_create(user=serializer.validated_data["user"])
        return Response(self.TokenOutputSerializer({"token": key, "expiry": token.expires_at}).data)


class _JsonBooleanField(serializers.BooleanField):
    """true or false only, as the schema says: DRF's BooleanField would also take 0, 1, "yes", "off"."""

    def to_internal_value(self, data: Any) -> bool:
        if data is True or data is False:
            return data
        self.fail("invalid", input=data)
        raise AssertionError("unreachable")  # self.fail raises


class TokenRevokeApi(APIView):
    """Revoke the token this request carries, or every token of its owner (`{"all": true}`, or signed in by session)."""

    permission_classes = [IsAuthenticated]
    # JSON only: a form sends every value as text, and `all=0` is no boolean to the schema.
    parser_classes = [JSONParser]

    class TokenRevokeInputSerializer(serializers.Serializer):
        all = _JsonBooleanField(default=False)

    @extend_schema(
        request=TokenRevokeInputSerializer,
        responses={
            200: inline_serializer("TokenRevoked", {"revoked": serializers.IntegerField()}),
            400: OpenApiResponse(OpenApiTypes.OBJECT, description="A bad body."),
            401: _ERROR,
        },
    )
    def post(self, request: Request) -> Response:
        serializer = self.TokenRevokeInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        one = None if serializer.validated_data["all"] else request.auth
        return Response({"revoked": api_tokens_revoke(user=request.user, token=one)})
