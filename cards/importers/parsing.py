"""PURE: turn the bytes of a set file (.json or .csv) into records, or reject the file whole.

No Django imports. Every bad row is reported (not just the first), each error naming the
file, the row ("cards[3]" for JSON, "row 5" = physical CSV line, header = line 1) and the field.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping
from itertools import accumulate
from pathlib import PurePath

from cards.games import UnknownGameError, default_game, game_get
from decks.rules.games import GameDefinition
from decks.rules.types import CARD_TYPES

from .consistency import consistency_errors, show_value
from .game_fields import game_card_fields, game_card_read, game_card_type, game_unknown_keys
from .readers import CsvReader, JsonReader, Reader
from .records import (
    CardRecord,
    ImportFileError,
    ParsedFile,
    RowError,
    SetRecord,
)

ENERGY = "energy"

CSV_REQUIRED_COLUMNS = ("number", "name", "type", "set_code", "set_name")

# The keys a set file may have: at the top, in its set, and on a Gate Ruler card (whose fields
# are the catalog's own columns; the other games' are their card_fields, cards.importers.game_fields).
FILE_KEYS = ("game", "set", "cards")
SET_KEYS = ("code", "name", "release_date")
GATE_RULER_KEYS = ("name_ja", "faction", "attributes", "level", "atk", "hp", "stk", "cnt", "legend")

# How deep a JSON set file may nest: the file, its cards, a card, a list of attributes need 4.
# Deeper is refused before json.loads, whose C decoder recurses per level (RecursionError, no file name).
MAX_JSON_DEPTH = 8
# Every byte but quotes and brackets (a UTF-8 character past ASCII has no ASCII bytes), deleted in C.
_NOT_QUOTE_OR_BRACKET = bytes(b for b in range(256) if b not in b'"[]{}')
_DEPTH_STEP = [1 if b in b"[{" else -1 if b in b"]}" else 0 for b in range(256)]
# A JSON string (skipped whole, so its brackets do not count), a bracket, or an unclosed quote.
_JSON_NESTING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]|"', re.DOTALL)


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

    text = _decode(name, raw)
    too_deep = json_nesting_error(name, raw)
    if too_deep is not None:
        raise ImportFileError([too_deep])
    try:
        payload = json.loads(text)
    except ValueError as exc:  # JSONDecodeError, or an integer of more digits than Python converts
        raise fail(f"malformed JSON: {exc}") from exc
    if not isinstance(payload, dict):
        raise fail('expected a JSON object with "set" and "cards"')
    try:  # the file's game; absent: the default game, so files older than the games keep their meaning
        game = game_get(payload["game"]) if "game" in payload else default_game()
    except UnknownGameError as exc:
        raise fail(str(exc), field="game") from exc
    errors: list[RowError] = []
    _unknown_keys(JsonReader(name, "", payload, errors), FILE_KEYS, "a set file")

    set_values = payload.get("set")
    card_set: SetRecord | None = None
    if not isinstance(set_values, dict):
        errors.append(RowError(name, "set", None, "expected an object with code, name and release_date"))
    else:
        reader = JsonReader(name, "set", set_values, errors)
        card_set = _read_set(reader, code="code", set_name="name", game=game)
        _unknown_keys(reader, SET_KEYS, "a set")

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
            JsonReader(name, row, values, errors),
            set_code=card_set.code if card_set else "",
            game=game,
        )
        if record is not None:
            cards.append(record)
    if not cards_values and not errors:
        errors.append(RowError(name, "cards", None, "the file has no cards"))
    return _finish(name, (card_set,) if card_set else (), cards, errors)


def json_nesting_error(name: str, raw: bytes) -> RowError | None:
    """An error naming the line where the JSON `raw` nests deeper than MAX_JSON_DEPTH, or None.

    json.loads recurses once per level and fails on a 50,000-deep array with a RecursionError
    that names no file; this counts the brackets outside strings instead, without recursion and
    in C (bytes.replace, translate, split): a tenth of a second for a 15 MB file.
    """
    # Escapes first, so that an escaped quote does not end a string: an escaped backslash, then
    # what is left of an escaped quote. Any other escape has no quote or bracket.
    kept = raw.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _NOT_QUOTE_OR_BRACKET)
    # Two quotes side by side have nothing between them: dropping them leaves every other byte inside
    # or outside a string as it was, and leaves only the strings that hold a bracket.
    kept = kept.replace(b'""', b"")
    outside_strings = b"".join(kept.split(b'"')[0::2])  # an unclosed string runs to the end
    if max(accumulate(map(_DEPTH_STEP.__getitem__, outside_strings)), default=0) <= MAX_JSON_DEPTH:
        return None
    return _json_too_deep(name, raw.decode("utf-8", errors="replace"))


def _json_too_deep(name: str, text: str) -> RowError:
    """The error naming the line of the first bracket of `text` past MAX_JSON_DEPTH (the slow path,
    token by token, taken only for a file being refused)."""
    depth, where = 0, ""
    for match in _JSON_NESTING.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                where = f" (line {text.count(chr(10), 0, match.start()) + 1})"
                break
        elif token in "]}":
            depth -= 1
        elif token == '"':  # an unclosed string, which runs to the end
            break
    message = f"the JSON nests deeper than {MAX_JSON_DEPTH} levels{where}; a set file needs 4 (the file, its cards, a card, a list)"
    return RowError(name, "", None, message)


def _unknown_keys(reader: Reader, known: tuple[str, ...], what: str) -> None:
    """An error for each key of a set file's top or its set that the format does not have."""
    for key in reader.given():
        if key not in known:
            reader.error(key, f"is not a field of {what} (it has {', '.join(known)})")


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
            csv_reader = CsvReader(name, row, dict(zip(columns, cells, strict=True)), errors)
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
    if not cards and not errors:
        errors.append(RowError(name, "", None, "the file has no cards, only a header row"))
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


