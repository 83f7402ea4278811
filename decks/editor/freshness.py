"""An editor page always shows the deck as it now is (decks/editor/views.py, every game).

Its page is never kept by the browser's cache (a Back to the editor would otherwise show the version it
first loaded, whose next change is refused as stale; static/decks/editor.js also reloads a page the
back/forward cache brings back). A change that was stale all the same (another tab or device saved the
deck) is offered again on the deck as it now is: its fields, based on the version the deck is at.
"""

from __future__ import annotations

from django.http import HttpResponse, QueryDict
from django.utils.cache import add_never_cache_headers

# The fields of a change, (DeckChangeForm), and the card browser's search.
CHANGE_FIELDS = ("op", "action", "number", "section", "value", "count", "name", "description", "game", "browse")


def editor_page_response(response: HttpResponse) -> HttpResponse:
    """An editor page, marked never to be stored (Cache-Control: no-store and the rest of never_cache)."""
    add_never_cache_headers(response)
    return response


def stale_change_retry(posted: QueryDict, *, version: int) -> list[tuple[str, str]]:
    """The fields of a refused stale change, to post again on the deck at `version` (one click)."""
    fields = [(name, posted[name]) for name in CHANGE_FIELDS if posted.get(name)]
    return [*fields, ("base_version", str(version))]
