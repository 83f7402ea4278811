from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cards.catalog import catalog_request_reset, catalog_request_start
from cards.models import Card, CardType, card_search_columns
from cards.search import Field
from cards.selectors import card_facts, card_queryset, card_search
from tests.cards.factories import AttributeFactory, CardFactory, CardSetFactory, FactionFactory, PrintingFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def catalog():
    volnar = FactionFactory(name="Volnar", name_ja="ウォルナー")
    yomajin = FactionFactory(name="Yomajin Front", name_ja="東妖軍")
    atlas = FactionFactory(name="ATLAS")
    dragon, dragonkin, knight = (AttributeFactory(name=n) for n in ("Dragon", "Dragonkin", "Knight"))
    ps01, gb01 = CardSetFactory(code="PS01"), CardSetFactory(code="GB01")

    def card(sets, **fields):
        created = CardFactory(**fields)
        for card_set in sets:
            PrintingFactory(card=created, card_set=card_set)
        return created

    card(
        [ps01],
        name="Red Dragon",
        name_ja="赤きドラゴン",
        faction=volnar,
        attributes=[dragon],
        level=3,
        text="Deal 2 damage to an enemy unit.",
    )
    card(
        [gb01],
        name="Dragon Caller",
        name_ja="竜呼び",
        faction=yomajin,
        attributes=[knight],
        level=1,
        cnt=True,
        text="Search your deck for a ドラゴン unit.",
    )
    card([ps01, gb01], name="Dragon", faction=atlas, attributes=[dragonkin], level=5, legend=True)
    card(
        [ps01],
        name="Cinder Squire",
        name_ja="燃えさしの従騎士",
        type=CardType.EVENT,
        faction=volnar,
        attributes=[knight],
        level=0,
        text="Draw 1 card.",
    )
    card(
        [gb01],
        name="Tidal Shrine",
        name_ja="潮の社",
        type=CardType.FIELD,
        faction=yomajin,
        level=-1,
        cnt=True,
        text="Dragons get +1 ATK.",
    )
    # No Japanese name: line 2 of its search_text is its text, which `name:` must not see.
    card([ps01], name="Ember", faction=volnar, level=2, text="Dragon fire deals 1 damage.")
    card([gb01], name="Spark", energy=True)


def names(query="", **filters):
    result = card_search(query=query, **filters)
    assert result.error is None, result.error
    assert result.total == len(result.cards)
    return [card.name for card in result.cards]


@pytest.mark.parametrize("typed", ["ドラゴン", "どらごん", "ﾄﾞﾗｺﾞﾝ", "ド・ラ・ゴーン"])
def test_it_finds_a_japanese_name_however_it_is_typed(catalog, typed):
    # Red Dragon by its Japanese name, Dragon Caller by its text; not the English-only Dragon.
    assert names(typed) == ["Red Dragon", "Dragon Caller"]


def test_it_finds_english_names_and_texts_best_first(catalog):
    # The exact name, then names containing it (by level), then texts mentioning it (by level).
    assert names("dragon") == ["Dragon", "Dragon Caller", "Red Dragon", "Tidal Shrine", "Ember"]
    assert names("DRAGON") == names("ＤＲＡＧＯＮ") == names("dragon")


def test_it_puts_an_exact_japanese_name_first(catalog):
    CardFactory(name="Wave Rider", name_ja="オオナミ乗り", level=-2)
    CardFactory(name="Big Wave", name_ja="オオナミ", level=4)
    CardFactory(name="Undertow", text="Returns a unit: the おおなみ takes it.", level=-3)

    assert names("おおなみ") == ["Big Wave", "Wave Rider", "Undertow"]
    assert names("赤きﾄﾞﾗｺﾞﾝ") == ["Red Dragon"]


