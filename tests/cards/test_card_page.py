"""cards.card_page: sections other apps add to the card page (decks.stats adds the statistics)."""

from __future__ import annotations

import pytest

from cards import card_page
from cards.card_page import CardPageSection, card_page_section_register, card_page_sections
from tests.cards.factories import CardFactory, PrintingFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def providers(monkeypatch):
    """An empty registry for the test, the real one back afterwards."""
    registered: list[object] = []
    monkeypatch.setattr(card_page, "_providers", registered)
    return registered


def test_it_renders_each_section_in_order_with_its_context(client, providers, tmp_path, settings):
    (tmp_path / "first.html").write_text('<p id="first">{{ word }} {{ card.name }}</p>', encoding="utf-8")
    (tmp_path / "second.html").write_text('<p id="second">{{ word }}</p>', encoding="utf-8")
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"], tmp_path]}]
    card_page_section_register(lambda card: CardPageSection("first.html", {"word": "<b>one</b>"}))
    card_page_section_register(lambda card: None)  # nothing to say about this card
    card_page_section_register(lambda card: CardPageSection("second.html", {"word": "two"}))
    PrintingFactory(collector_number="GR01-001", card=CardFactory(name="Tide Caller"))

    page = client.get("/cards/GR01-001/").content.decode()

    assert '<p id="first">&lt;b&gt;one&lt;/b&gt; Tide Caller</p>' in page
    assert page.index('id="first"') < page.index('<p id="second">two</p>')


def test_registering_a_provider_twice_adds_it_once(providers):
    def provider(card: object) -> CardPageSection:
        return CardPageSection("x.html")

    card_page_section_register(provider)
    card_page_section_register(provider)

    assert card_page_sections(card=CardFactory.build()) == [CardPageSection("x.html")]


def test_the_card_page_shows_the_statistics_section(client):
    PrintingFactory(collector_number="GR01-001", card=CardFactory(name="Tide Caller"))

    page = client.get("/cards/GR01-001/").content.decode()

    assert '<h2 id="statistics">In public decks</h2>' in page
    assert "No statistics have been computed yet." in page
    assert page.index('id="statistics"') < page.index("This card in the API")
