"""Rule revisions (2020 rulebook vs 2023 Appendix A) and geases as patches of a ruler object.

Pure engine tests (no Django).
"""

from __future__ import annotations

import copy
from dataclasses import replace
from datetime import date

import pytest

from decks.rules.engine import validate_deck
from decks.rules.ruleset import RulesDataError, apply_geas, in_force_on, rules_in_force
from decks.rules.types import UNIT

from .deckmaker import (
    DeckMaker,
    add_copies,
    card,
    cnt_total,
    deck_of,
    geas_named,
    geases,
    latest_revision,
    level_total,
    remove_copies,
    ruler_revisions,
    rules_for,
)

HIGHLANDER_2020 = rules_for("Highlander", 2020)
HIGHLANDER_2023 = rules_for("Highlander", 2023)


def revisions_of(name: str) -> list[tuple[date, dict]]:
    return [(c.effective_from, c.ruler) for c in ruler_revisions() if c.ruler["name"] == name]


# --------------------------------------------------------------------------- Highlander


def highlander_18_cnt_3_legends():
    """A 2023 boundary deck with two CNT cards swapped for plain ones: 18 CNT, 3 legends."""
    maker = DeckMaker(HIGHLANDER_2023)
    deck = maker.deck
    for counter in maker.with_role("cnt")[:2]:
        plain = maker.variant(counter, stem="Plain", cnt=False)
        deck = add_copies(remove_copies(deck, counter.name), plain)
    return deck


def test_highlander_18_cnt_and_3_legends_is_legal_in_2023() -> None:
    deck = highlander_18_cnt_3_legends()
    assert cnt_total(deck) == 18
    assert level_total(deck) == 50
    report = validate_deck(deck, HIGHLANDER_2023)
    assert report.legal, [v.message for v in report.violations]
    assert report.summary.legends == 3


def test_highlander_18_cnt_and_3_legends_is_illegal_in_2020() -> None:
    report = validate_deck(highlander_18_cnt_3_legends(), HIGHLANDER_2020)
    assert report.rules_broken() == {"cnt_cap", "legend_cap"}
    messages = {v.rule: v.message for v in report.violations}
    assert messages["cnt_cap"] == "The deck has 18 CNT cards; Highlander's CNT cap is 16."
    assert messages["legend_cap"].startswith("The deck has 3 legendary cards (")
    assert messages["legend_cap"].endswith("); Highlander allows at most 2.")


def test_a_deck_legal_in_2020_stays_legal_in_2023() -> None:
    """2023 only loosened Highlander (CNT 16 -> 20, legends 2 -> 3)."""
    deck = DeckMaker(HIGHLANDER_2020).deck
    assert validate_deck(deck, HIGHLANDER_2020).legal
    assert validate_deck(deck, HIGHLANDER_2023).legal


@pytest.mark.parametrize(
    ("cnt", "legal_2020", "legal_2023"),
    [(16, True, True), (17, False, True), (20, False, True), (21, False, False)],
)
def test_highlander_cnt_boundaries_by_revision(cnt: int, legal_2020: bool, legal_2023: bool) -> None:
    maker = DeckMaker(HIGHLANDER_2020)  # 16 CNT, 2 legends, level 50
    deck = maker.deck
    fillers = [c for c in maker.with_role("filler") + maker.with_role("levelled") if c.level == 0]
    assert len(fillers) >= cnt - 16
    for plain in fillers[: cnt - 16]:
        counter = maker.variant(plain, stem="Counter", cnt=True)
        deck = add_copies(remove_copies(deck, plain.name), counter)
    assert cnt_total(deck) == cnt
    assert validate_deck(deck, HIGHLANDER_2020).legal is legal_2020
    assert validate_deck(deck, HIGHLANDER_2023).legal is legal_2023


def test_highlander_legend_copies_stated_only_in_2023() -> None:
    """2020 states no copy limit for legends (the 1-copy rule covers them); 2023 states 1."""
    assert HIGHLANDER_2020.deck.legend_max_copies is None
    assert HIGHLANDER_2023.deck.legend_max_copies == 1
    legend = card("Legend X", UNIT, legend=True)
    deck = deck_of((legend, 2))
    assert validate_deck(deck, HIGHLANDER_2020).rules_broken() >= {"max_copies"}
    assert "legend_copies" not in validate_deck(deck, HIGHLANDER_2020).rules_broken()
    assert validate_deck(deck, HIGHLANDER_2023).rules_broken() >= {
        "max_copies",
        "legend_copies",
    }


