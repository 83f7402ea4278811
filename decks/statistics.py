"""Statistics over public decks: recomputed as set-based SQL, read by the pages as precomputed rows.

Writes (services): statistics_recompute (the whole set of figures, one transaction),
statistics_deck_saved / statistics_change_record (a saved public deck makes the figures stale),
statistics_refresh_if_stale (the scheduled job: recompute only when something changed).
Reads (selectors): statistics_overview (the /stats/ page), card_statistics (a card's page).

Incremental or stale? Stale. Co-occurrence and lift depend on every deck's whole card set, so
an exact incremental update would have to keep each deck's last counted list; instead a save
appends one StatisticsChange row (well under a millisecond of SQL), the page says how many
public decks changed since the figures were computed, and the beat job recomputes everything
a few minutes later (7–13 s for 100 000 decks on a busy 2-CPU machine; docs/benchmarks.md).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from cards.models import Card, Faction, Printing, Ruler

from .models import (
    CardInclusion,
    CardPairing,
    Deck,
    DeckCard,
    FactionShare,
    LevelCurvePoint,
    MonthlyRulerShare,
    RulerShare,
    Section,
    StatisticsChange,
    StatisticsRun,
    Visibility,
)

# A card's partners: the TOP_PAIRINGS with the highest lift among the cards played with it in at
# least PAIRING_MIN_DECKS decks and in at least PAIRING_MIN_SHARE of its decks (below that, lift
# is noise: two rare cards met once look like soulmates).
TOP_PAIRINGS = 10
PAIRING_MIN_DECKS = 5
PAIRING_MIN_SHARE = 0.1
# pg_try_advisory_xact_lock key: one recompute at a time ("stat" in ASCII).
STATISTICS_LOCK_KEY = 0x73746174
RUN_LOG_KEPT = timedelta(days=90)
FIGURE_MODELS = (RulerShare, FactionShare, CardInclusion, CardPairing, LevelCurvePoint, MonthlyRulerShare)


# ---------------------------------------------------------------- the full recompute


def statistics_recompute(
    *,
    trigger: str = StatisticsRun.Trigger.SCHEDULE,
    min_pair_decks: int = PAIRING_MIN_DECKS,
    min_pair_share: float = PAIRING_MIN_SHARE,
    top_pairings: int = TOP_PAIRINGS,
) -> StatisticsRun | None:
    """Recompute every figure from the public decks; returns the run, or None if another run holds the lock.

    1. In one transaction (REPEATABLE READ on PostgreSQL, so every statement sees the same decks):
       the public, unarchived decks' main-deck cards into a temporary table, one row per deck and
       card (printings of one name summed); each figure is then one INSERT … SELECT … GROUP BY.
    2. The run row is written in the same transaction: readers see the previous run's figures
       until the commit, then this one's; a failure rolls everything back and records a FAILED run.
    3. Figures of runs older than the previous one are deleted (the previous stays for readers
       that picked its id just before the commit); StatisticsChange rows older than the snapshot
       are counted now and removed. A retry simply computes the same figures again.
    """
    started = timezone.now()
    clock = time.perf_counter()
    # Taken before the transaction's snapshot: a deck whose change was logged before this instant
    # was committed before it too, so it is in the figures and its log row can go.
    snapshot_at = timezone.now()
    try:
        with _snapshot_transaction() as locked:
            if not locked:
                return None  # another worker is recomputing: its figures will be as fresh
            run = StatisticsRun.objects.create(
                status=StatisticsRun.Status.SUCCEEDED, trigger=trigger, started_at=started, computed_at=snapshot_at
            )
            with connection.cursor() as cursor:
                sql = _Sql(cursor, run.pk)
                sql.fill_temporary_tables()
                sql.ruler_shares()
                sql.faction_shares()
                sql.card_inclusions()
                sql.level_curve()
                sql.monthly_shares()
                sql.card_pairings(min_decks=min_pair_decks, min_share=min_pair_share, top=top_pairings)
                sql.drop_temporary_tables()
            run.decks = (
                RulerShare.objects.filter(run=run, ruler__isnull=True).values_list("decks", flat=True).first() or 0
            )
            run.seconds = time.perf_counter() - clock
            run.save(update_fields=["decks", "seconds"])
            _older_figures_delete(keep_after=run)
            StatisticsChange.objects.filter(changed_at__lt=snapshot_at).delete()
            return run
    except Exception as exc:
        StatisticsRun.objects.create(
            status=StatisticsRun.Status.FAILED,
            trigger=trigger,
            started_at=started,
            seconds=time.perf_counter() - clock,
            error=f"{type(exc).__name__}: {exc}"[:2000],
        )
        raise


@contextmanager
def _snapshot_transaction() -> Iterator[bool]:
    """A transaction whose statements all see one snapshot; yields False if another recompute runs."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                if outermost:  # must be the transaction's first statement (tests wrap us in theirs)
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [STATISTICS_LOCK_KEY])
                locked = bool(cursor.fetchone()[0])
        else:
            # SQLite: the transaction is BEGIN IMMEDIATE (settings): writers already take turns.
            locked = True
        yield locked


