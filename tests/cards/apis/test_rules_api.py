from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_it_lists_all_21_current_rulers_with_their_rules(client, rules):
    response = client.get("/api/v1/rulers/", {"as_of": "2024-01-01"})

    assert response.status_code == 200
    body = response.json()
    assert len(body) == 21
    by_slug = {r["slug"]: r for r in body}
    assert {"apprentice", "janken-junkie", "world-master-alpha-2020", "exvader"} <= set(by_slug)
    apprentice = by_slug["apprentice"]
    assert (
        apprentice["code"],
        apprentice["life"],
        apprentice["atk"],
        apprentice["stk"],
    ) == ("A-1", 12, 4, 3)
    assert apprentice["deck_construction"]["level_cap"] == 50
    assert apprentice["zones"]["attack"] == 2
    assert apprentice["start_of_turn"]["drive"] == 2
    assert by_slug["janken-junkie"]["code"] == "EX-I"
    assert by_slug["dreadnaught"]["geases"] == ["oath-of-the-unstoppable-advance"]


def test_it_shows_a_ruler_with_the_rules_in_force_on_a_date(client, rules):
    old = client.get("/api/v1/rulers/highlander/", {"as_of": "2021-06-01"}).json()
    new = client.get("/api/v1/rulers/highlander/", {"as_of": "2023-12-04"}).json()

    assert old["rules_effective_from"] == "2020-11-26"
    assert old["deck_construction"]["cnt_cap"] == 16
    assert new["rules_effective_from"] == "2023-12-04"
    assert new["deck_construction"]["cnt_cap"] == 20
    assert new["code"] == "H-8"
    assert [r["effective_from"] for r in new["revisions"]] == [
        "2023-12-04",
        "2020-11-26",
    ]


def test_it_shows_null_rules_for_a_ruler_before_its_first_revision(client, rules):
    body = client.get("/api/v1/rulers/berserker/", {"as_of": "2021-01-01"}).json()

    assert body["rules_effective_from"] is None
    assert body["deck_construction"] is None


def test_it_answers_404_for_an_unknown_ruler(client, rules):
    assert client.get("/api/v1/rulers/nobody/").status_code == 404
    assert client.get("/api/v1/rulers/nobody/").json() == {"detail": "No ruler 'nobody'."}
    assert client.get("/api/v1/rulers/nobody/", HTTP_ACCEPT_LANGUAGE="ja").json() == {
        "detail": "「nobody」というルーラーはありません。"
    }


def test_it_refuses_a_malformed_date(client, rules):
    response = client.get("/api/v1/rulers/", {"as_of": "yesterday"})

    assert response.status_code == 400
    assert "yesterday" in str(response.json())


def test_it_lists_the_six_geases_with_their_patches(client, rules):
    body = client.get("/api/v1/geases/", {"as_of": "2024-01-01"}).json()

    assert len(body) == 6
    by_slug = {g["slug"]: g for g in body}
    jester = by_slug["oath-of-the-jesters-grin"]
    assert jester["ruler"] == "trickster"
    lone = by_slug["oath-of-the-lone-banner"]
    assert lone["modifications"][0]["set"] == {"deck_construction.max_factions.all": 1}


def test_load_rules_is_idempotent(rules, django_assert_max_num_queries):
    from cards.models import GeasRevision, RulerRevision
    from cards.rules_loading import rules_load

    before = list(RulerRevision.objects.values_list("pk", "updated_at"))
    result = rules_load()

    assert result.created == []
    assert result.updated == []
    assert result.unchanged == 32
    assert list(RulerRevision.objects.values_list("pk", "updated_at")) == before
    assert GeasRevision.objects.count() == 6


def test_load_rules_keeps_an_admin_edit_unless_forced(rules):
    from cards.models import RulerRevision
    from cards.rules_loading import rules_load

    revision = RulerRevision.objects.get(ruler__slug="apprentice", effective_from="2023-12-04")
    revision.data = {**revision.data, "life": 13}
    revision.save()

    kept = rules_load()
    revision.refresh_from_db()
    assert kept.kept_admin_edits == ["Apprentice (appendix-a-2023-12-04)"]
    assert revision.data["life"] == 13

    rules_load(force=True)
    revision.refresh_from_db()
    assert revision.data["life"] == 12
