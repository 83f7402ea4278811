"""The API's JSON parser: DRF's, with a clear 4xx for a body too deeply nested or too large.

Python's json module recurses once per nested array or object: `[[[…1000…]]]` raised
RecursionError (a 500). Every API view reads JSON through this class
(REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"], and the views that name their parsers).
"""

from __future__ import annotations

import io
from typing import Any

from django.conf import settings
from rest_framework import parsers
from rest_framework.exceptions import ParseError

from gatesite.errors import RequestBodyTooLarge

TOO_DEEP = "JSON parse error - the body is nested too deeply."


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: dict[str, Any] | None = None) -> Any:
        # DRF reads the request's stream itself, past Django's DATA_UPLOAD_MAX_MEMORY_SIZE check
        # (made only by request.body): read one byte more than the limit to tell a body over it.
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read() if limit is None else stream.read(limit + 1)
        if limit is not None and len(raw) > limit:
            raise RequestBodyTooLarge()
        try:
            return super().parse(io.BytesIO(raw), media_type, parser_context)
        except RecursionError:
            raise ParseError(TOO_DEEP) from None
