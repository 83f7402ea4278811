"""Draw odds against hypergeometric values worked out by hand, for rulers as data/rules.json has them.

Pure (no Django, no database). A "hand" value is written as the product of the fractions one
would multiply on paper: P(none of K in n seen of N) = (N-K)/N · (N-K-1)/(N-1) · ... (n factors).
"""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest

from decks.rules.odds import (
    DrawPattern,
    Take,
    at_least,
    deck_groups,
    deck_size_of,
    draw_odds,
    draw_pattern,
    picked_group,
    seen_by_turn,
)
from decks.rules.ruleset import RulesDataError, rules_in_force
from decks.rules.types import EVENT, FIELD, UNIT

from .deckmaker import card, deck_of, latest_revision, rules_for


def pattern_of(name: str, year: int | None = None, geas: str | None = None) -> DrawPattern:
    return draw_pattern(rules_for(name, year, geas).profile)


def none_seen(deck: int, group: int, seen: int) -> Fraction:
    """P(no group card among `seen`), as the product of one fraction per card seen."""
    p = Fraction(1)
    for i in range(seen):
        p *= Fraction(deck - group - i, deck - i)
    return p


# ---------------------------------------------------------------- patterns from the rules data


def test_it_reads_apprentice_as_two_drives_a_turn_and_nothing_at_setup():
    assert pattern_of("Apprentice") == DrawPattern(setup=Take(0), turn=Take(2), first_turn=Take(2))


def test_it_reads_knight_as_four_at_setup_and_two_a_turn():
    assert pattern_of("Knight") == DrawPattern(setup=Take(4), turn=Take(2), first_turn=Take(2))


def test_it_reads_frenzy_as_three_drives_a_turn():
    assert pattern_of("Frenzy") == DrawPattern(setup=Take(0), turn=Take(3), first_turn=Take(3))


def test_it_reads_the_2020_knight_first_turn_exception():
    pattern = pattern_of("Knight", 2020)
    assert pattern == DrawPattern(setup=Take(2), turn=Take(2), first_turn=Take(1))
    assert pattern.first_turn_differs
    assert pattern.summary() == "sees 2 at setup, then 2 a turn (1 on the game's first turn)"
    assert pattern_of("Knight").summary() == "sees 4 at setup, then 2 a turn"


def test_it_reads_raiders_face_down_resources_as_unseen_cards_taken_first():
    pattern = pattern_of("Raider")
    assert pattern == DrawPattern(setup=Take(3), turn=Take(2, hidden=2), first_turn=Take(2, hidden=1))
    assert "face down" in " ".join(pattern.describe())


def test_it_follows_a_geas_that_patches_the_start_of_turn():
    # No geas of the seeds changes how many cards are seen (Undaunted Champion only readies one
    # more resource), so a made-up one proves the patched ruler object is what counts.
    knight = latest_revision("Knight").ruler
    geas = {
        "name": "Oath of the Test Draw",
        "target_ruler": "Knight",
        "target_text": "K-11 Knight",
        "modifications": [
            {"text": "Start of Turn: Draw 3 cards.", "set": {"start_of_turn": {**knight["start_of_turn"], "draw": 3}}},
            {"text": "Setup: Draw 1 card.", "set": {"setup": {**knight["setup"], "draw": 1}}},
        ],
        "additions": [],
    }
    patched = draw_pattern(rules_in_force(knight, geas).profile)
    assert patched == DrawPattern(setup=Take(1), turn=Take(3), first_turn=Take(3))
    assert seen_by_turn(patched, deck_size=50, going_first=True) == (4, 7, 10, 13, 16, 19)
    # The seeds' Knight geas keeps Knight's numbers.
    assert pattern_of("Knight", geas="Oath of the Undaunted Champion") == pattern_of("Knight")


def test_it_names_the_field_when_the_numbers_are_missing():
    ruler = copy.deepcopy(dict(latest_revision("Knight").ruler))
    del ruler["start_of_turn"]["draw"]
    with pytest.raises(RulesDataError, match=r"ruler\.start_of_turn: missing field 'draw'"):
        draw_pattern(ruler)
    ruler = copy.deepcopy(dict(latest_revision("Knight").ruler))
    ruler["setup"]["drive"] = -1
    with pytest.raises(RulesDataError, match=r"ruler\.setup\.drive"):
        draw_pattern(ruler)


# ---------------------------------------------------------------- cards seen by each turn


