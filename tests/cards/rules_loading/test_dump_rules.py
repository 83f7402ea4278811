"""dump_rules writes data/rules.json back from the database; with load_rules the file stays the one source of truth."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from cards.models import GeasRevision, RulerRevision, RulesDocument
from cards.rules_dump import rules_data_dump, rules_file_text
from cards.rules_loading import RULES_FILE, rules_load
from cards.signals import rules_changed

pytestmark = pytest.mark.django_db


def dump_rules(*args: str) -> str:
    out = io.StringIO()
    call_command("dump_rules", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def load_rules(*args: str) -> str:
    out = io.StringIO()
    call_command("load_rules", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def announced():
    """Every rules_changed sent (they are sent on commit: run the callbacks to see them)."""
    sent: list[dict[str, object]] = []

    def receiver(sender: object, **kwargs: object) -> None:
        sent.append(kwargs)

    rules_changed.connect(receiver, weak=False)
    yield sent
    rules_changed.disconnect(receiver)


def test_it_gives_back_the_loaded_file_byte_for_byte(rules):
    assert dump_rules() == RULES_FILE.read_text(encoding="utf-8")


def test_it_writes_to_a_file(rules, tmp_path):
    target = tmp_path / "rules.json"

    assert dump_rules("-o", str(target)) == ""
    assert target.read_bytes() == RULES_FILE.read_bytes()


def test_it_keeps_the_files_key_order_when_the_database_does_not(rules):
    # PostgreSQL's jsonb stores keys in its own order: same data, keys sorted.
    for model in (RulerRevision, GeasRevision):
        for revision in model.objects.all():
            model.objects.filter(pk=revision.pk).update(data=json.loads(json.dumps(revision.data, sort_keys=True)))

    assert rules_file_text(rules_data_dump()) == RULES_FILE.read_text(encoding="utf-8")


def test_it_writes_an_admin_edit_and_loading_that_dump_changes_nothing(
    rules, tmp_path, announced, django_capture_on_commit_callbacks
):
    revision = RulerRevision.objects.get(ruler__slug="apprentice", effective_from="2023-12-04")
    revision.data = {**revision.data, "life": 13}
    revision.save()
    dumped = tmp_path / "rules.json"
    dump_rules("-o", str(dumped))
    assert [
        r["life"] for d in json.loads(dumped.read_text())["documents"] for r in d["rulers"] if r["name"] == "Apprentice"
    ][-1] == 13
    before = list(RulerRevision.objects.order_by("pk").values_list("pk", "data", "updated_at"))

    with django_capture_on_commit_callbacks(execute=True):
        result = rules_load(path=dumped)

    assert (result.created, result.updated, result.kept_admin_edits, result.unchanged) == ([], [], [], 32)
    assert list(RulerRevision.objects.order_by("pk").values_list("pk", "data", "updated_at")) == before
    assert announced == []
    assert dump_rules() == dumped.read_text(encoding="utf-8")


def test_a_load_of_the_unchanged_file_announces_nothing(rules, announced, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        rules_load()

    assert announced == []


def test_load_rules_reports_an_admin_edit_and_the_fields_that_differ(rules):
    revision = RulerRevision.objects.get(ruler__slug="apprentice", effective_from="2023-12-04")
    revision.data = {**revision.data, "life": 13}
    revision.save()

    out = load_rules()

    assert "Kept admin edit of Apprentice (appendix-a-2023-12-04): differs from the file in life;" in out
    revision.refresh_from_db()
    assert revision.data["life"] == 13


def test_load_rules_force_overwrites_an_admin_edit_and_announces_it(
    rules, announced, django_capture_on_commit_callbacks
):
    revision = RulerRevision.objects.get(ruler__slug="apprentice", effective_from="2023-12-04")
    revision.data = {**revision.data, "life": 13}
    revision.save()

    with django_capture_on_commit_callbacks(execute=True):
        out = load_rules("--force")

    assert "1 updated" in out
    revision.refresh_from_db()
    assert revision.data["life"] == 12
    assert [(a["ruler_ids"], a["geas_ids"]) for a in announced] == [(frozenset({revision.ruler_id}), frozenset())]


def test_load_rules_reports_a_revision_the_file_does_not_have(rules):
    latest = RulerRevision.objects.get(ruler__slug="apprentice", effective_from="2023-12-04")
    RulerRevision.objects.create(
        ruler=latest.ruler, effective_from="2025-01-01", document="house-rule", data=latest.data
    )

    out = load_rules()

    assert "Kept Apprentice (house-rule, from 2025-01-01): not in the file" in out
    assert RulerRevision.objects.filter(document="house-rule").exists()


def test_it_dumps_a_revision_added_in_the_admin_in_a_document_of_its_own(rules):
    latest = RulerRevision.objects.get(ruler__slug="apprentice", effective_from="2023-12-04")
    RulerRevision.objects.create(
        ruler=latest.ruler, effective_from="2025-01-01", document="house-rule", source="club", data=latest.data
    )

    documents = rules_data_dump()["documents"]

    assert [d["key"] for d in documents][-1] == "house-rule"
    assert documents[-1] == {
        "key": "house-rule",
        "title": "",
        "source": "club",
        "effective_from": "2025-01-01",
        "rulers": [latest.data],
        "geases": [],
    }


def test_load_rules_records_each_document(rules):
    assert list(RulesDocument.objects.values_list("key", "position")) == [
        ("rulebook-2020-11-26", 0),
        ("appendix-b-2023-03-25", 1),
        ("appendix-a-2023-12-04", 2),
    ]


def test_a_database_loaded_before_documents_were_recorded_dumps_the_file_after_one_load(rules):
    RulesDocument.objects.all().delete()
    RulerRevision.objects.update(loaded_json="", position=None)
    GeasRevision.objects.update(loaded_json="", position=None)

    result = rules_load()

    assert (result.created, result.updated, result.unchanged) == ([], [], 32)
    assert dump_rules() == RULES_FILE.read_text(encoding="utf-8")