def test_every_word_and_phrase_must_match(catalog):
    assert names("deal damage") == ["Ember", "Red Dragon"]
    assert names('"deal 2 damage"') == ["Red Dragon"]
    assert names('"damage deal"') == []
    assert names("dragon -fire") == ["Dragon", "Dragon Caller", "Red Dragon", "Tidal Shrine"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("name:dragon", ["Dragon", "Dragon Caller", "Red Dragon"]),
        ('name:"red dragon"', ["Red Dragon"]),
        ("name:どらごん", ["Red Dragon"]),  # Japanese name only: Dragon Caller has ドラゴン in its text
        ("name:竜", ["Dragon Caller"]),
        ("name:damage", []),  # in texts, not in names
        ("-name:dragon", ["Cinder Squire", "Ember", "Spark", "Tidal Shrine"]),
        ("f:volnar", ["Cinder Squire", "Ember", "Red Dragon"]),
        ("f:VOL", ["Cinder Squire", "Ember", "Red Dragon"]),
        ("f:ｖｏｌｎａｒ", ["Cinder Squire", "Ember", "Red Dragon"]),
        ("f:うぉるなー", ["Cinder Squire", "Ember", "Red Dragon"]),
        ('f:"yomajin front"', ["Dragon Caller", "Tidal Shrine"]),
        ("f:yomajin-front", ["Dragon Caller", "Tidal Shrine"]),
        ("f:東妖", ["Dragon Caller", "Tidal Shrine"]),
        ("-f:volnar", ["Dragon", "Dragon Caller", "Spark", "Tidal Shrine"]),  # energy has no faction: kept
        ("t:unit", ["Dragon", "Dragon Caller", "Ember", "Red Dragon"]),
        ("t:ev", ["Cinder Squire"]),
        ("t:field", ["Tidal Shrine"]),
        ("t:en", ["Spark"]),
        ("-t:unit", ["Cinder Squire", "Spark", "Tidal Shrine"]),
        ("lv<=1", ["Cinder Squire", "Dragon Caller", "Tidal Shrine"]),
        ("lv<1", ["Cinder Squire", "Tidal Shrine"]),
        ("lv>=3", ["Dragon", "Red Dragon"]),
        ("lv>3", ["Dragon"]),
        ("lv=3", ["Red Dragon"]),
        ("lv:-1", ["Tidal Shrine"]),
        ("-lv>=1", ["Cinder Squire", "Spark", "Tidal Shrine"]),  # energy has no level: kept
        ("a:dragon", ["Red Dragon"]),  # exact beats the longer Dragonkin
        ("a:drag", ["Dragon", "Red Dragon"]),  # a prefix: Dragon and Dragonkin
        ("a:KNIGHT", ["Cinder Squire", "Dragon Caller"]),
        ("-a:knight", ["Dragon", "Ember", "Red Dragon", "Spark", "Tidal Shrine"]),
        ("cnt", ["Dragon Caller", "Tidal Shrine"]),
        ("-cnt", ["Cinder Squire", "Dragon", "Ember", "Red Dragon", "Spark"]),
        ("legend", ["Dragon"]),
        ("-legend", ["Cinder Squire", "Dragon Caller", "Ember", "Red Dragon", "Spark", "Tidal Shrine"]),
        ("set:gb01", ["Dragon", "Dragon Caller", "Spark", "Tidal Shrine"]),
        ("set:ps", ["Cinder Squire", "Dragon", "Ember", "Red Dragon"]),
        ("-set:ps01", ["Dragon Caller", "Spark", "Tidal Shrine"]),
    ],
)
def test_each_field_term(catalog, query, expected):
    assert sorted(names(query)) == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("dragon f:volnar", ["Red Dragon", "Ember"]),
        ("t:unit lv<=3 -cnt", ["Ember", "Red Dragon"]),
        ("a:knight set:ps01", ["Cinder Squire"]),
        ("f:yomajin cnt -t:field", ["Dragon Caller"]),
        ("lv>=0 lv<=2 -t:event", ["Dragon Caller", "Ember"]),
        ("name:dragon -a:dragon -legend", ["Dragon Caller"]),
        ("f:volnar f:atlas", []),  # every term must match
        ("ｆ：ｖｏｌｎａｒ　ｌｖ＜＝２", ["Cinder Squire", "Ember"]),
    ],
)
def test_terms_combine(catalog, query, expected):
    assert names(query) == expected


@pytest.mark.parametrize(
    ("query", "filters", "expected"),
    [
        ("", {"faction": "volnar"}, ["Cinder Squire", "Ember", "Red Dragon"]),
        ("", {"faction": "Yomajin Front"}, ["Tidal Shrine", "Dragon Caller"]),
        ("", {"type": "event"}, ["Cinder Squire"]),
        ("", {"level_min": 1, "level_max": 3}, ["Dragon Caller", "Ember", "Red Dragon"]),
        ("", {"level_min": -10_000, "level_max": 0}, ["Tidal Shrine", "Cinder Squire"]),
        ("", {"attribute": "Knight"}, ["Cinder Squire", "Dragon Caller"]),
        ("", {"cnt": True}, ["Tidal Shrine", "Dragon Caller"]),
        ("", {"legend": False, "set_code": "PS01"}, ["Cinder Squire", "Ember", "Red Dragon"]),
        ("dragon", {"faction": "volnar", "cnt": False}, ["Red Dragon", "Ember"]),
        (
            "dragon",
            {"faction": "", "type": "", "attribute": "", "set_code": ""},
            ["Dragon", "Dragon Caller", "Red Dragon", "Tidal Shrine", "Ember"],
        ),
    ],
)
def test_the_browsers_filters_and_with_the_query(catalog, query, filters, expected):
    assert names(query, **filters) == expected


