"""The full recompute's SQL: public decks into temporary tables, then one INSERT … SELECT … GROUP BY per figure.

Set-based, so no deck row travels to Python: 100 000 public decks take seconds
(docs/benchmarks.md, #6). Only decks.stats.services.statistics_recompute runs these, inside its transaction.
"""

from __future__ import annotations

from typing import Any

from django.db import connection

from cards.games import default_game_slug, games
from cards.models import Card, Printing
from decks.models import Deck, DeckCard, Section, Visibility

from .models import (
    CardInclusion,
    CardPairing,
    FactionShare,
    GameCardShare,
    LevelCurvePoint,
    MonthlyRulerShare,
    RulerShare,
)

# Every figure table: a run writes rows in each, and a run two runs old loses them all.
FIGURE_MODELS = (
    RulerShare,
    FactionShare,
    CardInclusion,
    CardPairing,
    LevelCurvePoint,
    MonthlyRulerShare,
    GameCardShare,
)


class RecomputeSql:
    """The recompute's statements over one cursor; table names from the models, the same SQL on PostgreSQL and SQLite."""

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
        # The figures are Gate Ruler's (rulers, factions, levels): another game's public decks are not in them.
        temp = "CREATE TEMPORARY TABLE {name} {on_commit} AS "
        on_commit = "ON COMMIT DROP" if self.pg else ""
        self.drop_temporary_tables()
        # One row per public deck and card of its main deck, with the card's facts the figures need.
        self.run_sql(
            temp.format(name="stats_card", on_commit=on_commit)
            + "SELECT dc.deck_id, d.ruler_id, p.card_id, c.faction_id, c.level, c.cnt, SUM(dc.count) AS copies "
            "FROM {deckcard} dc JOIN {deck} d ON d.id = dc.deck_id JOIN {printing} p ON p.id = dc.printing_id "
            "JOIN {card} c ON c.id = p.card_id "
            "WHERE d.visibility = %s AND NOT d.archived AND d.trashed_at IS NULL AND d.game = %s AND dc.section = %s "
            "GROUP BY dc.deck_id, d.ruler_id, p.card_id, c.faction_id, c.level, c.cnt",
            [Visibility.PUBLIC, default_game_slug(), Section.MAIN],
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
            "ON s.deck_id = d.id WHERE d.visibility = %s AND NOT d.archived AND d.trashed_at IS NULL AND d.game = %s",
            [Visibility.PUBLIC, default_game_slug()],
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

    def game_card_shares(self) -> None:
        """The other games' figures: their public decks, then the cards of each identity section and main deck.

        The decks of those games are found from the deck table (a few among many), then their lines
        by the deck's index: Gate Ruler's decks are never joined to their cards here.
        """
        self.run_sql(
            "INSERT INTO {gamecardshare} (run_id, game, part, card_id, decks, share, avg_copies) "
            "SELECT %s, d.game, %s, NULL, COUNT(*), 1.0, 0.0 FROM {deck} d "
            "WHERE d.visibility = %s AND NOT d.archived AND d.trashed_at IS NULL AND d.game <> %s GROUP BY d.game",
            [self.run, GameCardShare.Part.DECKS, Visibility.PUBLIC, default_game_slug()],
        )
        # A game whose identity is a ruler has no identity section: its decks are counted per ruler instead.
        identity = sorted({s.key for g in games().values() for s in g.sections if s.identity})
        for part, sections in ((GameCardShare.Part.IDENTITY, identity), (GameCardShare.Part.MAIN, [Section.MAIN])):
            if not sections:
                continue
            self.run_sql(
                "INSERT INTO {gamecardshare} (run_id, game, part, card_id, decks, share, avg_copies) "
                "SELECT %s, t.game, %s, p.card_id, COUNT(DISTINCT dc.deck_id), "
                "COUNT(DISTINCT dc.deck_id) * 1.0 / t.decks, SUM(dc.count) * 1.0 / COUNT(DISTINCT dc.deck_id) "
                "FROM {gamecardshare} t JOIN {deck} d ON d.game = t.game "
                "JOIN {deckcard} dc ON dc.deck_id = d.id JOIN {printing} p ON p.id = dc.printing_id "
                "WHERE t.run_id = %s AND t.part = %s AND d.visibility = %s AND NOT d.archived AND d.trashed_at IS NULL "
                f"AND dc.section IN ({', '.join(['%s'] * len(sections))}) "
                "GROUP BY t.game, p.card_id, t.decks",
                [self.run, part, self.run, GameCardShare.Part.DECKS, Visibility.PUBLIC, *sections],
            )
