"""Every URL the site serves, as format strings, and the parameters its pages read (issue 24).

The control-character sweeps walk them: tests/gatesite/test_control_characters.py in-process and
bench/reliability/control_characters.py against the deployed stack. Walking the resolver (the
admin's and django.contrib.auth's URLs included) means a URL added later is swept without being
listed anywhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from django.urls import URLPattern, URLResolver, get_resolver

# Every parameter a page, a form or the API reads from a query string or a posted form: the forms'
# fields (decks/*/forms.py), the filters (decks/library/filters.py, cards/filters.py), the API's
# query parameters and the raw reads in views (next, shown, hinted, browse, odds_key, language).
PARAMETERS = (
    *("q", "name", "faction", "type", "level_min", "level_max", "attribute", "cnt", "legend", "set", "usable"),
    *("view", "offset", "op", "action", "number", "section", "value", "description", "base_version"),
    *("tag", "archived", "a", "b", "group", "k", "game", "ruler", "geas", "legal", "card", "sort", "page"),
    *("page_size", "as_of", "public", "next", "shown", "hinted", "browse", "odds_key", "language", "remove"),
    *("confirmed", "text", "visibility", "version", "code", "username", "password", "email", "slug"),
)
# The admin's own: the search, the order, the page, the filters kept across pages.
ADMIN_PARAMETERS = ("q", "o", "p", "e", "_changelist_filters", "next", "name")

_CONVERTER = re.compile(r"<(?:(\w+):)?(\w+)>")
_GROUP = re.compile(r"\(\?P<(\w+)>(?:[^()]|\([^()]*\))*\)")
_NAME = re.compile(r"\{(\w+)\}")


def _template(pattern: object) -> str:
    """A URL pattern as a format string: each captured parameter a {name}."""
    text = str(pattern)
    if text.startswith("^") or text.endswith("$"):  # a regular expression (re_path, the admin's)
        return _GROUP.sub(r"{\1}", text.lstrip("^").rstrip("$")).replace("\\", "").replace("?", "")
    return _CONVERTER.sub(r"{\2}", text)


def _walk(resolver: URLResolver, prefix: str) -> Iterator[str]:
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            yield from _walk(entry, prefix + _template(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + _template(entry.pattern)


def url_templates() -> list[str]:
    """Every URL pattern of the site, sorted: "/d/{public_id}/v/{version}/", "/cards/{number}/" ..."""
    return sorted(set(_walk(get_resolver(), "/")))


def template_names(template: str) -> list[str]:
    """The parameters a template captures, in order."""
    return _NAME.findall(template)


def is_admin(template: str) -> bool:
    return template.startswith("/admin/")


def url_fill(template: str, values: dict[str, str], probe_in: str | None = None, probe: str = "") -> str:
    """A URL of `template`: `probe` (percent-encoded) in the parameter `probe_in`, `values` or "x" in the others."""
    from urllib.parse import quote

    filled = {
        name: quote(probe, safe="") if name == probe_in else values.get(name, "x") for name in template_names(template)
    }
    return template.format(**filled)