def test_an_empty_query_lists_everything_by_level_then_name_energy_last(catalog):
    assert names("") == ["Tidal Shrine", "Cinder Squire", "Dragon Caller", "Ember", "Red Dragon", "Dragon", "Spark"]


def test_it_pages_and_counts(catalog):
    everything = names("")

    first = card_search(query="", limit=3)
    middle = card_search(query="", limit=3, offset=3)
    last = card_search(query="", limit=3, offset=6)
    beyond = card_search(query="", limit=3, offset=30)

    assert [c.name for c in first.cards + middle.cards + last.cards] == everything
    assert (first.total, middle.total, last.total, beyond.total) == (7, 7, 7, 7)
    assert beyond.cards == []


def test_the_count_stops_at_the_cap(catalog, monkeypatch):
    monkeypatch.setattr("cards.selectors.CARD_SEARCH_COUNT_CAP", 4)

    first = card_search(query="", limit=2)
    past_the_cap = card_search(query="", limit=2, offset=4)
    last = card_search(query="", limit=2, offset=6)

    assert (first.total, first.total_capped) == (4, True)  # shown as "4+": 7 cards match
    assert (past_the_cap.total, past_the_cap.total_capped) == (6, True)  # counted up to its own page
    assert (last.total, last.total_capped) == (7, False)  # a short page is the last: exact
    assert card_search(query="", limit=10).total_capped is False


def test_a_bad_query_gives_an_error_and_no_cards(catalog):
    result = card_search(query="dragon x:foo")

    assert result.cards == []
    assert result.total == 0
    assert result.query is None
    assert result.error == (
        'Unknown field "x:" in "x:foo" at character 8; try f:, t:, lv, a:, cnt, legend, set:, name:'
    )
    assert result.error_position == 7


@pytest.mark.parametrize(
    ("query", "filters", "error"),
    [
        ("f:xyz", {}, 'No faction matches "xyz" in "f:xyz" at character 1; factions are ATLAS, Volnar, Yomajin Front'),
        ("set:zz99", {}, 'No set matches "zz99" in "set:zz99" at character 1; sets are GB01, PS01'),
        (
            "a:wizard",
            {},
            'No attribute matches "wizard" in "a:wizard" at character 1; attributes are Dragon, Dragonkin, Knight',
        ),
        ("", {"faction": "nobody"}, 'No faction matches "nobody"; factions are ATLAS, Volnar, Yomajin Front'),
        ("", {"type": "ruler"}, 'Unknown type "ruler"; types are unit, event, field, energy'),
        ("t:e", {}, 'Type "e" in "t:e" at character 1 could be event or energy; type more letters'),
    ],
)
def test_a_name_the_catalog_does_not_know_is_an_error(catalog, query, filters, error):
    result = card_search(query=query, **filters)

    assert result.error == error
    assert result.cards == []
    assert result.total == 0


def test_the_result_carries_the_parsed_query(catalog):
    result = card_search(query="dragon t:unit", faction="volnar")

    assert result.query is not None
    assert result.query.text == ("dragon",)
    assert [t.field for t in result.query.terms] == [Field.TEXT, Field.TYPE]  # the filters are not in it


@pytest.fixture
def in_request():
    """As in a view: the catalog's version is read once per request (cards.catalog), not per look-up."""
    catalog_request_start()
    yield
    catalog_request_reset()


def test_the_query_count_does_not_grow_with_the_results(django_assert_max_num_queries, in_request):
    knight, dragon = AttributeFactory(name="Knight"), AttributeFactory(name="Dragon")
    faction, card_set = FactionFactory(name="Volnar"), CardSetFactory(code="PS01")
    for n in range(40):
        card = CardFactory(name=f"Dragon Knight {n}", faction=faction, level=n % 5, attributes=[knight, dragon])
        PrintingFactory(card=card, card_set=card_set)
        PrintingFactory(card=card, card_set=CardSetFactory(code=f"X{n:02d}"))

    # The catalog's version, the page's ids, its cards with their facts and the count.
    with django_assert_max_num_queries(4):
        result = card_search(query="dragon knight", limit=30)
        facts = [card_facts(card) for card in result.cards]
    assert (len(facts), result.total) == (30, 40)
    assert facts[0].attributes == {"Dragon", "Knight"}
    assert len(facts[0].collector_numbers) == 2

    # Plus one look-up each for factions, attributes and sets (then remembered with the catalog).
    with django_assert_max_num_queries(7):
        result = card_search(query="dragon f:vol a:knight set:ps01 lv<=3 -legend", limit=30)
        facts = [card_facts(card) for card in result.cards]
    assert (len(facts), result.total) == (30, 32)

    # A last page needs no count.
    with django_assert_max_num_queries(3):
        result = card_search(query="dragon", limit=30, offset=30)
    assert (len(result.cards), result.total) == (10, 40)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the trigram index exists on PostgreSQL only")
