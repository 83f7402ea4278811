"""A card game as data: its card types and fields, deck sections, construction rules and draw
pattern, read from `data/games/<slug>.json` (pure; no Django, no file access).

Nothing here knows a game by name. The catalog reads the files (cards/games.py) and validates
each card against its game's `card_fields`; the engine judges a deck by its game's `rules`,
each an entry {"code", "kind", ...parameters} whose kind names a small check function. A fourth
game is a fourth file (docs/games.md). Where a source document is silent, the file's
`assumptions` say what the site assumes, and the rules panel shows them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .wording import Label, plain_label

FIELD_KINDS = ("int", "text", "bool", "choices")


class GameDataError(ValueError):
    """A game definition that does not hold together; the message names the game and the key."""


@dataclass(frozen=True, slots=True)
class Choice:
    key: str
    label: Label


@dataclass(frozen=True, slots=True)
class CardType:
    key: str
    label: Label


@dataclass(frozen=True, slots=True)
class CardField:
    """A game-specific card field (besides number, name, type, rarity and text, which every game has)."""

    key: str
    label: Label
    kind: str
    # The card types that have the field; any other type giving it is an error.
    types: tuple[str, ...]
    required: bool = False
    nullable: bool = False
    many: bool = False
    choices: tuple[Choice, ...] = ()

    def choice_keys(self) -> tuple[str, ...]:
        return tuple(c.key for c in self.choices)


@dataclass(frozen=True, slots=True)
class Section:
    key: str
    label: Label
    # The heading of the section in a text deck list ("Kingdom:"); None for the main deck (no heading).
    heading: Label | None
    # Whether the section holds the deck's identity card (a Kingdom-Ruler, a Hero).
    identity: bool = False
    # What messages call the section ("main deck"); by default "<label> section" (the label in other languages).
    noun: Label | None = None

    def called(self) -> Label:
        """The section in a sentence: "The %(section)s has 38 cards" reads "The main deck has 38 cards"."""
        return self.noun or self.label.mapped(lambda text: f"{text} section")


@dataclass(frozen=True, slots=True)
class GameRule:
    """One construction rule: its violation code, its kind (which check) and the kind's parameters."""

    code: str | None
    kind: str
    params: Mapping[str, Any]
    source: Label = field(default_factory=lambda: plain_label(""))


@dataclass(frozen=True, slots=True)
class Assumption:
    """A reading the site chose where the rules are silent, shown in the rules panel."""

    about: Label
    text: Label
    rule: str | None = None


@dataclass(frozen=True, slots=True)
class GameDefinition:
    slug: str
    # A proper name: in Japanese only where a source gives it so (the others stay as their source writes them).
    name: Label
    source: Label
    card_types: tuple[CardType, ...]
    card_fields: tuple[CardField, ...]
    sections: tuple[Section, ...]
    rules: tuple[GameRule, ...]
    # The draw pattern: opening_hand, mulligan, per_turn, first_player_skips_first_draw, set_aside
    # (cards put aside unseen, e.g. Shields), or {"kind": "ruler_setup"} where a ruler sets it.
    draw: Mapping[str, Any]
    # Search field aliases of this game: {"c": "colours", "lv": "level", ...}.
    search: Mapping[str, str]
    assumptions: tuple[Assumption, ...] = ()
    default: bool = False
    # How the deck's identity is chosen: "ruler" (picked from the rulers) or "card" (a card in an identity section).
    identity: str = "card"
    extra: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def type_keys(self) -> tuple[str, ...]:
        return tuple(t.key for t in self.card_types)

    def section_keys(self) -> tuple[str, ...]:
        return tuple(s.key for s in self.sections)

    def card_field(self, key: str) -> CardField | None:
        return next((f for f in self.card_fields if f.key == key), None)

    def section(self, key: str) -> Section:
        """The section with this key; KeyError for a key the game does not have."""
        found = next((s for s in self.sections if s.key == key), None)
        if found is None:
            raise KeyError(key)
        return found

    def type_label(self, key: str) -> Label:
        """What players call a card type ("Kingdom-Ruler"); the key itself for a type the game does not have."""
        return next((t.label for t in self.card_types if t.key == key), plain_label(key))

    def labels(self) -> Iterator[tuple[str, Label]]:
        """Every word of the game's data a player reads, with where it is ("sections[main].noun"): the name first
        (a proper name, the only one that may lack a language), then labels, nouns, sources and assumptions."""
        yield "name", self.name
        yield "source", self.source
        for t in self.card_types:
            yield f"card_types[{t.key}].label", t.label
        for f in self.card_fields:
            yield f"card_fields[{f.key}].label", f.label
            for c in f.choices:
                yield f"card_fields[{f.key}].choices[{c.key}].label", c.label
        for s in self.sections:
            yield f"sections[{s.key}].label", s.label
            if s.heading is not None:
                yield f"sections[{s.key}].heading", s.heading
            if s.noun is not None:
                yield f"sections[{s.key}].noun", s.noun
        for i, r in enumerate(self.rules):
            if r.source:
                yield f"rules[{i}].source", r.source
        draw_source = self.draw.get("source")
        if isinstance(draw_source, Label) and draw_source:
            yield "draw.source", draw_source
        for i, a in enumerate(self.assumptions):
            yield f"assumptions[{i}].about", a.about
            yield f"assumptions[{i}].text", a.text