@pytest.mark.parametrize("name", ["Apprentice", "Knight"])
def test_unchanged_rulers_judge_alike_in_both_revisions(name: str) -> None:
    old, new = rules_for(name, 2020), rules_for(name, 2023)
    assert old.deck == new.deck
    maker = DeckMaker(new)
    assert validate_deck(maker.deck, old).legal
    for breach in maker.breaches():
        assert validate_deck(breach.deck, old).violations == validate_deck(breach.deck, new).violations, breach.id


@pytest.mark.parametrize("name", ["World Master Alpha 2020", "World Master Beta 2020"])
def test_world_master_same_name_printings_2020_vs_2023(name: str) -> None:
    old, new = rules_for(name, 2020), rules_for(name, 2023)
    assert old.deck.card_pool.same_name is False
    assert new.deck.card_pool.same_name is True
    assert replace(old.deck, card_pool=None) == replace(new.deck, card_pool=None)

    maker = DeckMaker(new)
    twin = maker.reprinted(maker.filler())
    plain, pooled = twin.collector_numbers
    assert not plain.startswith(("MD", "2020"))
    assert pooled.startswith(("MD", "2020"))
    named_plain = maker.swap_in(twin, printing=plain)
    assert validate_deck(named_plain, new).legal
    report = validate_deck(named_plain, old)
    assert report.rules_broken() == {"card_pool"}
    assert report.violations[0].cards == (twin.name,)
    # Naming the pool printing, or no printing at all, is fine in both revisions.
    for deck in (maker.swap_in(twin, printing=pooled), maker.swap_in(twin)):
        assert validate_deck(deck, old).legal
        assert validate_deck(deck, new).legal


# --------------------------------------------------------------------------- in_force_on


@pytest.mark.parametrize(
    ("on", "year"),
    [
        (date(2020, 11, 25), None),
        (date(2020, 11, 26), 2020),
        (date(2023, 3, 25), 2020),
        (date(2023, 12, 3), 2020),
        (date(2023, 12, 4), 2023),
        (date(2030, 1, 1), 2023),
    ],
)
def test_in_force_on_picks_the_revision_by_date(on: date, year: int | None) -> None:
    revisions = revisions_of("Highlander")
    assert len(revisions) == 2
    ruler = in_force_on(revisions, on)
    if year is None:
        assert ruler is None
    else:
        want = next(r for d, r in revisions if d.year == year)
        assert ruler is want
    # The order the revisions are given in does not matter.
    assert in_force_on(list(reversed(revisions)), on) is ruler


def test_in_force_on_for_a_ruler_new_in_2023() -> None:
    revisions = revisions_of("Berserker")
    assert in_force_on(revisions, date(2023, 12, 3)) is None
    assert in_force_on(revisions, date(2023, 12, 4)) is revisions[0][1]


def test_in_force_on_empty() -> None:
    assert in_force_on([], date(2024, 1, 1)) is None


@pytest.mark.parametrize(("on", "legal"), [(date(2023, 12, 3), False), (date(2023, 12, 4), True)])
def test_the_same_deck_on_either_side_of_the_2023_revision(on: date, legal: bool) -> None:
    ruler = in_force_on(revisions_of("Highlander"), on)
    report = validate_deck(highlander_18_cnt_3_legends(), rules_in_force(ruler))
    assert report.legal is legal


# --------------------------------------------------------------------------- geases


@pytest.mark.parametrize("geas", geases(), ids=lambda g: g["name"])
def test_apply_geas_does_not_mutate_its_inputs(geas: dict) -> None:
    ruler = latest_revision(geas["target_ruler"]).ruler
    ruler_before, geas_before = copy.deepcopy(ruler), copy.deepcopy(geas)
    patched = apply_geas(ruler, geas)
    rules = rules_in_force(ruler, geas)
    assert ruler == ruler_before
    assert geas == geas_before
    assert patched is not ruler
    assert rules.profile is not ruler
    # Nested objects are copies too: changing the patch result leaves the ruler alone.
    patched["deck_construction"]["banned_cards"].append("Anything")
    patched["abilities"].append("Anything")
    assert ruler == ruler_before
    # The rules without the geas are the ruler's own, untouched.
    assert rules.own_deck == rules_in_force(ruler).deck
    assert patched["deck_construction"]["text"] == ruler["deck_construction"]["text"]


