"""`{% partial_memo "line" line=line %}`: a partial of the current template (or "template#name": of
another, for an included template), rendered once per distinct value.

The editor redraws its deck lines and the hints of the card browser's results on every change,
and a page of results on every search, each row a few dozen lookups and escapes. Most rows are the
same from one change to the next, so each rendered row is kept, keyed by the partial (a new one
when the template is reloaded) and the values it is given: a row is rendered again only when what
it shows has changed. The partial must use nothing but those values (no request, no URLs).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Hashable, Mapping
from datetime import date, datetime
from operator import attrgetter, itemgetter
from typing import Any

from django import template
from django.conf import settings
from django.db.models import Model
from django.template.defaultfilters import date as date_filter
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from cards.catalog import CATALOG_MODELS, catalog_token
from decks.rules.wording import Label, Wording

register = template.Library()

# Enough for many decks' lines and many pages of results; cleared whole when full (simple, and rare).
MAX_ROWS = 20_000
_rows: dict[Hashable, SafeString] = {}


def _key(value: Any) -> Hashable:
    """The value as a cache key, derived from the value itself: a plain value as it is; a dataclass (a row, a
    meter) as its type and every field's key, a catalog row read from the database as its type and primary key
    (the catalog's token is in every remembered part's key: _constants), another model instance as its type and every field it is edited by,
    a Wording as its template and values, a list, tuple or mapping as its items' keys."""
    kind = type(value)
    # A tuple of plain values (a NamedTuple too: a picker's option) is its own key.
    if kind in _PLAIN or (kind in _TUPLES and _PLAIN.issuperset(map(type, value))):
        return value
    keyed = _keyers.get(kind)
    if keyed is None:
        keyed = _keyers[kind] = _keyer(kind)
    return keyed(value)


# Values that are their own key. Not a Wording (a str): its English text could read two ways.
_PLAIN = frozenset({str, int, bool, float, type(None), date, datetime})
# ... and, inside another value, frozen dataclasses of plain values (a card's facts): their own equality compares
# every field (not one by one here: a deck line's key would cost more than its line's drawing saves).
_ITSELF: set[type] = set(_PLAIN)
# The tuple types seen (tuple, NamedTuples), told apart by a set lookup rather than an isinstance call per value.
_TUPLES: set[type] = {tuple}
# How the other types' values are keyed, worked out once per type (a dataclass's fields read once).
_keyers: dict[type, Callable[[Any], Hashable]] = {}


def _keyer(kind: type) -> Callable[[Any], Hashable]:
    if issubclass(kind, Wording):
        return _wording_key
    if issubclass(kind, Label):
        return _label_key
    if dataclasses.is_dataclass(kind):
        if _plain_dataclass(kind):
            # Its own key: its equality and hash compare every field (checked plain in the tests: _trusted). Taken
            # inline from now on, as an item of a list (_items_key) or a field of a dataclass (_fields_key).
            _ITSELF.add(kind)
            return _trusted if _CHECKED else _itself
        return _fields_key(kind, tuple(f.name for f in dataclasses.fields(kind)))
    if issubclass(kind, Model):
        by_fields = _model_fields_key(kind)
        if kind in CATALOG_MODELS:
            return _catalog_row_key(kind, by_fields)
        return by_fields
    if issubclass(kind, tuple):
        _TUPLES.add(kind)
    if issubclass(kind, (list, tuple, set, frozenset)):
        return _items_key
    if issubclass(kind, Mapping):
        return _mapping_key
    return _itself


def _model_fields_key(kind: type) -> Callable[[Any], Hashable]:
    """A model instance's key by every field it is edited by."""
    # Every field an admin or an import may change (not the search columns, made from those, and often
    # deferred): what the partial reads of the instance is among them, whichever it is.
    fields = [f for f in kind._meta.concrete_fields if f.editable or f.primary_key]  # type: ignore[attr-defined]
    # A JSON (or array) field holds dicts and lists: keyed by their text. The other fields hold plain values.
    documents = tuple(f.attname for f in fields if f.get_internal_type() in _DOCUMENT_FIELDS)
    return _model_key(kind, tuple(f.attname for f in fields if f.attname not in documents), documents)


def _catalog_row_key(kind: type, by_fields: Callable[[Any], Hashable]) -> Callable[[Any], Hashable]:
    """A catalog row read from the database (a card of the browser's results) as its type and primary key; an
    instance made in memory (never read, so no token vouches for it) by its fields.

    The catalog's token is part of every remembered part's key (_constants: once per page, not once per row), and
    it is enough: every write to a catalog model changes it in the writer's transaction (the imports
    and load_rules call catalog_version_bump, an admin or ORM save or delete bumps it through cards.catalog's
    signal receivers), so while it is unchanged a row's fields are what they were when its HTML was drawn,
    and no code changes a row read from the catalog without saving it."""
    pk_name = kind._meta.pk.attname  # type: ignore[attr-defined]

    def key(value: Any) -> Hashable:
        state = value._state
        pk = value.__dict__.get(pk_name)
        if state.adding or state.db is None or pk is None:
            return by_fields(value)
        return (kind, pk)

    return key


