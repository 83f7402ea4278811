"""decks.decklists.text: write a deck list and read one back. Plain pytest, no Django, no database."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.decklists.text import MAIN, RESOURCES, TextCard, Vocabulary, format_deck_text, name_key, parse_deck_text
from decks.limits import MAX_LINES

CARDS = {
    "Ember Squire": "Ember Squire",
    "燃えさしの従騎士": "Ember Squire",
    "Frost Hare": "Frost Hare",
    "フロストヘア": "Frost Hare",
    "Sky Lancer": "Sky Lancer",
    "Old Wyrm": "Old Wyrm",
    "Spark": "Spark",
    "Gate: Opening": "Gate: Opening",
}
VOCABULARY = Vocabulary(
    cards=CARDS,
    rulers={"Apprentice": "Apprentice", "見習い": "Apprentice", "apprentice": "Apprentice", "D-4": "Apprentice"},
    geases={"Oath of Embers": "Oath of Embers", "oath-of-embers": "Oath of Embers"},
    attributes=["Dragon", "Machine"],
)


def parse(text: str):
    return parse_deck_text(text, VOCABULARY)


def test_it_writes_headings_groups_by_type_and_resources():
    text = format_deck_text(
        ruler="Apprentice",
        geas="Oath of Embers",
        attribute="Dragon",
        rules_date=date(2024, 6, 1),
        name="Ember Rush",
        main=[
            TextCard(2, "Frost Hare", "event", 1),
            TextCard(4, "Sky Lancer", "unit", 2),
            TextCard(3, "Ember Squire", "unit", 1),
        ],
        resources=[TextCard(10, "Spark", "energy")],
    )

    assert text == (
        "# Ember Rush\n"
        "Ruler: Apprentice\n"
        "Geas: Oath of Embers\n"
        "Attribute: Dragon\n"
        "Rules date: 2024-06-01\n"
        "\n"
        "# Units (7)\n"
        "3 Ember Squire\n"
        "4 Sky Lancer\n"
        "\n"
        "# Events (2)\n"
        "2 Frost Hare\n"
        "\n"
        "Resources:  # 10\n"
        "10 Spark\n"
    )


def test_it_writes_copies_of_one_name_in_two_printings_as_one_line():
    text = format_deck_text(
        ruler="Apprentice", main=[TextCard(2, "Ember Squire", "unit", 1), TextCard(2, "Ember Squire", "unit", 1)]
    )

    assert "4 Ember Squire\n" in text
    assert "Geas:" not in text
    assert "Resources:" not in text


def test_it_reads_what_it_writes():
    text = format_deck_text(
        ruler="Apprentice",
        geas="Oath of Embers",
        attribute="Dragon",
        rules_date=date(2024, 6, 1),
        main=[TextCard(4, "Ember Squire", "unit", 1), TextCard(1, "Gate: Opening", "field", 0)],
        resources=[TextCard(10, "Spark", "energy")],
    )

    parsed = parse(text)

    assert parsed.errors == ()
    assert (parsed.ruler, parsed.geas, parsed.attribute, parsed.rules_date) == (
        "Apprentice",
        "Oath of Embers",
        "Dragon",
        date(2024, 6, 1),
    )
    assert parsed.main == {"Ember Squire": 4, "Gate: Opening": 1}
    assert parsed.resources == {"Spark": 10}


@pytest.mark.parametrize(
    "line",
    [
        "4 Ember Squire",
        "4x Ember Squire",
        "4X ember squire",
        "4 x Ember Squire",
        "x4 Ember Squire",
        "Ember Squire x4",
        "  4   Ember    Squire  ",
        "- 4 Ember Squire",
        "* 4x Ember Squire",
        "４ Ｅｍｂｅｒ Ｓｑｕｉｒｅ",
        "4 燃えさしの従騎士",
        "4× Ember Squire",
        "4 Ember Squire\t",
    ],
)
def test_it_reads_a_card_line_however_it_is_written(line):
    parsed = parse(f"Ruler: Apprentice\n{line}\n")

    assert parsed.errors == ()
    assert parsed.main == {"Ember Squire": 4}


def test_it_reads_a_line_without_a_count_as_one_copy():
    assert parse("Frost Hare").main == {"Frost Hare": 1}


def test_it_matches_japanese_names_across_katakana_hiragana_and_half_width():
    parsed = parse("2 ふろすとへあ\n1 ﾌﾛｽﾄﾍｱ\n")

    assert parsed.errors == ()
    assert parsed.main == {"Frost Hare": 3}


def test_it_skips_blank_lines_comments_and_group_headings():
    parsed = parse("# my list\n\n// another comment\nUnits (4)\n4 Ember Squire\n\nEvents:\n")

    assert parsed.errors == ()
    assert parsed.main == {"Ember Squire": 4}


def test_it_adds_up_copies_of_one_name_per_section():
    parsed = parse("2 Ember Squire\n2 ember squire\nResources:\n3 Spark\nresources (10):\n2 Spark\nDeck:\n1 Spark\n")

    assert parsed.main == {"Ember Squire": 4, "Spark": 1}
    assert parsed.resources == {"Spark": 5}
    assert [line.section for line in parsed.lines] == [MAIN, MAIN, RESOURCES, RESOURCES, MAIN]


def test_it_reads_rulers_by_code_slug_or_japanese_name():
    for written in ("D-4", "apprentice", "見習い", "APPRENTICE", "d‐4"):
        parsed = parse(f"Ruler: {written}")
        assert parsed.ruler == "Apprentice", written
        assert parsed.errors == ()


def test_it_reads_no_geas_and_a_full_width_colon():
    parsed = parse("ルーラー：Apprentice\nGeas: none\nAttribute:\n")

    assert parsed.errors == ()
    assert (parsed.ruler, parsed.geas, parsed.attribute) == ("Apprentice", "", "")
    assert parsed.heading_lines == {"ruler": 1, "geas": 2, "attribute": 3}


def test_it_reports_every_bad_line_with_its_number_and_a_suggestion():
    parsed = parse(
        "Ruler: Aprentice\n"
        "4 Ember Squre\n"
        "Geas: Oath of Ember\n"
        "Atribute: Dragon\n"
        "2 Nothing Like Any Card\n"
        "0 Spark\n"
        "100 Spark\n"
        "Rules date: June\n"
        "4 Frost Hare\n"
        "42\n"
    )

    found = {e.number: e for e in parsed.errors}
    assert sorted(found) == [1, 2, 3, 4, 5, 6, 7, 8, 10]
    assert found[1].suggestion == "Apprentice"
    assert found[1].field == "ruler"
    assert found[2].suggestion == "Ember Squire"
    assert found[2].field == "card"
    assert str(found[2]) == "Line 2: “Ember Squre” is not a card name. Did you mean “Ember Squire”?"
    assert found[3].suggestion == "Oath of Embers"
    assert found[4].suggestion == "Attribute"
    assert found[4].field == "heading"
    assert found[5].suggestion is None
    assert "1 to 99" in found[6].message
    assert "1 to 99" in found[7].message
    assert "not a date" in found[8].message
    assert "count and a card name" in found[10].message
    # The good line is still read.
    assert parsed.main == {"Frost Hare": 4}
    assert found[2].text == "4 Ember Squre"


def test_it_suggests_a_card_for_a_japanese_near_miss():
    (error,) = parse("4 燃えさしの従騎").errors

    # In the language the player wrote it: the card's Japanese name (the list reads it as the card).
    assert error.suggestion == "燃えさしの従騎士"


def test_it_reports_a_heading_given_twice():
    parsed = parse("Ruler: Apprentice\nRuler: D-4\n")

    assert parsed.ruler == "Apprentice"
    assert [(e.number, e.field) for e in parsed.errors] == [(2, "ruler")]


def test_it_refuses_more_than_the_maximum_copies_of_a_name_in_all():
    parsed = parse_deck_text("60 Spark\n60 Spark\n", VOCABULARY, max_count=99)

    assert parsed.main == {"Spark": 60}
    assert [e.number for e in parsed.errors] == [2]


@pytest.mark.parametrize("count", ["1000000", "1" + "0" * 30])
def test_it_refuses_an_absurd_count_naming_its_line(count):
    parsed = parse(f"4 Spark\n{count} Frost Hare\n")

    assert parsed.main == {"Spark": 4}
    assert [(e.number, e.text) for e in parsed.errors] == [(2, f"{count} Frost Hare")]
    assert "1 to 99" in parsed.errors[0].message


def test_it_refuses_more_different_cards_than_a_deck_keeps_naming_the_line():
    names = {f"Card {i}": f"Card {i}" for i in range(MAX_LINES + 2)}
    vocabulary = Vocabulary(cards=names, rulers={}, geases={}, attributes=[])

    parsed = parse_deck_text("\n".join(f"1 {name}" for name in names), vocabulary)

    assert len(parsed.main) == MAX_LINES
    assert [e.number for e in parsed.errors] == [MAX_LINES + 1, MAX_LINES + 2]
    assert f"at most {MAX_LINES} different cards" in parsed.errors[0].message


def test_it_refuses_a_name_that_spoofs_its_display_naming_the_line():
    parsed = parse("Name: Ember\u202eRush\n4 Spark\n")

    assert parsed.name is None
    assert [(e.number, e.field) for e in parsed.errors] == [(1, "name")]
    assert "not allowed (U+202E)" in parsed.errors[0].message
    assert parsed.main == {"Spark": 4}


def test_it_prefers_a_card_whose_name_looks_like_a_count():
    vocabulary = Vocabulary(cards={"x Ray": "x Ray", "Ray": "Ray", "7th Gate": "7th Gate"})

    assert parse_deck_text("3 x Ray\n2 7th Gate\n", vocabulary).main == {"x Ray": 3, "7th Gate": 2}


def test_name_key_folds_case_width_quotes_and_spaces():
    assert name_key("  Ｅｍｂｅｒ’s   SQUIRE ") == name_key("ember's squire")


# ---------------------------------------------------------------- round trips

_name_chars = st.characters(
    categories=("Lu", "Ll", "Nd", "Lo"), include_characters=" '-,.!&", exclude_characters="\x85\u2028\u2029"
)
_names = (
    st.text(_name_chars, min_size=1, max_size=30)
    .map(lambda s: " ".join(s.split()))
    .filter(lambda s: bool(s) and not s[0].isdigit() and name_key(s) == name_key(s.strip()))
)


@st.composite
def decks(draw):
    names = draw(st.lists(_names, min_size=1, max_size=25, unique_by=name_key))
    # Names that fold alike would be one card to the parser: keep one of each (as the catalog's unique names are).
    main_names = draw(st.lists(st.sampled_from(names), unique=True, max_size=len(names)))
    resource_names = draw(st.lists(st.sampled_from(names), unique=True, max_size=5))
    counts = st.integers(min_value=1, max_value=99)
    types = st.sampled_from(["unit", "event", "field", "energy", ""])
    levels = st.none() | st.integers(min_value=-3, max_value=9)
    main = [TextCard(draw(counts), n, draw(types), draw(levels)) for n in main_names]
    resources = [TextCard(draw(counts), n, "energy") for n in resource_names]
    return names, main, resources


@pytest.mark.slow
@settings(deadline=None)
@given(
    deck=decks(),
    geas=st.sampled_from([None, "Oath of Embers"]),
    attribute=st.sampled_from(["", "Dragon", "Machine"]),
    rules_date=st.none() | st.dates(min_value=date(2000, 1, 1), max_value=date(2099, 12, 31)),
    name=st.text(max_size=40),
)
def test_format_then_parse_gives_the_same_deck(deck, geas, attribute, rules_date, name):
    names, main, resources = deck
    vocabulary = Vocabulary(
        cards={n: n for n in names},
        rulers=VOCABULARY.rulers,
        geases=VOCABULARY.geases,
        attributes=VOCABULARY.attributes,
    )
    text = format_deck_text(
        ruler="Apprentice",
        geas=geas,
        attribute=attribute,
        rules_date=rules_date,
        name=name,
        main=main,
        resources=resources,
    )

    parsed = parse_deck_text(text, vocabulary)

    assert parsed.errors == ()
    assert parsed.ruler == "Apprentice"
    assert parsed.geas == geas
    assert (parsed.attribute or "") == attribute
    assert parsed.rules_date == rules_date
    assert dict(parsed.main) == {c.name: c.count for c in main}
    assert dict(parsed.resources) == {c.name: c.count for c in resources}


@settings(deadline=None)
@given(st.text(max_size=400))
def test_parse_never_raises_and_names_real_lines(text):
    parsed = parse(text)

    line_count = len(text.splitlines())
    assert all(1 <= e.number <= line_count for e in parsed.errors)
    assert all(1 <= line.number <= line_count for line in parsed.lines)
    assert set(parsed.main) | set(parsed.resources) <= set(CARDS.values())


def test_a_misspelt_card_name_with_a_colon_is_a_card_error_not_a_heading():
    (error,) = parse("Gate: Openin").errors

    assert error.field == "card"
    assert error.suggestion == "Gate: Opening"


def test_line_fixed_replaces_only_what_was_written_on_that_line():
    from decks.decklists.text import LineError, line_fixed

    text = "2 Squre\r\n2 Squre\r\n"
    error = LineError(2, "2 Squre", "“Squre” is not a card name.", "Squire", written="Squre")

    assert line_fixed(text, error) == "2 Squre\r\n2 Squire\r\n"
    assert line_fixed(text, LineError(2, "2 Squre", "no", None, written="Squre")) == text
    assert line_fixed(text, LineError(9, "", "no", "Squire", written="Squre")) == text
