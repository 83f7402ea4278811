"""The search syntax parser: pure, no database."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cards.search import (
    CARD_TYPES,
    MAX_QUERY_LENGTH,
    SEARCH_HELP,
    CardQuery,
    Field,
    QueryError,
    Term,
    match_names,
    no_match_error,
    parse_card_query,
    resolve_type,
)


def parsed(query: str) -> list[tuple[Field, object, str, bool]]:
    """The terms without where they were typed: (field, value, op, negated)."""
    return [(t.field, t.value, t.op, t.negated) for t in parse_card_query(query).terms]


TEXT, NAME, FACTION, TYPE, LEVEL = Field.TEXT, Field.NAME, Field.FACTION, Field.TYPE, Field.LEVEL
ATTRIBUTE, CNT, LEGEND, SET = Field.ATTRIBUTE, Field.CNT, Field.LEGEND, Field.SET


@pytest.mark.parametrize(
    ("query", "terms"),
    [
        ("", []),
        ("   ", []),
        ("dragon", [(TEXT, "dragon", "=", False)]),
        ("Red  DRAGON", [(TEXT, "red", "=", False), (TEXT, "dragon", "=", False)]),
        ('"Red  Dragon"', [(TEXT, "red dragon", "=", False)]),
        ("f:volnar", [(FACTION, "volnar", "=", False)]),
        ("F:Volnar", [(FACTION, "volnar", "=", False)]),
        ("faction:atlas", [(FACTION, "atlas", "=", False)]),
        ('f:"Yomajin Front"', [(FACTION, "yomajin front", "=", False)]),
        ("f:yomajin-front", [(FACTION, "yomajin-front", "=", False)]),
        ("f:東妖軍", [(FACTION, "東妖軍", "=", False)]),
        ("t:unit", [(TYPE, "unit", "=", False)]),
        ("t:u", [(TYPE, "unit", "=", False)]),
        ("t:ev", [(TYPE, "event", "=", False)]),
        ("t:en", [(TYPE, "energy", "=", False)]),
        ("t:FIELD", [(TYPE, "field", "=", False)]),
        ("type:event", [(TYPE, "event", "=", False)]),
        ("lv<=2", [(LEVEL, 2, "<=", False)]),
        ("lv>=0", [(LEVEL, 0, ">=", False)]),
        ("lv=3", [(LEVEL, 3, "=", False)]),
        ("lv<3", [(LEVEL, 3, "<", False)]),
        ("lv>1", [(LEVEL, 1, ">", False)]),
        ("lv:3", [(LEVEL, 3, "=", False)]),
        ("lv>=-2", [(LEVEL, -2, ">=", False)]),
        ("LV<=+2", [(LEVEL, 2, "<=", False)]),
        ("level<=2", [(LEVEL, 2, "<=", False)]),
        ("a:dragon", [(ATTRIBUTE, "dragon", "=", False)]),
        ('a:"Space Shark"', [(ATTRIBUTE, "space shark", "=", False)]),
        ("attribute:Knight", [(ATTRIBUTE, "knight", "=", False)]),
        ("cnt", [(CNT, True, "=", False)]),
        ("CNT", [(CNT, True, "=", False)]),
        ("legend", [(LEGEND, True, "=", False)]),
        ("set:PS01", [(SET, "ps01", "=", False)]),
        ("name:dragon", [(NAME, "dragon", "=", False)]),
        ('name:"Red Dragon"', [(NAME, "red dragon", "=", False)]),
        ("name:ドラゴン", [(NAME, "どらごん", "=", False)]),
        # A word that is not a field stays text, ":" and all.
        ("効果:ドロー", [(TEXT, "効果:どろ", "=", False)]),
        ("10:00", [(TEXT, "10:00", "=", False)]),
        ("lv", [(TEXT, "lv", "=", False)]),
    ],
)
def test_it_parses_each_syntax(query, terms):
    assert parsed(query) == terms


@pytest.mark.parametrize(
    ("query", "terms"),
    [
        ("-cnt", [(CNT, True, "=", True)]),
        ("-legend", [(LEGEND, True, "=", True)]),
        ("-t:event", [(TYPE, "event", "=", True)]),
        ("-f:volnar", [(FACTION, "volnar", "=", True)]),
        ("-lv<=2", [(LEVEL, 2, "<=", True)]),
        ("-a:dragon", [(ATTRIBUTE, "dragon", "=", True)]),
        ("-set:gb01", [(SET, "gb01", "=", True)]),
        ('-name:"red dragon"', [(NAME, "red dragon", "=", True)]),
        ("-dragon", [(TEXT, "dragon", "=", True)]),
        ('-"deal 2"', [(TEXT, "deal 2", "=", True)]),
        ("−cnt", [(CNT, True, "=", True)]),  # U+2212 minus sign, as some keyboards type it
        # Quoted, a word that would be a field or a flag is text.
        ('"-cnt"', [(TEXT, "-cnt", "=", False)]),
        ('"cnt"', [(TEXT, "cnt", "=", False)]),
        ('"t:event"', [(TEXT, "t:event", "=", False)]),
    ],
)
def test_it_negates_any_term(query, terms):
    assert parsed(query) == terms


def test_it_combines_terms_in_order():
    query = 'dragon "deal 2" f:volnar t:unit lv<=2 lv>=0 a:dragon cnt -legend set:PS01 name:"cinder keep" -t:event'

    assert parsed(query) == [
        (TEXT, "dragon", "=", False),
        (TEXT, "deal 2", "=", False),
        (FACTION, "volnar", "=", False),
        (TYPE, "unit", "=", False),
        (LEVEL, 2, "<=", False),
        (LEVEL, 0, ">=", False),
        (ATTRIBUTE, "dragon", "=", False),
        (CNT, True, "=", False),
        (LEGEND, True, "=", True),
        (SET, "ps01", "=", False),
        (NAME, "cinder keep", "=", False),
        (TYPE, "event", "=", True),
    ]


@pytest.mark.parametrize(
    ("query", "terms"),
    [
        ("ｌｖ＜＝２", [(LEVEL, 2, "<=", False)]),  # full-width: NFKC first, then parse
        ("ＬＶ＞＝０", [(LEVEL, 0, ">=", False)]),
        ("ｆ：ｖｏｌｎａｒ", [(FACTION, "volnar", "=", False)]),
        ("ｔ：ｕｎｉｔ", [(TYPE, "unit", "=", False)]),
        ("－ｃｎｔ", [(CNT, True, "=", True)]),
        ("ｎａｍｅ：＂Ｒｅｄ　Ｄｒａｇｏｎ＂", [(NAME, "red dragon", "=", False)]),
        ("ドラゴン", [(TEXT, "どらごん", "=", False)]),
        ("どらごん", [(TEXT, "どらごん", "=", False)]),
        ("ﾄﾞﾗｺﾞﾝ", [(TEXT, "どらごん", "=", False)]),
        ("ド・ラ・ゴーン", [(TEXT, "どらごん", "=", False)]),
        ("赤き　ドラゴン", [(TEXT, "赤き", "=", False), (TEXT, "どらごん", "=", False)]),  # ideographic space
        ("「赤き ドラゴン」", [(TEXT, "赤き どらごん", "=", False)]),  # corner brackets quote
        ("name:「赤きドラゴン」", [(NAME, "赤きどらごん", "=", False)]),
        ("“red dragon”", [(TEXT, "red dragon", "=", False)]),  # a phone's smart quotes
        ('f:“Yomajin Front"', [(FACTION, "yomajin front", "=", False)]),
        # Nothing left once folded: dropped rather than matching every card (or, negated, none).
        ("ー", []),
        ("-・", []),
        ('""', []),
    ],
)
def test_it_folds_width_kana_and_case_before_parsing(query, terms):
    assert parsed(query) == terms


def test_it_records_each_token_as_typed_and_where():
    query = parse_card_query('ｌｖ＜＝２  ﾄﾞﾗｺﾞﾝ f:"Yomajin Front" -cnt')

    assert [(t.token, t.position) for t in query.terms] == [
        ("ｌｖ＜＝２", 0),
        ("ﾄﾞﾗｺﾞﾝ", 7),
        ('f:"Yomajin Front"', 14),
        ("-cnt", 32),
    ]


def test_the_query_is_a_frozen_value_with_its_free_text_at_hand():
    query = parse_card_query('dragon -knight "deal 2" t:unit')

    assert query.text == ("dragon", "deal 2")
    assert query.of(Field.TYPE) == (Term(Field.TYPE, "unit", token="t:unit", position=24),)
    assert query == parse_card_query('dragon -knight "deal 2" t:unit')
    assert hash(query) == hash(parse_card_query('dragon -knight "deal 2" t:unit'))
    assert CardQuery().is_empty
    assert not query.is_empty
    with pytest.raises(AttributeError):
        query.terms = ()  # type: ignore[misc]


@pytest.mark.parametrize(
    ("query", "message", "token", "position"),
    [
        (
            "x:foo",
            'Unknown field "x:" in "x:foo" at character 1; try f:, t:, lv, a:, cnt, legend, set:, name:',
            "x:foo",
            0,
        ),
        (
            "dragon atk>=3",
            'Unknown field "atk>=" in "atk>=3" at character 8; try f:, t:, lv, a:, cnt, legend, set:, name:',
            "atk>=3",
            7,
        ),
        (
            "lv<=abc",
            'The level must be a whole number in "lv<=abc" at character 1; write lv<=2, lv>=0 or lv=3',
            "lv<=abc",
            0,
        ),
        ("lv<=", 'Nothing after "lv<=" in "lv<=" at character 1; write lv<=2', "lv<=", 0),
        ("lv==3", 'The level must be a whole number in "lv==3" at character 1; write lv<=2, lv>=0 or lv=3', "lv==3", 0),
        (
            "lv<=2.5",
            'The level must be a whole number in "lv<=2.5" at character 1; write lv<=2, lv>=0 or lv=3',
            "lv<=2.5",
            0,
        ),
        ("lv>=12345", 'The level must be between -999 and 999 in "lv>=12345" at character 1', "lv>=12345", 0),
        (
            "t:ruler",
            'Unknown type "ruler" in "t:ruler" at character 1; types are unit, event, field, energy',
            "t:ruler",
            0,
        ),
        (
            "t:e",
            'Type "e" in "t:e" at character 1 could be event or energy; type more letters',
            "t:e",
            0,
        ),
        (
            'name:"red dragon',
            'Unterminated quote in "name:"red dragon" at character 1; close it with "',
            'name:"red dragon',
            0,
        ),
        ('dragon "deal 2', 'Unterminated quote in ""deal 2" at character 8; close it with "', '"deal 2', 7),
        ("「赤き", 'Unterminated quote in "「赤き" at character 1; close it with 」', "「赤き", 0),
        ("f:", 'Nothing after "f:" in "f:" at character 1; write f:volnar', "f:", 0),
        ('a:""', 'Nothing after "a:" in "a:""" at character 1; write a:dragon', 'a:""', 0),
        ("f<3", '"f" is not compared in "f<3" at character 1; write f:volnar', "f<3", 0),
        ("set=gb01", '"set" is not compared in "set=gb01" at character 1; write set:PS01', "set=gb01", 0),
        ("cnt:yes", '"cnt" takes no value in "cnt:yes" at character 1; write cnt or -cnt', "cnt:yes", 0),
        ("dragon -", 'Nothing to negate after "-" at character 8; write -t:event, -cnt or -dragon', "-", 7),
        # Positions count characters as typed, before full-width forms are folded.
        (
            "ﾄﾞﾗｺﾞﾝ ｘ：ｆｏｏ",
            'Unknown field "x:" in "ｘ：ｆｏｏ" at character 8; try f:, t:, lv, a:, cnt, legend, set:, name:',
            "ｘ：ｆｏｏ",
            7,
        ),
    ],
)
def test_it_names_the_bad_token_and_where_it_is(query, message, token, position):
    with pytest.raises(QueryError) as excinfo:
        parse_card_query(query)

    assert str(excinfo.value) == message
    assert excinfo.value.message == message
    assert (excinfo.value.token, excinfo.value.position) == (token, position)
    assert query[position : position + len(token)] == token


