"""The deck API: POST /api/v1/decks/validate/ judges a deck list against the rules in force on a
date; /api/v1/decks/ and /api/v1/decks/<public_id>/ list, create, read, change and delete saved decks."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, replace
from datetime import date
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http.request import RawPostDataException
from django.utils import timezone
from django.utils.functional import cached_property
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field, extend_schema_serializer
from rest_framework import generics, serializers
from rest_framework.exceptions import NotAuthenticated, NotFound, PermissionDenied
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import JSONParser
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from decks.drafts import DeckListLine, deck_draft_of, deck_judge, draft_section_of_lines
from decks.library.filters import DeckFilter
from decks.models import MAX_LINE_COUNT, MAX_LINES, Deck, DeckDraft, Section, Visibility
from decks.rules.types import Report
from decks.selectors import (
    deck_api_queryset,
    deck_card_lines,
    deck_is_owned_by,
    deck_list_owned,
    deck_list_public,
)
from decks.services import StaleDeck, deck_delete, deck_save


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


# ---------------------------------------------------------------- /api/v1/decks/: saved decks

# PositiveIntegerField's ceiling in PostgreSQL: a larger `version` is refused, not sent to the database.
MAX_VERSION = 2**31 - 1


_DATETIME = serializers.DateTimeField()


def _date(value: date | None) -> str | None:
    return value.isoformat() if value is not None else None


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": MAX_LINE_COUNT})
class DeckCountField(CountField):
    """Copies of one printing in a saved deck: 1..MAX_LINE_COUNT, a JSON integer."""

    def to_internal_value(self, data: Any) -> int:
        count = super().to_internal_value(data)
        if count > MAX_LINE_COUNT:
            raise serializers.ValidationError(f"A deck keeps at most {MAX_LINE_COUNT} copies of one printing.")
        return count


class DeckCardLineInputSerializer(serializers.Serializer):
    number = serializers.CharField(required=False, allow_blank=False, max_length=40)
    name = serializers.CharField(required=False, allow_blank=False, max_length=200)
    count = DeckCountField()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("number" in attrs) == ("name" in attrs):
            raise serializers.ValidationError("Give exactly one of 'number' or 'name'.")
        return attrs


class DeckCardLineOutputSerializer(serializers.Serializer):
    number = serializers.CharField(help_text="Collector number of the printing.")
    name = serializers.CharField()
    count = serializers.IntegerField()


class DeckInputSerializer(serializers.Serializer):
    """A deck as a client writes it: the validate API's body plus name, description and visibility."""

    name = serializers.CharField(required=False, allow_blank=True, max_length=100, default="")
    description = serializers.CharField(required=False, allow_blank=True, max_length=5000, default="")
    visibility = serializers.ChoiceField(choices=Visibility.choices, required=False, default=Visibility.PRIVATE)
    ruler = serializers.SlugField(max_length=100, help_text="Ruler slug (GET /api/v1/rulers/).")
    geas = serializers.SlugField(
        required=False, allow_null=True, default=None, max_length=100, help_text="Geas slug of the ruler, or null."
    )
    attribute = serializers.CharField(
        required=False, allow_blank=True, allow_null=True, max_length=100, default="", help_text="Unit attribute."
    )
    rules_date = serializers.DateField(
        required=False, allow_null=True, default=None, help_text="Judge by the rules of this date (null: today)."
    )
    main = DeckCardLineInputSerializer(many=True, max_length=MAX_LINES)
    resources = DeckCardLineInputSerializer(many=True, required=False, default=list, max_length=MAX_LINES)


class DeckUpdateInputSerializer(DeckInputSerializer):
    version = serializers.IntegerField(
        min_value=1,
        max_value=MAX_VERSION,
        help_text="The version this change is based on (from the last read); a stale one answers 409.",
    )


class DeckPatchInputSerializer(DeckUpdateInputSerializer):
    """PATCH: `version` and any of the other fields; the ones left out stay as they are."""

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        for name, field in fields.items():
            if name != "version":
                field.required = False
                field.default = serializers.empty
        return fields


