"""Decks as plain text: write a deck list players can paste anywhere, and read one back (pure, no Django).

The format, as written by format_deck_text::

    # Ember Rush
    Ruler: Apprentice
    Geas: Oath of Embers
    Attribute: Dragon
    Rules date: 2024-06-01

    # Units (40)
    4 Ember Squire
    ...
    # Events (10)
    2 Frost Hare

    Resources:
    10 Spark

parse_deck_text reads that and what players type by hand: any case and spacing, `4x Name`,
`4 x Name`, `Name x4`, list bullets, blank lines and `#` or `//` comments, full-width
digits and Japanese card names. Names are matched against the known names the caller
passes in (folded as card search folds them, cards.folding); every line it cannot read is
reported with its number and, for a near miss, the name it probably meant.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date

from decks.decklists.text_format import TYPE_HEADINGS, TextCard, TextWords, format_deck_text, format_game_deck_text
from decks.decklists.text_names import Names, name_key, suggestions_for
from decks.decklists.text_words import (
    _BAD_COUNT,
    _HEADING_WORDS,
    _NAME_REFUSED,
    _NOT_A_CARD,
    _NOT_A_CARD_LINE,
    _NOT_A_DATE,
    _NOT_A_HEADING,
    _NOT_A_SECTION,
    _TOO_LONG,
    _TOO_MANY_CARDS,
    _TOO_MANY_COPIES,
    _TWICE,
    _UNKNOWN,
    _w,
)
from decks.limits import MAX_LINE_COUNT, MAX_LINES, spoofing_refusal

# The writing half lives in text_format; these names stay importable from here.
__all__ = [
    "MAIN",
    "RESOURCES",
    "TYPE_HEADINGS",
    "LineError",
    "ParsedDeck",
    "TextCard",
    "TextLine",
    "TextWords",
    "Vocabulary",
    "format_deck_text",
    "format_game_deck_text",
    "name_key",
    "parse_deck_text",
    "suggestions_for",
]

MAIN = "main"
RESOURCES = "resources"

# Bounds a pasted list must keep: the deck's own (decks.limits), and the text's length.
MAX_COUNT = MAX_LINE_COUNT
MAX_TEXT_LINES = 1000

# ---------------------------------------------------------------- reading


@dataclass(frozen=True)
class Vocabulary:
    """The names a text may use, each mapped to the canonical name it stands for.

    `cards`: English and Japanese card names → English name. `rulers`: names, Japanese names,
    codes ("D-4", "D-4 Apprentice") and slugs → ruler name; `geases` likewise. `attributes`: the
    unit attributes.
    """

    cards: Mapping[str, str]
    rulers: Mapping[str, str] = field(default_factory=dict)
    geases: Mapping[str, str] = field(default_factory=dict)
    attributes: Iterable[str] = ()
    # Game names and slugs → the game's slug, for the `Game:` line (absent: the caller's default, Gate Ruler).
    games: Mapping[str, str] = field(default_factory=dict)
    # A game with sections of its own: each section's headings ("Kingdom", "Hero", "Gates") → its
    # key. Empty for Gate Ruler, whose `Resources:` heading is read as it always was.
    sections: Mapping[str, str] = field(default_factory=dict)
    # Each section's heading once, as an error lists them (a Label: the page words it in the player's language).
    section_headings: tuple[str, ...] = ()


@dataclass(frozen=True)
class TextLine:
    """A card line that was read: its number in the text, section, copies and canonical card name."""

    number: int
    section: str
    count: int
    name: str


@dataclass(frozen=True)
class LineError:
    """A line that could not be read. `field` says which part of the deck it was about."""

    number: int
    text: str
    message: str
    suggestion: str | None = None
    field: str = "card"
    # The part of the line the suggestion would replace (line_fixed), when there is a suggestion.
    written: str = ""

    def __str__(self) -> str:
        hint = f" Did you mean “{self.suggestion}”?" if self.suggestion else ""
        return f"Line {self.number}: {self.message}{hint}"


@dataclass(frozen=True)
class ParsedDeck:
    """What a text says. A heading it does not give is None (the caller decides what that means)."""

    ruler: str | None = None
    geas: str | None = None
    attribute: str | None = None
    rules_date: date | None = None
    name: str | None = None
    # Copies per canonical card name, in the order the text first names them.
    main: Mapping[str, int] = field(default_factory=dict)
    resources: Mapping[str, int] = field(default_factory=dict)
    lines: tuple[TextLine, ...] = ()
    errors: tuple[LineError, ...] = ()
    # The line each heading was given on ("ruler": 2), so later checks can name the line.
    heading_lines: Mapping[str, int] = field(default_factory=dict)
    # The game the `Game:` line names (its slug); None when the text names none.
    game: str | None = None
    # Copies per card name in a game's other sections ("kingdom", "hero", "gates").
    sections: Mapping[str, Mapping[str, int]] = field(default_factory=dict)

    def section(self, name: str) -> Mapping[str, int]:
        if name == MAIN:
            return self.main
        if name == RESOURCES:
            return self.resources
        return self.sections.get(name, {})

    @property
    def size(self) -> int:
        return sum(self.main.values())


_BULLET = re.compile(r"^(?:[-*•・]|\d+[.)](?=\s))\s*")
_COUNT_FIRST = re.compile(r"^(\d+)\s*(?:[x×]\s*|\s)\s*(\S.*)$", re.IGNORECASE)
_COUNT_ONLY_FIRST = re.compile(r"^(\d+)\s+(\S.*)$")
_COUNT_X_FIRST = re.compile(r"^[x×](\d+)\s+(\S.*)$", re.IGNORECASE)
_COUNT_LAST = re.compile(r"^(\S.*?)\s+[x×]\s*(\d+)$", re.IGNORECASE)
_HEADING = re.compile(r"^([^\d:：][^:：]*?)\s*[:：]\s*(.*)$")
_SECTION = re.compile(
    r"^(resources?|main|main deck|deck|リソース|メインデッキ|デッキ)\s*(?:\(\s*\d*\s*\))?\s*[:：]?\s*(?:#.*|\d*\s*(?:cards?|枚)?)$"
)
# Group headings players copy from other lists ("Units (40)"): nothing to read in them.
_GROUP = re.compile(
    r"^(units?|events?|fields?|energy|other|ユニット|イベント|フィールド|エナジー|その他)\s*(?:\(\s*\d*\s*\))?\s*[:：]?$"
)
_SECTIONS = {
    "resource": RESOURCES,
    "resources": RESOURCES,
    "main": MAIN,
    "main deck": MAIN,
    "deck": MAIN,
    # The Japanese lists' words (the export writes them for a Japanese page: decks.decklists.selectors).
    "リソース": RESOURCES,
    "メインデッキ": MAIN,
    "デッキ": MAIN,
}
_HEADINGS = {
    "ruler": "ruler",
    "geas": "geas",
    "attribute": "attribute",
    "unit attribute": "attribute",
    "rules date": "rules_date",
    "rules": "rules_date",
    "as of": "rules_date",
    "name": "name",
    "deck name": "name",
    "game": "game",
    "ルーラー": "ruler",
    "ギアス": "geas",
    "属性": "attribute",
    "ユニットの属性": "attribute",
    "ルールの日付": "rules_date",
    "デッキ名": "name",
    "ゲーム": "game",
}
# A game's section heading alone on its line ("Gates:", "Kingdom (1):", "Hero: # 1"), or with one card after it.
_GAME_SECTION = re.compile(r"^([^\d:：#][^:：]*?)\s*(?:\(\s*\d*\s*\))?\s*[:：]\s*(.*)$")
_NOTHING = re.compile(r"^(?:#.*|\d*\s*(?:cards?)?)$", re.IGNORECASE)
# Every game's main deck answers to these headings besides its own.
_MAIN_HEADINGS = {"main": MAIN, "main deck": MAIN, "deck": MAIN, "メインデッキ": MAIN, "デッキ": MAIN}
_NONE = {"", "none", "-", "—", "no geas", "なし"}


def parse_deck_text(text: str, vocabulary: Vocabulary, *, max_count: int = MAX_COUNT) -> ParsedDeck:
    """Read a deck list. Never raises for bad input: every line it cannot use is in `errors`.

    1. Each line is normalised (NFKC: full-width digits and colons become ASCII), stripped of
       list bullets; blank lines and `#`/`//` comments are skipped.
    2. `Resources:` starts the resources, `Deck:`/`Main:` the deck (where the text starts).
    3. `Key: value` lines set the ruler, geas, attribute, rules date or name.
    4. Any other line is a card: a count (`4`, `4x`, `x4` at the end; none means 1) and a
       name, English or Japanese, matched loosely; copies of one name in one section add up.
    """
    reader = _Reader(vocabulary, max_count)
    raw_lines = text.splitlines()
    if len(raw_lines) > MAX_TEXT_LINES:
        reader.errors.append(LineError(MAX_TEXT_LINES + 1, "", _w(_TOO_LONG, n=MAX_TEXT_LINES)))
    for number, raw in enumerate(raw_lines[:MAX_TEXT_LINES], start=1):
        reader.read(number, raw)
    return reader.parsed()


class _Reader:
    """One pass over a pasted list (parse_deck_text): what it has read so far, line by line."""

    def __init__(self, vocabulary: Vocabulary, max_count: int) -> None:
        self.cards = Names(vocabulary.cards)
        self.rulers = Names(vocabulary.rulers)
        self.geases = Names(vocabulary.geases)
        self.attributes = Names({a: a for a in vocabulary.attributes})
        self.lookups = {
            "ruler": self.rulers,
            "geas": self.geases,
            "attribute": self.attributes,
            "game": Names(vocabulary.games),
        }
        self.headings = Names({k: k for k in _HEADINGS})
        # "Game" is read only when spelt out: as a near miss it would take "Gate: …" card names for headings.
        self.near_headings = Names({k: k for k in _HEADINGS if k != "game"})
        self.game_sections = Names({**_MAIN_HEADINGS, **vocabulary.sections}) if vocabulary.sections else None
        self.section_names = list(dict.fromkeys(vocabulary.sections))
        self.section_headings = tuple(vocabulary.section_headings) or tuple(self.section_names)
        self.max_count = max_count
        self.found: dict[str, object] = {}
        self.heading_lines: dict[str, int] = {}
        self.sections: dict[str, dict[str, int]] = {MAIN: {}, RESOURCES: {}}
        for key in vocabulary.sections.values():
            self.sections.setdefault(key, {})
        self.lines: list[TextLine] = []
        self.errors: list[LineError] = []
        self.section = MAIN

    def read(self, number: int, raw: str) -> None:
        line = _BULLET.sub("", unicodedata.normalize("NFKC", raw).strip())
        if not line or line.startswith(("#", "//")):
            return
        shown = raw.strip()
        if self.game_sections is not None:
            if self._section_heading(line, number, shown):
                return
            heading = None
        else:
            heading = _SECTION.match(line.lower())
        if heading:
            self.section = _SECTIONS[heading.group(1)]
            return
        if _GROUP.match(line.lower()):
            return
        candidates = _card_lines(line)
        card_line = next((c for c in candidates if self.cards.get(c[1]) is not None), None)
        if card_line is None and self._key_value(line, number, shown):
            return
        self._card(card_line or (candidates[0] if candidates else None), number, shown)

    def _section_heading(self, line: str, number: int, shown: str) -> bool:
        """Read a game's section heading (`Kingdom:`, or `Kingdom: 1 Azure Kingdom`); False when the line is not one."""
        assert self.game_sections is not None
        match = _GAME_SECTION.match(line)
        if not match or self.cards.get(line) is not None:
            return False
        key = self.game_sections.get(match.group(1))
        rest = match.group(2).strip()
        if key is not None:
            self.section = key
            if rest and not _NOTHING.match(rest):
                candidates = _card_lines(rest)
                card_line = next((c for c in candidates if self.cards.get(c[1]) is not None), None)
                self._card(card_line or (candidates[0] if candidates else None), number, shown)
            return True
        if rest and not _NOTHING.match(rest):
            # "Key: value": a heading such as Game or Name, or a card name with a colon.
            return False
        if _GROUP.match(line.lower()):
            # A group heading copied from another list ("Units (20):"): nothing to read.
            return True
        self.errors.append(
            LineError(
                number,
                shown,
                _w(_NOT_A_SECTION, heading=match.group(1), known=self.section_headings),
                Names({h: h for h in self.section_names}).suggest(match.group(1)),
                field="section",
                written=match.group(1),
            )
        )
        return True

    def _key_value(self, line: str, number: int, shown: str) -> bool:
        """Read a `Key: value` heading line; False when the line is not one (it may be a card name with a colon)."""
        key_value = _HEADING.match(line)
        if not key_value:
            return False
        key = self.headings.get(key_value.group(1))
        if key is not None:
            value = key_value.group(2)
            if _HEADINGS[key] != "name":
                value = value.split(" #")[0].strip()
            self.heading_lines.setdefault(_HEADINGS[key], number)
            error = _heading(_HEADINGS[key], value, number, shown, self.found, self.lookups)
            if error:
                self.errors.append(error)
            return True
        suggestion = self.near_headings.suggest(key_value.group(1))
        # Only a near miss of a heading is read as one; otherwise it may be a card name with a colon.
        if suggestion is None:
            return False
        message = _w(_NOT_A_HEADING, heading=key_value.group(1))
        self.errors.append(
            LineError(number, shown, message, suggestion.title(), field="heading", written=key_value.group(1))
        )
        return True

    def _card(self, card_line: tuple[int, str] | None, number: int, shown: str) -> None:
        if card_line is None:
            self.errors.append(LineError(number, shown, _w(_NOT_A_CARD_LINE)))
            return
        count, written = card_line
        name = self.cards.get(written)
        if name is None:
            self.errors.append(
                LineError(number, shown, _w(_NOT_A_CARD, name=written), self.cards.suggest(written), written=written)
            )
            return
        if not 1 <= count <= self.max_count:
            self.errors.append(LineError(number, shown, _w(_BAD_COUNT, max=self.max_count, count=count)))
            return
        if name not in self.sections[self.section] and len(self.sections[self.section]) >= MAX_LINES:
            self.errors.append(LineError(number, shown, _w(_TOO_MANY_CARDS, n=MAX_LINES)))
            return
        total = self.sections[self.section].get(name, 0) + count
        if total > self.max_count:
            self.errors.append(LineError(number, shown, _w(_TOO_MANY_COPIES, max=self.max_count, name=name)))
            return
        self.sections[self.section][name] = total
        self.lines.append(TextLine(number, self.section, count, name))

    def parsed(self) -> ParsedDeck:
        found = self.found
        return ParsedDeck(
            ruler=_str_or_none(found.get("ruler")),
            geas=_str_or_none(found.get("geas")),
            attribute=_str_or_none(found.get("attribute")),
            rules_date=found.get("rules_date") if isinstance(found.get("rules_date"), date) else None,
            name=_str_or_none(found.get("name")),
            main=self.sections[MAIN],
            resources=self.sections[RESOURCES],
            lines=tuple(self.lines),
            errors=tuple(self.errors),
            heading_lines={key: number for key, number in self.heading_lines.items() if key in found},
            game=_str_or_none(found.get("game")),
            sections={k: v for k, v in self.sections.items() if k not in (MAIN, RESOURCES)},
        )


