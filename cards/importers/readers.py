"""PURE: read one row of a set file (a JSON object or a CSV row) field by field, recording an error per bad field.

No Django imports. cards.importers.parsing reads a file's rows with these; JSON's types are strict, CSV's
cells are text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from datetime import date

from cards.displayed_text import code_point_label, spoofing_search

from .records import RowError

# Mirrors the max_length of cards.models, so an over-long value is a row error, not a
# database error halfway through the write.
MAX_LENGTHS = {
    "number": 40,
    "name": 200,
    "name_ja": 200,
    "faction": 100,
    "attributes": 100,
    "rarity": 20,
    "code": 20,
    "set_code": 20,
    "set_name": 200,
}
# Card integers are IntegerField: 32-bit on PostgreSQL.
INT_MIN, INT_MAX = -(2**31), 2**31 - 1

CSV_TRUE = frozenset({"true", "1", "yes"})
CSV_FALSE = frozenset({"false", "0", "no"})
CSV_INTEGER = re.compile(r"[+-]?[0-9]+")
ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class Reader:
    """Reads typed fields out of one row, recording an error per bad field."""

    def __init__(self, file: str, row: str, values: Mapping[str, object], errors: list[RowError]) -> None:
        self.file = file
        self.row = row
        self.values = values
        self.errors = errors

    def error(self, field: str, message: str) -> None:
        self.errors.append(RowError(self.file, self.row, field, message))

    def raw(self, key: str) -> object:
        """The value as given; None when absent, null or blank."""
        value = self.values.get(key)
        if isinstance(value, str) and not value.strip():
            return None
        return value

    def show(self, value: object) -> str:
        return repr(value)

    def given(self) -> list[str]:
        """The keys (JSON) or columns (CSV) of the row."""
        return list(self.values)

    def text(self, key: str, *, required: bool = False) -> str | None:
        # self.raw(key), inlined: this runs for every text field of every row.
        value = self.values.get(key)
        if value is not None and not isinstance(value, str):
            self.error(key, f"{self.show(value)} is not a string")
            return None
        result = value.strip() if value else None
        if not result:
            if required:
                self.error(key, "is required")
            return None
        limit = MAX_LENGTHS.get(key)
        if limit is not None and len(result) > limit:
            self.error(key, f"is longer than {limit} characters")
            return None
        spoofing = spoofing_search(result)
        if spoofing is not None:
            self.spoofing_error(key, spoofing.group())
            return None
        return result

    def spoofing_error(self, key: str, char: str) -> None:
        """A value holds a character that changes how a text displays (a right-to-left override, a
        zero-width space): refused as in a deck's name, naming the character."""
        self.error(
            key,
            f"contains {code_point_label(char)}; invisible and text-direction control characters are not allowed",
        )

    def integer(self, key: str) -> int | None:
        value = self._integer(key)
        if value is not None and not INT_MIN <= value <= INT_MAX:
            self.error(key, f"{value} is out of range")
            return None
        return value

    def _integer(self, key: str) -> int | None:
        raise NotImplementedError

    def boolean(self, key: str) -> bool:
        raise NotImplementedError

    def date(self, key: str) -> date | None:
        value = self.text(key)
        if value is None:
            return None
        if ISO_DATE.fullmatch(value):
            try:
                return date.fromisoformat(value)
            except ValueError:
                pass
        self.error(key, f"{value!r} is not a date (YYYY-MM-DD)")
        return None

    def attributes(self, key: str) -> tuple[str, ...]:
        raise NotImplementedError

    def _attribute_set(self, key: str, names: Iterable[str]) -> tuple[str, ...]:
        result = {n.strip() for n in names if n.strip()}
        limit = MAX_LENGTHS["attributes"]
        for attribute in sorted(result):
            if len(attribute) > limit:
                self.error(key, f"{attribute[:20]!r}… is longer than {limit} characters")
            spoofing = spoofing_search(attribute)
            if spoofing is not None:
                self.spoofing_error(key, spoofing.group())
                result.discard(attribute)  # its error is enough: a choice field would add "not a colour"
        return tuple(sorted(result))


class JsonReader(Reader):
    """JSON types are strict: an integer is a JSON number without fraction, a boolean is true/false."""

    def show(self, value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    def _integer(self, key: str) -> int | None:
        value = self.values.get(key)  # strict: a blank string is not null here
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(key, f"{self.show(value)} is not an integer")
            return None
        return value

    def boolean(self, key: str) -> bool:
        value = self.values.get(key)  # strict: a blank string is not null here
        if value is None:
            return False
        if not isinstance(value, bool):
            self.error(key, f"{self.show(value)} is not a boolean (true or false)")
            return False
        return value

    def attributes(self, key: str) -> tuple[str, ...]:
        value = self.values.get(key)  # strict: a blank string is not null here
        if value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.error(key, f"{self.show(value)} is not a list of strings")
            return ()
        return self._attribute_set(key, value)


class CsvReader(Reader):
    """Every cell is text; an empty cell is null."""

    def _integer(self, key: str) -> int | None:
        value = self.raw(key)
        if value is None:
            return None
        assert isinstance(value, str)
        if not CSV_INTEGER.fullmatch(value.strip()):
            self.error(key, f"{value!r} is not an integer")
            return None
        return int(value)

    def boolean(self, key: str) -> bool:
        value = self.raw(key)
        if value is None:
            return False
        assert isinstance(value, str)
        lowered = value.strip().lower()
        if lowered in CSV_TRUE:
            return True
        if lowered not in CSV_FALSE:
            self.error(key, f"{value!r} is not a boolean (true/false, 1/0 or yes/no)")
        return False

    def attributes(self, key: str) -> tuple[str, ...]:
        value = self.raw(key)
        if value is None:
            return ()
        assert isinstance(value, str)
        return self._attribute_set(key, value.split("/"))