def test_it_refuses_a_query_too_long_to_be_typed():
    with pytest.raises(QueryError, match="too long"):
        parse_card_query("dragon " * (MAX_QUERY_LENGTH // 7 + 1))


@given(st.text(max_size=80))
def test_it_parses_or_raises_query_error_whatever_is_typed(query):
    try:
        result = parse_card_query(query)
    except QueryError as exc:
        error = exc
    else:
        error = None
        for term in result.terms:
            assert term.value != ""
            assert term.position is not None
            assert query[term.position :].startswith(term.token)
    if error is not None:
        assert error.message
        assert error.position is None or 0 <= error.position <= len(query)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("unit", "unit"),
        ("U", "unit"),
        ("ev", "event"),
        ("ｆｉｅ", "field"),
        ("energy", "energy"),
        # By the name the game's data gives the type in Japanese, or its first letters.
        ("ユニット", "unit"),
        ("イベ", "event"),
        ("エナジー", "energy"),
    ],
)
def test_resolve_type_takes_a_prefix(value, expected):
    assert resolve_type(value) == expected


def test_resolve_type_names_the_types_when_it_knows_none():
    with pytest.raises(QueryError, match=r'^Unknown type "ruler"; types are unit, event, field, energy$'):
        resolve_type("ruler")


FACTIONS = [
    (1, ("Volnar", "ウォルナー", "volnar")),
    (2, ("Yomajin Front", "東妖軍", "yomajin-front")),
    (3, ("Wonderverse", "マジカルユニバース", "wonderverse")),
    (4, ("侵略次元", "侵略次元", "侵略次元")),
]


