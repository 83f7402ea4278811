from __future__ import annotations

import json
import re

import pytest

from tests.cards.factories import AttributeFactory, CardFactory, FactionFactory, PrintingFactory

pytestmark = pytest.mark.django_db

URL = "/api/v1/decks/validate/"


@pytest.fixture
def catalog(rules):
    """13 level-1 Volnar units (TS-001..TS-013), a level-2 ATLAS unit, a legend, an energy card."""
    volnar = FactionFactory(name="Volnar")
    dragon = AttributeFactory(name="Dragon")
    for i in range(1, 14):
        card = CardFactory(name=f"Ember Squire {i}", faction=volnar, level=1, attributes=[dragon])
        PrintingFactory(card=card, collector_number=f"TS-{i:03d}")
    PrintingFactory(
        card=CardFactory(name="Sky Lancer", faction=FactionFactory(name="ATLAS"), level=2), collector_number="TS-100"
    )
    PrintingFactory(card=CardFactory(name="Old Wyrm", faction=volnar, level=1, legend=True), collector_number="TS-200")
    PrintingFactory(card=CardFactory(name="Spark", energy=True), collector_number="TS-300")
    # A reprint: the same card under a second collector number.
    PrintingFactory(card=CardFactory(name="Ember Squire 1"), collector_number="TS-901")


def fifty(**overrides):
    """A legal Apprentice deck: 12 names x 4 + 2, all level 1, 50 levels in all."""
    main = [{"number": f"TS-{i:03d}", "count": 4} for i in range(1, 13)] + [{"number": "TS-013", "count": 2}]
    return {
        "ruler": "apprentice",
        "geas": None,
        "as_of": "2024-01-01",
        "attribute": None,
        "main": main,
        "resources": [],
        **overrides,
    }


def post(client, body):
    return client.post(URL, json.dumps(body), content_type="application/json")


def test_it_judges_a_legal_deck(client, catalog):
    response = post(client, fifty())

    assert response.status_code == 200
    body = response.json()
    assert body["legal"] is True
    assert body["violations"] == []
    assert body["summary"] == {"size": 50, "level": 50, "cnt": 0, "legends": 0, "factions": ["Volnar"], "resources": 0}
    assert body["rules_effective_from"] == "2023-12-04"


def test_it_reports_the_level_cap_at_the_boundary(client, catalog):
    deck = fifty()
    deck["main"][-1] = {"number": "TS-013", "count": 1}
    deck["main"].append({"number": "TS-100", "count": 1})  # a level-2 ATLAS card: 51 levels, still 2 factions

    body = post(client, deck).json()

    assert body["legal"] is False
    assert [v["rule"] for v in body["violations"]] == ["level_cap"]
    assert body["violations"][0]["message"] == "Deck level 51 is over Apprentice's cap of 50."
    assert "Sky Lancer" in body["violations"][0]["cards"]


def test_it_counts_every_printing_of_a_name_together(client, catalog):
    deck = fifty()
    deck["main"][0] = {"number": "TS-001", "count": 3}
    deck["main"].append({"number": "TS-901", "count": 2})  # 5 copies of Ember Squire 1 in all
    deck["main"][-2] = {"number": "TS-013", "count": 1}

    body = post(client, deck).json()

    assert [v["rule"] for v in body["violations"]] == ["max_copies"]
    assert body["violations"][0]["message"] == "5 copies of Ember Squire 1; Apprentice allows at most 4."
    assert body["violations"][0]["cards"] == ["Ember Squire 1"]


def test_it_accepts_cards_by_name(client, catalog):
    deck = fifty()
    deck["main"][0] = {"name": "Ember Squire 1", "count": 4}

    assert post(client, deck).json()["legal"] is True


def test_it_names_the_geas_that_set_a_cap(client, catalog):
    deck = fifty(ruler="dreadnaught", geas="oath-of-the-unstoppable-advance")
    deck["main"][-1] = {"number": "TS-013", "count": 1}
    deck["main"].append({"number": "TS-100", "count": 1})

    body = post(client, deck).json()

    violation = body["violations"][0]
    assert violation["rule"] == "level_cap"
    assert violation["source"] == "set by Oath of the Unstoppable Advance; Dreadnaught's own level cap is 60"


def test_it_answers_200_with_a_violation_when_a_required_attribute_is_missing(client, catalog):
    body = post(client, fifty(ruler="centurion")).json()

    assert [v["rule"] for v in body["violations"]] == ["unit_attribute"]

    chosen = post(client, fifty(ruler="centurion", attribute="Dragon")).json()
    assert chosen["legal"] is True


def test_it_requires_the_resource_cards_a_ruler_prepares(client, catalog):
    knight = fifty(ruler="knight")
    assert [v["rule"] for v in post(client, knight).json()["violations"]] == ["resource_cards"]

    knight["resources"] = [{"number": "TS-300", "count": 3}]
    assert post(client, knight).json()["legal"] is True


