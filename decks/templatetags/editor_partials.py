"""`{% partial_memo "line" line=line %}`: a partial of the current template (or "template#name": of
another, for an included template), rendered once per distinct value.

The editor redraws its deck lines and the hints of the card browser's results on every change,
and a page of results on every search: rendered as plain `{% partial %}` loops these took about
as much time as the rest of a change (a few dozen lookups and escapes per row). Most rows are the
same from one change to the next, so each rendered row is kept, keyed by the partial (a new one
when the template is reloaded) and the values it is given: a row is rendered again only when what
it shows has changed. The partial must use nothing but those values (no request, no URLs).
"""

from __future__ import annotations

from collections.abc import Hashable
from datetime import date, datetime
from typing import Any

from django import template
from django.template.defaultfilters import date as date_filter
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from decks.rules.meters import Meter
from decks.rules.wording import Wording

register = template.Library()

# Enough for many decks' lines and many pages of results; cleared whole when full (simple, and rare).
MAX_ROWS = 20_000
_rows: dict[Hashable, SafeString] = {}


def _key(value: Any) -> Hashable:
    """The value as a cache key: its `memo_key` when it has one (a row with a list or a model in it); a list
    (a panel's rows) as the tuple of its items' keys; an engine's meter by what it is worded from."""
    kind = type(value)
    if kind is list:
        return tuple(_key(item) for item in value)
    if kind is Meter:
        # A meter's label and detail may be Wordings: equal when their English texts are, which two templates
        # could share and read differently in Japanese.
        m = value
        return (Meter, m.key, _wording_key(m.label), m.value, m.limit, m.exact, _wording_key(m.detail), m.at_least)
    keyed = _memo_keyed.get(kind)
    if keyed is None:
        keyed = _memo_keyed[kind] = hasattr(kind, "memo_key")
    return value.memo_key if keyed else value


# Whether a type's values have a memo_key (a property or class attribute), by type: asked of the value
# itself, a str's or a tuple's missing attribute costs an exception, for each item of a list and each click.
_memo_keyed: dict[type, bool] = {}


def _wording_key(value: object) -> Hashable:
    """A message as its template and values (each nested Wording the same), by type: what `word` reads."""
    if isinstance(value, Wording):
        return (Wording, value.template, tuple((k, _wording_key(v)) for k, v in value.values.items()))
    if isinstance(value, tuple):
        return tuple(_wording_key(v) for v in value)
    # By type too: 1, 1.0 and True are equal keys but read "1", "1.0" and "True".
    return value if type(value) is str else (type(value), value)


# The partials found by _partial, by page template and name.
_partials: dict[tuple[Any, str], Any] = {}


# Where a render keeps its language (below), in its render context's first layer (as Django's {% include %}
# keeps the templates it found there): a new one for every render.
_LANGUAGE = object()


def _language(context: template.Context) -> str | None:
    """The active language, looked up once per render: get_language() reads asgiref's Local (~20 k
    instructions), and a change's answer asked it for each of its ~20 remembered parts. No template
    switches the language within a render (no {% language %} block, no translation.override in a tag)."""
    first = context.render_context.dicts[0]
    language = first.get(_LANGUAGE, first)
    if language is first:
        language = first[_LANGUAGE] = get_language()
    return language  # type: ignore[no-any-return]


@register.simple_tag(takes_context=True)
def partial_memo(context: template.Context, name: str, **values: Any) -> SafeString:
    partial = _partial(context, name)
    # The language too: the same row reads differently in English and in Japanese.
    key = (partial, _language(context), tuple((k, _key(v)) for k, v in values.items()), context.use_l10n)
    return _rendered(context, partial, key, values)


@register.simple_tag(takes_context=True)
def partial_memo_each(context: template.Context, name: str, as_name: str, items: Any, **values: Any) -> SafeString:
    """`{% partial_memo_each "result" "row" rows view=view %}`: `{% partial_memo "result" row=row view=view %}`
    for each of `rows`, joined (the same rows, remembered under the same keys).

    The partial, the language and the other values are looked up once for all the rows rather
    than once per row: a page of 30 results spent more in those lookups than in the rows.
    """
    partial = _partial(context, name)
    language = _language(context)
    shared = tuple((k, _key(v)) for k, v in values.items())
    l10n = context.use_l10n
    # Safe: each row is a partial's output, escaped as it was rendered.
    return mark_safe(
        "".join(
            _rendered(
                context,
                partial,
                (partial, language, ((as_name, _key(item)), *shared), l10n),
                {as_name: item, **values},
            )
            for item in items
        )
    )


def _partial(context: template.Context, name: str) -> Any:
    """The partial `name` of the page being drawn, or "template#name" of another (an included template).

    Found once per page template (a template reloaded, as with DEBUG, is a new key).
    """
    page = context.template
    partial = _partials.get((page, name))
    if partial is None:
        if len(_partials) >= 1_000:  # templates reloaded on every request (DEBUG): keep it bounded
            _partials.clear()
        full = name if "#" in name else f"{page.origin.template_name}#{name}"
        # Inside a remembered part, `page` is that partial (template_partials' loader gave it the engine).
        partial = _partials[page, name] = page.engine.get_template(full)
    return partial


def _rendered(context: template.Context, partial: Any, key: Hashable, values: dict[str, Any]) -> SafeString:
    html = _rows.get(key)
    if html is None:
        # Localized as the page is ({% localize off %} in a change's answer): each number a localized part
        # shows asks get_language() (asgiref's Local, ~20 k instructions) to format it.
        html = partial.render(template.Context(values, autoescape=context.autoescape, use_l10n=context.use_l10n))
        if len(_rows) >= MAX_ROWS:
            _rows.clear()
        _rows[key] = html
    return html


# Dates as `|date:"Y-m-d"` and `|date:"Y-m-d H:i"` write them, without Django's date formatter, which
# parses its format string on every call: about 50 µs a date, twice in every editor change's answer.
# Localtime first, as the date filter (the engine converts an aware datetime to the current time zone).


@register.filter(expects_localtime=True, is_safe=False)
def ymd(value: Any) -> str:
    """`{{ on|ymd }}`: the same text as `{{ on|date:"Y-m-d" }}`."""
    if isinstance(value, date):
        return f"{value.year:04d}-{value.month:02d}-{value.day:02d}"
    return date_filter(value, "Y-m-d")


@register.filter(expects_localtime=True, is_safe=False)
def ymd_hm(value: Any) -> str:
    """`{{ deck.updated_at|ymd_hm }}`: the same text as `{{ deck.updated_at|date:"Y-m-d H:i" }}`."""
    if isinstance(value, datetime):
        return f"{value.year:04d}-{value.month:02d}-{value.day:02d} {value.hour:02d}:{value.minute:02d}"
    return date_filter(value, "Y-m-d H:i")