def _need(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise GameDataError(f"{where}: missing key {key!r}")
    value = data[key]
    if not isinstance(value, kind):
        raise GameDataError(f"{where}.{key}: expected {getattr(kind, '__name__', kind)}, got {value!r}")
    return value


# A language code as a game file's labels are keyed: "en", "ja", "pt-BR".
_LANGUAGE = re.compile(r"^[a-z]{2,3}(-[A-Za-z]{2,4})?$")


def _label(value: Any, where: str) -> Label:
    """A label of a game file: a plain string (English only) or its text per language, {"en": ..., "ja": ...}."""
    if isinstance(value, str):
        return plain_label(value)
    if not isinstance(value, Mapping):
        raise GameDataError(f"{where}: expected a string or texts by language, got {value!r}")
    for language, text in value.items():
        if not isinstance(language, str) or not _LANGUAGE.match(language):
            raise GameDataError(f"{where}: {language!r} is not a language code (such as 'en' or 'ja')")
        if not isinstance(text, str):
            raise GameDataError(f"{where}.{language}: expected a string, got {text!r}")
    if "en" not in value:
        raise GameDataError(f"{where}: the English text ('en') is missing")
    return Label(value)


def _need_label(data: Mapping[str, Any], key: str, where: str) -> Label:
    if key not in data:
        raise GameDataError(f"{where}: missing key {key!r}")
    return _label(data[key], f"{where}.{key}")


def _choices(raw: list[Any], where: str) -> tuple[Choice, ...]:
    return tuple(
        Choice(_need(c, "key", str, f"{where}[{i}]"), _need_label(c, "label", f"{where}[{i}]"))
        for i, c in enumerate(raw)
    )


def _card_field(raw: Mapping[str, Any], types: tuple[str, ...], where: str) -> CardField:
    kind = _need(raw, "kind", str, where)
    if kind not in FIELD_KINDS:
        raise GameDataError(f"{where}.kind: {kind!r} is not one of {', '.join(FIELD_KINDS)}")
    field_types = tuple(_need(raw, "types", list, where))
    unknown = [t for t in field_types if t not in types]
    if unknown:
        raise GameDataError(f"{where}.types: unknown card type {unknown[0]!r}")
    choices = _choices(raw.get("choices", []), f"{where}.choices")
    if (kind == "choices") != bool(choices):
        raise GameDataError(f"{where}.choices: a field of kind 'choices' needs choices, and only it")
    return CardField(
        key=_need(raw, "key", str, where),
        label=_need_label(raw, "label", where),
        kind=kind,
        types=field_types,
        required=bool(raw.get("required", False)),
        nullable=bool(raw.get("nullable", False)),
        many=bool(raw.get("many", False)),
        choices=choices,
    )


def _section(raw: Mapping[str, Any], where: str) -> Section:
    heading = raw.get("heading")
    noun = raw.get("noun")
    return Section(
        _need(raw, "key", str, where),
        _need_label(raw, "label", where),
        None if heading is None else _label(heading, f"{where}.heading"),
        bool(raw.get("identity")),
        None if noun is None else _label(noun, f"{where}.noun"),
    )


# The draw pattern's numbers (cards) and switches, when the game sets them itself (not a ruler).
_DRAW_COUNTS = ("opening_hand", "per_turn", "set_aside")
_DRAW_SWITCHES = ("mulligan", "first_player_skips_first_draw")


def _draw(raw: Mapping[str, Any], slug: str) -> Mapping[str, Any]:
    """The draw pattern, its numbers checked (a ruler-set pattern is checked with the ruler's data)."""
    raw = {**raw, "source": _label(raw.get("source", ""), f"{slug}: draw.source")}
    if raw.get("kind") is not None:
        return MappingProxyType(raw)
    for key in _DRAW_COUNTS:
        value = raw.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise GameDataError(f"{slug}: draw.{key}: expected a whole number of cards, got {value!r}")
    _need(raw, "opening_hand", int, f"{slug}: draw")
    for key in _DRAW_SWITCHES:
        if not isinstance(raw.get(key, False), bool):
            raise GameDataError(f"{slug}: draw.{key}: expected true or false, got {raw[key]!r}")
    return MappingProxyType(raw)


def _rule(raw: Mapping[str, Any], where: str) -> GameRule:
    code = raw.get("code")
    if code is not None and not isinstance(code, str):
        raise GameDataError(f"{where}.code: expected a string or null, got {code!r}")
    params = {k: v for k, v in raw.items() if k not in ("code", "kind", "source")}
    source = _label(raw.get("source", ""), f"{where}.source")
    return GameRule(code, _need(raw, "kind", str, where), MappingProxyType(params), source)


# The keys parse_game reads; any other top-level key is kept in GameDefinition.extra.
_KNOWN = frozenset(
    (
        "game",
        "name",
        "source",
        "card_types",
        "card_fields",
        "sections",
        "rules",
        "draw",
        "search",
        "assumptions",
        "default",
        "identity",
    )
)


def _assumptions(raw: list[Any], slug: str) -> tuple[Assumption, ...]:
    return tuple(
        Assumption(
            _need_label(a, "about", f"{slug}: assumptions[{i}]"),
            _need_label(a, "text", f"{slug}: assumptions[{i}]"),
            a.get("rule"),
        )
        for i, a in enumerate(raw)
    )


def parse_game(data: Mapping[str, Any]) -> GameDefinition:
    """A game definition from a decoded data/games/<slug>.json; GameDataError names what is wrong."""
    slug = _need(data, "game", str, "game file")
    types = tuple(
        CardType(_need(t, "key", str, f"{slug}: card_types[{i}]"), _need_label(t, "label", f"{slug}: card_types[{i}]"))
        for i, t in enumerate(_need(data, "card_types", list, slug))
    )
    type_keys = tuple(t.key for t in types)
    fields = tuple(
        _card_field(f, type_keys, f"{slug}: card_fields[{i}]")
        for i, f in enumerate(_need(data, "card_fields", list, slug))
    )
    sections = tuple(_section(s, f"{slug}: sections[{i}]") for i, s in enumerate(_need(data, "sections", list, slug)))
    if not sections:
        raise GameDataError(f"{slug}: sections: a game needs at least one deck section")
    assumptions = _assumptions(data.get("assumptions", []), slug)
    game = GameDefinition(
        slug=slug,
        name=_need_label(data, "name", slug),
        source=_label(data.get("source", ""), f"{slug}: source"),
        card_types=types,
        card_fields=fields,
        sections=sections,
        rules=tuple(_rule(r, f"{slug}: rules[{i}]") for i, r in enumerate(_need(data, "rules", list, slug))),
        draw=_draw(_need(data, "draw", dict, slug), slug),
        search=MappingProxyType(dict(data.get("search", {}))),
        assumptions=assumptions,
        default=bool(data.get("default", False)),
        identity=str(data.get("identity", "card")),
        extra=MappingProxyType({k: v for k, v in data.items() if k not in _KNOWN}),
    )
    if len(set(game.section_keys())) != len(game.sections):
        raise GameDataError(f"{slug}: sections: a section key is given twice")
    # Imported here because the kinds' checks are typed with this module's classes.
    from .kinds import check_rules

    check_rules(game)
    return game
