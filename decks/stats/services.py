"""Writes of statistics: the full recompute, and the log of public decks changed since.

statistics_recompute (the whole set of figures, one transaction); statistics_deck_saved and
statistics_change_record (a saved public deck makes the figures stale); statistics_refresh_if_stale
(the scheduled job: recompute only when something changed).

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
from datetime import timedelta
from functools import partial

from django.db import connection, transaction
from django.utils import timezone

from decks.models import Deck, Visibility

from .models import RulerShare, StatisticsChange, StatisticsRun
from .sql import FIGURE_MODELS, RecomputeSql

# A card's partners: the TOP_PAIRINGS with the highest lift among the cards played with it in at
# least PAIRING_MIN_DECKS decks and in at least PAIRING_MIN_SHARE of its decks (below that, lift
# is noise: two rare cards met once look like soulmates).
TOP_PAIRINGS = 10
PAIRING_MIN_DECKS = 5
PAIRING_MIN_SHARE = 0.1
# pg_try_advisory_xact_lock key: one recompute at a time ("stat" in ASCII).
STATISTICS_LOCK_KEY = 0x73746174
RUN_LOG_KEPT = timedelta(days=90)


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
            _figures_write(run=run, min_pair_decks=min_pair_decks, min_pair_share=min_pair_share, top=top_pairings)
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


def _figures_write(*, run: StatisticsRun, min_pair_decks: int, min_pair_share: float, top: int) -> None:
    """Every figure row of `run`, by set-based SQL (decks.stats.sql); pairings last, as they read inclusions."""
    with connection.cursor() as cursor:
        sql = RecomputeSql(cursor, run.pk)
        sql.fill_temporary_tables()
        sql.ruler_shares()
        sql.faction_shares()
        sql.card_inclusions()
        sql.level_curve()
        sql.monthly_shares()
        sql.card_pairings(min_decks=min_pair_decks, min_share=min_pair_share, top=top)
        sql.game_card_shares()
        sql.drop_temporary_tables()


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


# ---------------------------------------------------------------- stale figures


def statistics_deck_saved(*, deck: Deck, was_counted: bool = False) -> None:
    """Call after a deck is saved, deleted, shared, archived, trashed or restored: the figures are stale (after
    the commit) if the deck is counted in them (public, not archived, not in the trash), or was before the
    change (`was_counted`).

    Decks call it through the decks.signals.deck_changed signal (decks.stats.receivers)."""
    if was_counted or (deck.visibility == Visibility.PUBLIC and not deck.archived and deck.trashed_at is None):
        # Written here, not by a worker: one small INSERT needs no broker, so a save works while Redis
        # is down (issue 24). The task decks.statistics_deck_changed stays for messages already queued.
        transaction.on_commit(partial(statistics_change_record, deck_id=deck.pk))


def statistics_change_record(*, deck_id: int) -> None:
    """Log that a public deck changed after the figures were computed (the next refresh recomputes)."""
    StatisticsChange.objects.create(deck_id=deck_id, changed_at=timezone.now())


def statistics_refresh_if_stale() -> StatisticsRun | None:
    """The scheduled job: recompute when no figures exist yet or a public deck changed since; else nothing."""
    has_run = StatisticsRun.objects.filter(status=StatisticsRun.Status.SUCCEEDED).exists()
    if has_run and not StatisticsChange.objects.exists():
        return None
    return statistics_recompute(trigger=StatisticsRun.Trigger.STALE)
