"""The card browser's search syntax, parsed into a CardQuery (pure: no Django).

A query is a list of terms separated by spaces; a card must match every term (AND):

    dragon "deal 2 damage" name:"cinder keep" f:volnar t:unit lv<=2 a:dragon cnt -legend set:PS01

The whole query is NFKC-normalized first, so full-width input (`ｌｖ＜＝２`, `ｆ：ｖｏｌｎａｒ`)
parses like ASCII; values are then folded with cards.folding.fold (case, width, kana, long-vowel
marks and middle dots), the same folding Card.search_text is stored in. Faction, attribute and
set values are resolved against the catalog by cards.selectors.card_search, with match_names().
Anything the parser does not understand raises QueryError naming the token and where it is.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple, TypeVar

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from decks.rules.types import CARD_TYPES
from decks.rules.wording import gettext_noop

from .folding import fold
from .games import default_game
from .names import choice_word

K = TypeVar("K")

MAX_QUERY_LENGTH = 500
# Levels are small; a bound keeps absurd numbers out of the database (SQLite integers are 64-bit).
MAX_LEVEL = 999


class Field(StrEnum):
    TEXT = "text"
    NAME = "name"
    FACTION = "faction"
    TYPE = "type"
    LEVEL = "level"
    ATTRIBUTE = "attribute"
    CNT = "cnt"
    LEGEND = "legend"
    SET = "set"


@dataclass(frozen=True)
class Term:
    """One condition of a query.

    `value` is folded text for TEXT, NAME, FACTION, ATTRIBUTE and SET, a CARD_TYPES value for
    TYPE, an int for LEVEL (compared with `op`: "=", "<", "<=", ">", ">=") and True for CNT and
    LEGEND. `token` is the term as typed and `position` its 0-based offset in the query typed
    (None for terms that come from the browser's filters rather than the query).
    """

    field: Field
    value: str | int | bool
    op: str = "="
    negated: bool = False
    token: str = ""
    position: int | None = None


@dataclass(frozen=True)
class CardQuery:
    terms: tuple[Term, ...] = ()

    @property
    def text(self) -> tuple[str, ...]:
        """The folded free-text terms and phrases a card must contain."""
        return tuple(str(t.value) for t in self.terms if t.field is Field.TEXT and not t.negated)

    @property
    def is_empty(self) -> bool:
        return not self.terms

    def of(self, field: Field) -> tuple[Term, ...]:
        return tuple(t for t in self.terms if t.field is field)


class QueryError(ValueError):
    """A query the parser cannot understand; `position` is the 0-based offset of `token` in the query."""

    def __init__(self, message: str, *, token: str = "", position: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.token = token
        self.position = position


class HelpEntry(NamedTuple):
    syntax: str
    meaning: str
    example: str


SEARCH_HELP: tuple[HelpEntry, ...] = (
    HelpEntry("word", gettext_noop("English or Japanese name or card text contains the word"), "dragon  ドラゴン"),
    HelpEntry('"phrase"', gettext_noop("Name or text contains the exact phrase"), '"deal 2 damage"'),
    HelpEntry(
        'name:word  name:"…"', gettext_noop("English or Japanese name contains it (not the text)"), 'name:"cinder keep"'
    ),
    HelpEntry("f:faction", gettext_noop("Faction, by name or its first letters"), 'f:volnar  f:"yomajin front"'),
    HelpEntry("t:type", gettext_noop("Type: unit, event, field or energy (first letters are enough)"), "t:unit  t:ev"),
    HelpEntry("lv<=2  lv>=0  lv=3  lv<3  lv>1  lv:3", gettext_noop("Level compared with a number"), "lv<=2"),
    HelpEntry("a:attribute", gettext_noop("Has the attribute"), "a:dragon"),
    HelpEntry("cnt", gettext_noop("CNT cards"), "cnt"),
    HelpEntry("legend", gettext_noop("Legends"), "legend"),
    HelpEntry("set:code", gettext_noop("Printed in the set"), "set:PS01"),
    HelpEntry("-term", gettext_noop("Not: negates any term"), "-t:event  -cnt  -dragon"),
    HelpEntry("term term", gettext_noop("Cards must match every term"), "f:volnar t:unit lv<=2"),
    HelpEntry(
        "勢力:  種類:  レベル<=2  属性:  カードセット:  名前:",
        gettext_noop("Japanese field names work too"),
        "勢力:ウォルナー レベル<=2",
    ),
)

FIELD_HINT = gettext_noop("try f:, t:, lv, a:, cnt, legend, set:, name:")
_FIELD_NAMES = {
    "f": Field.FACTION,
    "faction": Field.FACTION,
    "t": Field.TYPE,
    "type": Field.TYPE,
    "lv": Field.LEVEL,
    "level": Field.LEVEL,
    "a": Field.ATTRIBUTE,
    "attr": Field.ATTRIBUTE,
    "attribute": Field.ATTRIBUTE,
    "set": Field.SET,
    "name": Field.NAME,
}
# Japanese field names beside the English ones (docs/search.md): `勢力:ウォルナー`, `レベル<=2`.
_JAPANESE_FIELD_NAMES = {
    "勢力": Field.FACTION,
    "種類": Field.TYPE,
    "タイプ": Field.TYPE,
    "レベル": Field.LEVEL,
    "属性": Field.ATTRIBUTE,
    "カードセット": Field.SET,
    "セット": Field.SET,  # as help said before カードセット (セット alone is also the set zone's word)
    "名前": Field.NAME,
    "カード名": Field.NAME,
}
_FIELD_NAMES.update(_JAPANESE_FIELD_NAMES)
_FLAGS = {"cnt": Field.CNT, "legend": Field.LEGEND}
_EXAMPLES = {
    Field.FACTION: "f:volnar",
    Field.TYPE: "t:unit",
    Field.LEVEL: "lv<=2",
    Field.ATTRIBUTE: "a:dragon",
    Field.SET: "set:PS01",
    Field.NAME: 'name:"red dragon"',
}
# An opening quote and the quotes that close it: ASCII (and full-width, after NFKC), the “smart”
# quotes phones type, and Japanese corner brackets.
_QUOTES = {'"': '"', "“": '”"', "”": "”", "「": "」"}
# Hyphen look-alikes are "-" (so "−t:event" negates); each is one character, so offsets keep.
_HYPHENS = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2212"), "-")
# A field: ASCII letters or a Japanese field name, then ":" or a comparison. Other non-ASCII
# before ":" ("効果:") is plain text.
_FIELD_RE = re.compile(
    r"([A-Za-z]+|"
    + "|".join(sorted(map(re.escape, _JAPANESE_FIELD_NAMES), key=len, reverse=True))
    + r")(<=|>=|:|=|<|>)"
)
_INT_RE = re.compile(r"[+-]?[0-9]+")


def parse_card_query(query: str) -> CardQuery:
    """Parse the search box's text; raises QueryError for anything it does not understand.

    1. NFKC-normalize (full-width `ｌｖ＜＝２` is `lv<=2`) and map hyphen look-alikes to "-".
    2. Split into words at whitespace; a quote opens a value that runs to its closing quote.
    3. Each word is a field term (`key:value`, `lv<op>n`), a flag (`cnt`, `legend`), or free text;
       a leading "-" negates it. Text values are folded; empty folded text (say "ー") is dropped.
    """
    if len(query) > MAX_QUERY_LENGTH:
        raise QueryError(too_long_message(len(query)))
    return CardQuery(tuple(_Parser(query).terms()))


def _type_names() -> list[tuple[str, str]]:
    """(type, folded name) for each name the default game's data gives its card types, in every language."""
    return [(t.key, fold(text)) for t in default_game().card_types for text in t.label.texts.values()]


def _types_shown(keys: Iterable[str] = CARD_TYPES) -> list[str]:
    """The card types as a search error lists them, in the player's words (cards.names.choice_word)."""
    labels = {t.key: t.label for t in default_game().card_types}
    return [choice_word(key, labels.get(key, key)) for key in keys]


def resolve_type(value: str, *, token: str = "", position: int | None = None) -> str:
    """The card type a folded value names, in full or by its first letters (`ev` is event)."""
    value = fold(value)
    matches = [t for t in CARD_TYPES if t.startswith(value)] if value else []
    if not matches and value:
        # A type by its name in another language of the game's data (ユニット, イベント; or their first letters).
        matches = sorted({key for key, name in _type_names() if name.startswith(value)})
    if len(matches) == 1:
        return matches[0]
    where = _where(token, position)
    if matches:
        raise QueryError(
            _('Type "%(value)s"%(where)s could be %(choices)s; type more letters')
            % {"value": value, "where": where, "choices": _(" or ").join(_types_shown(matches))},
            token=token,
            position=position,
        )
    raise QueryError(
        _('Unknown type "%(value)s"%(where)s; types are %(types)s')
        % {"value": value, "where": where, "types": pgettext("list separator", ", ").join(_types_shown())},
        token=token,
        position=position,
    )


def match_names(value: str, candidates: Iterable[tuple[K, Iterable[str]]]) -> list[K]:
    """Keys of the candidates with a name equal to the folded value, or else with a name starting with it.

    An exact match wins so that `a:dragon` means Dragon even when Dragonkin exists; otherwise every
    prefix match counts, so `f:yoma` or `set:ps` work while typing.
    """
    value = fold(value)
    folded = [(key, [fold(name) for name in names if name]) for key, names in candidates]
    exact = [key for key, names in folded if value in names]
    if exact:
        return exact
    return [key for key, names in folded if any(name.startswith(value) for name in names)]


# What no_match_error names, singular and plural, marked for translation.
_KINDS = {
    "faction": (gettext_noop("faction"), gettext_noop("factions")),
    "attribute": (gettext_noop("attribute"), gettext_noop("attributes")),
    "set": (gettext_noop("set"), gettext_noop("sets")),
}


def no_match_error(term: Term, what: str, known: Iterable[str], *, max_listed: int = 12) -> QueryError:
    """The error for a faction, attribute or set value that names nothing in the catalog."""
    known = sorted(set(known), key=fold)
    where = _where(term.token, term.position)
    singular, plural = _KINDS[what]
    message = _('No %(what)s matches "%(value)s"%(where)s') % {"what": _(singular), "value": term.value, "where": where}
    if known and len(known) <= max_listed:
        message += _("; %(whats)s are %(known)s") % {"whats": _(plural), "known": ", ".join(known)}
    elif known:
        import difflib

        by_folded = {fold(name): name for name in known}
        close = difflib.get_close_matches(str(term.value), list(by_folded), n=3, cutoff=0.6)
        if close:
            message += _("; did you mean %(names)s?") % {"names": _(" or ").join(by_folded[c] for c in close)}
    return QueryError(message, token=term.token, position=term.position)


def too_long_message(length: int) -> str:
    """The error for a search over MAX_QUERY_LENGTH characters (every game's search says it alike)."""
    return _("The search is too long (%(n)s characters; at most %(max)s).") % {"n": length, "max": MAX_QUERY_LENGTH}


def _where(token: str, position: int | None) -> str:
    if position is None:
        return ""
    return _(' in "%(token)s" at character %(n)s') % {"token": token, "n": position + 1}


class _Parser:
    def __init__(self, raw: str) -> None:
        self.raw = raw
        self.text = unicodedata.normalize("NFKC", raw).translate(_HYPHENS)
        self._to_raw = _offset_map(raw)

    def terms(self) -> Iterable[Term]:
        text, i = self.text, 0
        while i < len(text):
            if text[i].isspace():
                i += 1
                continue
            term, i = self._term(i)
            if term is not None:
                yield term

    def _term(self, start: int) -> tuple[Term | None, int]:
        text, i = self.text, start
        negated = text[i] == "-"
        if negated:
            i += 1
            if i == len(text) or text[i].isspace():
                raise QueryError(
                    _('Nothing to negate after "-" at character %(n)s; write -t:event, -cnt or -dragon')
                    % {"n": self._to_raw(start) + 1},
                    token="-",
                    position=self._to_raw(start),
                )
        if text[i] in _QUOTES:
            value, end = self._quoted(start, i)
            return self._text_term(Field.TEXT, value, negated, start, end), end
        field_match = _FIELD_RE.match(text, i)
        if field_match:
            return self._field_term(start, negated, field_match)
        end = _word_end(text, i)
        word = text[i:end]
        flag = _FLAGS.get(word.casefold())
        if flag is not None:
            token, position = self._origin(start, end)
            return Term(flag, True, negated=negated, token=token, position=position), end
        return self._text_term(Field.TEXT, word, negated, start, end), end

    def _field_term(self, start: int, negated: bool, field_match: re.Match[str]) -> tuple[Term | None, int]:
        key, op = field_match.group(1).casefold(), field_match.group(2)
        text, i = self.text, field_match.end()
        if i < len(text) and text[i] in _QUOTES:
            value, end = self._quoted(start, i)
        else:
            end = _word_end(text, i)
            value = text[i:end]
        field = _FIELD_NAMES.get(key)
        if field is None:
            if key in _FLAGS:
                raise self._error(
                    start, end, _('"%(key)s" takes no value%(where)s; write %(key)s or -%(key)s'), key=key
                )
            raise self._error(
                start, end, _('Unknown field "%(field)s"%(where)s; %(hint)s'), field=key + op, hint=_(FIELD_HINT)
            )
        if field is not Field.LEVEL and op != ":":
            raise self._error(
                start,
                end,
                _('"%(key)s" is not compared%(where)s; write %(example)s'),
                key=key,
                example=_EXAMPLES[field],
            )
        value = " ".join(value.split())
        if not value:
            raise self._error(
                start,
                end,
                _('Nothing after "%(field)s"%(where)s; write %(example)s'),
                field=key + op,
                example=_EXAMPLES[field],
            )
        token, position = self._origin(start, end)
        if field is Field.NAME:
            return self._text_term(field, value, negated, start, end), end
        if field is Field.LEVEL:
            if not _INT_RE.fullmatch(value):
                raise self._error(
                    start, end, _("The level must be a whole number%(where)s; write lv<=2, lv>=0 or lv=3")
                )
            level = int(value)
            if abs(level) > MAX_LEVEL:
                raise self._error(
                    start, end, _("The level must be between -%(max)s and %(max)s%(where)s"), max=MAX_LEVEL
                )
            op = "=" if op == ":" else op
            return Term(field, level, op=op, negated=negated, token=token, position=position), end
        if field is Field.TYPE:
            card_type = resolve_type(value, token=token, position=position)
            return Term(field, card_type, negated=negated, token=token, position=position), end
        return Term(field, fold(value), negated=negated, token=token, position=position), end

    def _text_term(self, field: Field, value: str, negated: bool, start: int, end: int) -> Term | None:
        folded = " ".join(fold(value).split())
        # Nothing left once folded ("ー", "・"): it would match every card, or with "-" none.
        if not folded:
            return None
        token, position = self._origin(start, end)
        return Term(field, folded, negated=negated, token=token, position=position)

    def _quoted(self, start: int, i: int) -> tuple[str, int]:
        """The value between the quote at i and its closing quote, and the offset after it."""
        closers = _QUOTES[self.text[i]]
        for j in range(i + 1, len(self.text)):
            if self.text[j] in closers:
                return self.text[i + 1 : j], j + 1
        raise self._error(
            start, len(self.text), _("Unterminated quote%(where)s; close it with %(closer)s"), closer=closers[0]
        )

    def _origin(self, start: int, end: int) -> tuple[str, int]:
        """The token as typed between two offsets of the normalized text, and where it starts."""
        raw_start, raw_end = self._to_raw(start), self._to_raw(end)
        return self.raw[raw_start:raw_end], raw_start

    def _error(self, start: int, end: int, template: str, **values: object) -> QueryError:
        """A QueryError worded from a translated template with named values (`where` is filled in here)."""
        token, position = self._origin(start, end)
        # Named %-values, not str.format: what the player typed may hold braces.
        return QueryError(template % {**values, "where": _where(token, position)}, token=token, position=position)


def _word_end(text: str, i: int) -> int:
    while i < len(text) and not text[i].isspace():
        i += 1
    return i


def _offset_map(raw: str) -> Callable[[int], int]:
    """Map an offset in the NFKC-normalized query back to the query as typed."""
    if unicodedata.normalize("NFKC", raw) == raw:
        return lambda offset: offset
    # lengths[i]: how long the first i typed characters are once normalized. Queries are short.
    lengths = [len(unicodedata.normalize("NFKC", raw[:i])) for i in range(len(raw) + 1)]

    def to_raw(offset: int) -> int:
        return max(i for i, length in enumerate(lengths) if length <= offset)

    return to_raw
