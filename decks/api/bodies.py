"""Every body the deck API reads or writes, declared once.

Each is a pydantic model: decks.api.parsing reads a request with it (and words its 400 errors),
the APIs build their answers through it, and decks.api.schema turns it into the OpenAPI schema.
A model's `title` is its schema component's name (kept from the serializers these replace).
"""

from __future__ import annotations

import operator
from datetime import date, datetime
from functools import reduce
from typing import Annotated, Any, Literal

from pydantic import MISSING, BaseModel, ConfigDict, Field, RootModel, create_model, model_validator
from pydantic_core import PydanticCustomError

from cards.games import default_game_slug, games
from decks.api.fields import DeckCount, IsoDate, displayed_text, integer, slug, text
from decks.models import MAX_LINES, Section, Visibility, game_sections

# PositiveIntegerField's ceiling in PostgreSQL: a larger `version` is refused, not sent to the database.
MAX_VERSION = 2**31 - 1

VisibilityChoice = Literal[tuple(Visibility.values)]  # type: ignore[valid-type]
# Every game a body may name (data/games/*.json), and the sections of the games besides Gate Ruler's own.
GameChoice = Literal[tuple(games())]  # type: ignore[valid-type]
GAME_SECTIONS = tuple(key for key in game_sections() if key not in Section.values)
_GAME_HELP = "The game (data/games/<slug>.json): gate-ruler (the default), rulers-gambit or gaterunners."


class _Line(BaseModel):
    """A card by collector number or by name; exactly one of them."""

    # The schema says it too (`oneOf` one of the two keys), so a client generated from it never sends both or neither.
    model_config = ConfigDict(json_schema_extra={"oneOf": [{"required": ["number"]}, {"required": ["name"]}]})

    @model_validator(mode="after")
    def _one_of_number_or_name(self) -> Any:
        if (self.number is MISSING) == (self.name is MISSING):  # type: ignore[attr-defined]
            raise PydanticCustomError("number_or_name", "Give exactly one of 'number' or 'name'.")
        return self


class DeckLine(_Line):
    number: text() | MISSING = MISSING  # type: ignore[valid-type]
    name: text() | MISSING = MISSING  # type: ignore[valid-type]
    # Bounded as a saved deck's line is (decks.limits): a count of 10**30 is no deck to judge.
    count: DeckCount


class DeckValidateInput(BaseModel):
    """POST /api/v1/decks/validate/: a deck list and the rules to judge it by."""

    model_config = ConfigDict(title="Input")

    game: Literal[default_game_slug()] = Field(default_game_slug(), description=_GAME_HELP)  # type: ignore[valid-type]
    ruler: slug()  # type: ignore[valid-type]
    geas: slug() | None = None  # type: ignore[valid-type]
    as_of: IsoDate | None = None
    attribute: text(blank=True) | None = None  # type: ignore[valid-type]
    main: Annotated[list[DeckLine], Field(max_length=MAX_LINES)]
    resources: Annotated[list[DeckLine], Field(max_length=MAX_LINES)] = []


class GameOfBody(BaseModel):
    """The `game` of a validate body that names one: it says which body model reads the rest."""

    game: GameChoice = default_game_slug()


def _sections_validate_input(slug_: str) -> type[BaseModel]:
    """The validate body of a game whose identity is a card: its sections' lines from its data, nothing else."""
    game = games()[slug_]
    lines = Annotated[list[DeckLine], Field(max_length=MAX_LINES)]
    fields: dict[str, Any] = {"game": (Literal[slug_], Field(description=_GAME_HELP))}
    fields["as_of"] = (IsoDate | None, None)
    for section in game.sections:
        fields[section.key] = (lines, Field([], description=f"The {section.called()}: lines as in `main`."))
    name = "".join(part.title() for part in slug_.split("-")) + "ValidateInput"
    model = create_model(name, __config__=ConfigDict(title=name, extra="forbid"), **fields)
    model.__doc__ = f"POST /api/v1/decks/validate/ for a {game.name} deck: its sections' lines."
    return model


# One body model per game: Gate Ruler's is DeckValidateInput, every other game's is built from its data.
VALIDATE_INPUTS: dict[str, type[BaseModel]] = {
    slug_: DeckValidateInput if game.identity == "ruler" else _sections_validate_input(slug_)
    for slug_, game in games().items()
}
AnyDeckValidateInput = RootModel[reduce(operator.or_, dict.fromkeys(VALIDATE_INPUTS.values()))]  # type: ignore[misc]
AnyDeckValidateInput.model_config["title"] = "ValidateInput"


class DeckViolation(BaseModel):
    rule: str
    message: str
    cards: list[str]
    source: str


class DeckSummary(BaseModel):
    size: int
    level: int
    cnt: int
    legends: int
    factions: list[str]
    resources: int


class GameDeckValidation(BaseModel):
    """The validate API's answer for a game whose identity is a card (no ruler, no rules date)."""

    legal: bool
    game: str
    as_of: date
    violations: list[DeckViolation]
    summary: dict[str, int] = Field(description="Cards in each of the game's sections, by section key.")


class DeckValidation(BaseModel):
    legal: bool
    ruler: str
    geas: str | None
    as_of: date
    rules_effective_from: date
    rules_note: str | None = Field(
        description="Why the rules judged by are not those in force on `as_of` (a date before the ruler's earliest "
        "recorded rules: the earliest are used); null when they are."
    )
    violations: list[DeckViolation]
    summary: DeckSummary


AnyDeckValidation = RootModel[DeckValidation | GameDeckValidation]
AnyDeckValidation.model_config["title"] = "Validation"


# ---------------------------------------------------------------- /api/v1/decks/: saved decks


