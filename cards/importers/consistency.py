"""Checks across the rows of set files (pure, like parsing): collector numbers unique, printings of a
name agreeing, a set code with one name and date. Run on one file by the parser and on all files of
an import by the import plan.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from .records import RULES_FIELDS, CardRecord, ParsedFile, RowError, SetRecord


def consistency_errors(files: Sequence[ParsedFile]) -> list[RowError]:
    """Checks across all rows of the given files: collector numbers unique, printings of a name agree, a set code has one name and date.

    Run on one file by parse_card_file, and on all files of an import by the service.
    """
    errors: list[RowError] = []
    numbers: dict[str, tuple[str, str]] = {}
    first_of_name: dict[str, tuple[str, CardRecord]] = {}
    sets: dict[str, tuple[str, SetRecord]] = {}
    for parsed in files:
        for card_set in parsed.sets:
            if card_set.code in sets:
                errors.extend(_set_disagreements(parsed.name, card_set, *sets[card_set.code]))
            else:
                sets[card_set.code] = (parsed.name, card_set)
        for card in parsed.cards:
            seen = numbers.get(card.collector_number)
            if seen is not None:
                message = f"collector number {card.collector_number!r} is already used at {_where(parsed.name, *seen)}"
                errors.append(RowError(parsed.name, card.row, "number", message))
                continue
            numbers[card.collector_number] = (parsed.name, card.row)
            if card.name in first_of_name:
                errors.extend(_printing_disagreements(parsed.name, card, *first_of_name[card.name]))
            else:
                first_of_name[card.name] = (parsed.name, card)
    return errors


def _set_disagreements(file: str, card_set: SetRecord, other_file: str, other: SetRecord) -> list[RowError]:
    """A set code's name or release date that differs from its first row's."""
    errors = []
    for field in ("name", "release_date", "game"):
        mine, theirs = getattr(card_set, field), getattr(other, field)
        if mine != theirs:
            where = _where(file, other_file, other.row)
            message = f"set {card_set.code!r} has {show_value(mine)} here but {show_value(theirs)} at {where}"
            errors.append(RowError(file, card_set.row, field, message))
    return errors


def _printing_disagreements(file: str, card: CardRecord, other_file: str, other: CardRecord) -> list[RowError]:
    """The rules fields in which a printing differs from the first printing of its name."""
    errors = []
    mine, theirs = card.rules(), other.rules()
    for field in RULES_FIELDS:
        if mine[field] != theirs[field]:
            where = _where(file, other_file, other.row)
            message = f"printings of {card.name!r} disagree: {show_value(mine[field])} here, {show_value(theirs[field])} at {where}"
            errors.append(RowError(file, card.row, field, message))
    return errors


def show_value(value: object) -> str:
    if value is None or value == "":
        return "nothing"
    if isinstance(value, tuple):
        return "[" + ", ".join(repr(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, date):
        return value.isoformat()
    return repr(value)


def _where(current_file: str, file: str, row: str) -> str:
    return row if file == current_file else f"{file} {row}"
