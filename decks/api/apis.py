"""The deck API: POST /api/v1/decks/validate/ judges a deck list against the rules in force on a
date; /api/v1/decks/ and /api/v1/decks/<public_id>/ list, create, read, change and delete saved decks.

Each method reads its body with the body's model (decks.api.bodies, through body_parse), calls
one selector or service, and answers with a body built through its model (decks.api.outputs).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.exceptions import NotAuthenticated, NotFound, PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cards.games import game_get
from decks.api import schema as _schema  # noqa: F401  (registers the schema extension of the bodies)
from decks.api.bodies import (
    GAME_SECTIONS,
    AnyDeckValidateInput,
    AnyDeckValidation,
    ApiDetail,
    ApiError,
    DeckDetailOutput,
    DeckInput,
    DeckOutput,
    DeckPatchInput,
    DeckUpdateInput,
    StaleDeckError,
)
from decks.api.outputs import deck_detail_output, deck_output, validation_output
from decks.api.pagination import DeckPagination
from decks.api.parsing import DeckListBody, body_parse, list_lines, validate_body_parse
from decks.drafts import DeckListLine, DraftJudgement, deck_judge, draft_section_of_lines
from decks.library.filters import DeckFilter
from decks.library.services import deck_trash
from decks.models import Deck, DeckDraft, Visibility
from decks.saved_drafts import deck_draft_of
from decks.selectors import deck_api_queryset, deck_is_owned_by, deck_list_owned, deck_list_public
from decks.services import StaleDeck, deck_save
from decks.wording import game_name
from gatesite.clock import site_today
from gatesite.errors import ApplicationError
from gatesite.parsers import JSONParser


class DeckValidateApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []  # anonymous clients need no CSRF token
    parser_classes = [JSONParser]

    @extend_schema(request=AnyDeckValidateInput, responses={200: AnyDeckValidation, 400: ApiError})
    def post(self, request: Request) -> Response:
        judgement = validate_body_judge(validate_body_parse(request))
        return Response(validation_output(judgement=judgement))


def validate_body_judge(body: Any) -> DraftJudgement:
    """The judgement a validate body asks for, whatever its game: its sections' lines, and for a game
    whose identity is a ruler the ruler, geas and attribute (Gate Ruler's body, a DeckListBody)."""
    on = body.as_of or site_today()
    if isinstance(body, DeckListBody):
        return deck_judge(
            on=on,
            ruler=body.ruler,
            geas=body.geas,
            attribute=body.attribute,
            main=body.main,
            resources=body.resources,
        )
    sections = {key: list_lines(getattr(body, key)) for key in type(body).model_fields if key not in ("game", "as_of")}
    return deck_judge(on=on, game=body.game, **sections)


# ---------------------------------------------------------------- /api/v1/decks/: saved decks

_READ_ERRORS = {404: ApiDetail}
_WRITE_ERRORS = {400: ApiError, 401: ApiDetail, 403: ApiDetail, 404: ApiDetail}
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


def _draft_from(data: dict[str, Any], base: DeckDraft | None = None) -> DeckDraft:
    """The draft a body describes (model_dump of a body); for a PATCH, the fields it leaves out stay as in `base`."""
    base = base or DeckDraft(ruler=data.get("ruler") or "", game=data["game"])
    game = game_get(base.game)
    if data.get("game", base.game) != base.game:
        raise ApplicationError(
            gettext("game: a saved deck's game does not change (this deck is of %(game)s).")
            % {"game": game_name(game.name)},
            field="game",
        )
    changes: dict[str, Any] = {}
    for key in ("name", "description", "ruler", "geas", "rules_date"):
        if key in data:
            changes[key] = data[key] if key != "ruler" else data[key] or ""
    if "attribute" in data:
        changes["attribute"] = data["attribute"] or ""
    if "ruler" in data and data["ruler"] != base.ruler and "geas" not in data:
        changes["geas"] = None  # a geas belongs to one ruler: a new ruler starts without one
    if game.identity != "ruler" and (changes.get("ruler") or changes.get("geas")):
        message = gettext("ruler: a %(game)s deck has no ruler or geas.") % {"game": game_name(game.name)}
        raise ApplicationError(message, field="ruler")
    draft = replace(base, **changes)
    for section in ("main", "resources", *GAME_SECTIONS):
        if section not in data:
            continue
        if section not in game.section_keys():
            if data[section]:
                message = gettext("%(section)s: a %(game)s deck has no such section.")
                raise ApplicationError(message % {"section": section, "game": game_name(game.name)}, field=section)
            continue
        lines = [DeckListLine(**line) for line in data[section]]
        counts = draft_section_of_lines(section=section, lines=lines, bounded=True, game=game.slug)
        draft = draft.with_section(section, counts)
    return draft


def _public_asked(request: Request) -> bool:
    """?public=true|false (1|0; absent or empty: false); anything else is a 400, as the schema's boolean says."""
    values = request.query_params.getlist("public")
    if values in ([], [""]):  # an empty value is no value (the schema's allowEmptyValue)
        return False
    if len(values) > 1 or values[0].lower() not in _BOOLEANS:
        raise serializers.ValidationError({"public": [gettext("Must be a valid boolean (true or false).")]})
    return _BOOLEANS[values[0].lower()]


_BOOLEANS = {"true": True, "1": True, "false": False, "0": False}


class DeckListApi(generics.ListAPIView):
    """Saved decks: your own (signed in), or public decks (anonymous, or ?public=true); create one."""

    filterset_class = DeckFilter
    pagination_class = DeckPagination
    parser_classes = [JSONParser]

    def get_queryset(self) -> QuerySet[Deck]:
        user = self.request.user
        self.public_listing = _public_asked(self.request) or not user.is_authenticated
        return deck_list_public() if self.public_listing else deck_list_owned(user=user)

    def get_serializer(self, *args: Any, **kwargs: Any) -> serializers.Serializer:
        # Only the browsable API asks (for its raw-data form, left empty): the bodies are pydantic models.
        return serializers.Serializer()

    @extend_schema(operation_id="decks_list", parameters=[_PUBLIC], responses=DeckOutput)
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        assert page is not None  # pagination_class is set
        return self.get_paginated_response([deck_output(deck=deck, request=request) for deck in page])

    @extend_schema(
        operation_id="decks_create",
        request=DeckInput,
        responses={201: DeckDetailOutput, 400: ApiError, 401: ApiDetail},
    )
    def post(self, request: Request) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated(gettext("Sign in (session or token) to save decks."))
        body = body_parse(DeckInput, request)
        deck = deck_save(owner=request.user, draft=_draft_from(body.model_dump()), visibility=body.visibility)
        answer = deck_detail_output(deck=deck_api_queryset().get(pk=deck.pk), request=request)
        return Response(answer, status=201, headers={"Location": answer["url"]})


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
            raise NotFound(gettext("No such deck."))  # someone else's private deck: its existence is not revealed
        assert deck is not None
        if write and not deck_is_owned_by(deck=deck, user=request.user):
            if not request.user.is_authenticated:
                raise NotAuthenticated(gettext("Sign in (session or token) to change your decks."))
            raise PermissionDenied(gettext("Only the owner can change this deck."))
        return deck

    @extend_schema(operation_id="decks_retrieve", responses={200: DeckDetailOutput, **_READ_ERRORS})
    def get(self, request: Request, public_id: str) -> Response:
        return Response(deck_detail_output(deck=self._deck(request, public_id), request=request))

    @extend_schema(
        operation_id="decks_update",
        request=DeckUpdateInput,
        responses={200: DeckDetailOutput, 409: StaleDeckError, **_WRITE_ERRORS},
        description="Replace the deck; optional fields left out take their defaults (visibility: private).",
    )
    def put(self, request: Request, public_id: str) -> Response:
        return self._update(request, public_id, partial=False)

    @extend_schema(
        operation_id="decks_partial_update",
        request=DeckPatchInput,
        responses={200: DeckDetailOutput, 409: StaleDeckError, **_WRITE_ERRORS},
        description="Change the fields given (`version` is required); the others stay as they are.",
    )
    def patch(self, request: Request, public_id: str) -> Response:
        return self._update(request, public_id, partial=True)

    def _update(self, request: Request, public_id: str, *, partial: bool) -> Response:
        deck = self._deck(request, public_id, write=True)
        data = body_parse(DeckPatchInput if partial else DeckUpdateInput, request).model_dump()
        current = deck_draft_of(deck=deck)
        # The considering board is the owner's scratch pad, not part of the API's deck: keep it.
        base = (
            current
            if partial
            else replace(
                current,
                ruler="",
                geas=None,
                attribute="",
                rules_date=None,
                name="",
                description="",
                main={},
                resources={},
                others={},
            )
        )
        try:
            deck_save(
                owner=request.user,
                deck=deck,
                draft=_draft_from(data, base),
                visibility=data.get("visibility", deck.visibility),
                base_version=data["version"],
            )
        except StaleDeck as exc:
            return Response(StaleDeckError(error=exc.message, version=exc.version).model_dump(), status=409)
        return self.get(request, public_id)

    @extend_schema(
        operation_id="decks_destroy",
        responses={204: None, **_WRITE_ERRORS},
        description=(
            "Delete the deck: it moves to its owner's trash and answers 404 from then on; the owner can "
            "restore it from My decks › Trash for 30 days, after which it is deleted for good."
        ),
    )
    def delete(self, request: Request, public_id: str) -> Response:
        deck_trash(deck=self._deck(request, public_id, write=True))
        return Response(status=204)
