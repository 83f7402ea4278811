"""Reads of the catalog and the rules, shaped for the engine and the API."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any, TypeVar

from django.db import connection
from django.db.models import (
    Exists,
    Expression,
    F,
    Func,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    TextField,
)
from django.db.models.expressions import RawSQL
from django.db.models.lookups import Contains

from decks.rules.ruleset import RulesDataError, RulesInForce, in_force_on, rules_in_force
from decks.rules.types import CardFacts
from gatesite.errors import ApplicationError

from .catalog import CatalogMemory, catalog_memory
from .folding import fold
from .models import (
    Attribute,
    Card,
    CardSet,
    Erratum,
    Faction,
    Geas,
    GeasRevision,
    ImportJob,
    Printing,
    Ruler,
    RulerRevision,
)
from .search import (
    MAX_LEVEL,
    CardQuery,
    Field,
    QueryError,
    Term,
    match_names,
    no_match_error,
    parse_card_query,
    resolve_type,
)


def ruler_list() -> QuerySet[Ruler]:
    return Ruler.objects.all()


def ruler_revision_in_force(*, ruler: Ruler, on: date) -> RulerRevision | None:
    return ruler.revisions.filter(effective_from__lte=on).order_by("-effective_from").first()


def geas_revision_in_force(*, geas: Geas, on: date) -> GeasRevision | None:
    return geas.revisions.filter(effective_from__lte=on).order_by("-effective_from").first()


_R = TypeVar("_R", RulerRevision, GeasRevision)


@dataclass(frozen=True)
class RulesChoice:
    ruler: Ruler
    geas: Geas | None
    on: date
    ruler_revision: RulerRevision
    geas_revision: GeasRevision | None
    rules: RulesInForce


# Parsed rules keyed by the revisions (and their last edit) they came from: parsing is pure,
# so a cached result is exact until an admin edits a revision.
_rules_cache: dict[tuple[object, ...], RulesInForce] = {}


def rules_choice_get(*, ruler_slug: str, geas_slug: str | None, on: date) -> RulesChoice:
    """The rules in force for a ruler (and geas) on a date; ApplicationError names what is wrong.

    The revisions of a slug (without their data) come from this process's catalog memory
    (cards.catalog: no query while the catalog is unchanged, one per slug after a change); the
    data is read and parsed only when the rules cache misses. The editor asks on every change
    and every search, the validate API on every request.
    """
    memory = catalog_memory()
    ruler_revision = in_force_on(_revision_dates(_ruler_revisions(memory, ruler_slug)), on)
    geas_revision = None
    if geas_slug and ruler_revision is not None:
        geas_revision = in_force_on(_revision_dates(_geas_revisions(memory, geas_slug)), on)
    if ruler_revision is None or (
        geas_slug and (geas_revision is None or geas_revision.geas.ruler_id != ruler_revision.ruler_id)
    ):
        _rules_choice_refuse(ruler_slug=ruler_slug, geas_slug=geas_slug, on=on)
    assert ruler_revision is not None
    key = (
        ruler_revision.pk,
        ruler_revision.updated_at,
        geas_revision.pk if geas_revision else None,
        geas_revision.updated_at if geas_revision else None,
    )
    rules = _rules_cache.get(key)
    if rules is None:
        ruler_data = RulerRevision.objects.values_list("data", flat=True).get(pk=ruler_revision.pk)
        geas_data = (
            GeasRevision.objects.values_list("data", flat=True).get(pk=geas_revision.pk) if geas_revision else None
        )
        try:
            rules = rules_in_force(ruler_data, geas_data)
        except RulesDataError as exc:
            raise ApplicationError(f"The rules data is broken: {exc}") from exc
        _rules_cache[key] = rules
    geas = geas_revision.geas if geas_revision else None
    return RulesChoice(ruler_revision.ruler, geas, on, ruler_revision, geas_revision, rules)


def _ruler_revisions(memory: CatalogMemory, slug: str) -> tuple[RulerRevision, ...]:
    """A ruler's revisions with the ruler, oldest first (data deferred); remembered while the catalog is unchanged.

    The instances are shared by every request of this process until the catalog changes: read them, never save them.
    """
    revisions = memory.ruler_revisions.get(slug)
    if revisions is None:
        revisions = tuple(
            RulerRevision.objects.select_related("ruler")
            .defer("data")
            .filter(ruler__slug=slug)
            .order_by("effective_from")
        )
        if revisions:  # an unknown slug is not remembered (see CatalogMemory)
            memory.ruler_revisions[slug] = revisions
    return revisions


def _geas_revisions(memory: CatalogMemory, slug: str) -> tuple[GeasRevision, ...]:
    """A geas's revisions with the geas, oldest first; as _ruler_revisions."""
    revisions = memory.geas_revisions.get(slug)
    if revisions is None:
        revisions = tuple(
            GeasRevision.objects.select_related("geas").defer("data").filter(geas__slug=slug).order_by("effective_from")
        )
        if revisions:
            memory.geas_revisions[slug] = revisions
    return revisions