class DeckCardLineInput(_Line):
    number: text(max_length=40) | MISSING = MISSING  # type: ignore[valid-type]
    name: text(max_length=200) | MISSING = MISSING  # type: ignore[valid-type]
    count: DeckCount


Lines = Annotated[list[DeckCardLineInput], Field(max_length=MAX_LINES)]


class _DeckInput(BaseModel):
    """A deck as a client writes it: the validate API's body plus name, description and visibility."""

    model_config = ConfigDict(title="DeckInput")

    name: displayed_text(max_length=100) = ""  # type: ignore[valid-type]
    description: displayed_text(max_length=5000) = ""  # type: ignore[valid-type]
    visibility: VisibilityChoice = Visibility.PRIVATE.value
    game: GameChoice = Field(default_game_slug(), description=_GAME_HELP + " A saved deck's game does not change.")
    ruler: slug(max_length=100) | None = Field(  # type: ignore[valid-type]
        None, description="Ruler slug (GET /api/v1/rulers/): required for a Gate Ruler deck, null for another game's."
    )
    geas: slug(max_length=100) | None = Field(
        None,  # type: ignore[valid-type]
        description="Geas slug of the ruler, or null.",
    )
    attribute: text(blank=True, max_length=100) | None = Field("", description="Unit attribute.")  # type: ignore[valid-type]
    rules_date: IsoDate | None = Field(None, description="Judge by the rules of this date (null: today).")
    main: Lines
    resources: Lines = []

    @model_validator(mode="after")
    def _ruler_of_a_ruler_game(self) -> Any:
        # A game whose identity is a ruler (Gate Ruler) needs one; the others have none.
        if self.ruler is None and games()[self.game].identity == "ruler":
            raise PydanticCustomError(
                "ruler_required", "ruler: This field is required for a {game} deck.", {"game": games()[self.game].name}
            )
        return self


# The sections of the games besides Gate Ruler ("kingdom", "hero", "gates"), from their data.
DeckInput = create_model(
    "DeckInput",
    __base__=_DeckInput,
    **{
        key: (Lines, Field([], description=f"The {key} section's lines (a game that has it).")) for key in GAME_SECTIONS
    },
)


class DeckUpdateInput(DeckInput):
    """A deck as a client writes it, and the version the change is based on (PUT: optional fields left out take their defaults)."""

    model_config = ConfigDict(title="DeckUpdateInput")

    version: integer(ge=1, le=MAX_VERSION) = Field(  # type: ignore[valid-type]
        description="The version this change is based on (from the last read); a stale one answers 409."
    )


def _every_field_optional(model: type[BaseModel], *, but: str, title: str, doc: str) -> type[BaseModel]:
    """`model` with every field but one optional and without a default: a field left out stays unset."""
    fields: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        if name == but:
            fields[name] = (info.annotation, info)
        else:
            annotation = info.rebuild_annotation()
            fields[name] = (annotation | MISSING, Field(MISSING, description=info.description))
    patch = create_model(model.__name__.replace("Update", "Patch"), __config__=ConfigDict(title=title), **fields)
    patch.__doc__ = doc
    return patch


DeckPatchInput = _every_field_optional(
    DeckUpdateInput,
    but="version",
    title="DeckPatchInput",
    doc="PATCH: `version` and any of the other fields; the ones left out stay as they are.",
)


class DeckVerdict(BaseModel):
    legal: bool | None = Field(description="The verdict at the last save or revalidation.")
    judged_on: date | None = Field(description="The rules date it was judged by.")
    illegal_since: date | None
    verdict_reason: str


class DeckCardLineOutput(BaseModel):
    number: str = Field(description="Collector number of the printing.")
    name: str
    count: int


class DeckOutput(BaseModel):
    """A saved deck without its cards (the list's items)."""

    model_config = ConfigDict(title="Deck")

    public_id: str
    url: str = Field(json_schema_extra={"format": "uri"}, description="The deck's page.")
    name: str
    description: str
    visibility: VisibilityChoice
    owner: str
    game: str = Field(description="The deck's game (data/games/<slug>.json).")
    ruler: str | None = Field(description="The ruler's slug (Gate Ruler), null for another game's deck.")
    geas: str | None
    attribute: str | None = Field(description="The unit attribute chosen, or null.")
    rules_date: date | None
    version: int
    verdict: DeckVerdict
    created_at: datetime
    updated_at: datetime
    copies_count: int
    forked_from: str | None = Field(description="public_id of the deck this one was copied from.")
    archived: bool


class _DeckDetailOutput(DeckOutput):
    """A saved deck with its main deck and resources, and its game's other sections."""

    model_config = ConfigDict(title="DeckDetail")

    main: list[DeckCardLineOutput]
    resources: list[DeckCardLineOutput]


DeckDetailOutput = create_model(
    "DeckDetailOutput",
    __base__=_DeckDetailOutput,
    **{
        key: (
            list[DeckCardLineOutput] | MISSING,
            Field(MISSING, description=f"The {key} section (a game that has it)."),
        )
        for key in GAME_SECTIONS
    },
)


class ApiError(BaseModel):
    """A request refused: `error` says why in one sentence naming the field, card or line."""

    error: str
    field: str = Field(MISSING, description="The field (e.g. main[3]) at fault, when one is.")  # type: ignore[arg-type]
    errors: dict[str, Any] = Field(MISSING, description="Every validation error, by field.")  # type: ignore[arg-type]


class StaleDeckError(BaseModel):
    error: str
    version: int = Field(description="The deck's current version: read the deck again and re-apply.")


class ApiDetail(BaseModel):
    """DRF's answer for authentication, permission, not found and throttling."""

    detail: str
