"""One place where application errors become JSON for the API."""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler


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
    response = exception_handler(exc, context)
    if response is not None and isinstance(exc, exceptions.ParseError):
        response.data = {"error": f"Malformed JSON: {exc.detail}"}
    return response
