"""The scalar types the deck API's bodies are made of, read as DRF's fields read them.

The bodies moved from DRF serializers to pydantic models (decks.api.bodies) for speed; these
types keep what clients may send and the words of a refusal as they were: numbers are taken as
strings and trimmed, a count must be a JSON integer, a date is read by Django's parse_date.
Each message is a PydanticCustomError, so decks.api.parsing shows it as it is.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any

from django.core.exceptions import ValidationError
from django.utils.dateparse import parse_date
from pydantic import BeforeValidator, Field, StringConstraints
from pydantic_core import PydanticCustomError

from decks.models import MAX_LINE_COUNT, validate_displayed_text

SLUG_PATTERN = r"^[-a-zA-Z0-9_]+$"
_SURROGATE = re.compile("[\ud800-\udfff]")
_DECIMAL_ZERO = re.compile(r"\.0*\s*$")  # DRF's IntegerField takes "5.0" and 5.0 as 5


def _text(value: Any) -> str:
    """A CharField's reading: a string or a number, trimmed; no NUL, no lone surrogate."""
    # The common case first: printable ASCII text has neither (every validate line goes through here).
    if value.__class__ is str and value.isascii() and value.isprintable():
        return value.strip()
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise PydanticCustomError("not_a_string", "Not a valid string.")
    text = str(value).strip()
    if "\x00" in text:
        raise PydanticCustomError("null_characters", "Null characters are not allowed.")
    if not text.isascii() and (surrogate := _SURROGATE.search(text)):
        raise PydanticCustomError(
            "surrogate_characters",
            "Surrogate characters are not allowed: U+{code_point}.",
            {"code_point": f"{ord(surrogate.group()):X}"},
        )
    return text


def _displayed_text(value: Any) -> str:
    """A text players see as a deck's name or description: _text, without display-spoofing characters."""
    text = _text(value)
    try:
        validate_displayed_text(text)
    except ValidationError as exc:
        raise PydanticCustomError("spoofing_character", exc.messages[0]) from None
    return text


def iso_date(value: Any) -> date:
    """A DateField's reading (ISO 8601 by Django's parse_date); a JSON number is no date."""
    try:
        parsed = parse_date(value)
    except (ValueError, TypeError):
        parsed = None
    if parsed is None:
        raise PydanticCustomError("date", "Date has wrong format. Use one of these formats instead: YYYY-MM-DD.")
    return parsed


def _integer(value: Any) -> int:
    """An IntegerField's reading: 5, 5.0, "5" and "5.0" are 5; true is not a number."""
    if isinstance(value, str) and len(value) > 1000:
        raise PydanticCustomError("integer_too_long", "String value too large.")
    try:
        if isinstance(value, bool):  # str(True) is "True", which DRF's int() refuses
            raise ValueError(value)
        return int(_DECIMAL_ZERO.sub("", str(value)))
    except (ValueError, TypeError):
        raise PydanticCustomError("integer", "A valid integer is required.") from None


def _count(value: Any) -> int:
    """Copies of a card: a JSON integer of at least 1 ("4", 4.0 and true are refused)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise PydanticCustomError("count", "Count must be a positive integer, got {value}.", {"value": repr(value)})
    return value


def _deck_count(value: Any) -> int:
    count = _count(value)
    if count > MAX_LINE_COUNT:
        raise PydanticCustomError(
            "deck_count", "A deck keeps at most {limit} copies of one printing.", {"limit": MAX_LINE_COUNT}
        )
    return count


# Constraints come before the validator in each Annotated: pydantic then checks them on the
# validator's result and puts them in the schema (minLength, pattern, minimum, ...).


def text(*, blank: bool = False, max_length: int | None = None, pattern: str | None = None) -> Any:
    """A string (DRF's CharField): non-blank unless `blank`, at most `max_length` characters."""
    constraints = StringConstraints(min_length=None if blank else 1, max_length=max_length, pattern=pattern)
    return Annotated[str, constraints, BeforeValidator(_text)]


def displayed_text(*, max_length: int) -> Any:
    """A deck's name or description (may be blank): no character that changes how it displays."""
    return Annotated[str, StringConstraints(max_length=max_length), BeforeValidator(_displayed_text)]


def slug(*, max_length: int | None = None) -> Any:
    """Letters, digits, '-' and '_' (DRF's SlugField)."""
    return text(max_length=max_length, pattern=SLUG_PATTERN)


def integer(*, ge: int, le: int) -> Any:
    """A whole number in [ge, le] (DRF's IntegerField)."""
    return Annotated[int, Field(ge=ge, le=le), BeforeValidator(_integer)]


IsoDate = Annotated[date, BeforeValidator(iso_date)]
DeckCount = Annotated[int, Field(ge=1, le=MAX_LINE_COUNT), BeforeValidator(_deck_count)]
