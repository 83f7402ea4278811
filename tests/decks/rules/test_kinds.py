"""The rule kinds' parameters are checked when a game file is read: each mistake names the game,
the rule and the key. Pure, no Django."""

from __future__ import annotations

import copy
import json

import pytest

from decks.rules.games import GameDataError, parse_game
from decks.rules.kinds import KINDS
from decks.rules.panel import rules_panel

from .gamedecks import GAMES, GATERUNNERS, RULERS_GAMBIT, load_game


def raw(slug):
    return json.loads((GAMES / f"{slug}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["rules"][1].update(kind="deck_sizes"), r"rules\[1\]\.kind: 'deck_sizes' is not a rule kind"),
        (lambda d: d["rules"][1].update(code=None), r"rules\[1\]\.code: a section_size rule needs a code"),
        (
            lambda d: d["rules"][1].update(section="deck"),
            r"rules\[1\]\.section: 'deck' is not one of the game's sections",
        ),
        (lambda d: d["rules"][1].pop("exactly"), r"rules\[1\]: a section_size rule needs exactly, min or max"),
        (lambda d: d["rules"][1].update(min=30), r"rules\[1\]: exactly cannot go with min or max"),
        (lambda d: d["rules"][1].update(exactly=-1), r"rules\[1\]\.exactly: expected a whole number of at least 0"),
        (
            lambda d: d["rules"][2]["allowed"].update(main=["unit", "trap"]),
            r"rules\[2\]\.allowed\.main: expected a list",
        ),
        (lambda d: d["rules"][3].update(max=0), r"rules\[3\]\.max: expected a whole number of at least 1"),
        (lambda d: d["rules"][4].update(identity="main"), r"rules\[4\]\.identity: the section 'main' is not marked"),
        (
            lambda d: d["rules"][4].update(field="cost"),
            r"rules\[4\]\.field: 'cost' is not a card field of kind 'choices'",
        ),
        (lambda d: d["draw"].update(opening_hand=-5), r"draw\.opening_hand: expected a whole number of cards"),
        (lambda d: d["sections"].append({"key": "main", "label": "Again"}), r"sections: a section key is given twice"),
    ],
)
def test_a_bad_rule_is_named(change, message):
    data = copy.deepcopy(raw("rulers-gambit"))
    change(data)

    with pytest.raises(GameDataError, match=r"rulers-gambit: " + message):
        parse_game(data)


def test_every_kind_is_declared_once_and_every_shipped_rule_uses_one():
    keys = [kind.key for kind in KINDS]
    used = {rule.kind for slug in ("gate-ruler", "rulers-gambit", "gaterunners") for rule in load_game(slug).rules}

    assert len(keys) == len(set(keys))
    assert used <= set(keys)
    assert set(keys) == used


def test_the_rules_panel_lists_each_rule_with_its_words_numbers_source_and_assumptions():
    panel = rules_panel(RULERS_GAMBIT)
    by_code = {rule.code: rule for rule in panel.rules}

    assert [str(r.wording) for r in panel.rules] == [
        "The Kingdom section has exactly 1 card.",
        "The main deck has exactly 39 cards.",
        "Each section takes only its card types (Kingdom section: Kingdom-Ruler; main deck: Unit or Spell).",
        "At most 2 copies of a card, counted over the Kingdom section and the main deck.",
        "Every card in the main deck must be of a colour its Kingdom allows.",
    ]
    assert by_code["deck_size"].params == {"section": "main", "exactly": 39}
    assert by_code["deck_size"].source == "Deck Construction: a main deck consisting of 39 cards"
    assert [a.about for a in by_code["colour"].assumptions] == [
        "multi-colour cards",
        "multi-colour Kingdoms",
        "colourless cards",
        "colours without one Kingdom",
    ]
    assert all(a.text.startswith("Not stated in the rules; this site") for a in by_code["colour"].assumptions)
    assert panel.draw[0] == "Setup: sees 5 cards."


def test_assumptions_about_no_one_rule_are_listed_with_the_game():
    panel = rules_panel(GATERUNNERS)

    assert [a.about for a in panel.assumptions] == ["copies of a card", "Shields in draw odds"]
    assert [a.about for r in panel.rules for a in r.assumptions] == ["repeated Gates", "largest deck"]
