"""A fourth game is a data file: written to a temporary folder, parsed and judged with no code
change (only the existing rule kinds). The same game is docs/games.md's worked example."""

from __future__ import annotations

import json

import pytest

from decks.rules.games import parse_game
from decks.rules.judge import addition_hints, judge, judging
from decks.rules.odds import game_draw_pattern, seen_by_turn
from decks.rules.panel import rules_panel
from decks.rules.types import CardFacts

from .gamedecks import snapshot

TIDEBOUND = {
    "game": "tidebound",
    "name": "Tidebound",
    "source": "Tidebound quick-start rules (a made-up game for this test)",
    "card_types": [
        {"key": "creature", "label": "Creature"},
        {"key": "tide", "label": "Tide"},
        {"key": "captain", "label": "Captain"},
    ],
    "card_fields": [
        {
            "key": "element",
            "label": "Element",
            "kind": "choices",
            "types": ["creature", "tide", "captain"],
            "choices": [{"key": "water", "label": "Water"}, {"key": "storm", "label": "Storm"}],
        },
        {"key": "power", "label": "Power", "kind": "int", "types": ["creature", "captain"]},
    ],
    "sections": [
        {"key": "captain", "label": "Captain", "heading": "Captain", "identity": True},
        {"key": "main", "label": "Deck", "heading": None, "noun": "deck"},
    ],
    "rules": [
        {"code": "captain", "kind": "section_size", "section": "captain", "exactly": 1, "source": "Setup"},
        {"code": "deck_size", "kind": "section_size", "section": "main", "min": 20, "max": 30, "source": "Setup"},
        {
            "code": "card_type",
            "kind": "section_types",
            "allowed": {"captain": ["captain"], "main": ["creature", "tide"]},
            "source": "Setup",
        },
        {"code": "singleton", "kind": "max_copies", "max": 1, "source": "Deck building"},
        {
            "code": "element",
            "kind": "identity_choices",
            "identity": "captain",
            "field": "element",
            "section": "main",
            "source": "Deck building",
        },
    ],
    "draw": {"opening_hand": 4, "per_turn": 2, "first_player_skips_first_draw": False, "source": "Turns"},
    "assumptions": [
        {"about": "cards with no element", "rule": "element", "text": "Not stated; this site assumes any deck."}
    ],
}


def card(name, type_="creature", element="water"):
    return CardFacts(name, type_, fields={"element": element})


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "tidebound.json"
    path.write_text(json.dumps(TIDEBOUND), encoding="utf-8")
    return parse_game(json.loads(path.read_text(encoding="utf-8")))


def deck(n=20, captain=("Old Salt", "water"), extra=()):
    main = [(card(f"Creature {i:02d}"), 1) for i in range(n)] + list(extra)
    return snapshot(captain=[(card(captain[0], "captain", captain[1]), 1)], main=main)


def test_a_fourth_game_judges_a_legal_deck(game):
    assert judge(game, deck()).legal
    assert judge(game, deck(30)).legal


@pytest.mark.parametrize(
    ("made", "expected"),
    [
        (lambda: deck(19), {"deck_size"}),
        (lambda: deck(31), {"deck_size"}),
        (lambda: deck(19, extra=[(card("Creature 00"), 1)]), {"singleton"}),
        (lambda: deck(19, extra=[(card("Squall", "tide", "storm"), 1)]), {"element"}),
        (lambda: deck(19, extra=[(card("Second Mate", "captain"), 1)]), {"card_type"}),
        (lambda: snapshot(main=[(card(f"Creature {i:02d}"), 1) for i in range(20)]), {"captain"}),
    ],
)
def test_a_fourth_game_breaks_each_of_its_rules(game, made, expected):
    assert judge(game, made()).rules_broken() == expected


def test_a_fourth_game_has_hints_odds_and_a_rules_panel(game):
    j = judging(game, deck(30))

    assert [str(b) for b in addition_hints(j, card("Squall", "tide", "storm"))] == [
        "the deck is full (30/30)",
        "the Captain does not allow storm",
    ]
    assert seen_by_turn(game_draw_pattern(game.draw), deck_size=20, going_first=True, turns=2) == (6, 8)
    panel = rules_panel(game)
    assert [str(r.wording) for r in panel.rules][1] == "The deck has from 20 to 30 cards."
    assert panel.rules[4].assumptions[0].text == "Not stated; this site assumes any deck."


def test_a_fourth_game_words_its_violations_as_docs_games_md_shows(game):
    squall = card("Squall", "tide", "storm")
    messages = [v.message for v in judge(game, deck(29, extra=[(squall, 2)])).violations]

    assert messages == [
        "The deck has 31 cards; it may have at most 30.",
        "2 copies of Squall; a deck may have at most 1.",
        "Element not allowed by the Captain Old Salt (water): Squall (storm).",
    ]
