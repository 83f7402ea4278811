"""cards.catalog: what web processes remember of the catalog is dropped as soon as a write commits."""

from __future__ import annotations

import datetime
import json
import time
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import translation

from cards import rules_selectors
from cards.catalog import _listener, catalog_memory, catalog_token, catalog_version_bump
from cards.games import default_game
from cards.importers.parsing import parse_card_file
from cards.models import Card, CatalogVersion, Erratum, Printing, RulerRevision
from cards.rules_loading import rules_load
from cards.rules_selectors import rules_choice_get
from cards.services import _catalog_analyze, card_catalog_import
from decks.card_facts import card_facts_by_number
from tests.cards.factories import CardFactory, PrintingFactory

pytestmark = pytest.mark.django_db

URL = "/api/v1/decks/validate/"
SET = {"code": "C01", "name": "Cache Set", "release_date": "2024-01-01"}


def card(n: int, **overrides: Any) -> dict[str, Any]:
    values: dict[str, Any] = {
        "number": f"C01-{n:03d}",
        "name": f"Cached Knight {n}",
        "type": "unit",
        "faction": "Volnar",
        "attributes": ["Human"],
        "level": 1,
        "atk": 1,
        "hp": 1,
        "stk": 1,
        "cnt": False,
        "legend": False,
        "rarity": "C",
        "text": "",
    }
    values.update(overrides)
    return values


def import_cards(*cards: dict[str, Any]) -> Any:
    raw = json.dumps({"set": SET, "cards": list(cards)}).encode()
    return card_catalog_import(files=[parse_card_file("c01.json", raw)])


def validate(client: Any, *numbers: str, count: int = 4) -> Any:
    body = {"ruler": "apprentice", "main": [{"number": n, "count": count} for n in numbers]}
    return client.post(URL, json.dumps(body), content_type="application/json")


@pytest.fixture
def imported(rules: None) -> None:
    import_cards(card(1))


def test_an_import_is_seen_by_the_next_request(client, imported):
    assert validate(client, "C01-001").status_code == 200  # the catalog is in memory now
    assert validate(client, "C01-002").json()["error"] == "main[0]: no card with collector number 'C01-002'."

    import_cards(card(1), card(2))

    response = validate(client, "C01-001", "C01-002")
    assert response.status_code == 200
    assert response.json()["summary"]["size"] == 8


def test_an_erratum_is_seen_by_the_next_request(client, imported):
    assert validate(client, "C01-001").json()["summary"]["level"] == 4

    import_cards(card(1, level=3))

    assert Erratum.objects.filter(card__name="Cached Knight 1", field="level").exists()
    assert validate(client, "C01-001").json()["summary"]["level"] == 12


def test_a_rules_edit_is_seen_by_the_next_request(client, imported):
    assert "deck_size" in {v["rule"] for v in validate(client, "C01-001").json()["violations"]}

    # What the admin's change form does: save() the revision with new data.
    revision = RulerRevision.objects.get(ruler__slug="apprentice", effective_from=datetime.date(2023, 12, 4))
    revision.data["deck_construction"]["deck_size"] = 4
    revision.save()

    assert "deck_size" not in {v["rule"] for v in validate(client, "C01-001").json()["violations"]}


def test_load_rules_is_seen_by_the_next_request(client, imported):
    revision = RulerRevision.objects.get(ruler__slug="apprentice", effective_from=datetime.date(2023, 12, 4))
    revision.data["deck_construction"]["deck_size"] = 4
    revision.save()
    assert "deck_size" not in {v["rule"] for v in validate(client, "C01-001").json()["violations"]}

    rules_load(force=True)  # puts the file's deck size of 50 back

    assert "deck_size" in {v["rule"] for v in validate(client, "C01-001").json()["violations"]}


def test_an_admin_edit_of_a_card_is_seen_by_the_next_call(imported):
    assert card_facts_by_number(default_game(), ["C01-001"])["C01-001"].level == 1

    knight = Card.objects.get(name="Cached Knight 1")
    knight.level = 5
    knight.save()

    assert card_facts_by_number(default_game(), ["C01-001"])["C01-001"].level == 5


