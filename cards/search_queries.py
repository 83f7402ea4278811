"""Card search in the ORM: cards.search parses the query (pure); this turns its terms into a condition and an order.

Used by cards.selectors.card_search. Raw SQL where building the ORM expression cost more than
running the query (_SearchRank, measured on the editor's search). Free text is matched in the
folded search_text (trigram index on PostgreSQL), names in the folded search_name and
search_name_ja columns (migration 0009): nothing is split or folded in SQL per row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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
        like = connection.operators["contains"]
        names_hold = " AND ".join(f"({en} {like} OR {ja} {like})" for _ in self.words)
        sql = f"CASE WHEN ({en} = %s OR {ja} = %s) THEN 0 WHEN ({names_hold}) THEN 1 ELSE 2 END"
        patterns = [f"%{connection.ops.prep_for_like_query(word)}%" for word in self.words]
        return sql, [self.phrase, self.phrase, *(p for pattern in patterns for p in (pattern, pattern))]


def card_search_order(terms: tuple[Term, ...]) -> list[Expression | str]:
    """Exact folded name (EN or JA) first, then names holding every word, then the rest; by level, name."""
    by_level: list[Expression | str] = [F("level").asc(nulls_last=True), "name"]
    words = tuple(str(t.value) for t in terms if t.field in (Field.TEXT, Field.NAME) and not t.negated)
    if not words:
        return by_level
    return [_SearchRank(" ".join(words), words).asc(), *by_level]
