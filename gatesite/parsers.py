"""The API's parsers: DRF's, with a clear 4xx for a body too deeply nested or too large.

Python's json module recurses once per nested array or object: `[[[…1000…]]]` raised
RecursionError (a 500). DRF's JSON and form parsers read the request's stream themselves, past
Django's DATA_UPLOAD_MAX_MEMORY_SIZE check (made only by request.body and request.POST): a body
over it was read whole. Every API view reads its body through these classes
(REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"], and the views that name their parsers); Django's
multipart parser keeps the limit itself (RequestDataTooBig, a 413 by gatesite.errors).
"""

from __future__ import annotations

import io
from typing import Any

from django.conf import settings
from django.template.defaultfilters import filesizeformat
from rest_framework import parsers
from rest_framework.exceptions import APIException, ParseError

TOO_DEEP = "JSON parse error - the body is nested too deeply."


class RequestBodyTooLarge(APIException):
    """A request body over DATA_UPLOAD_MAX_MEMORY_SIZE: 413, never read whole."""

    status_code = 413
    default_code = "request_too_large"

    def __init__(self) -> None:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        size = filesizeformat(limit).replace("\xa0", " ")  # "2.5 MB", without the HTML non-breaking space
        super().__init__(f"The request body is too large (at most {size}).")


def _read_bounded(stream: Any) -> io.BytesIO:
    """The body, read to one byte past DATA_UPLOAD_MAX_MEMORY_SIZE at most; RequestBodyTooLarge past it."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    raw = stream.read() if limit is None else stream.read(limit + 1)
    if limit is not None and len(raw) > limit:
        raise RequestBodyTooLarge()
    return io.BytesIO(raw)


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: dict[str, Any] | None = None) -> Any:
        body = _read_bounded(stream)
        try:
            return super().parse(body, media_type, parser_context)
        except RecursionError:
            raise ParseError(TOO_DEEP) from None


class FormParser(parsers.FormParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: dict[str, Any] | None = None) -> Any:
        return super().parse(_read_bounded(stream), media_type, parser_context)
