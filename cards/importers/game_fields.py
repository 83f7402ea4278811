"""PURE: a card of a game other than the default one, read from a set-file row against its game's data.

Which keys a card may have, which are required, what kind each value is: all from the game's
`card_fields` (data/games/<slug>.json), never from a game's name. One small reader per field kind
(int, text, bool, choices); a fourth game needs no code here unless it brings a new kind.
Errors go to the row's reader, each naming the field, like every other import error.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from decks.rules.games import CardField, GameDefinition

from .records import CardRecord, RowError

# Keys every game's card has besides its game's card_fields (see issue 11's contract).
COMMON_KEYS = ("number", "name", "type", "rarity", "text")


class FieldReader(Protocol):
    """What parsing's row readers offer (JSON: typed values; CSV: text cells)."""

    row: str
    errors: list[RowError]

    def error(self, field: str, message: str) -> None: ...
    def raw(self, key: str) -> object: ...
    def text(self, key: str, *, required: bool = False) -> str | None: ...
    def integer(self, key: str) -> int | None: ...
    def boolean(self, key: str) -> bool: ...
    def attributes(self, key: str) -> tuple[str, ...]: ...
    def given(self) -> list[str]: ...


FieldValue = int | str | bool | list[str] | None


def _read_int(reader: FieldReader, field: CardField) -> FieldValue:
    return reader.integer(field.key)


def _read_text(reader: FieldReader, field: CardField) -> FieldValue:
    return reader.text(field.key)


def _read_bool(reader: FieldReader, field: CardField) -> FieldValue:
    return reader.boolean(field.key)


def _read_choices(reader: FieldReader, field: CardField) -> FieldValue:
    """A choice by key or label, any case; several (a JSON list, or "red/blue" in CSV) when the field is `many`."""
    if field.many:
        given: tuple[str, ...] = reader.attributes(field.key)
    else:
        one = reader.text(field.key)
        given = (one,) if one else ()
    by_name = {c.key.casefold(): c.key for c in field.choices} | {c.label.casefold(): c.key for c in field.choices}
    keys = []
    for value in given:
        key = by_name.get(value.strip().casefold())
        if key is None:
            allowed = ", ".join(field.choice_keys())
            reader.error(field.key, f"{value!r} is not a {field.label.lower()} ({allowed})")
        elif key not in keys:
            keys.append(key)
    if field.many:
        order = field.choice_keys()
        return sorted(keys, key=order.index)
    return keys[0] if keys else None


FIELD_READERS: Mapping[str, Callable[[FieldReader, CardField], FieldValue]] = {
    "int": _read_int,
    "text": _read_text,
    "bool": _read_bool,
    "choices": _read_choices,
}


def _missing(value: FieldValue) -> bool:
    return value is None or value == []


def game_card_type(reader: FieldReader, game: GameDefinition) -> str | None:
    """The row's card type, one of its game's (any case); None with an error when missing or unknown."""
    card_type = reader.text("type", required=True)
    if card_type is None:
        return None
    if card_type.lower() not in game.type_keys():
        allowed = ", ".join(game.type_keys())
        reader.error("type", f"{card_type!r} is not a card type of {game.name} ({allowed})")
        return None
    return card_type.lower()


def game_card_fields(reader: FieldReader, game: GameDefinition, card_type: str) -> dict[str, FieldValue]:
    """The values of every field of the game that the card's type has; errors for a missing required
    value and for a value of a field its type does not have ("a level on an action")."""
    values: dict[str, FieldValue] = {}
    type_label = next(t.label for t in game.card_types if t.key == card_type)
    for field in game.card_fields:
        if card_type not in field.types:
            # A uniform exporter writes every field for every card: false (or null) says "no Instant"
            # as well as leaving it out; a bad value has its own error from reader.boolean.
            if field.kind == "bool" and reader.raw(field.key) is not None and not reader.boolean(field.key):
                continue
            if reader.raw(field.key) is not None:
                types = ", ".join(field.types)
                reader.error(field.key, f"{type_label} cards have no {field.label} (only {types} cards have it)")
            continue
        before = len(reader.errors)
        value = FIELD_READERS[field.kind](reader, field)
        if _missing(value) and field.required and len(reader.errors) == before:
            reader.error(field.key, f"is required for {type_label} cards")
        values[field.key] = value
    return values


def game_unknown_keys(
    reader: FieldReader, game: GameDefinition, *, own: tuple[str, ...] = (), also: tuple[str, ...] = ()
) -> None:
    """An error for each key given that the game's cards do not have (a blank CSV cell is not given).

    `own`: fields the game's cards have besides its card_fields (Gate Ruler's catalog columns);
    `also`: keys a row may hold that are not card fields (a CSV row's set columns).
    """
    known = {*COMMON_KEYS, *own, *(f.key for f in game.card_fields), *also}
    for key in [key for key in reader.given() if key not in known]:
        if reader.raw(key) is not None:
            fields = ", ".join([*COMMON_KEYS, *own, *(f.key for f in game.card_fields)])
            reader.error(key, f"is not a field of {game.name} cards (they have {fields})")


def game_card_read(
    reader: FieldReader, game: GameDefinition, *, set_code: str, also: tuple[str, ...] = ()
) -> CardRecord | None:
    """A card of `game` from one row, or None when the row has errors (each recorded on the reader)."""
    before = len(reader.errors)
    number = reader.text("number", required=True)
    name = reader.text("name", required=True)
    card_type = game_card_type(reader, game)
    fields = game_card_fields(reader, game, card_type) if card_type is not None else {}
    game_unknown_keys(reader, game, also=also)
    text = reader.text("text") or ""
    rarity = reader.text("rarity") or ""
    if len(reader.errors) > before or number is None or name is None or card_type is None:
        return None
    return CardRecord(
        collector_number=number,
        name=name,
        set_code=set_code,
        type=card_type,
        faction=None,
        attributes=(),
        level=None,
        atk=None,
        hp=None,
        stk=None,
        cnt=False,
        legend=False,
        text=text,
        name_ja="",
        rarity=rarity,
        row=reader.row,
        game=game.slug,
        fields=fields,
    )
