"""A URL with a control character never reaches a view, nor the database (issue 24).

PostgreSQL refuses NUL in a text value (psycopg's DataError, a 500), SQLite takes it: an id, a
collector number, a slug or a search term with NUL answered 500 on one and 404 on the other. No id,
number, slug or code of the site has a control character, and no player types one (a search box
drops line breaks, Tab leaves the field), so the rule is kept here, once, for every URL the site
serves, the admin's and Django's included, and for URLs added later:

- a path with one is a 404: it names a deck, card or page that cannot exist;
- a query parameter with one (in its name or its value) is a 400 naming the parameter, JSON under
  /api/ in the shape the API documents (gatesite.errors), text elsewhere.

It runs before the session, the signed-in player and the views (see MIDDLEWARE), so such a request
makes no query at all. Bodies are left to their readers: Django's and DRF's form fields refuse NUL
(ProhibitNullCharactersValidator) with the field's error, and so do the API's bodies
(decks.api.fields). The API's schema says the same of its parameters (gatesite.schema: a `pattern`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.utils.translation import gettext

# C0 controls (NUL to U+001F, Tab and line breaks included), DEL and the C1 controls: Unicode's Cc.
CONTROL_CHARACTER = re.compile("[\x00-\x1f\x7f-\x9f]")
# The same, as the API's schema writes it (an ECMA-262 regular expression, which Python reads too).
NO_CONTROL_CHARACTER_PATTERN = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"

_API_PREFIX = "/api/"


def control_character_refusal(request: HttpRequest) -> HttpResponse | None:
    """The answer to a URL with a control character (or None when it has none): raises Http404 for a path."""
    if CONTROL_CHARACTER.search(request.path_info):
        raise Http404("No page has a control character in its address.")
    query = request.META.get("QUERY_STRING", "")
    # The common case first: a query string with no percent sign has no encoded control character.
    if not query or ("%" not in query and not CONTROL_CHARACTER.search(query)):
        return None
    for name, values in request.GET.lists():
        if CONTROL_CHARACTER.search(name) or any(CONTROL_CHARACTER.search(value) for value in values):
            return _parameter_refused(request, name)
    return None


def _parameter_refused(request: HttpRequest, name: str) -> HttpResponse:
    shown = name if not CONTROL_CHARACTER.search(name) else repr(name)[1:-1]
    message = gettext("The parameter “%(name)s” has a control character, which no search term or id has.") % {
        "name": shown
    }
    if request.path_info.startswith(_API_PREFIX):
        return JsonResponse({"error": message, "field": shown}, status=400)
    return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")


class ControlCharacterMiddleware:
    """control_character_refusal for every request (MIDDLEWARE, before the session is read)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return control_character_refusal(request) or self.get_response(request)