class DeckVerdictSerializer(serializers.Serializer):
    legal = serializers.BooleanField(allow_null=True, help_text="The verdict at the last save or revalidation.")
    judged_on = serializers.DateField(allow_null=True, help_text="The rules date it was judged by.")
    illegal_since = serializers.DateField(allow_null=True)
    verdict_reason = serializers.CharField(allow_blank=True)


@extend_schema_serializer(component_name="Deck")
class DeckOutputSerializer(serializers.Serializer):
    """A saved deck without its cards (the list's items)."""

    public_id = serializers.CharField()
    url = serializers.SerializerMethodField(help_text="The deck's page.")
    name = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    visibility = serializers.ChoiceField(choices=Visibility.choices)
    owner = serializers.CharField(source="owner.username")
    ruler = serializers.CharField(source="ruler.slug")
    geas = serializers.CharField(source="geas.slug", allow_null=True, default=None)
    attribute = serializers.CharField(allow_null=True, help_text="The unit attribute chosen, or null.")
    rules_date = serializers.DateField(allow_null=True)
    version = serializers.IntegerField()
    verdict = DeckVerdictSerializer(source="*")
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    copies_count = serializers.IntegerField()
    forked_from = serializers.SerializerMethodField(help_text="public_id of the deck this one was copied from.")
    archived = serializers.BooleanField()

    def to_representation(self, deck: Deck) -> dict[str, Any]:
        """The fields above, built directly: a page of 50 decks through DRF's per-field machinery
        took a third of a list request (tests/decks/apis checks the keys match the declared fields)."""
        return {
            "public_id": deck.public_id,
            "url": self.get_url(deck),
            "name": deck.name,
            "description": deck.description,
            "visibility": deck.visibility,
            "owner": deck.owner.username,
            "ruler": deck.ruler.slug,
            "geas": deck.geas.slug if deck.geas is not None else None,
            "attribute": deck.attribute or None,  # null as in the validate API's body, not ""
            "rules_date": _date(deck.rules_date),
            "version": deck.version,
            "verdict": {
                "legal": deck.legal,
                "judged_on": _date(deck.judged_on),
                "illegal_since": _date(deck.illegal_since),
                "verdict_reason": deck.verdict_reason,
            },
            "created_at": _DATETIME.to_representation(deck.created_at),
            "updated_at": _DATETIME.to_representation(deck.updated_at),
            "copies_count": deck.copies_count,
            "forked_from": self.get_forked_from(deck),
            "archived": deck.archived,
        }

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, deck: Deck) -> str:
        path = f"/d/{deck.public_id}/"  # deckpages:page, without a reverse() per deck of a list
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path

    @extend_schema_field({"type": "string", "nullable": True})
    def get_forked_from(self, deck: Deck) -> str | None:
        source = deck.forked_from
        if source is None:
            return None
        # A private source stays unknown to anyone but its owner.
        request = self.context.get("request")
        user = request.user if request is not None else None
        if source.visibility == Visibility.PRIVATE and not (user and deck_is_owned_by(deck=source, user=user)):
            return None
        return source.public_id


@extend_schema_serializer(component_name="DeckDetail")
class DeckDetailOutputSerializer(DeckOutputSerializer):
    """A saved deck with its main deck and resources."""

    main = serializers.SerializerMethodField()
    resources = serializers.SerializerMethodField()

    def to_representation(self, deck: Deck) -> dict[str, Any]:
        return {**super().to_representation(deck), "main": self.get_main(deck), "resources": self.get_resources(deck)}

    @extend_schema_field(DeckCardLineOutputSerializer(many=True))
    def get_main(self, deck: Deck) -> list[dict[str, Any]]:
        return self._lines(deck, Section.MAIN)

    @extend_schema_field(DeckCardLineOutputSerializer(many=True))
    def get_resources(self, deck: Deck) -> list[dict[str, Any]]:
        return self._lines(deck, Section.RESOURCES)

    def _lines(self, deck: Deck, section: str) -> list[dict[str, Any]]:
        lines = self.context.get("lines")
        if lines is None:
            lines = self.context["lines"] = deck_card_lines(deck=deck)
        return [asdict(line) for line in lines[section]]


