"""PURE: turn the bytes of a set file (.json or .csv) into records, or reject the file whole.

No Django imports. Every bad row is reported (not just the first), each error naming the
file, the row ("cards[3]" for JSON, "row 5" = physical CSV line, header = line 1) and the field.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Mapping
from datetime import date
from pathlib import PurePath

from cards.games import UnknownGameError, default_game, game_get
from decks.rules.games import GameDefinition
from decks.rules.types import CARD_TYPES

from .consistency import consistency_errors, show_value
from .game_fields import game_card_fields, game_card_read, game_card_type, game_unknown_keys
from .records import (
    CardRecord,
    ImportFileError,
    ParsedFile,
    RowError,
    SetRecord,
)

ENERGY = "energy"

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

CSV_REQUIRED_COLUMNS = ("number", "name", "type", "set_code", "set_name")
CSV_TRUE = frozenset({"true", "1", "yes"})
CSV_FALSE = frozenset({"false", "0", "no"})
_CSV_INTEGER = re.compile(r"[+-]?[0-9]+")
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def parse_card_file(path_or_name: str, raw: bytes) -> ParsedFile:
    """Parse one set file, choosing the format by extension; raise ImportFileError listing every bad row."""
    suffix = PurePath(path_or_name).suffix.lower()
    if suffix == ".json":
        return _parse_json(path_or_name, raw)
    if suffix == ".csv":
        return _parse_csv(path_or_name, raw)
    raise ImportFileError(
        [
            RowError(
                path_or_name,
                "",
                None,
                f"unsupported file type {suffix or '(none)'!r}; expected .json or .csv",
            )
        ]
    )


# --- JSON -------------------------------------------------------------------------------


def _parse_json(name: str, raw: bytes) -> ParsedFile:
    def fail(message: str, row: str = "", field: str | None = None) -> ImportFileError:
        return ImportFileError([RowError(name, row, field, message)])

    try:
        payload = json.loads(_decode(name, raw))
    except json.JSONDecodeError as exc:
        raise fail(f"malformed JSON: {exc}") from exc
    if not isinstance(payload, dict):
        raise fail('expected a JSON object with "set" and "cards"')
    try:  # the file's game; absent: the default game, so files older than the games keep their meaning
        game = game_get(payload["game"]) if "game" in payload else default_game()
    except UnknownGameError as exc:
        raise fail(str(exc), field="game") from exc
    errors: list[RowError] = []

    set_values = payload.get("set")
    card_set: SetRecord | None = None
    if not isinstance(set_values, dict):
        errors.append(RowError(name, "set", None, "expected an object with code, name and release_date"))
    else:
        reader = _JsonReader(name, "set", set_values, errors)
        card_set = _read_set(reader, code="code", set_name="name", game=game)

    cards_values = payload.get("cards")
    cards: list[CardRecord] = []
    if not isinstance(cards_values, list):
        errors.append(RowError(name, "cards", None, "expected a list of cards"))
        cards_values = []
    for index, values in enumerate(cards_values):
        row = f"cards[{index}]"
        if not isinstance(values, dict):
            errors.append(RowError(name, row, None, "expected an object"))
            continue
        record = _read_card(
            _JsonReader(name, row, values, errors),
            set_code=card_set.code if card_set else "",
            game=game,
        )
        if record is not None:
            cards.append(record)
    return _finish(name, (card_set,) if card_set else (), cards, errors)


# --- CSV --------------------------------------------------------------------------------


def _parse_csv(name: str, raw: bytes) -> ParsedFile:
    text = _decode(name, raw)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    errors: list[RowError] = []
    try:
        columns = _csv_columns(name, next(reader, None))
        sets: dict[str, SetRecord] = {}
        cards: list[CardRecord] = []
        line = reader.line_num
        for cells in reader:
            row = f"row {line + 1}"  # where this record starts, even if a cell spans lines
            line = reader.line_num
            if not any(cell.strip() for cell in cells):
                continue  # a blank line is not a row
            if len(cells) != len(columns):
                message = f"malformed CSV: {len(cells)} cells, the header has {len(columns)}"
                errors.append(RowError(name, row, None, message))
                continue
            csv_reader = _CsvReader(name, row, dict(zip(columns, cells, strict=True)), errors)
            game = _csv_game(csv_reader)
            if game is None:
                continue
            card_set = _read_set(csv_reader, code="set_code", set_name="set_name", game=game)
            if card_set is not None:
                _csv_set_check(csv_reader, card_set, sets.setdefault(card_set.code, card_set))
            record = _read_card(csv_reader, set_code=card_set.code if card_set else "", game=game)
            if record is not None and card_set is not None:
                cards.append(record)
    except csv.Error as exc:
        errors.append(RowError(name, f"row {reader.line_num}", None, f"malformed CSV: {exc}"))
        raise ImportFileError(errors) from exc
    return _finish(name, tuple(sets.values()), cards, errors)


def _csv_columns(name: str, header: list[str] | None) -> list[str]:
    """The header's column names; ImportFileError if it is missing, repeats a column or lacks a required one."""
    if header is None or not any(cell.strip() for cell in header):
        raise ImportFileError([RowError(name, "", None, "no header row")])
    columns = [cell.strip() for cell in header]
    duplicates = sorted({c for c in columns if c and columns.count(c) > 1})
    missing = [c for c in CSV_REQUIRED_COLUMNS if c not in columns]
    if duplicates or missing:
        problems = [f"duplicate column {c!r}" for c in duplicates]
        problems += [f"missing column {c!r}" for c in missing]
        raise ImportFileError([RowError(name, "row 1", None, p) for p in problems])
    return columns


