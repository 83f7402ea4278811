"""Reads of the catalog (cards, their facts for the engine, card search, import jobs).

The rules lookups are in cards.rules_selectors and the search's ORM conditions in
cards.search_queries.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import F, Prefetch, Q, QuerySet, TextField
from django.db.models.expressions import RawSQL

from decks.rules.games import GameDefinition
from decks.rules.types import CardFacts

from .catalog import catalog_memory
from .game_search import game_query_parse, game_search_condition, game_type_term
from .games import UnknownGameError, default_game, default_game_slug, game_get
from .models import (
    SEARCH_COLUMNS,
    Attribute,
    Card,
    Erratum,
    Faction,
    ImportJob,
    Printing,
)
from .search import CardQuery, QueryError, parse_card_query
from .search_queries import card_filter_terms, card_search_condition, card_search_ids


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
    card_queryset()'s prefetches; no query either way. Made once for a card card_search keeps in the
    catalog memory (_cards_remembered)."""
    remembered = card.__dict__.get(_REMEMBERED_FACTS)
    if remembered is not None:
        return remembered
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


def _card_facts_sql(card_id: str, db: BaseDatabaseWrapper = connection) -> tuple[str, str]:
    """SQL of the joined attribute names and collector numbers of the card whose id is the SQL `card_id` (on `db`)."""
    q = db.ops.quote_name
    printing, attribute, through = (
        q(Printing._meta.db_table),
        q(Attribute._meta.db_table),
        q(Card.attributes.through._meta.db_table),
    )
    joined = "STRING_AGG({}, chr(31))" if db.vendor == "postgresql" else "GROUP_CONCAT({}, char(31))"
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
    level, cnt, legend, text, attribute names joined, collector numbers joined, printing id); see
    joined_values. One query.

    Gate Ruler's facts: only the default game's cards (another game's printing is not a card of its
    decks, so it is as unknown as a number no set prints; cards.game_catalog has the other games').
    """
    if not numbers:
        return []
    # The connection itself, not django.db.connection: the proxy looks it up in asgiref's Local for every
    # attribute read (gatesite.rows.default_db), and an editor's change reads the facts of the cards it adds.
    db = connections[DEFAULT_DB_ALIAS]
    q = db.ops.quote_name
    printing, card, faction = (q(m._meta.db_table) for m in (Printing, Card, Faction))
    attributes, printed = _card_facts_sql("c.id", db)
    if db.vendor == "postgresql":
        where, params = "p.collector_number = ANY(%s)", [list(numbers)]
    else:
        where, params = f"p.collector_number IN ({', '.join(['%s'] * len(numbers))})", list(numbers)
    sql = (
        f"SELECT p.collector_number, c.id, c.name, c.type, f.name, c.level, c.cnt, c.legend, c.text, {attributes}, "
        f"{printed}, p.id FROM {printing} p JOIN {card} c ON c.id = p.card_id LEFT JOIN {faction} f ON f.id = c.faction_id "
        f"WHERE {where} AND c.game = %s"
    )
    params.append(default_game_slug())
    with db.cursor() as cursor:
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
    game: str | None = None,
    count_cap: int | None = None,
) -> CardSearchResult:
    """Cards matching the search box's text and the browser's filters, best first; never raises on bad input.

    The total is counted up to `count_cap` matches (CARD_SEARCH_COUNT_CAP when None); with a cap
    no further than this page, as the editor's browser asks (0), no count at all: the page is
    fetched with one card more, which tells whether there are more.

    1. Parse the text (cards.search); the filters become more terms, ANDed with the text's.
    2. Resolve faction, attribute and set values to rows (one small query each, only when used).
    3. Fetch the page, each card annotated with its attribute names and collector numbers so that
       card_facts(card) needs no query (with_card_facts), then count unless the page shows the
       total already. At most 2 queries + 1 per kind of name looked up in step 2, whatever the
       number of results.

    Order: exact name match (English or Japanese, folded) first, then cards whose names contain
    every word, then the rest; within each, by level (energy last) then name.

    `game`: a game's slug (default: the default game; another game searches its own fields).
    """
    filters = {"faction": faction, "type": type, "level_min": level_min, "level_max": level_max}
    filters |= {"attribute": attribute, "cnt": cnt, "legend": legend, "set_code": set_code}
    try:
        chosen = game_get(game) if game is not None else default_game()
    except UnknownGameError as exc:
        return CardSearchResult(cards=[], total=0, error=str(exc))
    if not chosen.default:
        return game_card_search(
            game=chosen, query=query, filters=filters, limit=limit, offset=offset, count_cap=count_cap
        )
    return _card_search_default_game(query=query, filters=filters, limit=limit, offset=offset, count_cap=count_cap)


def _card_search_default_game(
    *, query: str, filters: dict[str, Any], limit: int, offset: int, count_cap: int | None
) -> CardSearchResult:
    try:
        parsed = parse_card_query(query)
    except QueryError as exc:
        return CardSearchResult(cards=[], total=0, error=exc.message, error_position=exc.position)
    limit = max(0, min(limit, CARD_SEARCH_MAX_LIMIT))
    offset = max(0, offset)
    cap = CARD_SEARCH_COUNT_CAP if count_cap is None else count_cap
    # With a cap no further than the page, one card more is fetched instead of counting (it says whether there are more).
    peek = 1 if cap <= offset + limit else 0
    try:
        terms = parsed.terms + card_filter_terms(**filters)
        # The page's ids, in order; the cards themselves from the catalog memory (_cards_remembered).
        ids = card_search_ids(terms, game=default_game_slug(), limit=limit + peek, offset=offset)
    except QueryError as exc:
        return CardSearchResult(cards=[], total=0, error=exc.message, query=parsed, error_position=exc.position)
    cards = _cards_remembered(ids)
    if peek:
        more = len(cards) > limit
        total = offset + (limit if more else len(cards))
        return CardSearchResult(cards=cards[:limit], total=total, query=parsed, total_capped=more)
    # The names were resolved by card_search_ids: the condition cannot fail now.
    condition = card_search_condition(terms) & Q(game=default_game_slug())
    total, capped = _card_search_total(condition, cards=len(cards), limit=limit, offset=offset, cap=cap)
    return CardSearchResult(cards=cards, total=total, query=parsed, total_capped=capped)


def game_card_search(
    *,
    game: GameDefinition,
    query: str,
    filters: dict[str, Any],
    limit: int = 60,
    offset: int = 0,
    count_cap: int | None = None,
) -> CardSearchResult:
    """card_search for a game besides the default one: its own fields (cards.game_search); by name.

    Of the browser's filters only `type` is every game's; the others are the default game's fields.
    """
    others = [name for name, value in filters.items() if name != "type" and value not in (None, "")]
    if others:
        return CardSearchResult(cards=[], total=0, error=f"{game.name} cards have no {others[0]} filter")
    card_type = str(filters["type"]) if filters.get("type") else None
    try:
        terms = game_query_parse(game, query) + ((game_type_term(game, card_type),) if card_type else ())
        condition = game_search_condition(game, terms)
    except QueryError as exc:
        return CardSearchResult(cards=[], total=0, error=exc.message, error_position=exc.position)
    limit = max(0, min(limit, CARD_SEARCH_MAX_LIMIT))
    offset = max(0, offset)
    cards = list(
        with_card_facts(Card.objects.defer(*SEARCH_COLUMNS)).filter(condition).order_by("name")[offset : offset + limit]
    )
    cap = CARD_SEARCH_COUNT_CAP if count_cap is None else count_cap
    total, capped = _card_search_total(condition, cards=len(cards), limit=limit, offset=offset, cap=cap)
    return CardSearchResult(cards=cards, total=total, total_capped=capped)


def card_search_filter(cards: QuerySet[Card], *, query: str, game: str) -> QuerySet[Card]:
    """The cards matching a search in `game`'s syntax (GET /api/v1/cards/?q=); QueryError for a bad query."""
    chosen = game_get(game)
    if chosen.default:
        return cards.filter(card_search_condition(parse_card_query(query).terms))
    return cards.filter(game_search_condition(chosen, game_query_parse(chosen, query)))


# A remembered card's facts (card_facts), kept on the card: the remembered cards are shared and never changed.
_REMEMBERED_FACTS = "remembered_facts"


def _cards_remembered(ids: list[int]) -> list[Card]:
    """The cards of these ids with their facts (with_card_facts), in that order, from the catalog memory:
    a search's results are the same few thousand cards again and again, and building them cost as
    much as the rest of a search. Those not remembered yet are read in one query (no prefetches, no
    Faction instances: card_facts(card).faction); the search columns are for matching, not showing.
    """
    memory = catalog_memory()
    missing = [pk for pk in ids if pk not in memory.cards]
    if missing:
        for card in with_card_facts(Card.objects.defer(*SEARCH_COLUMNS)).filter(pk__in=missing):
            # Its facts too, made once: the editor's browser asks for them on every search that shows it.
            setattr(card, _REMEMBERED_FACTS, card_facts(card))
            memory.cards[card.pk] = card
    return [memory.cards[pk] for pk in ids if pk in memory.cards]


def _card_search_total(condition: Q, *, cards: int, limit: int, offset: int, cap: int) -> tuple[int, bool]:
    """The number of matches and whether it is capped (a lower bound), counting only when the page cannot tell."""
    if cards < limit and (cards or offset == 0):
        # A short page is the last one: the total is known without counting.
        return offset + cards, False
    # Count no further than the cap (or than this page, for a page past it): the database
    # stops at the bound instead of visiting every match.
    bound = max(cap, offset + limit)
    total = Card.objects.filter(condition)[: bound + 1].count()
    if total > bound:
        return bound, True
    return total, False


# Card detail and import jobs.


def card_get_by_collector_number(*, number: str) -> Card | None:
    """The card printed under a collector number, with card_queryset()'s prefetches and its errata history."""
    return (
        card_queryset()
        .prefetch_related(Prefetch("errata", queryset=Erratum.objects.all()))
        .filter(printings__collector_number=number)
        .first()
    )


def card_number_get_by_name(*, name: str) -> str | None:
    """A collector number of the card of this English name (its first printing's), for links that know only a name."""
    printings = Printing.objects.filter(card__name=name).order_by("collector_number")
    return printings.values_list("collector_number", flat=True).first()


def import_job_get(*, job_id: int) -> ImportJob | None:
    """An import job without its stored file (up to IMPORT_MAX_BYTES: never loaded to show a page)."""
    return ImportJob.objects.defer("file_content").select_related("created_by").filter(pk=job_id).first()


def import_job_waiting_for_broker(*, job: ImportJob) -> bool:
    """Whether a queued job could not be sent to the workers (the broker was down) and waits in the outbox."""
    if job.status != ImportJob.Status.QUEUED:
        return False
    from gatesite.outbox.selectors import outbox_task_waiting

    return outbox_task_waiting(task="cards.import_job_run", job_id=job.pk)


def import_job_same_file_applied(*, job: ImportJob) -> ImportJob | None:
    """An earlier job that applied the same file (same checksum): this one should find nothing to change."""
    return (
        ImportJob.objects.defer("file_content")
        .filter(file_sha256=job.file_sha256, dry_run=False, status=ImportJob.Status.SUCCEEDED, pk__lt=job.pk)
        .order_by("-pk")
        .first()
    )