_PLAIN_TYPES = (str, int, bool, float, type(None), date)
_DOCUMENT_FIELDS = frozenset({"JSONField", "ArrayField", "HStoreField"})


def _part(value: Any) -> Hashable:
    """A field's value as part of its dataclass's key: a frozen dataclass of plain values as itself, else _key.

    Decided once per type, apart from _key's own keyers: a card's facts are themselves inside a line, whether or
    not a template keyed facts on their own before (then by their fields)."""
    keyed = _part_keyers.get(type(value))
    if keyed is None:
        keyed = _part_keyer(type(value))
    return keyed(value)


def _part_keyer(kind: type) -> Callable[[Any], Hashable]:
    if kind in _ITSELF or (dataclasses.is_dataclass(kind) and _plain_dataclass(kind)):
        _ITSELF.add(kind)  # from now on taken inline by the dataclasses' keys (_fields_key)
        keyed = _trusted if _CHECKED else _itself
    elif kind is tuple:
        keyed = _tuple_part
    else:
        keyed = _keyers.get(kind) or _keyers.setdefault(kind, _keyer(kind))
    _part_keyers[kind] = keyed
    return keyed


def _worded_tuple(value: tuple[Any, ...]) -> Hashable:
    """A tuple of values not all plain (a hint's blockers: Wordings) as its items' keys, remembered by identity: the
    editor's remembered blockers are the same tuple objects from one request to the next, each shown by many hints.
    """
    known = _worded_tuples.get(id(value))
    if known is not None and known[0] is value:
        return known[1]
    key = _tuple_part(value)
    if len(_worded_tuples) >= MAX_ROWS:
        _worded_tuples.clear()
    # The tuple itself kept beside its key: while the entry lives, its id is no other object's.
    _worded_tuples[id(value)] = (value, key)
    return key


_worded_tuples: dict[int, tuple[tuple[Any, ...], Hashable]] = {}


def _tuple_part(value: tuple[Any, ...]) -> Hashable:
    """A tuple of plain values (collector numbers, rule codes) as it is, else its items' keys (a Wording's kept on
    it: _wording_key)."""
    if _ITSELF.issuperset(map(type, value)):
        return value
    return tuple([item if type(item) in _ITSELF else getattr(item, "_memo_part", None) or _key(item) for item in value])


# The catalog's models, each with the name its primary key has in an instance's __dict__ (_fields_key).
_CATALOG_PKS = {model: model._meta.pk.attname for model in CATALOG_MODELS}  # type: ignore[attr-defined]


# How a field's value is keyed (_part), by its type.
_part_keyers: dict[type, Callable[[Any], Hashable]] = {}


def _plain_dataclass(kind: type) -> bool:
    """A frozen dataclass with its own equality and hash whose fields are declared as plain values (str, numbers,
    dates, tuples, sets and mappings of them): keyed by itself, its equality comparing every field."""
    params = kind.__dataclass_params__  # type: ignore[attr-defined]
    if not (params.frozen and params.eq) or kind.__hash__ is None:
        return False
    try:
        hints = typing.get_type_hints(kind)
    except Exception:  # an annotation only a type checker resolves: keyed field by field
        return False
    return all(_plain_type(hints[f.name]) for f in dataclasses.fields(kind))


def _plain_type(hint: Any) -> bool:
    if hint is object or hint in _PLAIN_TYPES:
        return True
    origin = typing.get_origin(hint)
    if origin in (tuple, frozenset, Mapping, typing.Union, types.UnionType):
        return all(arg is Ellipsis or _plain_type(arg) for arg in typing.get_args(hint))
    return False


def _fields_key(kind: type, names: tuple[str, ...]) -> Callable[[Any], Hashable]:
    """A dataclass's key: its type and its fields' keys, in their order (a field added is a part of the key)."""
    if not names:
        return lambda value: (kind,)
    get = attrgetter(*names)
    if len(names) == 1:
        return lambda value: (kind, _part(get(value)))
    # One function per dataclass, written out field by field as `dataclasses` writes __eq__, each field's part by
    # its declared type (_field_source): a row of the card browser is keyed 30 times a search, and a loop over its
    # fields, or a test of every field's type, cost a search 6 % more than the hand-written keys they replaced.
    try:
        hints = typing.get_type_hints(kind)
    except Exception:  # an annotation only a type checker resolves: every field tested
        hints = {}
    parts = "".join(f"{_field_source(f'value.{name}', hints.get(name))}, " for name in names)
    source = f"def key(value):\n    return (kind, ({parts}))\n"
    scope: dict[str, Any] = {"kind": kind, "itself": _ITSELF, "part": _part, "any_key": _key}
    scope.update(catalog=_CATALOG_PKS, trusted=_trusted, worded=_worded_tuple, a_tuple=_a_tuple)
    exec(source, scope)  # the source is made of the dataclass's own field names
    return scope["key"]  # type: ignore[no-any-return]