def _csv_game(reader: _CsvReader) -> GameDefinition | None:
    """The row's game (its `game` cell; blank or no such column: the default game); None with an error if unknown."""
    slug = reader.text("game")
    try:
        return default_game() if slug is None else game_get(slug)
    except UnknownGameError as exc:
        reader.error("game", str(exc))
        return None


def _csv_set_check(reader: _CsvReader, card_set: SetRecord, known: SetRecord) -> None:
    """A row's set name, release date and game must be those of the set code's first row."""
    for attr, field in (("name", "set_name"), ("release_date", "release_date"), ("game", "game")):
        mine, theirs = getattr(card_set, attr), getattr(known, attr)
        if mine != theirs:
            reader.error(
                field, f"set {card_set.code!r} has {show_value(mine)} here but {show_value(theirs)} at {known.row}"
            )


# --- shared -----------------------------------------------------------------------------


def _decode(name: str, raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")  # -sig: a leading BOM is dropped, not data
    except UnicodeDecodeError as exc:
        raise ImportFileError([_not_utf8(name, raw, exc)]) from exc


def _not_utf8(name: str, raw: bytes, exc: UnicodeDecodeError) -> RowError:
    line = raw.count(b"\n", 0, exc.start) + 1
    return RowError(name, "", None, f"not UTF-8 text: {exc} (line {line})")


def check_file_content(path_or_name: str, raw: bytes) -> list[RowError]:
    """Cheap checks of an uploaded file before it is queued: extension, empty, binary, UTF-8, JSON shape.

    The rows themselves are checked by parse_card_file when the file is imported.
    """
    suffix = PurePath(path_or_name).suffix.lower()
    if suffix not in (".json", ".csv"):
        return [
            RowError(
                path_or_name,
                "",
                None,
                f"unsupported file type {suffix or '(none)'!r}; expected .json or .csv",
            )
        ]
    if not raw.strip():
        return [RowError(path_or_name, "", None, "the file is empty")]
    if b"\x00" in raw:
        line = raw.count(b"\n", 0, raw.index(b"\x00")) + 1
        return [RowError(path_or_name, "", None, f"binary data (a NUL byte at line {line}), not a text file")]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return [_not_utf8(path_or_name, raw, exc)]
    if suffix == ".json" and not text.lstrip().startswith("{"):
        return [RowError(path_or_name, "", None, 'expected a JSON object with "set" and "cards"')]
    return []


def card_fields_errors(game: GameDefinition, card_type: str, fields: Mapping[str, object]) -> list[RowError]:
    """A stored card's type and game fields checked as an import checks a row (Card.clean, for the admin)."""
    errors: list[RowError] = []
    reader = _JsonReader("", "", {"type": card_type, **fields}, errors)
    found = game_card_type(reader, game)
    if found is not None:
        game_card_fields(reader, game, found)
    game_unknown_keys(reader, game)
    return errors


def _finish(
    name: str,
    sets: tuple[SetRecord, ...],
    cards: list[CardRecord],
    errors: list[RowError],
) -> ParsedFile:
    parsed = ParsedFile(name=name, sets=sets, cards=tuple(cards))
    errors.extend(consistency_errors([parsed]))
    if errors:
        raise ImportFileError(errors)
    return parsed


def _read_set(reader: _Reader, *, code: str, set_name: str, game: GameDefinition) -> SetRecord | None:
    before = len(reader.errors)
    set_code = reader.text(code, required=True)
    name = reader.text(set_name, required=True)
    release_date = reader.date("release_date")
    if len(reader.errors) > before or set_code is None or name is None:
        return None
    return SetRecord(code=set_code, name=name, release_date=release_date, row=reader.row, game=game.slug)


# A CSV row's set and game columns, which a card of another game than the default may have too.
_CSV_SET_COLUMNS = ("set_code", "set_name", "release_date", "game")


def _read_card(reader: _Reader, *, set_code: str, game: GameDefinition) -> CardRecord | None:
    if not game.default:  # its fields are its game's (data/games/<slug>.json)
        also = _CSV_SET_COLUMNS if isinstance(reader, _CsvReader) else ()
        return game_card_read(reader, game, set_code=set_code, also=also)
    before = len(reader.errors)
    number = reader.text("number", required=True)
    name = reader.text("name", required=True)
    card_type, faction, level = _read_type_faction_level(reader, before=before)
    attributes = reader.attributes("attributes")
    atk = reader.integer("atk")
    hp = reader.integer("hp")
    stk = reader.integer("stk")
    cnt = reader.boolean("cnt")
    legend = reader.boolean("legend")
    text = reader.text("text") or ""
    name_ja = reader.text("name_ja") or ""
    rarity = reader.text("rarity") or ""
    if len(reader.errors) > before or number is None or name is None or card_type is None:
        return None
    return CardRecord(
        collector_number=number,
        name=name,
        set_code=set_code,
        type=card_type,
        faction=faction,
        attributes=attributes,
        level=level,
        atk=atk,
        hp=hp,
        stk=stk,
        cnt=cnt,
        legend=legend,
        text=text,
        name_ja=name_ja,
        rarity=rarity,
        row=reader.row,
        game=game.slug,
    )


def _read_type_faction_level(reader: _Reader, *, before: int) -> tuple[str | None, str | None, int | None]:
    """A card's type, faction and level: an energy card has neither faction nor level, any other card both."""
    card_type = reader.text("type", required=True)
    if card_type is not None:
        card_type = card_type.lower()
        if card_type not in CARD_TYPES:
            reader.error("type", f"{reader.raw('type')!r} is not a card type ({', '.join(CARD_TYPES)})")
    faction = reader.text("faction")
    level = reader.integer("level")
    if card_type == ENERGY:
        if faction is not None:
            reader.error("faction", "an energy card has no faction")
        if level is not None:
            reader.error("level", "an energy card has no level")
    elif card_type in CARD_TYPES:
        bad = {e.field for e in reader.errors[before:]}
        for field, value in (("faction", faction), ("level", level)):
            if value is None and field not in bad:  # a bad value has its own error
                reader.error(field, "is required (only energy cards have none)")
    return card_type, faction, level


class _Reader:
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
        return result

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
        if _ISO_DATE.fullmatch(value):
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
        return tuple(sorted(result))


class _JsonReader(_Reader):
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


class _CsvReader(_Reader):
    """Every cell is text; an empty cell is null."""

    def _integer(self, key: str) -> int | None:
        value = self.raw(key)
        if value is None:
            return None
        assert isinstance(value, str)
        if not _CSV_INTEGER.fullmatch(value.strip()):
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
