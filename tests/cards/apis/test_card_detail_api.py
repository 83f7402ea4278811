from __future__ import annotations

import datetime

import pytest

from tests.cards.factories import (
    AttributeFactory,
    CardFactory,
    CardSetFactory,
    ErratumFactory,
    FactionFactory,
    PrintingFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def drake():
    card = CardFactory(
        name="Fire Drake",
        faction=FactionFactory(name="Volnar"),
        level=3,
        attributes=[AttributeFactory(name="Dragon")],
        text="Flying.",
    )
    PrintingFactory(collector_number="2020GB01-071", card=card, card_set=CardSetFactory(code="GB01"), rarity="R")
    PrintingFactory(collector_number="MDGB-005", card=card, card_set=CardSetFactory(code="MDGB"), rarity="")
    ErratumFactory(card=card, field="level", old_value=4, new_value=3, effective_date=datetime.date(2021, 5, 1))
    ErratumFactory(
        card=card,
        field="text",
        old_value="Flying. Haste.",
        new_value="Flying.",
        effective_date=datetime.date(2023, 1, 1),
    )
    return card


@pytest.mark.parametrize("number", ["2020GB01-071", "MDGB-005"])
def test_it_shows_a_card_by_any_collector_number_with_printings_and_errata(client, drake, number):
    response = client.get(f"/api/v1/cards/{number}/")

    assert response.status_code == 200
    body = response.json()
    assert (body["name"], body["faction"], body["attributes"], body["level"]) == ("Fire Drake", "Volnar", ["Dragon"], 3)
    assert body["printings"] == [
        {"collector_number": "2020GB01-071", "set": "GB01", "rarity": "R"},
        {"collector_number": "MDGB-005", "set": "MDGB", "rarity": ""},
    ]
    assert [{k: e[k] for k in ("field", "old_value", "new_value", "effective_date")} for e in body["errata"]] == [
        {"field": "text", "old_value": "Flying. Haste.", "new_value": "Flying.", "effective_date": "2023-01-01"},
        {"field": "level", "old_value": 4, "new_value": 3, "effective_date": "2021-05-01"},
    ]
    assert all(e["recorded_at"] for e in body["errata"])


def test_it_shows_an_empty_errata_history(client):
    PrintingFactory(collector_number="GR01-001", card=CardFactory(name="Plain"))

    assert client.get("/api/v1/cards/GR01-001/").json()["errata"] == []


def test_it_answers_404_for_an_unknown_collector_number(client, drake):
    response = client.get("/api/v1/cards/XX99-999/")

    assert response.status_code == 404
    assert "XX99-999" in response.json()["detail"]
    japanese = client.get("/api/v1/cards/XX99-999/", HTTP_ACCEPT_LANGUAGE="ja").json()["detail"]
    assert japanese == "コレクター番号「XX99-999」のカードはありません。"


def test_it_keeps_the_card_list_working(client, drake):
    body = client.get("/api/v1/cards/").json()

    assert [card["name"] for card in body["results"]] == ["Fire Drake"]
    assert "errata" not in body["results"][0]


def test_it_shows_a_card_in_a_bounded_number_of_queries(client, drake, django_assert_max_num_queries):
    with django_assert_max_num_queries(5):
        assert client.get("/api/v1/cards/2020GB01-071/").status_code == 200