def _revision_dates(revisions: Iterable[_R]) -> list[tuple[date, _R]]:
    return [(r.effective_from, r) for r in revisions]


def _rules_choice_refuse(*, ruler_slug: str, geas_slug: str | None, on: date) -> None:
    """Raise the ApplicationError that says why there are no rules for this choice."""
    ruler = Ruler.objects.filter(slug=ruler_slug).first()
    if ruler is None:
        raise ApplicationError(f"Unknown ruler '{ruler_slug}'.", field="ruler")
    geas = None
    if geas_slug:
        geas = Geas.objects.select_related("ruler").filter(slug=geas_slug).first()
        if geas is None:
            raise ApplicationError(f"Unknown geas '{geas_slug}'.", field="geas")
        if geas.ruler_id != ruler.pk:
            raise ApplicationError(
                f"{geas.name} is an oath for {geas.ruler.name}, not for {ruler.name}.",
                field="geas",
            )
    if ruler_revision_in_force(ruler=ruler, on=on) is None:
        first = ruler.revisions.order_by("effective_from").first()
        since = f"; its first rules are from {first.effective_from}" if first else ""
        raise ApplicationError(f"{ruler.name} has no rules in force on {on}{since}.", field="as_of")
    if geas is not None and geas_revision_in_force(geas=geas, on=on) is None:
        first = geas.revisions.order_by("effective_from").first()
        since = f"; it is in force from {first.effective_from}" if first else ""
        raise ApplicationError(f"{geas.name} is not in force on {on}{since}.", field="as_of")
    # Only reached if the catalog changed between the two looks.
    raise ApplicationError(f"No rules for {ruler.name} on {on}; try again.", field="ruler")


def card_queryset() -> QuerySet[Card]:
    return Card.objects.select_related("faction").prefetch_related(
        Prefetch("attributes", queryset=Attribute.objects.only("name")),
        Prefetch(
            "printings",
            queryset=Printing.objects.select_related("card_set").order_by("collector_number"),
        ),
    )


def card_facts(card: Card) -> CardFacts:
    """The engine's view of a card: from card_search()'s annotations (with_card_facts) or else from
    card_queryset()'s prefetches; no query either way."""
    if hasattr(card, "facts_numbers"):
        faction = card.facts_faction
        attributes = frozenset(joined_values(card.facts_attributes))
        numbers = tuple(sorted(joined_values(card.facts_numbers)))
    else:
        faction = card.faction.name if card.faction else None
        attributes = frozenset(a.name for a in card.attributes.all())
        numbers = tuple(p.collector_number for p in card.printings.all())
    return CardFacts(
        name=card.name,
        type=card.type,
        faction=faction,
        attributes=attributes,
        level=card.level,
        cnt=card.cnt,
        legend=card.legend,
        text=card.text,
        collector_numbers=numbers,
    )


# The facts of many cards in the query that finds them: a card's attribute names and collector
# numbers, each as one text value (correlated subqueries over the card's rows, joined with a
# separator no name or number holds). Cheaper than two prefetches, which build a queryset and
# model instances per card: the editor reads facts for 60 results and a deck on every change.
# Written in SQL: built with the ORM (Subquery over an aggregate), the query cost more to make
# than to run. PostgreSQL runs the subqueries for the rows of the page only, after the LIMIT.
_SEPARATOR = "\x1f"  # ASCII unit separator: chr(31) on PostgreSQL, char(31) on SQLite