def test_a_write_by_another_process_is_seen_once_it_changes_the_token(imported):
    """Another process's write reaches this one only through the database: the token is what tells."""
    assert card_facts_by_number(default_game(), ["C01-001"])["C01-001"].level == 1
    with connection.cursor() as cursor:  # no model signals here, as in another process
        cursor.execute("UPDATE cards_card SET level = 7 WHERE name = %s", ["Cached Knight 1"])

    # The memory is what answers while the token is unchanged...
    assert card_facts_by_number(default_game(), ["C01-001"])["C01-001"].level == 1

    CatalogVersion.objects.filter(pk=1).update(token="written-by-another-process")

    # ... and a new token makes the next call read the catalog again.
    assert card_facts_by_number(default_game(), ["C01-001"])["C01-001"].level == 7


def test_a_rolled_back_write_leaves_nothing_behind(imported):
    token = catalog_token()
    seen_inside = []

    def write_then_fail() -> None:
        with transaction.atomic():
            knight = Card.objects.get(name="Cached Knight 1")
            knight.level = 9
            knight.save()
            seen_inside.append(card_facts_by_number(default_game(), ["C01-001"])["C01-001"].level)
            raise RuntimeError("roll back")

    with pytest.raises(RuntimeError):
        write_then_fail()

    assert seen_inside == [9]
    assert catalog_token() == token
    assert card_facts_by_number(default_game(), ["C01-001"])["C01-001"].level == 1


def test_factory_writes_change_the_token(db):
    before = catalog_token()
    PrintingFactory(card=CardFactory(name="Fresh"), collector_number="F-001")

    assert catalog_token() != before
    assert card_facts_by_number(default_game(), ["F-001"])["F-001"].name == "Fresh"


def test_a_request_with_everything_remembered_reads_only_the_token(client, imported, django_assert_num_queries):
    validate(client, "C01-001")

    with django_assert_num_queries(1):
        assert validate(client, "C01-001").status_code == 200


def test_outside_a_request_every_call_reads_the_token(imported):
    memory = catalog_memory()
    assert catalog_memory() is memory

    catalog_version_bump()

    assert catalog_memory() is not memory


def test_a_flushed_version_row_is_put_back(imported):
    CatalogVersion.objects.all().delete()

    token = catalog_token()

    assert CatalogVersion.objects.get(pk=1).token == token
    assert card_facts_by_number(default_game(), ["C01-001"])["C01-001"].name == "Cached Knight 1"


def test_an_import_that_changes_nothing_writes_nothing(imported):
    token = catalog_token()

    result = import_cards(card(1))

    assert result.cards.unchanged == 1
    assert catalog_token() == token


