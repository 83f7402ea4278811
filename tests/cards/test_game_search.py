"""Search of the games besides Gate Ruler: the game's own fields from its data (cards.game_search),
through card_search(game=) and GET /api/v1/cards/?game=&q=."""

from __future__ import annotations

import pytest

from cards.game_search import GameTerm, game_query_parse
from cards.games import game_get
from cards.search import QueryError
from cards.selectors import card_search
from tests.cards.factories import CardFactory, CardSetFactory, GameCardFactory, PrintingFactory

RG = game_get("rulers-gambit")
GR = game_get("gaterunners")


@pytest.mark.parametrize(
    ("game", "query", "expected"),
    [
        (RG, "c:red", (GameTerm("colours", "red", token="c:red"),)),
        (RG, "colour:Blue", (GameTerm("colours", "blue", token="colour:Blue"),)),
        (RG, "t:sp", (GameTerm("type", "spell", token="t:sp"),)),
        (RG, "cost<=2", (GameTerm("cost", 2, op="<=", token="cost<=2"),)),
        (RG, "spell:quick", (GameTerm("spell_type", "quick-play", token="spell:quick"),)),
        (RG, "-race:elf", (GameTerm("race", "elf", negated=True, token="-race:elf"),)),
        (GR, "lv<=2", (GameTerm("level", 2, op="<=", token="lv<=2"),)),
        (GR, "instant", (GameTerm("instant", True, token="instant"),)),
        (GR, "-instant", (GameTerm("instant", True, negated=True, token="-instant"),)),
        (GR, "hp:3", (GameTerm("health", 3, token="hp:3"),)),
        (GR, "dash", (GameTerm("text", "dash", token="dash"),)),
        (
            RG,
            'name:"tide king"  c:r',
            (GameTerm("name", "tide king", token='name:"tide king"'), GameTerm("colours", "red", token="c:r")),
        ),
    ],
)
def test_it_reads_the_games_own_fields(game, query, expected):
    assert game_query_parse(game, query) == expected


@pytest.mark.parametrize(
    ("game", "query", "message"),
    [
        (GR, "c:red", 'Unknown field "c:" in "c:red"; GateRunners searches'),
        (RG, "lv<=2", 'Unknown field "lv<=" in "lv<=2"; Ruler\'s Gambit searches'),
        (RG, "c:pink", 'No colour "pink" in "c:pink"; they are blue, red, yellow, green, orange, purple'),
        (RG, "cost<=two", 'COST must be a whole number in "cost<=two"'),
        (RG, "t<=unit", '"t" is not compared in "t<=unit"'),
        (RG, "t:kingdom-x", 'No type "kingdom-x"'),
        (RG, "cost<=", 'Nothing after "cost<=" in "cost<="'),
    ],
)
def test_a_field_the_game_lacks_or_a_bad_value_is_a_clear_error(game, query, message):
    with pytest.raises(QueryError) as caught:
        game_query_parse(game, query)
    assert caught.value.message.startswith(message)


@pytest.fixture
def cards(db):
    rg_set, gr_set = CardSetFactory(code="RGT", game="rulers-gambit"), CardSetFactory(code="GRT", game="gaterunners")
    rg = [
        GameCardFactory(name="Red Elf", fields={"colours": ["red"], "cost": 1, "race": "Elf"}),
        GameCardFactory(name="Blue Golem", fields={"colours": ["blue"], "cost": 4, "race": "Golem"}),
        GameCardFactory(
            name="Twin Pact", type="spell", fields={"colours": ["blue", "red"], "cost": None, "spell_type": "set"}
        ),
        GameCardFactory(name="Kingdom of Red", type="kingdom-ruler", fields={"colours": ["red"], "lp": 20}),
    ]
    gr = [
        GameCardFactory(
            name="Quick Courier", game="gaterunners", fields={"level": 1, "power": 1, "health": 2, "instant": True}
        ),
        GameCardFactory(
            name="Slow Guard", game="gaterunners", fields={"level": 3, "power": 2, "health": 5, "instant": False}
        ),
        GameCardFactory(name="Dash", game="gaterunners", type="action", fields={"cost": 1, "instant": False}),
    ]
    for n, card in enumerate(rg):
        PrintingFactory(card=card, card_set=rg_set, collector_number=f"RGT-{n}")
    for n, card in enumerate(gr):
        PrintingFactory(card=card, card_set=gr_set, collector_number=f"GRT-{n}")
    PrintingFactory(card=CardFactory(name="Red Dragon", level=2), collector_number="T-1")


def found(game, query):
    result = card_search(query=query, game=game)
    assert result.error is None
    return sorted(card.name for card in result.cards)


@pytest.mark.parametrize(
    ("game", "query", "expected"),
    [
        ("rulers-gambit", "c:red", ["Kingdom of Red", "Red Elf", "Twin Pact"]),
        ("rulers-gambit", "c:red -t:kingdom", ["Red Elf", "Twin Pact"]),
        ("rulers-gambit", "cost<=2", ["Red Elf"]),
        ("rulers-gambit", "cost>=2", ["Blue Golem"]),
        ("rulers-gambit", "t:spell spell:set", ["Twin Pact"]),
        ("rulers-gambit", "race:gol", ["Blue Golem"]),
        ("rulers-gambit", "red", ["Kingdom of Red", "Red Elf"]),
        ("rulers-gambit", "", ["Blue Golem", "Kingdom of Red", "Red Elf", "Twin Pact"]),
        ("gaterunners", "instant", ["Quick Courier"]),
        ("gaterunners", "-instant", ["Dash", "Slow Guard"]),
        ("gaterunners", "lv<=2", ["Quick Courier"]),
        ("gaterunners", "t:action", ["Dash"]),
        ("gaterunners", "set:grt hp>=5", ["Slow Guard"]),
    ],
)
def test_card_search_finds_a_games_cards_by_its_fields(cards, game, query, expected):
    assert found(game, query) == expected