@pytest.mark.parametrize(
    ("change", "earliest"),
    [({"as_of": "2019-01-01"}, "2020-11-26"), ({"ruler": "berserker", "as_of": "2021-01-01"}, "2023-12-04")],
)
def test_a_date_before_the_earliest_recorded_rules_is_judged_by_them_and_says_so(client, catalog, change, earliest):
    response = post(client, fifty(**change))

    assert response.status_code == 200
    body = response.json()
    assert body["rules_effective_from"] == earliest
    assert f"on {change['as_of']} are not recorded: the earliest recorded are from {earliest}" in body["rules_note"]
    # Its document named as the player reads it: in Japanese by its title, never by its key.
    japanese = client.post(URL, json.dumps(fifty(**change)), content_type="application/json", HTTP_ACCEPT_LANGUAGE="ja")
    assert re.search(r"(ルールブック|総合ルール)", japanese.json()["rules_note"])
    assert not re.search(r"(rulebook|appendix)-", japanese.json()["rules_note"])


def test_the_rules_note_is_null_when_the_rules_in_force_are_judged_by(client, catalog):
    assert post(client, fifty(as_of="2024-06-01")).json()["rules_note"] is None


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"ruler": "nobody"}, "Unknown ruler 'nobody'"),
        ({"geas": "oath-of-nothing"}, "Unknown geas 'oath-of-nothing'"),
        ({"geas": "oath-of-the-true-king"}, "Oath of the True King is an oath for Overlord, not for Apprentice"),
        ({"attribute": "Nonexistent"}, "Unknown attribute 'Nonexistent'"),
        ({"geas": "oath-of-the-lone-banner", "as_of": "2021-01-01"}, "not in force on 2021-01-01"),
        ({"as_of": "2024-13-01"}, "as_of"),
        ({"main": [{"number": "NOPE-1", "count": 1}]}, "main[0]: no card with collector number 'NOPE-1'"),
        ({"main": [{"name": "Nobody Card", "count": 1}]}, "main[0]: no card with name 'Nobody Card'"),
        ({"main": [{"number": "TS-001", "count": 0}]}, "main[0].count"),
        ({"main": [{"number": "TS-001", "count": -2}]}, "main[0].count"),
        ({"main": [{"number": "TS-001", "count": "4"}]}, "main[0].count"),
        ({"main": [{"number": "TS-001", "count": 1.5}]}, "main[0].count"),
        ({"main": [{"number": "TS-001", "name": "Ember Squire 1", "count": 1}]}, "main[0]"),
        ({"resources": [{"count": 1}]}, "resources[0]"),
        ({"main": "all of them"}, "main"),
    ],
)
def test_it_refuses_bad_input_naming_the_item(client, catalog, change, fragment):
    response = post(client, fifty(**change))

    assert response.status_code == 400
    assert fragment in response.json()["error"]


@pytest.mark.parametrize("count", [10**30, 10**6, 100])
def test_it_refuses_a_count_past_a_decks_bound_naming_the_line(client, catalog, count):
    # A count of 10**30 was judged ("size": 10**30).
    deck = fifty()
    deck["main"][3] = {"number": "TS-004", "count": count}

    response = post(client, deck)

    assert response.status_code == 400
    assert response.json()["error"] == "main[3].count: A deck keeps at most 99 copies of one printing."


@pytest.mark.parametrize("section", ["main", "resources"])
def test_it_refuses_more_lines_than_a_deck_keeps(client, catalog, section):
    lines = [{"number": "TS-001", "count": 1}] * 301

    response = post(client, fifty(**{section: lines}))

    assert response.status_code == 400
    assert response.json()["error"] == f"{section}: Ensure this field has no more than 300 elements."


def test_it_refuses_malformed_json(client, catalog):
    response = client.post(URL, '{"ruler": "apprentice",', content_type="application/json")

    assert response.status_code == 400
    assert "Malformed JSON" in response.json()["error"]


def test_it_refuses_a_body_that_is_not_an_object(client, catalog):
    response = client.post(URL, "[1, 2]", content_type="application/json")

    assert response.status_code == 400


def test_it_needs_no_login_or_csrf_token(catalog):
    from django.test import Client

    response = post(Client(enforce_csrf_checks=True), fifty())

    assert response.status_code == 200


def test_it_judges_a_deck_in_a_bounded_number_of_queries(client, catalog, django_assert_max_num_queries):
    post(client, fifty())  # warm the parsed-rules cache
    with django_assert_max_num_queries(8):
        assert post(client, fifty()).status_code == 200


def test_it_answers_a_refused_body_with_every_error_by_field(client, catalog):
    deck = fifty()
    deck["main"][2] = {"number": "TS-003", "count": 0}

    response = post(client, {**deck, "ruler": "not a slug"})

    assert response.status_code == 400
    body = response.json()
    assert body["error"].startswith("ruler: Enter a valid")
    assert body["errors"]["main"] == {"2": {"count": ["Count must be a positive integer, got 0."]}}


def test_it_takes_json_only(client, catalog):
    response = client.post(URL, {"ruler": "apprentice"})  # a form

    assert response.status_code == 415


def test_it_reads_a_body_with_a_charset_through_drfs_parser_the_same_way(client, catalog):
    plain = post(client, fifty()).json()

    with_charset = client.post(URL, json.dumps(fifty()), content_type="application/json; charset=utf-8")

    assert with_charset.status_code == 200
    assert with_charset.json() == plain