def _field_source(x: str, hint: Any) -> str:
    """The expression of a field's part in a dataclass's key (_fields_key), by the field's declared type."""
    if hint is not None and _trusted_type(hint):
        # Declared plain (strs, numbers, dates, tuples of them, frozen dataclasses of them: a card's facts): as it
        # is, its equality comparing every field. Taken on trust from the declaration (a field that may hold a
        # Wording, a str too, says so: `Wording | str`); the tests check every such value (_trusted).
        return f"trusted({x})" if _CHECKED else x
    if typing.get_origin(hint) is tuple:
        # A declared tuple of values not all plain (a hint's blockers: Wordings) by its items' keys.
        return f"worded(a_tuple({x}))" if _CHECKED else f"worded({x})"
    if hint in _CATALOG_PKS:
        # A catalog row read from the database (a result's card) as _catalog_row_key keys it: type and primary key.
        pk = _CATALOG_PKS[hint]
        return (
            f"(type({x}), {x}.__dict__.get({pk!r})) if type({x}) in catalog and {x}._state.db is not None "
            f"and not {x}._state.adding else part({x})"
        )
    # Anything else tested: a plain value as it is, a tuple by _worded_tuple, any other value by _part.
    return (
        f"{'trusted(' + x + ')' if _CHECKED else x} if type({x}) in itself "
        f"else worded({x}) if type({x}) is tuple else part({x})"
    )


def _a_tuple(value: Any) -> tuple[Any, ...]:
    if type(value) is not tuple:
        raise TypeError(f"{value!r} is not a tuple: declared as one, it is keyed as one")
    return value  # type: ignore[no-any-return]


def _trusted_type(hint: Any) -> bool:
    """A declared type whose values are their own keys: plain values and tuples of them (_plain_type, which
    frozensets and mappings are not here: a list or a dict passes for one), and frozen dataclasses of those."""
    if hint in _PLAIN_TYPES or hint is datetime:
        return True
    origin = typing.get_origin(hint)
    if origin in (tuple, typing.Union, types.UnionType):
        return all(arg is Ellipsis or _trusted_type(arg) for arg in typing.get_args(hint))
    return isinstance(hint, type) and dataclasses.is_dataclass(hint) and _plain_dataclass(hint)


# The tests set MEMO_KEYS_CHECKED (gatesite/test_settings.py): every value taken on trust is checked to be plain
# all the way down (a Wording in a field declared str inside a card's facts would be keyed by its English text).
_CHECKED = getattr(settings, "MEMO_KEYS_CHECKED", False)


def _trusted(value: Any) -> Any:
    if not _deep_plain(value):
        raise TypeError(f"{value!r} is not plain all the way down: declare its field's type as what it holds")
    return value


def _deep_plain(value: Any) -> bool:
    kind = type(value)
    if kind in _PLAIN:  # a str exactly: never a Wording
        return True
    if kind in (tuple, frozenset):
        return all(map(_deep_plain, value))
    if isinstance(value, Mapping):
        return all(_deep_plain(k) and _deep_plain(v) for k, v in value.items())
    if dataclasses.is_dataclass(kind):
        return all(_deep_plain(getattr(value, f.name)) for f in dataclasses.fields(kind))
    return False


def _model_key(kind: type, names: tuple[str, ...], documents: tuple[str, ...]) -> Callable[[Any], Hashable]:
    """A model instance's key: its type, the values of its scalar fields `names`, and its JSON fields `documents`
    as text. Read from its __dict__: a deferred field is left out rather than loaded (one
    query per row)."""
    get = itemgetter(*names)
    one = len(names) == 1
    # Mostly a single JSON field (a card's game fields): read without a loop.
    single = documents[0] if len(documents) == 1 else None

    def key(value: Any) -> Hashable:
        held = value.__dict__
        try:
            scalars = (get(held),) if one else get(held)
            if single is not None:
                text = held[single]
                return (kind, scalars, repr(text) if isinstance(text, (dict, list)) else text)
            return (kind, scalars, *[_document(held[name]) for name in documents])
        except KeyError:
            return (kind, tuple([_document(held.get(name, _DEFERRED)) for name in (*names, *documents)]))

    return key