def _older_figures_delete(*, keep_after: StatisticsRun) -> None:
    previous = (
        StatisticsRun.objects.filter(status=StatisticsRun.Status.SUCCEEDED, pk__lt=keep_after.pk)
        .values_list("pk", flat=True)
        .first()
    )
    keep = [keep_after.pk] + ([previous] if previous else [])
    for model in FIGURE_MODELS:
        model.objects.exclude(run_id__in=keep).delete()
    # The runs' log (shown in the admin) is kept for a while, not forever: a run every 10 minutes adds up.
    StatisticsRun.objects.filter(started_at__lt=timezone.now() - RUN_LOG_KEPT).exclude(pk__in=keep).delete()


class _Sql:
    """The recompute's statements; table names from the models, the same SQL on PostgreSQL and SQLite."""

    def __init__(self, cursor: Any, run_id: int) -> None:
        self.cursor = cursor
        self.run = run_id
        self.pg = connection.vendor == "postgresql"
        q = connection.ops.quote_name
        self.t = {
            "deck": q(Deck._meta.db_table),
            "deckcard": q(DeckCard._meta.db_table),
            "printing": q(Printing._meta.db_table),
            "card": q(Card._meta.db_table),
            **{m.__name__.lower(): q(m._meta.db_table) for m in FIGURE_MODELS},
        }

    def run_sql(self, sql: str, params: list[Any] | None = None) -> None:
        self.cursor.execute(sql.format(**self.t), params or [])

    def fill_temporary_tables(self) -> None:
        temp = "CREATE TEMPORARY TABLE {name} {on_commit} AS "
        on_commit = "ON COMMIT DROP" if self.pg else ""
        self.drop_temporary_tables()
        # One row per public deck and card of its main deck, with the card's facts the figures need.
        self.run_sql(
            temp.format(name="stats_card", on_commit=on_commit)
            + "SELECT dc.deck_id, d.ruler_id, p.card_id, c.faction_id, c.level, c.cnt, SUM(dc.count) AS copies "
            "FROM {deckcard} dc JOIN {deck} d ON d.id = dc.deck_id JOIN {printing} p ON p.id = dc.printing_id "
            "JOIN {card} c ON c.id = p.card_id "
            "WHERE d.visibility = %s AND NOT d.archived AND dc.section = %s "
            "GROUP BY dc.deck_id, d.ruler_id, p.card_id, c.faction_id, c.level, c.cnt",
            [Visibility.PUBLIC, Section.MAIN],
        )
        month = (
            "CAST(date_trunc('month', d.created_at AT TIME ZONE 'UTC') AS date)"
            if self.pg
            else "strftime('%%Y-%%m-01', d.created_at)"
        )
        # One row per public deck (decks with an empty main deck count too), with its totals.
        self.run_sql(
            temp.format(name="stats_deck", on_commit=on_commit)
            + f"SELECT d.id AS deck_id, d.ruler_id, {month} AS month, "
            "COALESCE(s.size, 0) AS size, COALESCE(s.cnt, 0) AS cnt "
            "FROM {deck} d LEFT JOIN (SELECT deck_id, SUM(copies) AS size, "
            "SUM(CASE WHEN cnt THEN copies ELSE 0 END) AS cnt FROM stats_card GROUP BY deck_id) s "
            "ON s.deck_id = d.id WHERE d.visibility = %s AND NOT d.archived",
            [Visibility.PUBLIC],
        )
        self.run_sql(
            temp.format(name="stats_faction", on_commit=on_commit)
            + "SELECT DISTINCT deck_id, ruler_id, faction_id FROM stats_card WHERE faction_id IS NOT NULL"
        )
        if self.pg:
            # Temporary tables are never auto-analysed; the pairs' self-join needs real estimates.
            for name in ("stats_card", "stats_deck", "stats_faction"):
                self.run_sql(f"ANALYZE {name}")

    def drop_temporary_tables(self) -> None:
        # Schema-qualified: never a permanent table that happens to share the name.
        schema = "pg_temp" if self.pg else "temp"
        for name in ("stats_card", "stats_deck", "stats_faction", "stats_pair"):
            self.run_sql(f"DROP TABLE IF EXISTS {schema}.{name}")

    def ruler_shares(self) -> None:
        total = "(SELECT COUNT(*) FROM stats_deck)"
        select = (
            "SELECT %s, {ruler}, COUNT(*), COUNT(*) * 1.0 / " + total + ", "
            "SUM(size) * 1.0 / COUNT(*), SUM(cnt) * 1.0 / COUNT(*) FROM stats_deck"
        )
        insert = "INSERT INTO {rulershare} (run_id, ruler_id, decks, share, avg_size, avg_cnt) "
        self.run_sql(insert + select.replace("{ruler}", "ruler_id") + " GROUP BY ruler_id", [self.run])
        # The row over all rulers, also when there is no public deck (0 decks, share 0).
        self.run_sql(
            insert + "SELECT %s, NULL, COUNT(*), CASE WHEN COUNT(*) > 0 THEN 1.0 ELSE 0.0 END, "
            "COALESCE(SUM(size) * 1.0 / NULLIF(COUNT(*), 0), 0), COALESCE(SUM(cnt) * 1.0 / NULLIF(COUNT(*), 0), 0) "
            "FROM stats_deck",
            [self.run],
        )

    def _per_scope(self, insert: str, select: str, group: str, where: str = "") -> None:
        """Run `insert select` twice: grouped per ruler, then over all decks (ruler null).

        The scope's deck count (this run's RulerShare row) is joined as `r`.
        """
        where = f" WHERE {where}" if where else ""
        self.run_sql(
            insert + select.replace("{scope}", "x.ruler_id") + " JOIN {rulershare} r ON r.run_id = %s "
            "AND r.ruler_id = x.ruler_id" + where + " GROUP BY x.ruler_id, " + group + ", r.decks",
            [self.run, self.run],
        )
        self.run_sql(
            insert + select.replace("{scope}", "NULL") + " JOIN {rulershare} r ON r.run_id = %s "
            "AND r.ruler_id IS NULL" + where + " GROUP BY " + group + ", r.decks",
            [self.run, self.run],
        )

    def faction_shares(self) -> None:
        insert = "INSERT INTO {factionshare} (run_id, ruler_id, faction_id, other_faction_id, decks, share) "
        self._per_scope(
            insert,
            "SELECT %s, {scope}, x.faction_id, NULL, COUNT(*), COUNT(*) * 1.0 / r.decks FROM stats_faction x",
            "x.faction_id",
        )
        self._per_scope(
            insert,
            "SELECT %s, {scope}, x.faction_id, y.faction_id, COUNT(*), COUNT(*) * 1.0 / r.decks "
            "FROM stats_faction x JOIN stats_faction y ON y.deck_id = x.deck_id AND y.faction_id > x.faction_id",
            "x.faction_id, y.faction_id",
        )

    def card_inclusions(self) -> None:
        self._per_scope(
            "INSERT INTO {cardinclusion} (run_id, ruler_id, card_id, decks, inclusion, avg_copies) ",
            "SELECT %s, {scope}, x.card_id, COUNT(*), COUNT(*) * 1.0 / r.decks, SUM(x.copies) * 1.0 / COUNT(*) "
            "FROM stats_card x",
            "x.card_id",
        )

    def level_curve(self) -> None:
        self._per_scope(
            "INSERT INTO {levelcurvepoint} (run_id, ruler_id, level, avg_copies) ",
            "SELECT %s, {scope}, x.level, SUM(x.copies) * 1.0 / r.decks FROM stats_card x",
            "x.level",
            where="x.level IS NOT NULL",  # energy cards have no level: not a point of the curve
        )

    def monthly_shares(self) -> None:
        self.run_sql(
            "INSERT INTO {monthlyrulershare} (run_id, month, ruler_id, decks, share) "
            "SELECT %s, month, ruler_id, COUNT(*), COUNT(*) * 1.0 / SUM(COUNT(*)) OVER (PARTITION BY month) "
            "FROM stats_deck GROUP BY month, ruler_id",
            [self.run],
        )

    def card_pairings(self, *, min_decks: int, min_share: float, top: int) -> None:
        # Pairs counted once (card < other), then read both ways; each card's deck count comes
        # from this run's overall CardInclusion rows. Products in floating point: 60 000 × 60 000
        # overflows PostgreSQL's integer.
        on_commit = "ON COMMIT DROP" if self.pg else ""
        self.run_sql(
            f"CREATE TEMPORARY TABLE stats_pair {on_commit} AS "
            "SELECT x.card_id AS card_id, y.card_id AS other_id, COUNT(*) AS decks "
            "FROM stats_card x JOIN stats_card y ON y.deck_id = x.deck_id AND y.card_id > x.card_id "
            "GROUP BY x.card_id, y.card_id HAVING COUNT(*) >= %s",
            [min_decks],
        )
        if self.pg:
            self.run_sql("ANALYZE stats_pair")
        self.run_sql(
            "INSERT INTO {cardpairing} (run_id, card_id, other_card_id, decks, share, lift, rank) "
            "SELECT %s, card_id, other_id, decks, share, lift, rnk FROM ("
            " SELECT card_id, other_id, decks, share, lift, ROW_NUMBER() OVER ("
            "  PARTITION BY card_id ORDER BY lift DESC, decks DESC, other_id) AS rnk FROM ("
            "  SELECT w.card_id, w.other_id, w.decks, w.decks * 1.0 / a.decks AS share,"
            "   w.decks * 1.0 * r.decks / (a.decks * 1.0 * b.decks) AS lift FROM ("
            "   SELECT card_id, other_id, decks FROM stats_pair"
            "   UNION ALL SELECT other_id, card_id, decks FROM stats_pair) w"
            "  JOIN {cardinclusion} a ON a.run_id = %s AND a.ruler_id IS NULL AND a.card_id = w.card_id"
            "  JOIN {cardinclusion} b ON b.run_id = %s AND b.ruler_id IS NULL AND b.card_id = w.other_id"
            "  JOIN {rulershare} r ON r.run_id = %s AND r.ruler_id IS NULL"
            "  WHERE w.decks * 1.0 / a.decks >= %s"
            " ) q"
            ") ranked WHERE rnk <= %s",
            [self.run, self.run, self.run, self.run, min_share, top],
        )
        self.run_sql(f"DROP TABLE IF EXISTS {'pg_temp' if self.pg else 'temp'}.stats_pair")