def test_free_text_and_name_terms_use_the_trigram_index():
    faction = FactionFactory(name="Volnar")
    words = ["knight", "squire", "warlock", "golem", "shark", "deal", "damage", "draw", "騎士", "魔術師", "ゴーレム"]
    cards = []
    for n in range(6000):
        name = f"{words[n % 5]} {words[(n // 5) % 5]} {n}"
        name_ja = f"{words[8 + n % 3]}{n}"
        text = " ".join(words[(n * k) % len(words)] for k in range(1, 9))
        if n % 1000 == 0:
            name, name_ja = f"Phoenix {n}", f"不死鳥{n}"
        cards.append(
            Card(
                name=name,
                name_ja=name_ja,
                text=text,
                type=CardType.UNIT,
                faction=faction,
                level=n % 6,
                **card_search_columns(name=name, name_ja=name_ja, text=text),
            )
        )
    Card.objects.bulk_create(cards, batch_size=2000)
    with connection.cursor() as cursor:
        # Rows inserted in this (test) transaction sit in the GIN index's pending list, which
        # the planner prices as a scan; autovacuum would merge it, a test has to ask.
        cursor.execute("SELECT gin_clean_pending_list('cards_card_search_text_trgm'::regclass)")
        cursor.execute("ANALYZE cards_card")

    for query, total in [("phoenix", 6), ("ﾌｪﾆｯｸｽ", 0), ("不死鳥", 6), ("name:phoenix lv<=3", 4), ("phoe 3000", 1)]:
        with CaptureQueriesContext(connection) as captured:
            result = card_search(query=query, limit=2)
        assert result.total == total, query
        # The query that matches (the page's ids); the cards themselves are then read by id.
        card_sql = [
            q["sql"]
            for q in captured.captured_queries
            if 'FROM "cards_card"' in q["sql"] and '"cards_card"."id" IN' not in q["sql"]
        ]
        assert card_sql, query
        for sql in card_sql:
            with connection.cursor() as cursor:
                cursor.execute(f"EXPLAIN {sql}")
                plan = "\n".join(row[0] for row in cursor.fetchall())
            assert "cards_card_search_text_trgm" in plan, f"{query}:\n{plan}"


# ---------------------------------------------------------------- the page's ids in SQL: the ORM's rows and order

ORM_COMPARED = [
    "",
    "dragon",
    "DRAGON -fire",
    "deal damage",
    '"deal 2 damage"',
    "ドラゴン",
    "name:dragon",
    "name:どらごん -a:dragon",
    "-name:dragon lv<=2",
    "f:vol",
    "-f:volnar",
    "f:volnar f:atlas",
    "t:unit lv<=3 -cnt",
    "-t:unit -legend",
    "lv<1",
    "lv>3",
    "lv=3",
    "-lv>=1",
    "a:drag",
    "-a:knight dragon",
    "cnt",
    "-cnt",
    "legend set:gb01",
    "-set:ps01",
    "name:dragon -a:dragon -legend",
    "dragon 100%_",  # LIKE's wildcards are matched as typed
]


def orm_ids(terms, *, limit=None, offset=0):
    from django.db.models import Q

    from cards.search_queries import card_search_condition, card_search_order

    ids = (
        Card.objects.filter(card_search_condition(terms) & Q(game="gate-ruler"))
        .order_by(*card_search_order(terms))
        .values_list("pk", flat=True)
    )
    return list(ids[offset : None if limit is None else offset + limit])


@pytest.mark.parametrize("query", ORM_COMPARED)
def test_the_pages_ids_are_the_orms_rows_in_its_order(catalog, query):
    from cards.search import parse_card_query
    from cards.search_queries import card_search_ids

    CardFactory(name="Dragon 100%_", text="Pays 100% of the cost.")  # (Spark, an energy card, has no level)
    terms = parse_card_query(query).terms

    everything = card_search_ids(terms, game="gate-ruler", limit=100, offset=0)
    assert everything == orm_ids(terms)
    for offset, limit in ((0, 2), (2, 3), (5, 0), (50, 10)):
        assert card_search_ids(terms, game="gate-ruler", limit=limit, offset=offset) == orm_ids(
            terms, limit=limit, offset=offset
        )
    assert card_search_ids(terms, game="another-game", limit=100, offset=0) == []


def test_a_remembered_cards_facts_are_made_once_and_are_its_facts(catalog):
    first = card_search(query="", limit=30).cards
    again = card_search(query="", limit=30).cards

    assert [card_facts(card) for card in again] == [card_facts(card_queryset().get(pk=card.pk)) for card in first]
    assert all(card_facts(a) is card_facts(b) for a, b in zip(first, again, strict=True))
