"""Reading a request body with its model (decks.api.bodies), and a refusal worded as DRF words it.

A refused body answers 400 with `error`, the first problem as one sentence naming its field
("main[2].count: …"), and `errors`, every problem by field, nested as DRF nests a serializer's
errors ({"main": {"2": {"count": ["…"]}}}; a problem with a whole line or body is under
"non_field_errors").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, TypeVar

from django.http.request import RawPostDataException
from django.utils.translation import gettext
from pydantic import MISSING, BaseModel, ValidationError
from pydantic_core import ErrorDetails, PydanticCustomError, SchemaValidator
from pydantic_core import core_schema as cs
from rest_framework.exceptions import APIException, ParseError
from rest_framework.request import Request

from decks.api.bodies import VALIDATE_INPUTS, DeckLine, DeckValidateInput, GameOfBody
from decks.api.fields import SLUG_PATTERN, iso_date
from decks.drafts import DeckListLine
from decks.models import MAX_LINE_COUNT, MAX_LINES
from decks.rules.wording import gettext_noop
from gatesite.parsers import TOO_DEEP

Body = TypeVar("Body", bound=BaseModel)

NON_FIELD = "non_field_errors"

# The words of every error a body can get, marked for translation and worded in the request's
# language (_message): DRF's for the checks pydantic makes itself (the same English, so DRF's own
# Japanese catalog and ours agree), then the fields' own checks (decks.api.fields, decks.api.bodies),
# keyed by their error type. An error not listed keeps pydantic's message.
_MESSAGES = {
    "missing": gettext_noop("This field is required."),
    "string_too_short": gettext_noop("This field may not be blank."),
    "string_too_long": gettext_noop("Ensure this field has no more than {max_length} characters."),
    # Only slugs have a pattern (decks.api.fields.slug).
    "string_pattern_mismatch": gettext_noop(
        'Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'
    ),
    "too_long": gettext_noop("Ensure this field has no more than {max_length} elements."),
    "greater_than_equal": gettext_noop("Ensure this value is greater than or equal to {ge}."),
    "less_than_equal": gettext_noop("Ensure this value is less than or equal to {le}."),
    "literal_error": gettext_noop('"{input}" is not a valid choice.'),
    "list_type": gettext_noop('Expected a list of items but got type "{type}".'),
    "model_type": gettext_noop("Invalid data. Expected a dictionary, but got {type}."),
    "model_attributes_type": gettext_noop("Invalid data. Expected a dictionary, but got {type}."),
    # A game's validate body reads only its own sections (decks.api.bodies.VALIDATE_INPUTS).
    "extra_forbidden": gettext_noop("Not a section or field of this game's deck lists."),
    "not_a_string": gettext_noop("Not a valid string."),
    "null_characters": gettext_noop("Null characters are not allowed."),
    "surrogate_characters": gettext_noop("Surrogate characters are not allowed: U+{code_point}."),
    "date": gettext_noop("Date has wrong format. Use one of these formats instead: YYYY-MM-DD."),
    "integer_too_long": gettext_noop("String value too large."),
    "integer": gettext_noop("A valid integer is required."),
    "count": gettext_noop("Count must be a positive integer, got {value}."),
    "deck_count": gettext_noop("A deck keeps at most {limit} copies of one printing."),
    "number_or_name": gettext_noop("Give exactly one of 'number' or 'name'."),
    "ruler_required": gettext_noop("ruler: This field is required for a {game} deck."),
}
_NULL = gettext_noop("This field may not be null.")
# Errors about a whole object (a line, the body) rather than one of its fields.
_OBJECT_ERRORS = {"model_type", "model_attributes_type", "number_or_name"}


class BodyInvalid(APIException):
    """A request body its model refuses: 400 with `error` and `errors` (gatesite.errors renders it)."""

    status_code = 400

    def __init__(self, error: ValidationError) -> None:
        details = error.errors()
        super().__init__({"error": _sentence(details[0]), "errors": _by_field(details)})


def body_parse(model: type[Body], request: Request) -> Body:
    """The request's body as `model`; BodyInvalid when the model refuses it.

    A JSON body is read straight from its bytes by pydantic (JSON parsing and checks in one pass,
    in Rust: the validate API's speed depends on it); anything else goes through DRF's parsers,
    which answer 415 for a media type they do not take.
    """
    return _body_parse(model, request, _json_bytes(request))


def _body_parse(model: type[Body], request: Request, raw: bytes | None) -> Body:
    try:
        return model.model_validate_json(raw) if raw is not None else model.model_validate(request.data)
    except ValidationError as error:
        if error.errors()[0]["type"] == "json_invalid":
            reason = error.errors()[0]["ctx"]["error"]
            # pydantic's reader stops at 200 levels; say so as the project's JSON parser does.
            raise ParseError(TOO_DEEP if "recursion limit" in reason else f"JSON parse error - {reason}") from None
        raise BodyInvalid(error) from None
    except RecursionError:
        # Nested deeper than Python's stack allows (pydantic's JSON reader stops at 200 levels first).
        raise ParseError(TOO_DEEP) from None


@dataclass(frozen=True)
class DeckListBody:
    """Gate Ruler's validate body (DeckValidateInput) as decks.drafts.deck_judge takes it: lines as DeckListLines."""

    ruler: str
    geas: str | None
    as_of: date | None
    attribute: str | None
    main: list[DeckListLine]
    resources: list[DeckListLine]

    @classmethod
    def of(cls, body: DeckValidateInput) -> DeckListBody:
        return cls(body.ruler, body.geas, body.as_of, body.attribute, list_lines(body.main), list_lines(body.resources))


def list_lines(lines: list[DeckLine]) -> list[DeckListLine]:
    # Field by field: model_dump() per line would cost as much as reading the whole body.
    return [DeckListLine(count=line.count, number=_given(line.number), name=_given(line.name)) for line in lines]


def _given(value: str) -> str | None:
    return None if value is MISSING else value


def validate_body_parse(request: Request) -> DeckListBody | BaseModel:
    """The validate API's body: Gate Ruler's as a DeckListBody, another game's read by its own model
    (decks.api.bodies.VALIDATE_INPUTS).

    A body that does not say "game" is Gate Ruler's (every older client's), read in one pass
    (most often by _quick_read); a body that does is read twice, first for its game only.
    """
    raw = _json_bytes(request)
    if raw is not None and b'"game"' not in raw:
        quick = _quick_read(raw)
        if quick is not None:
            return quick
        model: type[BaseModel] = DeckValidateInput
    else:
        model = VALIDATE_INPUTS[_body_parse(GameOfBody, request, raw).game]
    body = _body_parse(model, request, raw)
    return DeckListBody.of(body) if isinstance(body, DeckValidateInput) else body


# ---------------------------------------------------------------- Gate Ruler's validate body, read quickly
#
# DeckValidateInput checks each line's number or name and count in Python (decks.api.fields: the
# words of DRF's fields), half the work of reading the body (docs/benchmarks.md), and its
# lines then become DeckListLines. The body as clients nearly always send it (text of printable
# ASCII without surrounding spaces, JSON integers for counts, slugs as they are) is read here in
# one pass in Rust, straight into DeckListLines. What this reader takes, DeckValidateInput takes
# too and reads the same (tests/decks/api/test_validate_quick_read.py checks both on many bodies):
# each check is one of the model's, or stricter. Anything else (a number sent as a JSON number, a
# name with accents, a padded slug, a key of another field, any mistake) is left to the model,
# which reads it or words the refusal as before.

# Printable ASCII, not starting or ending with a space: what the model's text keeps as it is.
_ASCII_TEXT = r"^[!-~](?:[ -~]*[!-~])?$"
_TEXT = cs.str_schema(pattern=_ASCII_TEXT, strict=True)
_SLUG = cs.str_schema(pattern=SLUG_PATTERN, strict=True)


def _field(name: str, schema: cs.CoreSchema, **default: Any) -> cs.DataclassField:
    return cs.dataclass_field(name, cs.with_default_schema(schema, **default) if default else schema)


def _dataclass(cls: type, fields: list[cs.DataclassField], extra: cs.ExtraBehavior) -> cs.DataclassSchema:
    args = cs.dataclass_args_schema(cls.__name__, fields, extra_behavior=extra)
    return cs.dataclass_schema(cls, args, [field["name"] for field in fields], frozen=True)


# A line's number and name default to None only when left out (null is the model's to refuse);
# exactly one of them is checked by _quick_read. Other keys are ignored, as DeckLine ignores them.
_LINES = cs.list_schema(
    _dataclass(
        DeckListLine,
        [
            _field("count", cs.int_schema(ge=1, le=MAX_LINE_COUNT, strict=True)),
            _field("number", _TEXT, default=None),
            _field("name", _TEXT, default=None),
        ],
        "ignore",
    ),
    max_length=MAX_LINES,
    strict=True,
)
# No other key than these: a "game" written with an escape (unseen by validate_body_parse's test
# of the bytes) is the model's to read.
_QUICK_BODY = SchemaValidator(
    _dataclass(
        DeckListBody,
        [
            _field("ruler", _SLUG),
            _field("geas", cs.nullable_schema(_SLUG), default=None),
            _field("as_of", cs.nullable_schema(cs.str_schema(strict=True)), default=None),
            _field(
                "attribute", cs.nullable_schema(cs.str_schema(pattern=f"^$|{_ASCII_TEXT}", strict=True)), default=None
            ),
            _field("main", _LINES),
            _field("resources", _LINES, default_factory=list),
        ],
        "forbid",
    )
)


def _quick_read(raw: bytes) -> DeckListBody | None:
    """The body as DeckValidateInput would read it, or None: a body this reader does not take as it is."""
    try:
        body: DeckListBody = _QUICK_BODY.validate_json(raw)
    except ValueError:  # ValidationError, or JSON pydantic's reader refuses
        return None
    for line in body.main + body.resources:
        if (line.number is None) is (line.name is None):
            return None  # the model says which line, and why
    if body.as_of is not None:  # the date as the model reads it (Django's parse_date)
        try:
            return DeckListBody(body.ruler, body.geas, iso_date(body.as_of), body.attribute, body.main, body.resources)
        except PydanticCustomError:
            return None
    return body


def _json_bytes(request: Request) -> bytes | None:
    if request.content_type != "application/json":  # the whole header: with a charset, DRF's parser decodes it
        return None
    try:
        raw = request.body
    except RawPostDataException:  # the stream was read already: request.data has it
        return None
    return raw or None  # DRF reads an empty body as {}: "This field is required." for each field


def _message(detail: ErrorDetails) -> str:
    """The error in the request's language (the messages above; others as pydantic words them)."""
    if detail["input"] is None and detail["type"] != "missing":
        return gettext(_NULL)
    template = _MESSAGES.get(detail["type"])
    if template is None:
        return detail["msg"]
    values = {**detail.get("ctx", {}), "input": detail["input"], "type": type(detail["input"]).__name__}
    return gettext(template).format_map(values)


def _location(detail: ErrorDetails) -> tuple[tuple[str | int, ...], str | None]:
    """Where an error goes: the path of the object, and its field (None: the object itself)."""
    loc = tuple(detail["loc"])
    if detail["type"] in _OBJECT_ERRORS or not loc:
        return loc, None
    return loc[:-1], str(loc[-1])


def _by_field(details: list[ErrorDetails]) -> dict[str | int, Any]:
    errors: dict[str | int, Any] = {}
    for detail in details:
        path, field = _location(detail)
        node = errors
        for part in path:
            node = node.setdefault(part, {})
        node.setdefault(field or NON_FIELD, []).append(_message(detail))
    return errors


def _sentence(detail: ErrorDetails) -> str:
    """One error as "main[2].count: …" (DRF's path style: field names joined by dots, list items as [i])."""
    where = ""
    for part in detail["loc"]:
        where += f"[{part}]" if isinstance(part, int) else f".{part}"
    where = where.lstrip(".")
    message = _message(detail)
    return f"{where}: {message}" if where else message