# ---------------------------------------------------------------- stale figures


def statistics_deck_saved(*, deck: Deck, was_counted: bool = False) -> None:
    """Call after a deck is saved, deleted, shared or archived: the figures are stale (after the commit)
    if the deck is counted in them (public, not archived), or was before the change (`was_counted`)."""
    if was_counted or (deck.visibility == Visibility.PUBLIC and not deck.archived):
        from .tasks import statistics_deck_changed

        statistics_deck_changed.delay_on_commit(deck.pk)


def statistics_change_record(*, deck_id: int) -> None:
    """Log that a public deck changed after the figures were computed (the next refresh recomputes)."""
    StatisticsChange.objects.create(deck_id=deck_id, changed_at=timezone.now())


def statistics_refresh_if_stale() -> StatisticsRun | None:
    """The scheduled job: recompute when no figures exist yet or a public deck changed since; else nothing."""
    has_run = StatisticsRun.objects.filter(status=StatisticsRun.Status.SUCCEEDED).exists()
    if has_run and not StatisticsChange.objects.exists():
        return None
    return statistics_recompute(trigger=StatisticsRun.Trigger.STALE)


# ---------------------------------------------------------------- reads (the pages)


def statistics_run_current() -> StatisticsRun | None:
    """The newest succeeded run: the figures the pages show."""
    return StatisticsRun.objects.filter(status=StatisticsRun.Status.SUCCEEDED).order_by("-id").first()