@extend_schema_serializer(component_name="ApiError")
class ErrorSerializer(serializers.Serializer):
    """A request refused: `error` says why in one sentence naming the field, card or line."""

    error = serializers.CharField()
    field = serializers.CharField(required=False, help_text="The field (e.g. main[3]) at fault, when one is.")
    errors = serializers.DictField(required=False, help_text="Every validation error, by field.")


@extend_schema_serializer(component_name="StaleDeckError")
class StaleErrorSerializer(serializers.Serializer):
    error = serializers.CharField()
    version = serializers.IntegerField(help_text="The deck's current version: read the deck again and re-apply.")


@extend_schema_serializer(component_name="ApiDetail")
class DetailSerializer(serializers.Serializer):
    """DRF's answer for authentication, permission, not found and throttling."""

    detail = serializers.CharField()


_READ_ERRORS = {404: DetailSerializer}
_WRITE_ERRORS = {400: ErrorSerializer, 401: DetailSerializer, 403: DetailSerializer, 404: DetailSerializer}
_PUBLIC = OpenApiParameter(
    "public",
    OpenApiTypes.BOOL,
    description="List public decks (default for anonymous clients; signed-in clients list their own decks).",
)


_PUBLIC_ID = OpenApiParameter(
    "public_id",
    str,
    OpenApiParameter.PATH,
    pattern=r"^[-a-zA-Z0-9_]+$",
    description="The deck's public id (as in its link /d/<public_id>/).",
)


class CachedCountPaginator(Paginator):
    """A paginator whose total is kept in the cache for DECK_LIST_COUNT_CACHE_SECONDS, per query.

    Counting 60 000 public decks is most of a list request's time (a sequential scan); a public
    list's total may lag a minute behind, a player's own list (small, exact) is not cached.
    """

    @cached_property
    def count(self) -> int:
        seconds = settings.DECK_LIST_COUNT_CACHE_SECONDS
        if not seconds:
            return super().count
        sql, params = self.object_list.query.sql_with_params()
        key = "deck-list-count:" + hashlib.sha256(f"{sql}|{params!r}".encode()).hexdigest()
        count = cache.get(key)
        if count is None:
            count = super().count
            cache.set(key, count, seconds)
        return count

    def page(self, number: Any) -> Any:
        # Django cuts the last page at `count`; with a total a minute old, cut at the page size only.
        number = self.validate_number(number)
        bottom = (number - 1) * self.per_page
        return self._get_page(self.object_list[bottom : bottom + self.per_page], number, self)


class DeckPagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 100

    def paginate_queryset(self, queryset: QuerySet[Deck], request: Request, view: Any = None) -> list[Deck] | None:
        public = getattr(view, "public_listing", False)
        self.django_paginator_class = CachedCountPaginator if public else Paginator
        return super().paginate_queryset(queryset, request, view)


def _validation_error(serializer: serializers.Serializer) -> Response:
    return Response({"error": _first_error(serializer.errors), "errors": serializer.errors}, status=400)


def _draft_from(data: dict[str, Any], base: DeckDraft | None = None) -> DeckDraft:
    """The draft a validated body describes; for a PATCH, the fields it leaves out stay as in `base`."""
    base = base or DeckDraft(ruler=data["ruler"])
    changes: dict[str, Any] = {}
    for key in ("name", "description", "ruler", "geas", "rules_date"):
        if key in data:
            changes[key] = data[key]
    if "attribute" in data:
        changes["attribute"] = data["attribute"] or ""
    if "ruler" in data and data["ruler"] != base.ruler and "geas" not in data:
        changes["geas"] = None  # a geas belongs to one ruler: a new ruler starts without one
    for section in ("main", "resources"):
        if section in data:
            lines = [DeckListLine(**line) for line in data[section]]
            changes[section] = draft_section_of_lines(section=section, lines=lines, bounded=True)
    return replace(base, **changes)


