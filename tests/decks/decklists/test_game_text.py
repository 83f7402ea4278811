"""Deck lists of the data-driven games: the `Game:` line and section headings from the game's data,
written and read back. Plain pytest, no Django, no database."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.decklists.text import MAIN, TextCard, Vocabulary, format_deck_text, format_game_deck_text, parse_deck_text

GAMES = {"Ruler's Gambit": "rulers-gambit", "rulers-gambit": "rulers-gambit", "GateRunners": "gaterunners"}
RG = Vocabulary(
    cards={n: n for n in ("Azure Kingdom", "Tide Warden", "Frost Ward", "Deep Sage")},
    games=GAMES,
    sections={"Kingdom": "kingdom"},
)
GR = Vocabulary(
    cards={n: n for n in ("Wayfinder", "Gate of Dawn", "Gate of Dusk", "Runner", "Quick Strike")},
    games=GAMES,
    sections={"Hero": "hero", "Gates": "gates"},
)
RG_TYPES = {"unit": "Unit", "spell": "Spell"}


def test_it_writes_the_game_the_main_deck_first_then_each_section_under_its_heading():
    text = format_game_deck_text(
        game="Ruler's Gambit",
        name="Blue Wall",
        main=[TextCard(2, "Tide Warden", "unit"), TextCard(1, "Frost Ward", "spell"), TextCard(2, "Deep Sage", "unit")],
        sections=[("Kingdom", [TextCard(1, "Azure Kingdom", "kingdom-ruler")])],
        type_labels=RG_TYPES,
    )

    assert text == (
        "# Blue Wall\n"
        "Game: Ruler's Gambit\n"
        "\n# Unit (4)\n2 Deep Sage\n2 Tide Warden\n"
        "\n# Spell (1)\n1 Frost Ward\n"
        "\nKingdom:\n1 Azure Kingdom\n"
    )


def test_it_reads_the_game_and_the_sections_lines_before_any_heading_are_the_main_deck():
    parsed = parse_deck_text(
        "Game: Ruler's Gambit\n2 Tide Warden\nKingdom:\n1 Azure Kingdom\nMain deck:\n1 Frost Ward\n", RG
    )

    assert parsed.errors == ()
    assert parsed.game == "rulers-gambit"
    assert dict(parsed.main) == {"Tide Warden": 2, "Frost Ward": 1}
    assert dict(parsed.section("kingdom")) == {"Azure Kingdom": 1}


@pytest.mark.parametrize(
    "text", ["Hero: Wayfinder\nGates: 3 Gate of Dawn\n", "hero (1):\n1 Wayfinder\nGATES: # 3\n3 Gate of Dawn\n"]
)
def test_a_heading_may_hold_its_first_card_a_count_or_a_comment(text):
    parsed = parse_deck_text(text, GR)

    assert parsed.errors == ()
    assert (dict(parsed.section("hero")), dict(parsed.section("gates"))) == ({"Wayfinder": 1}, {"Gate of Dawn": 3})


def test_an_unknown_section_heading_is_an_error_naming_its_line():
    parsed = parse_deck_text("Hero:\n1 Wayfinder\nGatez:\n3 Gate of Dawn\nResources:\n", GR)

    first, second = parsed.errors
    assert (first.number, first.field, first.suggestion) == (3, "section", "Gates")
    assert (
        str(first) == "Line 3: “Gatez” is not a section of this game's deck lists (Hero, Gates). Did you mean “Gates”?"
    )
    assert second.number == 5
    assert "“Resources” is not a section" in second.message


def test_group_headings_copied_from_other_lists_are_skipped_not_refused():
    parsed = parse_deck_text("Units (20):\n2 Runner\nHero:\n1 Wayfinder\n", GR)

    assert parsed.errors == ()
    assert (dict(parsed.main), dict(parsed.section("hero"))) == ({"Runner": 2}, {"Wayfinder": 1})


def test_an_unknown_game_is_an_error_and_no_game_line_leaves_the_game_unsaid():
    parsed = parse_deck_text("Game: Chess\n1 Runner\n", GR)

    assert parsed.errors[0].number == 1
    assert parsed.errors[0].message == "“Chess” is not a game this site knows."
    assert parse_deck_text("1 Runner\n", GR).game is None


def test_a_gate_ruler_list_reads_as_before_and_writes_no_game_line():
    text = format_deck_text(ruler="Apprentice", main=[TextCard(4, "Ember Squire", "unit", 1)])

    assert text == "Ruler: Apprentice\n\n# Units (4)\n4 Ember Squire\n"
    parsed = parse_deck_text(
        text + "Resources:\n", Vocabulary(cards={"Ember Squire": "Ember Squire"}, rulers={"Apprentice": "Apprentice"})
    )
    assert (parsed.errors, parsed.game, dict(parsed.main)) == ((), None, {"Ember Squire": 4})


names = st.from_regex(r"Card [A-Z][a-z]{2,8}( [a-z]{2,6})?", fullmatch=True)


@settings(max_examples=60, deadline=None)
@given(
    main=st.dictionaries(names, st.integers(1, 99), max_size=12),
    hero=st.dictionaries(names, st.integers(1, 3), max_size=2),
    gates=st.dictionaries(names, st.integers(1, 3), max_size=4),
    name=st.from_regex(r"[A-Za-z][A-Za-z ]{0,20}", fullmatch=True),
)
def test_a_game_deck_written_then_read_is_the_same_deck(main, hero, gates, name):
    vocabulary = Vocabulary(cards={n: n for n in [*main, *hero, *gates]}, games=GAMES, sections=GR.sections)
    text = format_game_deck_text(
        game="GateRunners",
        name=name,
        main=[TextCard(c, n, "unit") for n, c in main.items()],
        sections=[
            ("Hero", [TextCard(c, n) for n, c in hero.items()]),
            ("Gates", [TextCard(c, n) for n, c in gates.items()]),
        ],
        type_labels={"unit": "Unit"},
    )

    parsed = parse_deck_text(text, vocabulary)

    assert parsed.errors == ()
    assert parsed.game == "gaterunners"
    assert dict(parsed.section(MAIN)) == main
    assert dict(parsed.section("hero")) == hero
    assert dict(parsed.section("gates")) == gates