@dataclass(frozen=True)
class Share:
    """One bar of a chart: a label, a count, a fraction (0-1), and a link when the label is a card or ruler."""

    label: str
    decks: int
    share: float
    detail: str = ""
    href: str = ""

    @property
    def percent(self) -> float:
        return round(100 * self.share, 1)


@dataclass(frozen=True)
class RulerTopCards:
    ruler: str
    slug: str
    cards: list[Share]


@dataclass(frozen=True)
class MonthRow:
    month: date
    decks: int
    shares: list[Share]


@dataclass(frozen=True)
class StatisticsOverview:
    run: StatisticsRun | None
    # Public decks saved since the figures were computed (the next refresh counts them).
    changes_since: int
    scope: Ruler | None
    rulers: list[Share]
    decks: int
    avg_cnt: float
    avg_size: float
    factions: list[Share]
    faction_pairs: list[Share]
    top_cards: list[Share]
    curve: list[Share]
    top_cards_per_ruler: list[RulerTopCards]
    months: list[MonthRow]
    all_rulers: list[Ruler]

    @property
    def computed_at(self) -> datetime | None:
        return self.run.computed_at if self.run else None

    @property
    def trend(self) -> TrendChart | None:
        return trend_chart(self.months) if len(self.months) > 1 else None


# Colours of the trend lines, distinguishable for the common colour-vision deficiencies (Okabe-Ito).
TREND_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00")


