"""One place where errors become JSON for the API: application errors, DRF's, and Django's under /api/."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext
from django.views import defaults
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler

# Not the other way round: rest_framework.views imports gatesite.parsers (DEFAULT_PARSER_CLASSES).
from gatesite.parsers import RequestBodyTooLarge

API_PREFIX = "/api/"


class ApplicationError(Exception):
    """A request the domain refuses, with a message meant for the player."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ApplicationError):
        body: dict[str, Any] = {"error": exc.message}
        if exc.field:
            body["field"] = exc.field
        return Response(body, status=400)
    if isinstance(exc, RequestDataTooBig):  # Django's check, made when request.body is read
        exc = RequestBodyTooLarge()
    if isinstance(exc, RequestBodyTooLarge):
        return Response({"error": str(exc.detail)}, status=413)
    response = exception_handler(exc, context)
    if response is not None and isinstance(exc, exceptions.ParseError):
        response.data = {"error": gettext("Malformed JSON: %(detail)s") % {"detail": exc.detail}}
    return response


# Django's error views (gatesite/urls.py handler400, handler404, handler500): under /api/ the
# answer is JSON in the shape the API documents, even when no API view was reached (an unknown
# path, a deck id no URL matches), worded per Accept-Language; elsewhere Django's own views, with
# the site's templates (templates/400.html, 403.html, 404.html, 500.html) in the player's language.


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not _is_api(request):
        return defaults.bad_request(request, exception)
    if isinstance(exception, RequestDataTooBig):
        return JsonResponse({"error": str(RequestBodyTooLarge().detail)}, status=413)
    return JsonResponse({"error": gettext("Bad request.")}, status=400)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not _is_api(request):
        return defaults.page_not_found(request, exception)
    return JsonResponse({"detail": gettext("Not found.")}, status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    if not _is_api(request):
        return defaults.server_error(request)
    return JsonResponse({"error": gettext("Server error: the request could not be answered.")}, status=500)