def _csv_game(reader: CsvReader) -> GameDefinition | None:
    """The row's game (its `game` cell; blank or no such column: the default game); None with an error if unknown."""
    before = len(reader.errors)
    slug = reader.text("game")
    if len(reader.errors) > before:
        return None
    try:
        return default_game() if slug is None else game_get(slug)
    except UnknownGameError as exc:
        reader.error("game", str(exc))
        return None


def _csv_set_check(reader: CsvReader, card_set: SetRecord, known: SetRecord) -> None:
    """A row's set name, release date and game must be those of the set code's first row."""
    for attr, field in (("name", "set_name"), ("release_date", "release_date"), ("game", "game")):
        mine, theirs = getattr(card_set, attr), getattr(known, attr)
        if mine != theirs:
            reader.error(
                field, f"set {card_set.code!r} has {show_value(mine)} here but {show_value(theirs)} at {known.row}"
            )


# --- shared -----------------------------------------------------------------------------


def _decode(name: str, raw: bytes) -> str:
    if _looks_like_utf16(raw):
        raise ImportFileError([_utf16(name)])
    try:
        return raw.decode("utf-8-sig")  # -sig: a leading BOM is dropped, not data
    except UnicodeDecodeError as exc:
        raise ImportFileError([_not_utf8(name, raw, exc)]) from exc


def _not_utf8(name: str, raw: bytes, exc: UnicodeDecodeError) -> RowError:
    line = raw.count(b"\n", 0, exc.start) + 1
    return RowError(name, "", None, f"not UTF-8 text: {exc} (line {line})")


def _looks_like_utf16(raw: bytes) -> bool:
    """A UTF-16 byte-order mark, or text whose every other byte is NUL (ASCII saved as UTF-16)."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    sample = raw[:512]
    even, odd = sample[0::2], sample[1::2]
    return len(sample) >= 4 and (
        (odd.count(0) > len(odd) // 2 and not even.count(0)) or (even.count(0) > len(even) // 2 and not odd.count(0))
    )


def _utf16(name: str) -> RowError:
    return RowError(name, "", None, "the file looks like UTF-16 text; save it as UTF-8, the only encoding read")


def check_file_content(path_or_name: str, raw: bytes) -> list[RowError]:
    """Cheap checks of an uploaded file before it is queued: extension, empty, UTF-16, binary, UTF-8, JSON
    shape and nesting.

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
    if _looks_like_utf16(raw):
        return [_utf16(path_or_name)]
    if b"\x00" in raw:
        line = raw.count(b"\n", 0, raw.index(b"\x00")) + 1
        return [RowError(path_or_name, "", None, f"binary data (a NUL byte at line {line}), not a text file")]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return [_not_utf8(path_or_name, raw, exc)]
    if suffix == ".json":
        if not text.lstrip().startswith("{"):
            return [RowError(path_or_name, "", None, 'expected a JSON object with "set" and "cards"')]
        too_deep = json_nesting_error(path_or_name, raw)
        if too_deep is not None:
            return [too_deep]
    return []


def card_fields_errors(game: GameDefinition, card_type: str, fields: Mapping[str, object]) -> list[RowError]:
    """A stored card's type and game fields checked as an import checks a row (Card.clean, for the admin)."""
    errors: list[RowError] = []
    reader = JsonReader("", "", {"type": card_type, **fields}, errors)
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


def _read_set(reader: Reader, *, code: str, set_name: str, game: GameDefinition) -> SetRecord | None:
    before = len(reader.errors)
    set_code = reader.text(code, required=True)
    name = reader.text(set_name, required=True)
    release_date = reader.date("release_date")
    if len(reader.errors) > before or set_code is None or name is None:
        return None
    return SetRecord(code=set_code, name=name, release_date=release_date, row=reader.row, game=game.slug)


# A CSV row's set and game columns, which a card of another game than the default may have too.
_CSV_SET_COLUMNS = ("set_code", "set_name", "release_date", "game")


def _read_card(reader: Reader, *, set_code: str, game: GameDefinition) -> CardRecord | None:
    also = _CSV_SET_COLUMNS if isinstance(reader, CsvReader) else ()
    if not game.default:  # its fields are its game's (data/games/<slug>.json)
        return game_card_read(reader, game, set_code=set_code, also=also)
    before = len(reader.errors)
    game_unknown_keys(reader, game, own=GATE_RULER_KEYS, also=also)
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


def _read_type_faction_level(reader: Reader, *, before: int) -> tuple[str | None, str | None, int | None]:
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