@dataclass(frozen=True)
class TrendLine:
    label: str
    colour: str
    points: str  # SVG polyline points, "x,y x,y …"
    last: float  # the last month's share, 0-1


@dataclass(frozen=True)
class TrendChart:
    width: int
    height: int
    lines: list[TrendLine]
    first: date
    last: date
    peak: float  # the share at the top of the chart, 0-1


def trend_chart(months: list[MonthRow], *, top: int = 5, width: int = 720, height: int = 200) -> TrendChart:
    """The monthly shares of the `top` rulers with the most decks over all months, as SVG polylines.

    x: the months, evenly spaced; y: share of the month's decks, 0 at the bottom, the highest share
    shown at the top. A ruler absent from a month is at 0 that month.
    """
    totals: dict[str, int] = {}
    for row in months:
        for share in row.shares:
            totals[share.label] = totals.get(share.label, 0) + share.decks
    leaders = sorted(totals, key=lambda label: (-totals[label], label))[:top]
    series = {
        label: [next((s.share for s in row.shares if s.label == label), 0.0) for row in months] for label in leaders
    }
    peak = max((v for values in series.values() for v in values), default=0.0) or 1.0
    step = width / max(len(months) - 1, 1)

    def points(values: list[float]) -> str:
        return " ".join(f"{i * step:.1f},{height - v / peak * height:.1f}" for i, v in enumerate(values))

    lines = [
        TrendLine(label, TREND_COLOURS[i % len(TREND_COLOURS)], points(series[label]), series[label][-1])
        for i, label in enumerate(leaders)
    ]
    return TrendChart(width, height, lines, months[0].month, months[-1].month, peak)


def _card_href(number: str | None) -> str:
    return f"/cards/{number}/" if number else ""


