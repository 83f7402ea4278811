"""Moving statistics into its own app changed no table: rows written before the move read back after it."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from decks.stats.models import CardInclusion, FactionShare, RulerShare, StatisticsChange, StatisticsRun

BEFORE_THE_MOVE = [("decks", "0004_public_list_indexes"), ("stats", None)]
MOVED_TABLES = [
    "decks_statisticsrun",
    "decks_statisticschange",
    "decks_rulershare",
    "decks_factionshare",
    "decks_cardinclusion",
    "decks_cardpairing",
    "decks_levelcurvepoint",
    "decks_monthlyrulershare",
]


def migrate(targets):
    """Migrate the test database to `targets`; the project state there (historical models)."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state([node for node in targets if node[1]]).apps


def latest():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


# A transaction the test does not own: SQLite's schema editor refuses to run inside one.
@pytest.mark.django_db(transaction=True)
def test_it_keeps_the_rows_written_before_the_move():
    try:
        old = migrate(BEFORE_THE_MOVE)
        with pytest.raises(LookupError):
            old.get_model("stats", "StatisticsRun")  # before the move the models are the decks app's
        old_run = old.get_model("decks", "StatisticsRun")
        when = datetime.datetime(2026, 1, 2, 3, 4, tzinfo=datetime.UTC)
        run = old_run.objects.create(status="succeeded", trigger="command", started_at=when, decks=7)
        old.get_model("decks", "RulerShare").objects.create(
            run=run, ruler=None, decks=7, share=1.0, avg_size=40.0, avg_cnt=2.0
        )
        old.get_model("decks", "StatisticsChange").objects.create(deck_id=12, changed_at=when)
    finally:
        migrate(latest())

    moved = StatisticsRun.objects.get(pk=run.pk)
    assert (moved.status, moved.trigger, moved.started_at, moved.decks) == ("succeeded", "command", when, 7)
    assert RulerShare.objects.get(run=moved, ruler=None).avg_size == 40.0
    assert list(StatisticsChange.objects.values_list("deck_id", flat=True)) == [12]


@pytest.mark.django_db(transaction=True)
def test_it_moves_the_content_types_so_permissions_stay_attached():
    from django.contrib.auth.models import Permission
    from django.contrib.contenttypes.models import ContentType

    permission = Permission.objects.get(content_type__app_label="stats", codename="view_statisticsrun")
    try:
        migrate(BEFORE_THE_MOVE)
        assert ContentType.objects.filter(app_label="decks", model="statisticsrun").exists()
        assert not ContentType.objects.filter(app_label="stats", model="statisticsrun").exists()
    finally:
        migrate(latest())
    ContentType.objects.clear_cache()
    permission.refresh_from_db()  # the same permission row, back under the stats label
    assert permission.content_type.app_label == "stats"


@pytest.mark.django_db
def test_its_models_use_the_tables_decks_created():
    tables = set(connection.introspection.table_names())
    assert {m._meta.db_table for m in (StatisticsRun, RulerShare, FactionShare, CardInclusion)} <= tables
    assert set(MOVED_TABLES) <= tables
    assert not [t for t in tables if t.startswith("stats_")]  # no second copy under the new label


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("table", "column", "target"),
    [
        ("decks_rulershare", "run_id", "decks_statisticsrun"),
        ("decks_rulershare", "ruler_id", "cards_ruler"),
        ("decks_factionshare", "faction_id", "cards_faction"),
        ("decks_cardinclusion", "card_id", "cards_card"),
        ("decks_cardpairing", "other_card_id", "cards_card"),
        ("decks_monthlyrulershare", "run_id", "decks_statisticsrun"),
    ],
)
def test_its_foreign_keys_still_point_at_the_runs_and_the_catalog(table, column, target):
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, table)
    targets = {c["foreign_key"][0] for c in constraints.values() if c["foreign_key"] and c["columns"] == [column]}
    assert targets == {target}