def _document(value: Any) -> Hashable:
    """A JSON field's value as text; anything else (a scalar, the deferred mark) as it is."""
    # Its repr: JSON's values (dicts, lists, strings, numbers, booleans, None) read back from it, each value
    # its own text (two equal dicts in another key order are two keys: one drawing more, never a stale one).
    return repr(value) if isinstance(value, (dict, list)) else value


_DEFERRED = object()


def _items_key(value: Any) -> Hashable:
    """A list, tuple or set as its items' keys (a tuple of plain values, a NamedTuple too, is its own key)."""
    if _ITSELF.issuperset(map(type, value)):  # plain values, and plain frozen dataclasses (a chart's bars)
        if _CHECKED:
            for item in value:
                _trusted(item)
        if isinstance(value, tuple):
            return value
        return frozenset(value) if isinstance(value, (set, frozenset)) else tuple(value)
    if isinstance(value, (set, frozenset)):
        return frozenset(map(_key, value))
    # A Wording's key is kept on it (_wording_key): read without a call (a hint's few reasons, on every result).
    return tuple([item if type(item) in _PLAIN else getattr(item, "_memo_part", None) or _key(item) for item in value])


def _mapping_key(value: Any) -> Hashable:
    return (Mapping, tuple([(k, _key(v)) for k, v in value.items()]))


def _itself(value: Any) -> Hashable:
    return value  # type: ignore[no-any-return]


def _label_key(value: Label) -> Hashable:
    """A game's label by every language's text (two games' "Unit" could read two ways in Japanese)."""
    return (Label, value.key)


def _wording_key(value: object) -> Hashable:
    """A message as its template and values (each nested Wording the same), by type: what `word` reads."""
    if isinstance(value, Wording):
        # Kept on the Wording (it never changes, and the engine makes each once: the same ones come back).
        known = value.__dict__.get("_memo_part")
        if known is None:
            known = (Wording, value.template, tuple((k, _wording_key(v)) for k, v in value.values.items()))
            value.__dict__["_memo_part"] = known
        return known
    if isinstance(value, tuple):
        return tuple(_wording_key(v) for v in value)
    if isinstance(value, Label):
        return (Label, value.key)
    # By type too: 1, 1.0 and True are equal keys but read "1", "1.0" and "True".
    return value if type(value) is str else (type(value), value)


# The partials found by _partial, by page template and name.
_partials: dict[tuple[Any, str], Any] = {}


# Where a render keeps its constants (below), in its render context's first layer (as Django's {% include %}
# keeps the templates it found there): a new one for every render.
_CONSTANTS = object()


def _constants() -> tuple[str | None, str]:
    """What every remembered part's key holds besides its values: the language (the same row reads differently in
    English and in Japanese) and the catalog's token (a catalog row inside a value is keyed by its primary key)."""
    return (get_language(), catalog_token())


def _render_constants(context: template.Context) -> tuple[str | None, str]:
    """_constants, looked up once per render: get_language() reads asgiref's Local, costly to ask for each
    remembered part. No template switches the language within a render (no {% language %} block, no
    translation.override in a tag), and none writes to the catalog."""
    first = context.render_context.dicts[0]
    constants = first.get(_CONSTANTS)
    if constants is None:
        constants = first[_CONSTANTS] = _constants()
    return constants  # type: ignore[no-any-return]


@register.simple_tag(takes_context=True)
def partial_memo(context: template.Context, name: str, **values: Any) -> SafeString:
    partial = _partial(context, name)
    key = (partial, _render_constants(context), tuple((k, _key(v)) for k, v in values.items()), context.use_l10n)
    return _rendered(context, partial, key, values)


@register.simple_tag(takes_context=True)
def partial_memo_each(context: template.Context, name: str, as_name: str, items: Any, **values: Any) -> SafeString:
    """`{% partial_memo_each "result" "row" rows view=view %}`: `{% partial_memo "result" row=row view=view %}`
    for each of `rows`, joined (the same rows, remembered under the same keys).

    The partial, the constants and the other values are looked up once for all the rows rather
    than once per row: a page of 30 results spent more in those lookups than in the rows.
    """
    partial = _partial(context, name)
    constants = _render_constants(context)
    shared = tuple((k, _key(v)) for k, v in values.items())
    l10n = context.use_l10n
    # Safe: each row is a partial's output, escaped as it was rendered.
    return mark_safe(
        "".join(
            _rendered(
                context,
                partial,
                (partial, constants, ((as_name, _key(item)), *shared), l10n),
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
        # shows asks get_language() (asgiref's Local) to format it.
        html = partial.render(template.Context(values, autoescape=context.autoescape, use_l10n=context.use_l10n))
        if len(_rows) >= MAX_ROWS:
            _rows.clear()
        _rows[key] = html
    return html


# Dates as `|date:"Y-m-d"` and `|date:"Y-m-d H:i"` write them, without Django's date formatter, which
# parses its format string on every call (twice in every editor change's answer).
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