@pytest.mark.parametrize("geas", geases(), ids=lambda g: g["name"])
def test_a_geas_for_another_ruler_is_refused(geas: dict) -> None:
    others = {c.ruler["name"] for c in ruler_revisions()} - {geas["target_ruler"]}
    for name in sorted(others):
        ruler = latest_revision(name).ruler
        with pytest.raises(RulesDataError, match=geas["target_ruler"]) as exc:
            rules_in_force(ruler, geas)
        assert name in str(exc.value)
        assert geas["name"] in str(exc.value)


@pytest.mark.parametrize(
    ("geas", "changed"),
    [
        ("Oath of the Lone Banner", {"max_factions", "level_cap"}),
        ("Oath of the Undaunted Champion", {"cnt_cap"}),
        ("Oath of the Peerless Master", {"max_factions"}),
        ("Oath of the Unstoppable Advance", {"level_cap", "banned_cards"}),
        ("Oath of the True King", {"level_cap", "resource_cards"}),
        ("Oath of the Jester's Grin", set()),
    ],
)
def test_a_geas_changes_only_its_deck_rules(geas: str, changed: set[str]) -> None:
    g = geas_named(geas)
    rules = rules_in_force(latest_revision(g["target_ruler"]).ruler, g)
    assert rules.geas == geas
    assert rules.changed == changed
    assert rules.ruler == g["target_ruler"]


def test_geas_deck_rule_values() -> None:
    assert rules_for("Apprentice", geas="Oath of the Lone Banner").deck.max_factions == {"all": 1}
    assert rules_for("Apprentice", geas="Oath of the Lone Banner").deck.level_cap == 55
    assert rules_for("Knight", geas="Oath of the Undaunted Champion").deck.cnt_cap == 8
    assert rules_for("Wizard", geas="Oath of the Peerless Master").deck.max_factions == {"all": 1}
    unstoppable = rules_for("Dreadnaught", geas="Oath of the Unstoppable Advance")
    assert unstoppable.deck.level_cap == 50
    assert unstoppable.own_deck.level_cap == 60
    assert unstoppable.deck.banned_cards == {"Sludge Zombie"}
    true_king = rules_for("Overlord", geas="Oath of the True King")
    assert (true_king.deck.level_cap, true_king.deck.resource_cards) == (70, 2)
    assert (true_king.own_deck.level_cap, true_king.own_deck.resource_cards) == (60, 3)


def test_geas_sources_name_the_geas_and_the_rulers_own_value() -> None:
    unstoppable = rules_for("Dreadnaught", geas="Oath of the Unstoppable Advance")
    assert unstoppable.source_of("level_cap") == (
        "set by Oath of the Unstoppable Advance; Dreadnaught's own level cap is 60"
    )
    assert unstoppable.source_of("cnt_cap") == "Dreadnaught's rule"
    assert rules_for("Dreadnaught").source_of("level_cap") == "Dreadnaught's rule"
    assert rules_for("Knight", geas="Oath of the Undaunted Champion").source_of("cnt_cap") == (
        "set by Oath of the Undaunted Champion; Knight's own CNT cap is 16"
    )
    assert (
        rules_for("Overlord", geas="Oath of the True King")
        .source_of("resource_cards")
        .startswith("set by Oath of the True King; Overlord's own number of resource cards")
    )
    lone = rules_for("Apprentice", geas="Oath of the Lone Banner").source_of("max_factions")
    assert lone.startswith("set by Oath of the Lone Banner; Apprentice's own ")
    assert "2" in lone