def test_it_counts_cards_seen_going_first_and_second():
    assert seen_by_turn(pattern_of("Apprentice"), deck_size=50, going_first=True) == (2, 4, 6, 8, 10, 12)
    assert seen_by_turn(pattern_of("Frenzy"), deck_size=50, going_first=False) == (3, 6, 9, 12, 15, 18)
    assert seen_by_turn(pattern_of("Knight"), deck_size=50, going_first=True) == (6, 8, 10, 12, 14, 16)
    # 2020 Knight: 2 at setup, only 1 on the game's first turn, which only the first player has.
    knight_2020 = pattern_of("Knight", 2020)
    assert seen_by_turn(knight_2020, deck_size=50, going_first=True) == (3, 5, 7, 9, 11, 13)
    assert seen_by_turn(knight_2020, deck_size=50, going_first=False) == (4, 6, 8, 10, 12, 14)


def test_it_stops_at_the_bottom_of_a_small_deck():
    assert seen_by_turn(pattern_of("Apprentice"), deck_size=5, going_first=True) == (2, 4, 5, 5, 5, 5)
    assert seen_by_turn(pattern_of("Knight"), deck_size=3, going_first=False) == (3,) * 6
    assert seen_by_turn(pattern_of("Frenzy"), deck_size=0, going_first=True) == (0,) * 6


def test_it_takes_raiders_face_down_cards_before_the_draw_when_the_deck_runs_out():
    raider = pattern_of("Raider")
    # 9 cards. First: setup 3 (6 left); turn 1: 1 face down, draw 2 (3 left); turn 2: 2 face down, draw 1.
    assert seen_by_turn(raider, deck_size=9, going_first=True) == (5, 6, 6, 6, 6, 6)
    # Second: setup 3 (6 left); turn 1: 2 face down, draw 2 (2 left); turn 2: 2 face down, nothing to draw.
    assert seen_by_turn(raider, deck_size=9, going_first=False) == (5, 5, 5, 5, 5, 5)
    assert seen_by_turn(raider, deck_size=50, going_first=True) == (5, 7, 9, 11, 13, 15)


# ---------------------------------------------------------------- hypergeometric values by hand


def test_apprentice_sees_one_of_four_copies_by_turn_one_and_three():
    rows = draw_odds(pattern_of("Apprentice"), deck_size=50, group=4, k=1)
    # Turn 1: 2 driven. 1 - 46/50 · 45/49 = 1 - 2070/2450 = 380/2450 = 38/245.
    assert rows[0].first == rows[0].second == Fraction(38, 245)
    # Turn 3: 6 driven. 1 - (46·45·44·43·42·41)/(50·49·48·47·46·45) = 1 - (44·43·42·41)/(50·49·48·47).
    assert rows[2].first == 1 - Fraction(44 * 43 * 42 * 41, 50 * 49 * 48 * 47)
    assert rows[2].first == 1 - none_seen(50, 4, 6)
    assert [r.seen_first for r in rows] == [2, 4, 6, 8, 10, 12]


def test_frenzy_sees_one_of_three_copies_by_turn_two():
    rows = draw_odds(pattern_of("Frenzy"), deck_size=50, group=3, k=1)
    # Turn 2: 6 driven. None of 3 in 6: C(47,6)/C(50,6) = (44·43·42)/(50·49·48) = 79464/117600.
    assert rows[1].first == rows[1].second == 1 - Fraction(79464, 117600)
    assert rows[1].first == Fraction(38136, 117600)


def test_knight_sees_two_of_four_copies_in_its_opening_six():
    rows = draw_odds(pattern_of("Knight"), deck_size=50, group=4, k=2)
    # Turn 1: 4 at setup + 2 = 6 seen. P(0) = C(46,6)/C(50,6) = 9366819/15890700,
    # P(1) = 4·C(46,5)/C(50,6) = 4·1370754/15890700; P(>=2) = (15890700 - 9366819 - 5483016)/15890700.
    assert rows[0].first == Fraction(1040865, 15890700)
    assert rows[0].second == rows[0].first
    assert rows[0].seen_first == 6


def test_the_2020_knight_is_better_off_going_second_on_turn_one():
    rows = draw_odds(pattern_of("Knight", 2020), deck_size=50, group=4, k=1)
    # First: 2 + 1 = 3 seen; second: 2 + 2 = 4 seen.
    assert rows[0].first == 1 - Fraction(46 * 45 * 44, 50 * 49 * 48)
    assert rows[0].second == 1 - Fraction(46 * 45 * 44 * 43, 50 * 49 * 48 * 47)
    assert rows[0].second > rows[0].first
    # From turn 2 on the second player is one card ahead, all game.
    assert all(r.seen_second == r.seen_first + 1 for r in rows)