def _card_numbers(card_ids: set[int]) -> dict[int, str]:
    """A collector number per card (the lowest), for links to the card's page; one query."""
    numbers: dict[int, str] = {}
    for card_id, number in (
        Printing.objects.filter(card_id__in=card_ids)
        .order_by("card_id", "collector_number")
        .values_list("card_id", "collector_number")
    ):
        numbers.setdefault(card_id, number)
    return numbers


def statistics_overview(*, ruler_slug: str | None = None, top: int = 20, per_ruler: int = 5) -> StatisticsOverview:
    """What /stats/ shows, from the current run's rows only: ruler, faction and card shares, curve, trends.

    `ruler_slug` narrows factions, cards and curve to one ruler (an unknown slug: all rulers).
    """
    run = statistics_run_current()
    all_rulers = list(Ruler.objects.only("slug", "name", "code", "position"))
    scope = next((r for r in all_rulers if r.slug == ruler_slug), None) if ruler_slug else None
    changes = StatisticsChange.objects.count()
    empty = StatisticsOverview(run, changes, scope, [], 0, 0.0, 0.0, [], [], [], [], [], [], all_rulers)
    if run is None:
        return empty
    names = {r.pk: r for r in all_rulers}
    factions = dict(Faction.objects.values_list("pk", "name"))
    shares = list(RulerShare.objects.filter(run=run))
    in_scope = next((s for s in shares if s.ruler_id == (scope.pk if scope else None)), None)
    ruler_bars = [
        Share(
            names[s.ruler_id].name, s.decks, s.share, f"{s.avg_cnt:.1f} CNT", f"/stats/?ruler={names[s.ruler_id].slug}"
        )
        for s in sorted(shares, key=lambda s: (-s.decks, s.ruler_id or 0))
        if s.ruler_id is not None and s.ruler_id in names
    ]
    scope_filter = {"run": run, "ruler": scope} if scope else {"run": run, "ruler__isnull": True}
    faction_rows = list(
        FactionShare.objects.filter(**scope_filter).order_by("-decks", "faction_id", "other_faction_id")
    )
    inclusions = list(
        CardInclusion.objects.filter(**scope_filter).order_by(*(f.copy() for f in _CARD_RANK), "card_id")[:top]
    )
    per_ruler_rows = _top_cards_per_ruler(run=run, limit=per_ruler) if scope is None else []
    card_ids = {i.card_id for i in inclusions} | {row[1] for row in per_ruler_rows}
    card_names = dict(Card.objects.filter(pk__in=card_ids).values_list("pk", "name"))
    numbers = _card_numbers(card_ids)

    def card_bar(card_id: int, decks: int, inclusion: float, avg_copies: float) -> Share:
        return Share(
            card_names.get(card_id, "?"),
            decks,
            inclusion,
            avg_copies_label(avg_copies),
            _card_href(numbers.get(card_id)),
        )

    by_ruler: dict[int, list[Share]] = {}
    for ruler_id, card_id, decks, inclusion, avg_copies in per_ruler_rows:
        by_ruler.setdefault(ruler_id, []).append(card_bar(card_id, decks, inclusion, avg_copies))
    return StatisticsOverview(
        run=run,
        changes_since=changes,
        scope=scope,
        rulers=ruler_bars,
        decks=in_scope.decks if in_scope else 0,
        avg_cnt=in_scope.avg_cnt if in_scope else 0.0,
        avg_size=in_scope.avg_size if in_scope else 0.0,
        factions=[Share(factions[f.faction_id], f.decks, f.share) for f in faction_rows if f.other_faction_id is None],
        faction_pairs=[
            Share(f"{factions[f.faction_id]} + {factions[f.other_faction_id]}", f.decks, f.share)
            for f in faction_rows
            if f.other_faction_id is not None
        ][:top],
        top_cards=[card_bar(i.card_id, i.decks, i.inclusion, i.avg_copies) for i in inclusions],
        curve=_curve_bars(list(LevelCurvePoint.objects.filter(**scope_filter))),
        top_cards_per_ruler=[
            RulerTopCards(names[ruler_id].name, names[ruler_id].slug, cards)
            for ruler_id, cards in sorted(by_ruler.items(), key=lambda kv: names[kv[0]].position)
            if ruler_id in names
        ],
        months=_month_rows(run=run, names=names),
        all_rulers=all_rulers,
    )