class DeckListApi(generics.ListAPIView):
    """Saved decks: your own (signed in), or public decks (anonymous, or ?public=true); create one."""

    serializer_class = DeckOutputSerializer
    filterset_class = DeckFilter
    pagination_class = DeckPagination
    parser_classes = [JSONParser]

    def get_queryset(self) -> QuerySet[Deck]:
        user = self.request.user
        self.public_listing = not (
            user.is_authenticated and self.request.query_params.get("public", "").lower() not in ("true", "1")
        )
        return deck_list_public() if self.public_listing else deck_list_owned(user=user)

    @extend_schema(operation_id="decks_list", parameters=[_PUBLIC])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        operation_id="decks_create",
        request=DeckInputSerializer,
        responses={201: DeckDetailOutputSerializer, 400: ErrorSerializer, 401: DetailSerializer},
    )
    def post(self, request: Request) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated("Sign in (session or token) to save decks.")
        serializer = DeckInputSerializer(data=request.data)
        if not serializer.is_valid():
            return _validation_error(serializer)
        data = serializer.validated_data
        deck = deck_save(owner=request.user, draft=_draft_from(data), visibility=data["visibility"])
        deck = deck_api_queryset().get(pk=deck.pk)
        body = DeckDetailOutputSerializer(deck, context={"request": request}).data
        return Response(body, status=201, headers={"Location": body["url"]})


@extend_schema(parameters=[_PUBLIC_ID])
class DeckDetailApi(APIView):
    """One saved deck by its public id: anyone may read an unlisted or public deck; only its owner
    reads a private one (404 for others) and changes or deletes a deck (403 for others)."""

    parser_classes = [JSONParser]

    def _deck(self, request: Request, public_id: str, *, write: bool = False) -> Deck:
        deck = deck_api_queryset().filter(public_id=public_id).first()
        readable = deck is not None and (
            deck.visibility != Visibility.PRIVATE or deck_is_owned_by(deck=deck, user=request.user)
        )
        if not readable:
            raise NotFound("No such deck.")  # someone else's private deck: its existence is not revealed
        assert deck is not None
        if write and not deck_is_owned_by(deck=deck, user=request.user):
            if not request.user.is_authenticated:
                raise NotAuthenticated("Sign in (session or token) to change your decks.")
            raise PermissionDenied("Only the owner can change this deck.")
        return deck

    def _body(self, request: Request, public_id: str) -> Response:
        deck = self._deck(request, public_id)
        return Response(DeckDetailOutputSerializer(deck, context={"request": request}).data)

    @extend_schema(operation_id="decks_retrieve", responses={200: DeckDetailOutputSerializer, **_READ_ERRORS})
    def get(self, request: Request, public_id: str) -> Response:
        return self._body(request, public_id)

    @extend_schema(
        operation_id="decks_update",
        request=DeckUpdateInputSerializer,
        responses={200: DeckDetailOutputSerializer, 409: StaleErrorSerializer, **_WRITE_ERRORS},
        description="Replace the deck; optional fields left out take their defaults (visibility: private).",
    )
    def put(self, request: Request, public_id: str) -> Response:
        return self._update(request, public_id, partial=False)

    @extend_schema(
        operation_id="decks_partial_update",
        request=DeckPatchInputSerializer,
        responses={200: DeckDetailOutputSerializer, 409: StaleErrorSerializer, **_WRITE_ERRORS},
        description="Change the fields given (`version` is required); the others stay as they are.",
    )
    def patch(self, request: Request, public_id: str) -> Response:
        return self._update(request, public_id, partial=True)

    def _update(self, request: Request, public_id: str, *, partial: bool) -> Response:
        deck = self._deck(request, public_id, write=True)
        serializer = (DeckPatchInputSerializer if partial else DeckUpdateInputSerializer)(data=request.data)
        if not serializer.is_valid():
            return _validation_error(serializer)
        data = serializer.validated_data
        current = deck_draft_of(deck=deck)
        # The considering board is the owner's scratch pad, not part of the API's deck: keep it.
        base = current if partial else DeckDraft(ruler=data["ruler"], considering=current.considering)
        try:
            deck_save(
                owner=request.user,
                deck=deck,
                draft=_draft_from(data, base),
                visibility=data.get("visibility", deck.visibility),
                base_version=data["version"],
            )
        except StaleDeck as exc:
            return Response({"error": exc.message, "version": exc.version}, status=409)
        return self._body(request, public_id)

    @extend_schema(operation_id="decks_destroy", responses={204: None, **_WRITE_ERRORS})
    def delete(self, request: Request, public_id: str) -> Response:
        deck_delete(deck=self._deck(request, public_id, write=True))
        return Response(status=204)