def test_raider_counts_only_the_cards_it_looks_at():
    rows = draw_odds(pattern_of("Raider"), deck_size=50, group=4, k=1)
    # 3 at setup + 2 = 5 seen on turn 1 either way; the face-down cards are not seen.
    assert rows[0].first == 1 - none_seen(50, 4, 5) == 1 - Fraction(46 * 45 * 44 * 43 * 42, 50 * 49 * 48 * 47 * 46)


def test_it_is_certain_once_the_whole_deck_is_seen():
    rows = draw_odds(pattern_of("Apprentice"), deck_size=5, group=2, k=2)
    # 2 seen of 5, both copies: 2/5 · 1/4.
    assert rows[0].first == Fraction(1, 10)
    assert rows[2].first == 1  # all 5 seen by turn 3
    assert [r.seen_first for r in rows] == [2, 4, 5, 5, 5, 5]


def test_it_is_impossible_to_see_more_copies_than_the_deck_holds():
    rows = draw_odds(pattern_of("Knight"), deck_size=50, group=2, k=3)
    assert all(r.first == 0 and r.second == 0 for r in rows)


def test_a_group_that_is_the_whole_deck_is_always_seen():
    rows = draw_odds(pattern_of("Frenzy"), deck_size=40, group=40, k=3)
    assert all(r.first == 1 for r in rows)


def test_it_refuses_a_group_bigger_than_the_deck():
    with pytest.raises(ValueError, match="a group of 12 cards cannot be in a deck of 10 cards"):
        draw_odds(pattern_of("Knight"), deck_size=10, group=12, k=1)
    with pytest.raises(ValueError, match="cannot see 11 cards of a deck of 10"):
        at_least(deck_size=10, group=2, seen=11, k=1)


@pytest.mark.parametrize(
    ("deck_size", "group", "seen"),
    [(50, 4, 6), (50, 12, 10), (40, 1, 20), (10, 10, 3), (7, 0, 4)],
)
def test_the_odds_of_every_count_add_up_to_one(deck_size, group, seen):
    exactly = [
        at_least(deck_size=deck_size, group=group, seen=seen, k=k)
        - at_least(deck_size=deck_size, group=group, seen=seen, k=k + 1)
        for k in range(group + 1)
    ]
    assert all(p >= 0 for p in exactly)
    assert sum(exactly) == 1
    assert at_least(deck_size=deck_size, group=group, seen=seen, k=0) == 1


# ---------------------------------------------------------------- groups of cards


def sample_deck():
    return deck_of(
        (card("Ember Squire", UNIT, level=0, faction="Volnar"), 4),
        (card("Ash Knight", UNIT, level=1, faction="Volnar", cnt=True), 3),
        (card("Old Dragon", UNIT, level=4, faction="Ryuon", legend=True), 1),
        (card("Cinder Rain", EVENT, level=1, faction="Volnar", cnt=True), 2),
        (card("Camp", FIELD, level=0, faction="Ryuon"), 2),
    )


def test_it_offers_the_groups_the_deck_has():
    groups = {g.key: g for g in deck_groups(sample_deck())}
    assert groups["cnt"].count == 5
    assert groups["cnt"].names == ("Ash Knight", "Cinder Rain")
    assert groups["legend"].count == 1
    assert groups["units-level-0"].count == 4  # events and fields are not units
    assert groups["units-level-1"].count == 7
    assert groups["units-level-4"].count == 8
    assert groups["faction:Volnar"].count == 9
    assert groups["faction:Ryuon"].count == 3
    assert groups["card:Ash Knight"].count == 3
    assert groups["units-level-1"].label == "Units of level 1 or less"
    assert deck_size_of(sample_deck()) == 12


def test_it_leaves_out_empty_groups():
    deck = deck_of((card("Plain Order", EVENT), 4))
    assert [g.key for g in deck_groups(deck)] == ["faction:Crimson", "card:Plain Order"]


def test_a_picked_set_counts_the_named_cards_in_the_deck_only():
    group = picked_group(sample_deck(), ["Camp", "Old Dragon", "Not In Deck", "Camp"])
    assert group.count == 3
    assert group.names == ("Camp", "Old Dragon")
    assert group.label == "Camp or Old Dragon"
    assert picked_group(sample_deck(), []).count == 0
