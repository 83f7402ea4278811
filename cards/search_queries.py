"""Card search in the ORM: cards.search parses the query (pure); this turns its terms into a condition and an order.

Used by cards.selectors.card_search. Raw SQL where building the ORM expression cost more than
running the query (_SearchRank, measured on the editor's search). Free text is matched in the
folded search_text (trigram index on PostgreSQL), names in the folded search_name and
search_name_ja columns (migration 0009): nothing is split or folded in SQL per row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import connection
from django.db.models import Exists, Expression, F, Func, IntegerField, OuterRef, Q

from .catalog import catalog_remembered
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
_LEVEL_OPERATORS = {op: op for op in _LEVEL_LOOKUPS}  # the SQL of each (only these: never the text typed)


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
        # The same few dozen names for every search until the catalog changes: remembered with it.
        candidates = catalog_remembered(("search-names", field), lambda load=load: tuple(load()))
        for term in wanted:
            ids = match_names(str(term.value), candidates)
            if not ids:
                raise no_match_error(term, what, (names[0] for _, names in candidates))
            resolved[term] = ids
    return resolved


def _name_contains(word: str) -> Q:
    """The folded English or Japanese name contains the folded word (not the card text)."""
    return Q(search_name__contains=word) | Q(search_name_ja__contains=word)


class _SearchRank(Func):
    """0 when the folded English or Japanese name is the phrase, 1 when the names hold every word, else 2.

    The SQL is written here rather than as Case/When over Q objects (_name_contains): building
    that cost more than running the query. Same tests: `=` for the phrase, the `contains`
    lookup's LIKE (with its escaping) for the words, on the folded names' own columns (a card
    without a Japanese name has "" there, which holds no word and is no phrase).
    """

    output_field = IntegerField()

    def __init__(self, phrase: str, words: tuple[str, ...]) -> None:
        self.phrase, self.words = phrase, words
        super().__init__(F("search_name"), F("search_name_ja"))

    def as_sql(self, compiler: Any, connection: Any, **extra_context: Any) -> tuple[str, list[Any]]:
        (en, en_params), (ja, ja_params) = (compiler.compile(e) for e in self.get_source_expressions())
        if en_params or ja_params:  # columns compile to names; repeating them must not repeat parameters
            raise ValueError((en_params, ja_params))
        return _rank_sql(en, ja, self.phrase, self.words)


def _rank_sql(en: str, ja: str, phrase: str, words: tuple[str, ...]) -> tuple[str, list[Any]]:
    """_SearchRank's SQL over the folded names' columns `en` and `ja` (SQL), and its parameters."""
    like = connection.operators["contains"]
    names_hold = " AND ".join(f"({en} {like} OR {ja} {like})" for _ in words)
    sql = f"CASE WHEN ({en} = %s OR {ja} = %s) THEN 0 WHEN ({names_hold}) THEN 1 ELSE 2 END"
    patterns = [_like_pattern(word) for word in words]
    return sql, [phrase, phrase, *(p for pattern in patterns for p in (pattern, pattern))]


def _like_pattern(word: str) -> str:
    """The `contains` lookup's parameter: the word escaped for LIKE, between wildcards."""
    return f"%{connection.ops.prep_for_like_query(word)}%"


def _search_words(terms: tuple[Term, ...]) -> tuple[str, ...]:
    """The words the order ranks names by: free text and name: terms, not negated ones."""
    return tuple(str(t.value) for t in terms if t.field in (Field.TEXT, Field.NAME) and not t.negated)


def card_search_order(terms: tuple[Term, ...]) -> list[Expression | str]:
    """Exact folded name (EN or JA) first, then names holding every word, then the rest; by level, name.

    The ORM's spelling of the order card_search_ids writes in SQL, kept as its reference: the
    tests compare the two (tests/cards/test_card_search_ids.py).
    """
    by_level: list[Expression | str] = [F("level").asc(nulls_last=True), "name"]
    words = _search_words(terms)
    if not words:
        return by_level
    return [_SearchRank(" ".join(words), words).asc(), *by_level]