def _str_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _card_lines(line: str) -> list[tuple[int, str]]:
    """The ways to read a card line as (count, name), likeliest first; no count means one copy.

    Several because a name may itself look like a count ("4 x Ray" is 4 "Ray" or 4 "x Ray"):
    the parser takes the first whose name it knows.
    """
    out = []
    # "4 Name" first: it is how format_deck_text writes, so written text always reads back.
    if match := _COUNT_ONLY_FIRST.match(line):
        out.append((int(match.group(1)), match.group(2).strip()))
    if match := _COUNT_X_FIRST.match(line):
        out.append((int(match.group(1)), match.group(2).strip()))
    if match := _COUNT_FIRST.match(line):
        out.append((int(match.group(1)), match.group(2).strip()))
    if match := _COUNT_LAST.match(line):
        out.append((int(match.group(2)), match.group(1).strip()))
    if not line.isdigit():
        out.append((1, line))
    return list(dict.fromkeys(out))


def _heading(
    key: str,
    value: str,
    number: int,
    shown: str,
    found: dict[str, object],
    lookups: Mapping[str, Names],
) -> LineError | None:
    """Record one `Key: value` line in `found`; an error if the value is unknown or given twice."""
    if key in found:
        return LineError(number, shown, _w(_TWICE, heading=_w(_HEADING_WORDS[key])), field=key)
    if key == "name":
        if (refusal := spoofing_refusal(value)) is not None:
            return LineError(number, shown, _w(_NAME_REFUSED, refusal=refusal), field=key)
        found[key] = value[:100]
        return None
    if key == "rules_date":
        if value.lower() in _NONE or value.lower() in {"today", "current"}:
            found[key] = None
            return None
        try:
            found[key] = date.fromisoformat(value)
        except ValueError:
            return LineError(number, shown, _w(_NOT_A_DATE, value=value), field=key)
        return None
    if key not in ("ruler", "game") and value.lower() in _NONE:
        found[key] = ""
        return None
    names = lookups[key]
    canonical = names.get(value)
    if canonical is None:
        return LineError(number, shown, _w(_UNKNOWN[key], value=value), names.suggest(value), field=key, written=value)
    found[key] = canonical
    return None


def line_fixed(text: str, error: LineError) -> str:
    """The text with the error's line taking its suggestion ("Did you mean …?" as a button that fixes it).

    Only the first occurrence of what was written on that line is replaced; the rest of the line
    (its count, a comment) and every other line stay as they are. Without a suggestion, the text.
    """
    if not error.suggestion or not error.written:
        return text
    lines = text.splitlines(keepends=True)
    if not 1 <= error.number <= len(lines):
        return text
    lines[error.number - 1] = lines[error.number - 1].replace(error.written, error.suggestion, 1)
    return "".join(lines)