def _card_facts_sql(card_id: str) -> tuple[str, str]:
    """SQL of the joined attribute names and collector numbers of the card whose id is the SQL `card_id`."""
    q = connection.ops.quote_name
    printing, attribute, through = (
        q(Printing._meta.db_table),
        q(Attribute._meta.db_table),
        q(Card.attributes.through._meta.db_table),
    )
    joined = "STRING_AGG({}, chr(31))" if connection.vendor == "postgresql" else "GROUP_CONCAT({}, char(31))"
    return (
        f"(SELECT {joined.format('fa.name')} FROM {through} fca JOIN {attribute} fa ON fa.id = fca.attribute_id "
        f"WHERE fca.card_id = {card_id})",
        f"(SELECT {joined.format('fp.collector_number')} FROM {printing} fp WHERE fp.card_id = {card_id})",
    )


def joined_values(joined: str | None) -> list[str]:
    """The attribute names or collector numbers of a card, from with_card_facts or card_facts_rows."""
    return joined.split(_SEPARATOR) if joined else []


def card_facts_rows(numbers: Collection[str]) -> list[tuple[Any, ...]]:
    """For each printing of `numbers` in the catalog: (collector number, card id, name, type, faction name,
    level, cnt, legend, text, attribute names joined, collector numbers joined); see joined_values. One query.
    """
    if not numbers:
        return []
    q = connection.ops.quote_name
    printing, card, faction = (q(m._meta.db_table) for m in (Printing, Card, Faction))
    attributes, printed = _card_facts_sql("c.id")
    if connection.vendor == "postgresql":
        where, params = "p.collector_number = ANY(%s)", [list(numbers)]
    else:
        where, params = f"p.collector_number IN ({', '.join(['%s'] * len(numbers))})", list(numbers)
    sql = (
        f"SELECT p.collector_number, c.id, c.name, c.type, f.name, c.level, c.cnt, c.legend, c.text, {attributes}, "
        f"{printed} FROM {printing} p JOIN {card} c ON c.id = p.card_id LEFT JOIN {faction} f ON f.id = c.faction_id "
        f"WHERE {where}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def with_card_facts(cards: QuerySet[Card]) -> QuerySet[Card]:
    """Cards annotated so that card_facts(card) needs neither a query nor a prefetch.

    The faction comes as its name only (no Faction instance per card): read it from card_facts(card).
    """
    q = connection.ops.quote_name
    attributes, printed = _card_facts_sql(f"{q(Card._meta.db_table)}.{q('id')}")
    return cards.annotate(
        facts_faction=F("faction__name"),
        facts_attributes=RawSQL(attributes, (), output_field=TextField()),
        facts_numbers=RawSQL(printed, (), output_field=TextField()),
    )


def cards_by_reference(*, numbers: Iterable[str], names: Iterable[str]) -> tuple[dict[str, Card], dict[str, Card]]:
    """Cards for the collector numbers and names a deck list uses, in two queries and their prefetches."""
    numbers, names = set(numbers), set(names)
    by_number: dict[str, Card] = {}
    by_name: dict[str, Card] = {}
    if not numbers and not names:
        return by_number, by_name
    cards = card_queryset().filter(Q(printings__collector_number__in=numbers) | Q(name__in=names)).distinct()
    for card in cards:
        by_name[card.name] = card
        for printing in card.printings.all():
            if printing.collector_number in numbers:
                by_number[printing.collector_number] = card
    return by_number, {k: v for k, v in by_name.items() if k in names}


def attribute_exists(name: str) -> bool:
    """Whether an attribute of this name exists; the names are remembered while the catalog is unchanged."""
    memory = catalog_memory()
    if memory.attributes is None:
        memory.attributes = frozenset(Attribute.objects.values_list("name", flat=True))
    return name in memory.attributes


# Card search: cards.search parses the query (pure); this adapts its terms to the ORM.

CARD_SEARCH_MAX_LIMIT = 200
# Matches counted at most: past it the total is shown as "1000+". Counting all 17 000 cards of
# an empty query, or the 4 000 whose text says "damage", cost as much as fetching the page.
CARD_SEARCH_COUNT_CAP = 1000


@dataclass(frozen=True)
class CardSearchResult:
    """One page of search results; on a bad query `error` says why (and where) and there are no cards.

    `query` is what the search box's text parsed to (None when it did not parse); the browser's
    filters (faction=, type=, …) are not in it. `error_position` is the 0-based offset of the bad
    token in the text typed, when the error is in the text.
    """

    cards: list[Card]
    # The number of matches; a lower bound when total_capped (there are more, not counted).
    total: int
    error: str | None = None
    query: CardQuery | None = None
    error_position: int | None = None
    total_capped: bool = False


def card_search(
    *,
    query: str,
    limit: int = 60,
    offset: int = 0,
    faction: str | None = None,
    type: str | None = None,
    level_min: int | None = None,
    level_max: int | None = None,
    attribute: str | None = None,
    cnt: bool | None = None,
    legend: bool | None = None,
    set_code: str | None = None,
) -> CardSearchResult:
    """Cards matching the search box's text and the browser's filters, best first; never raises on bad input.

    1. Parse the text (cards.search); the filters become more terms, ANDed with the text's.
    2. Resolve faction, attribute and set values to rows (one small query each, only when used).
    3. Fetch the page, each card annotated with its attribute names and collector numbers so that
       card_facts(card) needs no query (with_card_facts), then count unless the page shows the
       total already. At most 2 queries + 1 per kind of name looked up in step 2, whatever the
       number of results.

    Order: exact name match (English or Japanese, folded) first, then cards whose names contain
    every word, then the rest; within each, by level (energy last) then name.
    """
    try:
        parsed = parse_card_query(query)
    except QueryError as exc:
        return CardSearchResult(cards=[], total=0, error=exc.message, error_position=exc.position)
    try:
        terms = parsed.terms + _card_filter_terms(
            faction=faction,
            type=type,
            level_min=level_min,
            level_max=level_max,
            attribute=attribute,
            cnt=cnt,
            legend=legend,
            set_code=set_code,
        )
        condition = _card_search_condition(terms)
    except QueryError as exc:
        return CardSearchResult(cards=[], total=0, error=exc.message, query=parsed, error_position=exc.position)

    limit = max(0, min(limit, CARD_SEARCH_MAX_LIMIT))
    offset = max(0, offset)
    # The page with every card's facts (no prefetches, no Faction instances: card_facts(card).faction);
    # search_text is for matching, not showing.
    cards = list(
        with_card_facts(Card.objects.defer("search_text"))
        .filter(condition)
        .order_by(*_card_search_order(terms))[offset : offset + limit]
    )
    capped = False
    if len(cards) < limit and (cards or offset == 0):
        # A short page is the last one: the total is known without counting.
        total = offset + len(cards)
    else:
        # Count no further than the cap (or than this page, for a page past it): the database
        # stops at the bound instead of visiting every match.
        bound = max(CARD_SEARCH_COUNT_CAP, offset + limit)
        total = Card.objects.filter(condition)[: bound + 1].count()
        if total > bound:
            total, capped = bound, True
    return CardSearchResult(cards=cards, total=total, query=parsed, total_capped=capped)


def _card_filter_terms(
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


def _card_search_condition(terms: tuple[Term, ...]) -> Q:
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


def _card_search_order(terms: tuple[Term, ...]) -> list[Expression | str]:
    """Exact folded name (EN or JA) first, then names holding every word, then the rest; by level, name."""
    by_level: list[Expression | str] = [F("level").asc(nulls_last=True), "name"]
    words = tuple(str(t.value) for t in terms if t.field in (Field.TEXT, Field.NAME) and not t.negated)
    if not words:
        return by_level
    return [_SearchRank(" ".join(words), words).asc(), *by_level]


# Card detail and import jobs.


def card_get_by_collector_number(*, number: str) -> Card | None:
    """The card printed under a collector number, with card_queryset()'s prefetches and its errata history."""
    return (
        card_queryset()
        .prefetch_related(Prefetch("errata", queryset=Erratum.objects.all()))
        .filter(printings__collector_number=number)
        .first()
    )


def import_job_get(*, job_id: int) -> ImportJob | None:
    """An import job without its stored file (up to IMPORT_MAX_BYTES: never loaded to show a page)."""
    return ImportJob.objects.defer("file_content").select_related("created_by").filter(pk=job_id).first()


def import_job_same_file_applied(*, job: ImportJob) -> ImportJob | None:
    """An earlier job that applied the same file (same checksum): this one should find nothing to change."""
    return (
        ImportJob.objects.defer("file_content")
        .filter(file_sha256=job.file_sha256, dry_run=False, status=ImportJob.Status.SUCCEEDED, pk__lt=job.pk)
        .order_by("-pk")
        .first()
    )