@pytest.mark.parametrize(
    ("value", "keys"),
    [
        ("volnar", [1]),
        ("VOL", [1]),
        ("ｖｏｌｎａｒ", [1]),
        ("yomajin front", [2]),
        ("yomajin-front", [2]),
        ("yoma", [2]),
        ("東妖", [2]),
        ("うぉるなー", [1]),  # hiragana for ウォルナー
        ("侵略", [4]),
        ("w", [3]),
        ("", [1, 2, 3, 4]),
        ("front", []),  # a prefix, not a substring
        ("atlas", []),
    ],
)
def test_match_names_folds_and_takes_prefixes(value, keys):
    assert match_names(value, FACTIONS) == keys


def test_match_names_prefers_an_exact_name_to_longer_ones():
    attributes = [(1, ("Dragon",)), (2, ("Dragonkin",)), (3, ("Drake",))]

    assert match_names("dragon", attributes) == [1]
    assert match_names("drag", attributes) == [1, 2]
    assert match_names("dr", attributes) == [1, 2, 3]


def test_no_match_error_lists_the_few_or_suggests_among_many():
    term = parse_card_query("f:xyz").terms[0]
    few = no_match_error(term, "faction", ["Volnar", "ATLAS"])
    assert few.message == 'No faction matches "xyz" in "f:xyz" at character 1; factions are ATLAS, Volnar'
    assert (few.token, few.position) == ("f:xyz", 0)

    term = parse_card_query("dragon a:drgon").terms[1]
    many = no_match_error(term, "attribute", [f"Attribute {n}" for n in range(20)] + ["Dragon"])
    assert many.message == 'No attribute matches "drgon" in "a:drgon" at character 8; did you mean Dragon?'

    from_filter = Term(Field.SET, "zz99", token="set=ZZ99")
    assert no_match_error(from_filter, "set", ["PS01"]).message == 'No set matches "zz99"; sets are PS01'


def test_search_help_shows_every_syntax_with_an_example_that_parses():
    syntaxes = " ".join(entry.syntax for entry in SEARCH_HELP)
    for piece in ("f:", "t:", "lv<=2", "lv>=0", "a:", "cnt", "legend", "set:", "name:", '"phrase"', "-"):
        assert piece in syntaxes
    for syntax, meaning, example in SEARCH_HELP:
        assert syntax
        assert meaning
        parse_card_query(example)  # does not raise


def test_card_types_are_the_models_card_types():
    from cards.models import CardType

    assert set(CARD_TYPES) == set(CardType.values)


def test_a_search_error_is_worded_in_the_players_language():
    from django.utils import translation

    # Explicitly English: a request of an earlier test (the test client) leaves its language active.
    with translation.override("en"), pytest.raises(QueryError) as english:
        parse_card_query("lv<=x")
    with translation.override("ja"), pytest.raises(QueryError) as japanese:
        parse_card_query("lv<=x")

    assert (
        english.value.message
        == 'The level must be a whole number in "lv<=x" at character 1; write lv<=2, lv>=0 or lv=3'
    )
    assert japanese.value.message == "レベルは整数で書いてください(「lv<=x」、1 文字目)。例:lv<=2、lv>=0、lv=3"
