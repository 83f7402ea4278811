"""Draw odds from a game's draw pattern, checked against a hand computation. Pure, no Django."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from decks.rules.odds import draw_odds, game_draw_pattern, seen_by_turn
from decks.rules.ruleset import RulesDataError

from .gamedecks import GATE_RULER, GATERUNNERS, RULERS_GAMBIT


def test_rulers_gambit_sees_5_then_1_a_turn_and_the_first_player_skips_the_first_draw():
    pattern = game_draw_pattern(RULERS_GAMBIT.draw)

    assert seen_by_turn(pattern, deck_size=39, going_first=True, turns=3) == (5, 6, 7)
    assert seen_by_turn(pattern, deck_size=39, going_first=False, turns=3) == (6, 7, 8)


def test_gaterunners_sets_7_shields_aside_unseen_and_sees_6_then_1_a_turn():
    pattern = game_draw_pattern(GATERUNNERS.draw)

    assert (pattern.setup.seen, pattern.setup.hidden) == (6, 7)
    assert seen_by_turn(pattern, deck_size=40, going_first=True, turns=3) == (6, 7, 8)
    assert seen_by_turn(pattern, deck_size=40, going_first=False, turns=3) == (7, 8, 9)
    # A deck of 10: the Shields take 7, the hand the 3 left, and nothing is left to draw.
    assert seen_by_turn(pattern, deck_size=10, going_first=False, turns=2) == (3, 3)
    assert pattern.describe()[0] == "Setup: puts 7 cards aside unseen, then sees 6 cards."


def test_rulers_gambit_odds_of_a_2_of_match_the_hand_computation():
    row1, row2 = draw_odds(game_draw_pattern(RULERS_GAMBIT.draw), deck_size=39, group=2, k=1, turns=2)

    # Going first: 5 cards by turn 1; going second: 6. P(at least one of 2) = 1 - C(37, n) / C(39, n).
    assert row1.first == 1 - Fraction(comb(37, 5), comb(39, 5))
    assert row1.second == 1 - Fraction(comb(37, 6), comb(39, 6))
    assert row2.first == row1.second
    assert float(row1.first) == pytest.approx(1 - (34 * 33) / (39 * 38))


def test_gaterunners_odds_of_3_copies_match_the_hand_computation():
    (row,) = draw_odds(game_draw_pattern(GATERUNNERS.draw), deck_size=40, group=3, k=2, turns=1)

    # Shields are unseen: by turn 1, 6 seen going first, 7 going second. P(X >= 2) by hand.
    def at_least_two(n):
        return Fraction(comb(3, 2) * comb(37, n - 2) + comb(3, 3) * comb(37, n - 3), comb(40, n))

    assert (row.seen_first, row.seen_second) == (6, 7)
    assert row.first == at_least_two(6)
    assert row.second == at_least_two(7)


def test_gate_rulers_pattern_comes_from_the_ruler():
    profile = {"setup": {"draw": 4, "drive": 0}, "start_of_turn": {"draw": 1, "drive": 1, "resources_from_deck": 0}}

    assert seen_by_turn(game_draw_pattern(GATE_RULER.draw, profile), deck_size=50, going_first=False, turns=1) == (6,)
    with pytest.raises(RulesDataError, match="the pattern comes from the ruler"):
        game_draw_pattern(GATE_RULER.draw)


def test_a_games_deck_offers_groups_by_type_choice_and_number_fields():
    from decks.rules.odds import game_deck_groups

    from .gamedecks import kingdom, rg_card, snapshot

    deck = snapshot(
        kingdom=[(kingdom(), 1)],
        main=[
            (rg_card("Tide Warden", colours=("blue",), cost=2), 2),
            (rg_card("Violet Sage", colours=("blue", "red"), cost=4), 1),
            (rg_card("Frost Ward", "spell", ("blue",), spell_type="quick-play", cost=None), 3),
        ],
    )
    groups = {g.key: (g.label, g.count) for g in game_deck_groups(RULERS_GAMBIT, deck)}

    assert groups["type:unit"] == ("Unit cards", 3)
    assert groups["colours:blue"] == ("Colour: Blue", 6)
    assert groups["colours:red"] == ("Colour: Red", 1)
    assert groups["spell_type:quick-play"] == ("Spell type: Quick-Play", 3)
    assert groups["cost-2"] == ("COST 2 or less", 2)
    assert groups["cost-4"] == ("COST 4 or less", 3)
    assert groups["card:Frost Ward"] == ("Frost Ward", 3)
    assert "type:kingdom-ruler" not in groups  # the Kingdom is not in the main deck


def _groups_of(game, **sections):
    from decks.rules.odds import deck_size_of, game_deck_groups

    from .gamedecks import snapshot

    deck = snapshot(**sections)
    return game_deck_groups(game, deck), deck_size_of(deck)


def test_the_default_group_is_the_most_common_type_that_does_not_fill_the_deck():
    from decks.rules.odds import draw_odds, game_default_group

    from .gamedecks import rg_legal

    # 36 units and 3 spells (rg_main): units read 100 % on every turn, the 3 spells say something.
    groups, size = _groups_of(RULERS_GAMBIT, **rg_legal())
    default = game_default_group(groups, size)

    assert groups[0].key == "type:unit"
    assert (default.key, default.count) == ("type:spell", 3)
    unit_rows = draw_odds(game_draw_pattern(RULERS_GAMBIT.draw), deck_size=size, group=groups[0].count, k=1)
    spell_rows = draw_odds(game_draw_pattern(RULERS_GAMBIT.draw), deck_size=size, group=default.count, k=1)
    assert all(row.first == 1 for row in unit_rows)
    assert spell_rows[0].first < Fraction(1, 2) < spell_rows[-1].first


def test_a_deck_of_one_type_defaults_to_the_card_with_the_most_copies():
    from decks.rules.odds import game_default_group

    from .gamedecks import gr_card, gr_legal

    main = [(gr_card("Runner A", level=1), 2), (gr_card("Runner B", level=1), 3), (gr_card("Runner C", level=1), 3)]
    groups, size = _groups_of(GATERUNNERS, **{**gr_legal(), "main": main})

    default = game_default_group(groups, size)

    # Every card a unit: no type says anything; of the cards, the first of the most copies by name.
    assert (default.key, default.count) == ("card:Runner B", 3)


def test_half_the_deck_is_still_a_default_and_an_empty_deck_has_none():
    from decks.rules.odds import game_default_group

    from .gamedecks import gr_card

    main = [(gr_card("Runner", level=1), 2), (gr_card("Strike", "action", cost=1), 2)]
    groups, size = _groups_of(GATERUNNERS, main=main)

    # Two types of 2 in 4: neither fills more than half; the first in the data's order.
    assert game_default_group(groups, size).key == "type:unit"
    assert game_default_group([], 0) is None