def test_gate_rulers_search_shows_only_gate_ruler_cards(cards):
    assert found(None, "red") == ["Red Dragon"]
    assert found("gate-ruler", "") == ["Red Dragon"]


def test_an_unknown_game_is_a_search_error(cards):
    result = card_search(query="", game="chess")
    assert result.cards == []
    assert result.error.startswith("unknown game 'chess'")


def api_names(client, **params):
    response = client.get("/api/v1/cards/", params)
    assert response.status_code == 200, response.content
    return sorted(card["name"] for card in response.json()["results"])


def test_the_api_lists_a_games_cards_with_their_fields(client, cards):
    body = client.get("/api/v1/cards/", {"game": "rulers-gambit", "q": "t:spell"}).json()
    (spell,) = body["results"]
    assert spell["name"] == "Twin Pact"
    assert (spell["game"], spell["type"]) == ("rulers-gambit", "spell")
    assert spell["fields"] == {"colours": ["blue", "red"], "cost": None, "spell_type": "set"}
    assert api_names(client, game="gaterunners", type="action") == ["Dash"]


def test_the_api_lists_gate_ruler_cards_by_default(client, cards):
    assert api_names(client) == ["Red Dragon"]
    assert api_names(client, q="red") == ["Red Dragon"]


@pytest.mark.parametrize(
    ("params", "field"),
    [({"game": "chess"}, "game"), ({"game": "gaterunners", "q": "c:red"}, "q"), ({"q": "lv<=x"}, "q")],
)
def test_the_api_refuses_an_unknown_game_or_a_bad_query(client, cards, params, field):
    response = client.get("/api/v1/cards/", params)
    assert response.status_code == 400
    assert list(response.json()) == [field]


def test_the_browsers_type_filter_works_for_a_game_and_gate_ruler_filters_do_not(cards):
    assert sorted(c.name for c in card_search(query="c:red", game="rulers-gambit", type="spell").cards) == ["Twin Pact"]
    assert (
        card_search(query="", game="rulers-gambit", type="event").error
        == 'No type "event" in "type=event"; they are unit, spell, kingdom-ruler'
    )
    assert (
        card_search(query="", game="gaterunners", faction="volnar").error == "GateRunners cards have no faction filter"
    )


@pytest.mark.parametrize("slug", ["rulers-gambit", "gaterunners"])
def test_every_help_example_of_a_game_parses(slug):
    from cards.game_search import game_search_help

    game = game_get(slug)
    entries = game_search_help(game)
    assert len(entries) >= len(game.card_fields) + 4
    for entry in entries:
        assert game_query_parse(game, entry.example), entry


@pytest.mark.parametrize(
    ("game", "query", "expected"),
    [
        (
            "rulers-gambit",
            "色:赤 種類:ユニット コスト<=2",
            [("colours", "red", "="), ("type", "unit", "="), ("cost", 2, "<=")],
        ),
        (
            "gaterunners",
            "種類:ヒーロー 体力>=18 インスタント",
            [("type", "hero", "="), ("health", 18, ">="), ("instant", True, "=")],
        ),
        # Every game's own keys beside the common ones: a card set is カードセット, while セット stays a card's word
        # (Ruler's Gambit's Set spells).
        (
            "gaterunners",
            "名前:ダッシュ カードセット:GR01",
            [("name", "だっしゅ", "="), ("set", "gr01", "=")],
        ),
        ("rulers-gambit", "スペル:セット カード名:tide", [("spell_type", "set", "="), ("name", "tide", "=")]),
    ],
)
def test_a_japanese_player_searches_by_the_games_japanese_keys_and_labels(game, query, expected):
    terms = game_query_parse(game_get(game), query)

    assert [(t.key, t.value, t.op) for t in terms] == expected


def _refusal(language: str, query: str) -> str:
    """What Ruler's Gambit's search says of `query`, in `language`."""
    from django.utils import translation

    with translation.override(language), pytest.raises(QueryError) as refused:
        game_query_parse(game_get("rulers-gambit"), query)
    return refused.value.message


def test_a_japanese_players_search_error_lists_the_choices_in_japanese():
    assert "青、赤、黄、緑、橙、紫" in _refusal("ja", "色:紺")
    assert "blue, red, yellow, green, orange, purple" in _refusal("en", "c:navy")


def test_an_unknown_key_lists_the_keys_in_the_players_script():
    japanese, english = _refusal("ja", "foo:bar"), _refusal("en", "foo:bar")

    assert "カードセット、カード名、コスト、スペル" in japanese
    assert "colour" not in japanese  # 色 says it
    assert "、c、" not in japanese
    assert "a、attack、crit" in japanese  # no Japanese key for these fields: their Latin ones
    assert "a, attack, c, colour" in english
    assert "色" not in english
