"""Card search in the ORM: cards.search parses the query (pure); this turns its terms into a condition and an order.

Used by cards.selectors.card_search. Raw SQL where building the ORM expression cost more than
running the query (_SearchRank, measured on the editor's search).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Exists, Expression, F, Func, IntegerField, OuterRef, Q, TextField
from django.db.models.lookups import Contains

from .folding import fold
from .models import Attribute, Card, CardSet, Faction, Printing
from .search import MAX_LEVEL, Field, Term, match_names, no_match_error, resolve_type


def card_filter_terms(
    *,
    faction: str | None,
    type: str | None,
    level_min: int | None,
    level_max: int | None,
    attribute: str | None,
    cnt: bool | None,
    legend: bool | None,
    set_code: str | None,
) -> tuple[Term, ...]:
    """The browser's filters as terms; an empty string is an unset filter (a form's blank choice)."""
    terms: list[Term] = []
    if faction:
        terms.append(Term(Field.FACTION, fold(faction), token=f"faction={faction}"))
    if type:
        terms.append(Term(Field.TYPE, resolve_type(type), token=f"type={type}"))
    # Clamped, so an absurd bound cannot overflow a database integer; no card is that far out.
    if level_min is not None:
        terms.append(
            Term(Field.LEVEL, max(-MAX_LEVEL, min(level_min, MAX_LEVEL)), op=">=", token=f"level_min={level_min}")
        )
    if level_max is not None:
        terms.append(
            Term(Field.LEVEL, max(-MAX_LEVEL, min(level_max, MAX_LEVEL)), op="<=", token=f"level_max={level_max}")
        )
    if attribute:
        terms.append(Term(Field.ATTRIBUTE, fold(attribute), token=f"attribute={attribute}"))
    if cnt is not None:
        terms.append(Term(Field.CNT, True, negated=not cnt, token=f"cnt={cnt}"))
    if legend is not None:
        terms.append(Term(Field.LEGEND, True, negated=not legend, token=f"legend={legend}"))
    if set_code:
        terms.append(Term(Field.SET, fold(set_code), token=f"set={set_code}"))
    return tuple(terms)


_LEVEL_LOOKUPS = {"=": "exact", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}


def card_search_condition(terms: tuple[Term, ...]) -> Q:
    """One Q for all the terms (AND); raises QueryError for a faction, attribute or set that names nothing."""
    resolved = _card_search_names_resolve(terms)
    condition = Q()
    for term in terms:
        match term.field:
            case Field.TEXT:
                # contains, not icontains: search_text is folded already, and a plain LIKE '%…%'
                # is what the pg_trgm GIN index serves (UPPER(…) LIKE would not use it).
                q = Q(search_text__contains=term.value)
            case Field.NAME:
                # The search_text test lets the trigram index narrow the rows; the names test
                # keeps those where the match is in a name, not the card text.
                q = Q(search_text__contains=term.value) if not term.negated else Q()
                q &= _name_contains(str(term.value))
            case Field.TYPE:
                q = Q(type=term.value)
            case Field.LEVEL:
                q = Q(**{f"level__{_LEVEL_LOOKUPS[term.op]}": term.value})
            case Field.CNT:
                q = Q(cnt=True)
            case Field.LEGEND:
                q = Q(legend=True)
            case Field.FACTION:
                q = Q(faction_id__in=resolved[term])
            case Field.ATTRIBUTE:
                through = Card.attributes.through
                q = Q(Exists(through.objects.filter(card_id=OuterRef("pk"), attribute_id__in=resolved[term])))
            case Field.SET:
                q = Q(Exists(Printing.objects.filter(card_id=OuterRef("pk"), card_set_id__in=resolved[term])))
            case _:  # pragma: no cover - every Field is handled above
                raise AssertionError(term.field)
        # ~Q on a nullable column keeps the NULL rows: -lv<=2 and -f:volnar keep energy cards.
        condition &= ~q if term.negated else q
    return condition


def _card_search_names_resolve(terms: tuple[Term, ...]) -> dict[Term, list[int]]:
    """The faction, attribute or set ids each such term names (see match_names): one query per kind used."""
    loaders: dict[Field, tuple[str, Callable[[], list[tuple[int, tuple[str, ...]]]]]] = {
        Field.FACTION: (
            "faction",
            lambda: [
                (pk, (name, name_ja, slug))
                for pk, name, name_ja, slug in Faction.objects.order_by().values_list("pk", "name", "name_ja", "slug")
            ],
        ),
        Field.ATTRIBUTE: (
            "attribute",
            lambda: [(pk, (name,)) for pk, name in Attribute.objects.order_by().values_list("pk", "name")],
        ),
        Field.SET: (
            "set",
            lambda: [(pk, (code,)) for pk, code in CardSet.objects.order_by().values_list("pk", "code")],
        ),
    }
    resolved: dict[Term, list[int]] = {}
    for field, (what, load) in loaders.items():
        wanted = [t for t in terms if t.field is field]
        if not wanted:
            continue
        candidates = load()
        for term in wanted:
            ids = match_names(str(term.value), candidates)
            if not ids:
                raise no_match_error(term, what, (names[0] for _, names in candidates))
            resolved[term] = ids
    return resolved


class _SearchTextLine(Func):
    """Line 1 or 2 of search_text ("" past its end): card_search_text() stores "name\nname_ja\ntext",
    folded, leaving empty parts out, so line 1 is the folded English name and line 2 the folded
    Japanese name when the card has one.

    PostgreSQL's split_part works on bytes; left()/substr() with strpos() count characters and
    measured 5x slower over 20 000 cards. SQLite has no split_part: substr/instr on the text
    padded with two newlines, so both line breaks always exist.
    """

    output_field = TextField()

    def __init__(self, number: int) -> None:
        if number not in (1, 2):
            raise ValueError(number)
        self.number = number
        super().__init__(F("search_text"))

    def as_sql(self, compiler: Any, connection: Any, **extra_context: Any) -> tuple[str, list[Any]]:
        column = self._column(compiler)
        padded = f"({column} || char(10, 10))"
        first_break = f"instr({padded}, char(10))"
        if self.number == 1:
            return f"substr({padded}, 1, {first_break} - 1)", []
        rest = f"substr({padded}, {first_break} + 1)"
        return f"substr({rest}, 1, instr({rest}, char(10)) - 1)", []

    def as_postgresql(self, compiler: Any, connection: Any, **extra_context: Any) -> tuple[str, list[Any]]:
        return f"split_part({self._column(compiler)}, chr(10), {self.number})", []

    def _column(self, compiler: Any) -> str:
        column, params = compiler.compile(self.get_source_expressions()[0])
        if params:  # a column compiles to a name; repeating it in the SQL must not repeat parameters
            raise ValueError(params)
        return str(column)


def _name_contains(word: str) -> Q:
    """The folded English or Japanese name contains the folded word (not the card text)."""
    return Q(Contains(_SearchTextLine(1), word)) | (~Q(name_ja="") & Q(Contains(_SearchTextLine(2), word)))


class _SearchRank(Func):
    """0 when the folded English or Japanese name is the phrase, 1 when the names hold every word, else 2.

    The SQL is written here rather than as Case/When over Q objects (_name_contains): building
    that cost more than running the query. Same tests: `=` for the phrase, the `contains`
    lookup's LIKE (with its escaping) for the words, on the lines of _SearchTextLine.
    """

    output_field = IntegerField()

    def __init__(self, phrase: str, words: tuple[str, ...]) -> None:
        self.phrase, self.words = phrase, words
        super().__init__(F("search_text"), F("name_ja"))

    def as_sql(self, compiler: Any, connection: Any, **extra_context: Any) -> tuple[str, list[Any]]:
        (text, text_params), (name_ja, ja_params) = (compiler.compile(e) for e in self.get_source_expressions())
        if text_params or ja_params:  # columns compile to names; repeating them must not repeat parameters
            raise ValueError((text_params, ja_params))
        en, ja = (_search_text_line(text, n, connection.vendor) for n in (1, 2))
        like = connection.operators["contains"]
        has_ja = f"{name_ja} <> ''"
        names_hold = " AND ".join(f"({en} {like} OR ({has_ja} AND {ja} {like}))" for _ in self.words)
        sql = f"CASE WHEN ({en} = %s OR ({has_ja} AND {ja} = %s)) THEN 0 WHEN ({names_hold}) THEN 1 ELSE 2 END"
        patterns = [f"%{connection.ops.prep_for_like_query(word)}%" for word in self.words]
        return sql, [self.phrase, self.phrase, *(p for pattern in patterns for p in (pattern, pattern))]


def _search_text_line(column: str, number: int, vendor: str) -> str:
    """_SearchTextLine's SQL for an already compiled column."""
    if vendor == "postgresql":
        return f"split_part({column}, chr(10), {number})"
    padded = f"({column} || char(10, 10))"
    first_break = f"instr({padded}, char(10))"
    if number == 1:
        return f"substr({padded}, 1, {first_break} - 1)"
    rest = f"substr({padded}, {first_break} + 1)"
    return f"substr({rest}, 1, instr({rest}, char(10)) - 1)"


def card_search_order(terms: tuple[Term, ...]) -> list[Expression | str]:
    """Exact folded name (EN or JA) first, then names holding every word, then the rest; by level, name."""
    by_level: list[Expression | str] = [F("level").asc(nulls_last=True), "name"]
    words = tuple(str(t.value) for t in terms if t.field in (Field.TEXT, Field.NAME) and not t.negated)
    if not words:
        return by_level
    return [_SearchRank(" ".join(words), words).asc(), *by_level]