def test_geas_patches_appear_in_the_profile() -> None:
    knight = latest_revision("Knight").ruler
    undaunted = rules_for("Knight", geas="Oath of the Undaunted Champion").profile
    assert knight["start_of_turn"]["ready_resources"] == 2
    assert undaunted["start_of_turn"]["ready_resources"] == 3
    assert undaunted["start_of_turn"]["text"] == (
        "Ready 3 resources in your resource zone. Draw 2 cards. Your summon cap is 2."
    )
    assert undaunted["setup"] == knight["setup"]

    overlord = latest_revision("Overlord").ruler
    true_king = rules_for("Overlord", geas="Oath of the True King").profile
    assert overlord["setup"]["resources_ready"] == 3
    assert true_king["setup"]["resources_ready"] == 2
    assert true_king["setup"]["draw"] == 3
    assert overlord["start_of_turn"]["ready_resources"] == 3
    assert true_king["start_of_turn"]["ready_resources"] == 2
    assert true_king["deck_construction"]["resource_cards"] == 2
    assert true_king["abilities"] == overlord["abilities"]

    assert latest_revision("Wizard").ruler["life"] == 10
    assert rules_for("Wizard", geas="Oath of the Peerless Master").profile["life"] == 12

    trickster = latest_revision("Trickster").ruler
    jester = rules_for("Trickster", geas="Oath of the Jester's Grin").profile
    assert (trickster["life"], jester["life"]) == (14, 11)
    assert any("level 2 or less" in a for a in trickster["abilities"])
    assert any("level 4 or less" in a for a in jester["abilities"])
    assert not any("level 2 or less" in a for a in jester["abilities"])
    assert len(jester["abilities"]) == 3

    dreadnaught = latest_revision("Dreadnaught").ruler
    unstoppable = rules_for("Dreadnaught", geas="Oath of the Unstoppable Advance").profile
    assert unstoppable["abilities"][: len(dreadnaught["abilities"])] == (dreadnaught["abilities"])
    assert unstoppable["abilities"][-1].startswith("As your ruler attacks, look at the top card of your deck.")
    assert unstoppable["deck_construction"]["banned_cards"] == ["Sludge Zombie"]

    plain = rules_for("Dreadnaught")
    assert plain.profile == dreadnaught
    assert plain.geas is None
    assert plain.changed == frozenset()


def test_sludge_zombie_is_banned_only_under_the_oath() -> None:
    dreadnaught = rules_for("Dreadnaught")
    unstoppable = rules_for("Dreadnaught", geas="Oath of the Unstoppable Advance")
    maker = DeckMaker(unstoppable)
    zombie = replace(maker.filler(), name="Sludge Zombie")
    deck = maker.swap_in(zombie)
    assert validate_deck(deck, dreadnaught).legal
    report = validate_deck(deck, unstoppable)
    assert report.rules_broken() == {"banned_card"}
    (violation,) = report.violations
    assert violation.cards == ("Sludge Zombie",)
    assert violation.source == "banned by Oath of the Unstoppable Advance"


def test_unstoppable_advance_level_51_to_60() -> None:
    """Levels 51..60 are legal for Dreadnaught but not under the oath (cap 50)."""
    dreadnaught = rules_for("Dreadnaught")
    unstoppable = rules_for("Dreadnaught", geas="Oath of the Unstoppable Advance")
    maker = DeckMaker(dreadnaught)  # level 60
    assert validate_deck(maker.deck, dreadnaught).legal
    report = validate_deck(maker.deck, unstoppable)
    assert [v.message for v in report.violations] == ["Deck level 60 is over Dreadnaught's cap of 50."]
    assert report.violations[0].source == ("set by Oath of the Unstoppable Advance; Dreadnaught's own level cap is 60")


@pytest.mark.parametrize(
    "bad",
    [
        {"modifications": [{"text": "x", "set": {"no_such_field": 1}}]},
        {"modifications": [{"text": "x", "set": {"deck_construction.nope": 1}}]},
        {"modifications": [{"text": "x", "set": {"a": 1}, "append": {"b": [1]}}]},
        {"modifications": [{"text": "x"}]},
        {"additions": [{"text": "x", "append": {"life": [1]}}]},
    ],
)
def test_malformed_geas_is_refused(bad: dict) -> None:
    ruler = latest_revision("Apprentice").ruler
    geas = {
        "name": "Oath of Nonsense",
        "target_ruler": "Apprentice",
        "modifications": [],
        "additions": [],
        **bad,
    }
    with pytest.raises(RulesDataError):
        rules_in_force(ruler, geas)
