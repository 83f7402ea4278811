from __future__ import annotations

import datetime

import pytest

from tests.cards.factories import CardFactory, CardSetFactory, ErratumFactory, PrintingFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def card():
    card = CardFactory(
        name="Tide Caller", name_ja="潮呼び", level=2, atk=1, hp=3, stk=1, cnt=True, text="Counter: draw a card."
    )
    PrintingFactory(collector_number="GR01-002", card=card, card_set=CardSetFactory(code="GR01", name="First Gate"))
    return card


def test_it_shows_the_rules_fields_text_and_printings(client, card):
    response = client.get("/cards/GR01-002/")

    assert response.status_code == 200
    page = response.content.decode()
    assert '<h1>Tide Caller <small lang="ja">潮呼び</small></h1>' in page
    assert "<dt>Level</dt><dd>2</dd>" in page
    assert "<dt>CNT</dt><dd>yes</dd>" in page
    assert "Counter: draw a card." in page
    assert '<a href="/cards/GR01-002/">GR01-002</a>' in page
    assert "GR01 First Gate" in page
    assert "No errata recorded for this card." in page


def test_it_shows_the_errata_history_newest_first(client, card):
    ErratumFactory(card=card, field="hp", old_value=2, new_value=3, effective_date=datetime.date(2021, 5, 1))
    ErratumFactory(card=card, field="attributes", old_value=["Merfolk"], new_value=[], effective_date=None)
    ErratumFactory(
        card=card,
        field="text",
        old_value="Counter: draw two cards.",
        new_value="Counter: draw a card.",
        effective_date=datetime.date(2023, 1, 1),
    )

    page = client.get("/cards/GR01-002/").content.decode()

    errata = page[page.index('id="errata"') :]
    assert errata.index("Counter: draw two cards.") < errata.index("<td>hp</td>") < errata.index("undated")
    assert "<td>Merfolk</td>" in errata
    assert "<td>—</td>" in errata


def test_it_escapes_card_text_and_errata(client):
    card = CardFactory(name="<b>Bold</b>", text="<script>alert('x')</script>\nSecond line.")
    PrintingFactory(collector_number="GR09-001", card=card)
    ErratumFactory(card=card, field="text", old_value="<img src=x onerror=alert(1)>", new_value=card.text)

    page = client.get("/cards/GR09-001/").content.decode()

    assert "<script>alert" not in page
    assert "<img src=x" not in page
    assert "<b>Bold</b>" not in page
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;<br>Second line." in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "&lt;b&gt;Bold&lt;/b&gt;" in page


def test_it_answers_404_for_an_unknown_collector_number(client):
    assert client.get("/cards/XX99-999/").status_code == 404