def test_a_large_import_refreshes_the_planner_statistics(rules, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        import_cards(*(card(n) for n in range(1, 1001)))

    assert _catalog_analyze in callbacks
    assert Printing.objects.count() == 1000
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT reltuples FROM pg_class WHERE relname = 'cards_card'")
            assert cursor.fetchone()[0] == 1000  # ANALYZE has counted the rows


def test_a_small_import_leaves_the_statistics_to_autovacuum(rules, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        import_cards(card(1), card(2))

    assert _catalog_analyze not in callbacks


def _other_process_connection() -> Any:
    """A connection of its own to the test database, as another web worker or a Celery worker has."""
    import psycopg

    s = connection.settings_dict
    return psycopg.connect(dbname=s["NAME"], user=s["USER"], password=s["PASSWORD"], host=s["HOST"], port=s["PORT"])


@pytest.mark.skipif(connection.vendor != "postgresql", reason="LISTEN/NOTIFY is PostgreSQL's; SQLite reads the token")
@pytest.mark.django_db(transaction=True)
def test_a_commit_by_another_process_is_heard_without_a_query(django_assert_num_queries, monkeypatch):
    PrintingFactory(card=CardFactory(name="Heard", level=1), collector_number="H-001")
    assert card_facts_by_number(default_game(), ["H-001"])["H-001"].level == 1  # this connection LISTENs from now on
    with django_assert_num_queries(0):
        token = catalog_token()  # nothing heard since: no query
    listener = _listener()
    assert listener is not None
    payloads: list[str] = []
    notified = listener.notified
    monkeypatch.setattr(listener, "notified", lambda payload: (payloads.append(payload), notified(payload)))

    with _other_process_connection() as other:
        other.execute("UPDATE cards_card SET level = 4 WHERE name = 'Heard'")
        other.execute("UPDATE cards_catalogversion SET token = 'uncommitted' WHERE id = 1")
        other.execute("SELECT pg_notify('gatesite_catalog', 'uncommitted')")
        assert catalog_token() == token
        other.rollback()
    with _other_process_connection() as other:  # what catalog_version_bump does, from elsewhere
        other.execute("UPDATE cards_card SET level = 4 WHERE name = 'Heard'")
        other.execute("UPDATE cards_catalogversion SET token = 'committed' WHERE id = 1")
        other.execute("SELECT pg_notify('gatesite_catalog', 'committed')")
        other.commit()

    deadline = time.monotonic() + 5  # delivery is asynchronous, though quick on one machine
    with django_assert_num_queries(0):
        while catalog_token() != "committed" and time.monotonic() < deadline:
            time.sleep(0.01)
    assert catalog_token() == "committed"
    # PostgreSQL delivers notifications in commit order: had the rolled-back one been sent, it
    # would have been heard before this one. Only the committed one was heard.
    assert payloads == ["committed"]
    assert card_facts_by_number(default_game(), ["H-001"])["H-001"].level == 4


@pytest.mark.skipif(connection.vendor != "postgresql", reason="LISTEN/NOTIFY is PostgreSQL's; SQLite reads the token")
@pytest.mark.django_db(transaction=True)
def test_a_new_connection_reads_the_token_again(django_assert_num_queries):
    PrintingFactory(card=CardFactory(name="Heard", level=1), collector_number="H-001")
    catalog_token()
    connection.close()  # as CONN_MAX_AGE does: nothing heard while it was away
    with _other_process_connection() as other:
        other.execute("UPDATE cards_catalogversion SET token = 'while-away' WHERE id = 1")
        other.commit()

    with django_assert_num_queries(2):  # LISTEN, then the token
        assert catalog_token() == "while-away"


@pytest.mark.skipif(connection.vendor != "postgresql", reason="LISTEN/NOTIFY is PostgreSQL's; SQLite reads the token")
@pytest.mark.django_db(transaction=True)
def test_with_listening_off_every_call_reads_the_token(settings, django_assert_num_queries):
    # Behind a transaction pooler notifications go astray: a commit that is never announced must still be seen.
    settings.CATALOG_LISTEN = False
    catalog_token()
    with _other_process_connection() as other:
        other.execute("UPDATE cards_catalogversion SET token = 'unannounced' WHERE id = 1")
        other.commit()

    with django_assert_num_queries(1):  # the token, no LISTEN
        assert catalog_token() == "unannounced"


def test_the_rules_in_force_on_a_date_are_remembered_and_the_note_worded_each_time(imported, monkeypatch):
    on = datetime.date(2019, 1, 1)  # before Apprentice's earliest recorded rules: judged by them, with a note
    first = rules_choice_get(ruler_slug="apprentice", geas_slug=None, on=on)
    worked_out = []
    in_force = rules_selectors._in_force
    monkeypatch.setattr(rules_selectors, "_in_force", lambda *a, **kw: worked_out.append(kw) or in_force(*a, **kw))

    with translation.override("ja"):
        again = rules_choice_get(ruler_slug="apprentice", geas_slug=None, on=on)

    assert worked_out == []
    assert again.rules is first.rules
    assert again.ruler_revision is first.ruler_revision
    assert "2020-11-26" in first.note
    assert "2020-11-26" in again.note
    assert again.note != first.note  # in Japanese
    assert rules_choice_get(ruler_slug="apprentice", geas_slug=None, on=datetime.date(2024, 1, 1)).note == ""
    assert len(worked_out) == 1  # another date

    import_cards(card(1), card(2))  # a new catalog version: worked out again

    rules_choice_get(ruler_slug="apprentice", geas_slug=None, on=on)
    assert len(worked_out) == 2
