"""PURE: the plain values a parsed card file turns into, and the errors that reject one.

No Django here: parsing and its tests run without settings or a database.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

from cards.games import default_game_slug

# Card fields that belong to the rules identity (the card name): every printing of a
# name must agree on them, and an import that changes them is an erratum.
RULES_FIELDS: tuple[str, ...] = (
    "type",
    "faction",
    "attributes",
    "level",
    "atk",
    "hp",
    "stk",
    "cnt",
    "legend",
    "text",
    "name_ja",
    # The card's game and its values of that game's card_fields (cards.importers.game_fields).
    "game",
    "fields",
)

# How many errors an ImportFileError message lists before it summarises the rest.
MAX_REPORTED_ERRORS = 50


@dataclass(frozen=True, slots=True)
class SetRecord:
    code: str
    name: str
    release_date: date | None
    row: str = ""  # where the set was first seen, e.g. "set" or "row 2"
    game: str = field(default_factory=default_game_slug)


@dataclass(frozen=True, slots=True)
class CardRecord:
    """One printing as the file gives it: the card's rules fields plus per-print facts."""

    collector_number: str
    name: str
    set_code: str
    type: str
    faction: str | None
    attributes: tuple[str, ...]  # sorted, unique: attributes are a set
    level: int | None
    atk: int | None
    hp: int | None
    stk: int | None
    cnt: bool
    legend: bool
    text: str
    name_ja: str
    rarity: str
    row: str = ""  # "cards[3]" (JSON) or "row 5" (CSV physical line)
    game: str = field(default_factory=default_game_slug)
    # The game's card_fields, as JSON values (a list for a `many` field); empty for the default game.
    fields: Mapping[str, object] = field(default_factory=dict)

    def rules(self) -> dict[str, object]:
        """The rules fields, keyed by RULES_FIELDS."""
        return {name: getattr(self, name) for name in RULES_FIELDS}


@dataclass(frozen=True, slots=True)
class ParsedFile:
    name: str  # the path as given, used in every message
    sets: tuple[SetRecord, ...]
    cards: tuple[CardRecord, ...]


@dataclass(frozen=True, slots=True)
class RowError:
    file: str
    row: str  # "" for a problem with the whole file
    field: str | None
    message: str

    def __str__(self) -> str:
        where = self.file
        if self.row:
            where += f": {self.row}"
        if self.field:
            where += f'{"," if self.row else ":"} field "{self.field}"'
        return f"{where}: {self.message}"


class ImportFileError(Exception):
    """One or more files were rejected whole; `errors` holds every bad row found."""

    def __init__(self, errors: list[RowError]) -> None:
        self.errors = list(errors)
        super().__init__(self.message)

    @property
    def message(self) -> str:
        shown = [str(e) for e in self.errors[:MAX_REPORTED_ERRORS]]
        hidden = len(self.errors) - len(shown)
        if hidden > 0:
            shown.append(f"… and {hidden} more error{'s' if hidden != 1 else ''}")
        return "\n".join(shown)

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[type[ImportFileError], tuple[list[RowError]]]:
        # Exception pickles its args (the message); rebuild from the errors instead.
        return (type(self), (self.errors,))