# Most played first; at the same inclusion the card played in more copies, then by name (never arbitrary).
_CARD_RANK = (F("inclusion").desc(), F("avg_copies").desc(), F("card__name").asc())


def avg_copies_label(avg_copies: float) -> str:
    """ "avg 3.0 copies", "avg 1 copy": one decimal is all a reader of a bar needs."""
    rounded = round(avg_copies, 1)
    return "avg 1 copy" if rounded == 1 else f"avg {rounded:.1f} copies"


def _top_cards_per_ruler(*, run: StatisticsRun, limit: int) -> list[tuple[int, int, int, float, float]]:
    """(ruler id, card id, decks, inclusion, avg copies) of each ruler's `limit` most played cards; one query."""
    from django.db.models import Window
    from django.db.models.functions import RowNumber

    return list(
        CardInclusion.objects.filter(run=run, ruler__isnull=False)
        .annotate(
            place=Window(
                RowNumber(),
                partition_by=[F("ruler_id")],
                order_by=[*(f.copy() for f in _CARD_RANK), F("card_id").asc()],
            )
        )
        .filter(place__lte=limit)
        .order_by("ruler_id", "place")
        .values_list("ruler_id", "card_id", "decks", "inclusion", "avg_copies")
    )


def _curve_bars(points: list[LevelCurvePoint]) -> list[Share]:
    """Average copies per level as bars scaled to the highest level (share = fraction of the peak)."""
    if not points:
        return []
    peak = max(p.avg_copies for p in points) or 1.0
    return [
        Share(str(p.level), 0, p.avg_copies / peak, f"{p.avg_copies:.2f}")
        for p in sorted(points, key=lambda p: p.level)
    ]


def _month_rows(*, run: StatisticsRun, names: dict[int, Ruler]) -> list[MonthRow]:
    rows: dict[date, list[Share]] = {}
    for month, ruler_id, decks, share in (
        MonthlyRulerShare.objects.filter(run=run)
        .order_by("month", "-decks", "ruler_id")
        .values_list("month", "ruler_id", "decks", "share")
    ):
        if ruler_id in names:
            rows.setdefault(month, []).append(Share(names[ruler_id].name, decks, share))
    return [MonthRow(month, sum(s.decks for s in shares), shares) for month, shares in rows.items()]


@dataclass(frozen=True)
class CardStatistics:
    run: StatisticsRun | None
    overall: Share | None
    per_ruler: list[Share]
    pairings: list[Share]


def card_statistics(*, card: Card) -> CardStatistics:
    """A card's figures in the current run: inclusion overall and per ruler, and its partners by lift."""
    run = statistics_run_current()
    if run is None:
        return CardStatistics(None, None, [], [])
    rulers = {r.pk: r for r in Ruler.objects.only("slug", "name", "position")}
    overall = None
    per_ruler = []
    for row in CardInclusion.objects.filter(run=run, card=card).order_by("-decks", "ruler_id"):
        bar = Share(
            rulers[row.ruler_id].name if row.ruler_id in rulers else "All rulers",
            row.decks,
            row.inclusion,
            f"{row.avg_copies:.2f} copies",
            f"/stats/?ruler={rulers[row.ruler_id].slug}" if row.ruler_id in rulers else "/stats/",
        )
        if row.ruler_id is None:
            overall = bar
        elif row.ruler_id in rulers:
            per_ruler.append(bar)
    pairings = list(CardPairing.objects.filter(run=run, card=card).order_by("rank"))
    others = {p.other_card_id for p in pairings}
    names = dict(Card.objects.filter(pk__in=others).values_list("pk", "name"))
    numbers = _card_numbers(others)
    return CardStatistics(
        run,
        overall,
        per_ruler,
        [
            Share(
                names.get(p.other_card_id, "?"),
                p.decks,
                p.share,
                f"{p.lift:.2f}",
                _card_href(numbers.get(p.other_card_id)),
            )
            for p in pairings
        ],
    )
