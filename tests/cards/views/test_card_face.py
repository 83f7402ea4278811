"""The card face partial (templates/cards/_card_face.html) for a card of each game, and the card page around it."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from tests.cards.factories import (
    AttributeFactory,
    CardFactory,
    CardSetFactory,
    FactionFactory,
    GameCardFactory,
    PrintingFactory,
)

pytestmark = pytest.mark.django_db


def face(card) -> str:
    html = render_to_string("cards/_card_face.html", {"card": card})
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", html))


def test_a_gate_ruler_face_has_faction_colour_level_type_marks_name_and_stats():
    card = CardFactory(
        name="Tide Caller",
        name_ja="潮呼び",
        faction=FactionFactory(name="Yomajin Front"),
        attributes=[AttributeFactory(name="Merfolk")],
        level=3,
        atk=4,
        hp=5,
        stk=2,
        cnt=True,
        legend=True,
    )
    html = face(card)
    assert 'data-faction="yomajin-front"' in html
    assert '<span class="visually-hidden">Level </span>3</span>' in html
    assert '<span class="card-face-type">Unit</span>' in html
    assert '<span class="card-face-mark" data-mark="cnt">CNT</span>' in html
    assert '<span class="card-face-mark" data-mark="legend">Legend</span>' in html
    assert '<p class="card-face-name">Tide Caller<small lang="ja">潮呼び</small></p>' in html
    assert "Yomajin Front · Merfolk" in html
    assert "<div><dt>ATK</dt><dd>4</dd></div><div><dt>HP</dt><dd>5</dd></div><div><dt>STK</dt><dd>2</dd></div>" in html


def test_a_card_without_marks_or_faction_says_so():
    html = face(CardFactory(name="Spark", energy=True))
    assert 'data-faction="none"' in html
    assert "card-face-mark" not in html
    assert "No faction" in html
    assert "card-face-stats" not in html  # an energy card has no ATK/HP/STK


def test_the_name_is_in_the_players_language():
    card = CardFactory(name="Tide Caller", name_ja="潮呼び")
    with translation.override("ja"):
        html = face(card)
    assert '<p class="card-face-name">潮呼び</p>' in html


def test_a_rulers_gambit_face_has_its_colours_cost_and_a_d_c_labelled_by_the_game_data():
    card = GameCardFactory(
        name="Ember Knight",
        fields={"colours": ["red", "yellow"], "cost": 2, "race": "Elf", "attack": 3, "defence": 2, "critical": 1},
    )
    html = face(card)
    assert 'data-game="rulers-gambit" data-colour="red"' in html
    assert '<span class="visually-hidden">COST </span>2</span>' in html
    assert '<span class="card-face-colour" data-colour="red">Red</span>' in html
    assert '<span class="card-face-colour" data-colour="yellow">Yellow</span>' in html
    assert "<p>Race: Elf</p>" in html
    assert "<div><dt>A</dt><dd>3</dd></div><div><dt>D</dt><dd>2</dd></div><div><dt>C</dt><dd>1</dd></div>" in html
    assert "ATK" not in html


def test_a_gaterunners_face_has_level_power_health_and_the_instant_mark():
    card = GameCardFactory(
        name="Runner", game="gaterunners", type="unit", fields={"level": 2, "power": 3, "health": 4, "instant": True}
    )
    html = face(card)
    assert '<span class="visually-hidden">Level </span>2</span>' in html
    assert '<span class="card-face-mark">Instant</span>' in html
    assert "<div><dt>Power</dt><dd>3</dd></div><div><dt>Health</dt><dd>4</dd></div>" in html


def test_a_false_yes_no_field_draws_no_mark():
    card = GameCardFactory(
        game="gaterunners", type="unit", fields={"level": 1, "power": 1, "health": 1, "instant": False}
    )
    assert "card-face-mark" not in face(card)


def test_the_card_page_shows_the_face_the_links_and_the_other_languages_name(client):
    card = CardFactory(name="Tide Caller", name_ja="潮呼び", faction=FactionFactory(name="Volnar"))
    PrintingFactory(collector_number="GR01-002", card=card, card_set=CardSetFactory(code="GR01"))

    page = client.get("/cards/GR01-002/").content.decode()
    assert 'class="card-face" data-game="gate-ruler" data-faction="volnar"' in page
    links = page[page.index('data-testid="card-links"') :]
    assert '<a href="/decks/new/">Build a deck</a>' in links
    assert '<a href="/stats/">Statistics</a>' in links
    assert '<a href="/api/v1/cards/GR01-002/">This card in the API</a>' in links

    japanese = client.get("/cards/GR01-002/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert '<h1>潮呼び <small lang="en">Tide Caller</small></h1>' in japanese


def test_a_card_named_in_a_link_opens_its_page(client):
    card = CardFactory(name="Tide Caller")
    PrintingFactory(collector_number="GR02-001", card=card)
    PrintingFactory(collector_number="GR01-002", card=card)

    response = client.get("/cards/", {"name": "Tide Caller"})
    assert (response.status_code, response["Location"]) == (302, "/cards/GR01-002/")
    missing = client.get("/cards/", {"name": "Nobody"})
    assert missing.status_code == 404


@pytest.mark.parametrize(
    ("language", "shown"),
    [("en", "Machine, Space, テクノロジー, 宇宙遺産"), ("ja", "テクノロジー, 宇宙遺産, Machine, Space")],
)
def test_attributes_read_in_the_players_language_first(language, shown):
    # No attribute has a stored translation: the names in the player's language come first, then
    # those known only in the other, never mixed in one sort.
    names = ["宇宙遺産", "Space", "テクノロジー", "Machine"]
    card = CardFactory(name="Relic Drone", attributes=[AttributeFactory(name=n) for n in names])
    with translation.override(language):
        assert f" · {shown}</p>" in face(card)


def test_a_game_cards_facts_draw_the_same_face_as_the_card_with_no_query(django_assert_num_queries):
    """A deck line's peek has the engine's facts, not the card: the face of its game from them, no query."""
    from cards.games import game_get
    from decks.drafts import card_facts_by_number

    card = GameCardFactory(
        name="Ember Knight",
        fields={"colours": ["red", "yellow"], "cost": 2, "race": "Elf", "attack": 3, "defence": 2, "critical": 1},
    )
    PrintingFactory(card=card, collector_number="RGT-901")
    game = game_get("rulers-gambit")
    facts = card_facts_by_number(game, ["RGT-901"])["RGT-901"]

    with django_assert_num_queries(0):
        html = render_to_string("cards/_card_face.html", {"card": None, "facts": facts, "facts_game": game})

    assert re.sub(r">\s+<", "><", re.sub(r"\s+", " ", html)) == face(card)


def test_facts_without_their_game_still_draw_a_gate_ruler_face():
    from decks.rules.types import UNIT, CardFacts

    html = render_to_string("cards/_card_face.html", {"facts": CardFacts(name="Squire", type=UNIT, faction="Volnar")})

    assert 'data-game="gate-ruler" data-faction="volnar"' in html