def card_search_ids(terms: tuple[Term, ...], *, game: str, limit: int, offset: int) -> list[int]:
    """The ids of `game`'s cards matching all the terms, best first, `limit` of them from `offset`: one query.

    The rows and order of Card.objects.filter(card_search_condition(terms) & Q(game=game))
    .order_by(*card_search_order(terms)) (the tests compare them), in SQL written here: building
    and compiling that queryset took several times the CPU of running it (1.4 ms against 0.17 for
    `a:dragon lv>=3 -legend` over 20 000 printings), on every search of the editor's browser.
    The same SQL as the ORM's, condition by condition (the same indexes serve it), negations
    included: a negated test on a nullable column keeps its NULL rows, as ~Q does.
    QueryError, as card_search_condition, for a faction, attribute or set that names nothing.
    """
    resolved = _card_search_names_resolve(terms)
    q = connection.ops.quote_name
    card = q(Card._meta.db_table)

    def column(name: str) -> str:
        return f"{card}.{q(name)}"

    def contains(name: str) -> str:
        cast = connection.ops.lookup_cast("contains", "TextField") % column(name)
        return f"{cast} {connection.operators['contains']}"

    def exists(model: Any, card_id: str, other: str, ids: list[int]) -> tuple[str, list[Any]]:
        table = q(model._meta.db_table)
        marks = ", ".join(["%s"] * len(ids))
        return (
            f"EXISTS(SELECT 1 FROM {table} U0 WHERE (U0.{q(other)} IN ({marks}) "
            f"AND U0.{q(card_id)} = ({column('id')})) LIMIT 1)",
            list(ids),
        )

    wheres: list[str] = []
    params: list[Any] = []
    for term in terms:
        nullable = ""  # the column a negation must keep the NULL rows of
        match term.field:
            case Field.TEXT:
                sql, args = contains("search_text"), [_like_pattern(str(term.value))]
            case Field.NAME:
                pattern = _like_pattern(str(term.value))
                sql, args = f"({contains('search_name')} OR {contains('search_name_ja')})", [pattern, pattern]
                if not term.negated:  # the trigram index on search_text narrows the rows first
                    sql, args = f"{contains('search_text')} AND {sql}", [pattern, *args]
            case Field.TYPE:
                sql, args = f"{column('type')} = %s", [term.value]
            case Field.LEVEL:
                sql, args = f"{column('level')} {_LEVEL_OPERATORS[term.op]} %s", [term.value]
                nullable = column("level")
            case Field.CNT | Field.LEGEND:
                sql, args = f"{column(term.field.value)} = %s", [True]
            case Field.FACTION:
                ids = resolved[term]
                sql, args = f"{column('faction_id')} IN ({', '.join(['%s'] * len(ids))})", list(ids)
                nullable = column("faction_id")
            case Field.ATTRIBUTE:
                sql, args = exists(Card.attributes.through, "card_id", "attribute_id", resolved[term])
            case Field.SET:
                sql, args = exists(Printing, "card_id", "card_set_id", resolved[term])
            case _:  # pragma: no cover - every Field is handled above
                raise AssertionError(term.field)
        if term.negated:
            sql = f"NOT ({sql} AND {nullable} IS NOT NULL)" if nullable else f"NOT ({sql})"
        wheres.append(sql)
        params.extend(args)
    wheres.append(f"{column('game')} = %s")
    params.append(game)
    order = [f"{column('level')} ASC NULLS LAST", f"{column('name')} ASC"]
    if not connection.features.supports_order_by_nulls_modifier:  # pragma: no cover - SQLite before 3.30
        order[0] = f"{column('level')} IS NULL, {column('level')} ASC"
    words = _search_words(terms)
    if words:
        rank, rank_params = _rank_sql(column("search_name"), column("search_name_ja"), " ".join(words), words)
        order.insert(0, f"{rank} ASC")
        params.extend(rank_params)
    sql = f"SELECT {column('id')} FROM {card} WHERE {' AND '.join(wheres)} ORDER BY {', '.join(order)}"
    sql += f" LIMIT {int(limit)}" + (f" OFFSET {int(offset)}" if offset else "")
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [pk for (pk,) in cursor.fetchall()]
