"""The folded names in their own columns (migration 0009): filled on save, on import and by the migration."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cards.import_jobs import import_job_create_for_files, import_job_execute
from cards.models import Card
from cards.selectors import card_search
from tests.cards.factories import CardFactory, card_row, set_file

pytestmark = pytest.mark.django_db


def imported(*rows):
    job = import_job_create_for_files(files=[("t01.json", set_file(*rows))], enqueue=False)
    import_job_execute(job_id=job.pk)


def test_save_folds_both_names():
    card = CardFactory(name="Fire DRAKE", name_ja="ファイア・ドレイク")

    card.refresh_from_db()
    assert (card.search_name, card.search_name_ja) == ("fire drake", "ふぁいあどれいく")


def test_a_card_without_a_japanese_name_has_none_to_match():
    card = CardFactory(name="Plain", name_ja="", text="Japanese words ドラゴン in the text")

    card.refresh_from_db()
    assert card.search_name_ja == ""
    assert card_search(query="name:どらごん").cards == []
    assert [c.name for c in card_search(query="どらごん").cards] == ["Plain"]


def test_the_import_fills_them_and_an_erratum_updates_them():
    imported(card_row(1, name="Cinder Keep", name_ja="シンダー"))
    assert Card.objects.values_list("search_name", "search_name_ja").get() == ("cinder keep", "しんだ")

    imported(card_row(1, name="Cinder Keep", name_ja="シンダーキープ"))

    assert Card.objects.values_list("search_name", "search_name_ja").get() == ("cinder keep", "しんだきぷ")


def test_the_migration_fills_existing_rows():
    card = CardFactory(name="Old Ｒｏｗ", name_ja="オールド")
    Card.objects.filter(pk=card.pk).update(search_name="", search_name_ja="")
    migration = importlib.import_module("cards.migrations.0010_search_folded_columns")

    migration.fill_search_names(apps, connection.schema_editor())

    assert Card.objects.values_list("search_name", "search_name_ja").get(pk=card.pk) == ("old row", "おるど")


def test_name_search_and_ranking_split_nothing_in_sql():
    CardFactory(name="Blade Dancer", text="A blade.")
    CardFactory(name="Dancer", text="No blade here, blade dancer in text.")

    with CaptureQueriesContext(connection) as queries:
        result = card_search(query="name:dancer blade")

    assert [c.name for c in result.cards] == ["Blade Dancer", "Dancer"]
    sql = " ".join(q["sql"] for q in queries.captured_queries).lower()
    assert "search_name" in sql
    assert "split_part" not in sql
    assert "instr(" not in sql
