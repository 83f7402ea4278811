"""Add-ability hints and the attribute proposal: pure tables, no Django, no database."""

from __future__ import annotations

import pytest

from decks.rules.engine import validate_deck
from decks.rules.hints import (
    addition_blockers,
    natural_section,
    propose_attribute,
    with_one_more,
)
from decks.rules.rule_hints import ordinal
from decks.rules.types import ENERGY, EVENT, UNIT, CardFacts, DeckEntry, DeckSnapshot

from .deckmaker import card, deck_of, rules_for

APPRENTICE = rules_for("Apprentice")
LONE_BANNER = rules_for("Apprentice", geas="Oath of the Lone Banner")
CENTURION = rules_for("Centurion")
DREADNAUGHT = rules_for("Dreadnaught")
UNSTOPPABLE = rules_for("Dreadnaught", geas="Oath of the Unstoppable Advance")
FRENZY = rules_for("Frenzy")
KNIGHT = rules_for("Knight")
UNDAUNTED = rules_for("Knight", geas="Oath of the Undaunted Champion")
JANKEN = rules_for("Janken Junkie")
EXVADER = rules_for("Exvader")
WM_ALPHA_2020 = rules_for("World Master Alpha 2020", 2020)
WM_ALPHA_2023 = rules_for("World Master Alpha 2020", 2023)

ENERGY_CARD = card("Basic Energy", ENERGY)
RPS = card("Janken Brawler", UNIT, text="Play a round of Rock-Paper-Scissors.")


def fillers(n: int, faction: str = "Crimson", level: int = 0, stem: str = "Filler") -> tuple:
    """n different plain events, one copy each."""
    return tuple((card(f"{stem} {faction} {i:02d}", EVENT, faction=faction, level=level), 1) for i in range(n))


def test_it_allows_a_card_that_fits():
    deck = deck_of(*fillers(10))

    assert addition_blockers(deck, APPRENTICE, card("Newcomer", UNIT), None) == []


def test_it_allows_adding_to_an_incomplete_deck_although_it_is_not_legal_yet():
    deck = deck_of(*fillers(3))
    assert not validate_deck(deck, APPRENTICE).legal

    assert addition_blockers(deck, APPRENTICE, card("Another", EVENT), None) == []


@pytest.mark.parametrize(
    ("rules", "deck", "new", "expected"),
    [
        pytest.param(
            APPRENTICE, deck_of(*fillers(50)), card("One Too Many", EVENT), ["deck is full (50/50)"], id="full"
        ),
        pytest.param(
            APPRENTICE,
            deck_of(*fillers(46), (card("Quad", EVENT), 4)),
            card("Quad", EVENT),
            ["deck is full (50/50)", "5th copy; Apprentice allows 4"],
            id="full-and-5th-copy",
        ),
        pytest.param(
            APPRENTICE,
            deck_of((card("Quad", EVENT), 4)),
            card("Quad", EVENT),
            ["5th copy; Apprentice allows 4"],
            id="5th-copy",
        ),
        pytest.param(
            APPRENTICE,
            deck_of((card("Quad", EVENT), 5)),
            card("Quad", EVENT),
            ["6th copy; Apprentice allows 4"],
            id="already-over-copies-still-blocked",
        ),
        pytest.param(
            JANKEN,
            deck_of((RPS, 6)),
            RPS,
            ["7th copy; Janken Junkie allows 6"],
            id="copy-limit-exception",
        ),
        pytest.param(JANKEN, deck_of((RPS, 5)), RPS, [], id="copy-limit-exception-room"),
        pytest.param(
            APPRENTICE,
            deck_of(*fillers(2, "Crimson"), *fillers(2, "Azure")),
            card("Green One", EVENT, faction="Verdant"),
            ["would be a 3rd faction"],
            id="3rd-faction",
        ),
        pytest.param(
            APPRENTICE,
            deck_of(*fillers(2, "Crimson"), *fillers(2, "Azure")),
            card("Blue One", EVENT, faction="Azure"),
            [],
            id="existing-faction",
        ),
        pytest.param(
            LONE_BANNER,
            deck_of(*fillers(2, "Crimson")),
            card("Blue One", EVENT, faction="Azure"),
            ["would be a 2nd faction"],
            id="geas-faction-limit",
        ),
        pytest.param(
            CENTURION,
            deck_of(*fillers(2, "Crimson"), attribute="Dragon"),
            card("Blue Trick", EVENT, faction="Azure"),
            ["would be a 2nd faction among non-units"],
            id="centurion-non-unit-faction",
        ),
        pytest.param(
            CENTURION,
            deck_of(*fillers(2, "Crimson"), attribute="Dragon"),
            card("Blue Dragon", UNIT, faction="Azure", attributes=["Dragon"]),
            [],
            id="centurion-units-any-faction",
        ),
        pytest.param(
            CENTURION,
            deck_of(*fillers(2), attribute="Dragon"),
            card("Robot", UNIT, attributes=["Machine"]),
            ["unit lacks the chosen attribute Dragon"],
            id="unit-attribute",
        ),
        pytest.param(
            CENTURION,
            deck_of(*fillers(2), attribute=None),
            card("Robot", UNIT, attributes=["Machine"]),
            [],
            id="no-attribute-chosen-yet",
        ),
        pytest.param(
            APPRENTICE,
            deck_of((card("Legend A", UNIT, legend=True), 1), (card("Legend B", UNIT, legend=True), 1)),
            card("Legend C", UNIT, legend=True),
            ["would be a 3rd legendary card"],
            id="3rd-legend",
        ),
        pytest.param(
            APPRENTICE,
            deck_of((card("Legend A", UNIT, legend=True), 1)),
            card("Legend A", UNIT, legend=True),
            ["2nd copy of a legendary card; Apprentice allows 1"],
            id="legend-copies",
        ),
        pytest.param(
            WM_ALPHA_2023,
            deck_of(),
            card("Legend A", UNIT, legend=True, collector_numbers=("MD01-001",)),
            ["World Master Alpha 2020 allows no legendary cards"],
            id="no-legends-at-all",
        ),
        pytest.param(
            APPRENTICE,
            deck_of(*fillers(10, level=5)),
            card("Heavy", UNIT, level=2),
            ["level total would be 52/50"],
            id="level-cap",
        ),
        pytest.param(
            APPRENTICE,
            deck_of(*fillers(10, level=5)),
            card("Light", UNIT, level=0),
            [],
            id="level-cap-level-0",
        ),
        pytest.param(
            APPRENTICE,
            deck_of(*fillers(10, level=5), *fillers(1, level=3, stem="Heavy")),
            card("Free", UNIT, level=-1),
            [],
            id="level-cap-negative-level-helps",
        ),
        pytest.param(
            UNSTOPPABLE,
            deck_of(*fillers(10, level=5)),
            card("Heavy", UNIT, level=1),
            ["level total would be 51/50"],
            id="geas-level-cap",
        ),
        pytest.param(
            DREADNAUGHT,
            deck_of(*fillers(10, level=5)),
            card("Heavy", UNIT, level=1),
            [],
            id="ruler-level-cap-without-geas",
        ),
        pytest.param(
            KNIGHT,
            deck_of(*fillers(30, level=9)),
            card("Heavy", UNIT, level=9),
            [],
            id="no-level-cap",
        ),
        pytest.param(
            APPRENTICE,
            deck_of(*((card(f"Counter {c}", EVENT, cnt=True), 4) for c in "ABCD")),
            card("Counter E", EVENT, cnt=True),
            ["CNT would be 17/16"],
            id="cnt-cap",
        ),
        pytest.param(
            UNDAUNTED,
            deck_of((card("Counter A", EVENT, cnt=True), 4), (card("Counter B", EVENT, cnt=True), 4)),
            card("Counter C", EVENT, cnt=True),
            ["CNT would be 9/8"],
            id="geas-cnt-cap",
        ),
        pytest.param(
            FRENZY,
            deck_of(*fillers(2)),
            card("Minus", UNIT, level=-1),
            ["Frenzy allows no negative-level cards"],
            id="negative-level",
        ),
        pytest.param(
            WM_ALPHA_2023,
            deck_of(),
            card("Plain", UNIT, collector_numbers=("GR01-001",)),
            ["World Master Alpha 2020 pool: no MD or 2020 printing"],
            id="pool-no-printing",
        ),
        pytest.param(
            WM_ALPHA_2023,
            deck_of(),
            card("Twin", UNIT, collector_numbers=("GR01-002", "MD01-002")),
            [],
            id="pool-same-name-2023",
        ),
        pytest.param(
            EXVADER,
            deck_of(),
            card("Stranger", UNIT, faction="Crimson", attributes=["Machine"]),
            ["Exvader pool: not Exvader, Betrayal or Desecrate"],
            id="pool-factions-and-attributes",
        ),
        pytest.param(
            EXVADER,
            deck_of(),
            card("Traitor", UNIT, faction="Crimson", attributes=["Betrayal"]),
            [],
            id="pool-attribute",
        ),
        pytest.param(
            WM_ALPHA_2023,
            deck_of(*((card(f"Old {i}", EVENT, level=0, collector_numbers=(f"MD01-{i:03d}",)), 4) for i in range(3))),
            card("Old 9", EVENT, collector_numbers=("MD01-009",)),
            ["13th Crimson card; World Master Alpha 2020 allows 12 per faction"],
            id="faction-quota",
        ),
        pytest.param(
            UNSTOPPABLE,
            deck_of(),
            card("Sludge Zombie", UNIT),
            ["banned by Oath of the Unstoppable Advance"],
            id="banned-by-geas",
        ),
        pytest.param(DREADNAUGHT, deck_of(), card("Sludge Zombie", UNIT), [], id="not-banned-without-geas"),
        pytest.param(
            KNIGHT,
            deck_of(resources=[(ENERGY_CARD, 3)]),
            ENERGY_CARD,
            ["resources are full (3/3)"],
            id="resources-full",
        ),
        pytest.param(KNIGHT, deck_of(resources=[(ENERGY_CARD, 2)]), ENERGY_CARD, [], id="resources-room"),
        pytest.param(
            APPRENTICE,
            deck_of(),
            ENERGY_CARD,
            ["Apprentice prepares no resource cards"],
            id="no-resources",
        ),
    ],
)
def test_it_says_why_a_copy_cannot_be_added(rules, deck, new, expected):
    assert addition_blockers(deck, rules, new, None) == expected


def test_it_names_a_printing_outside_the_2020_pool():
    twin = card("Twin", UNIT, collector_numbers=("GR01-002", "MD01-002"))

    assert addition_blockers(deck_of(), WM_ALPHA_2020, twin, "GR01-002") == [
        "World Master Alpha 2020 pool: GR01-002 is not an MD or 2020 printing"
    ]
    assert addition_blockers(deck_of(), WM_ALPHA_2020, twin, "MD01-002") == []
    # The 2023 rules take any printing of the name.
    assert addition_blockers(deck_of(), WM_ALPHA_2023, twin, "GR01-002") == []


def test_it_counts_every_printing_of_a_name_toward_the_copy_limit():
    quad = card("Quad", EVENT, collector_numbers=("GR01-100", "GR02-100"))
    deck = DeckSnapshot(main=(DeckEntry(quad, 2, "GR01-100"), DeckEntry(quad, 2, "GR02-100")))

    assert addition_blockers(deck, APPRENTICE, quad, "GR02-100") == ["5th copy; Apprentice allows 4"]


def test_it_says_energy_cards_go_in_the_resources_when_asked_to_put_one_in_the_deck():
    assert addition_blockers(deck_of(), KNIGHT, ENERGY_CARD, None, section="main") == [
        "energy cards go in the resources"
    ]
    assert addition_blockers(deck_of(), KNIGHT, card("Unit", UNIT), None, section="resources") == [
        "only energy cards can be resource cards"
    ]


def test_it_blames_the_copy_only_for_what_it_worsens():
    # 51 cards, 3 factions, 55 levels: the deck is already over size, factions and level.
    deck = deck_of(*fillers(20, "Crimson", 1), *fillers(20, "Azure", 1), *fillers(11, "Verdant", 1, stem="F"))
    level_0 = card("Zero", EVENT, faction="Crimson", level=0)

    assert addition_blockers(deck, APPRENTICE, level_0, None) == ["deck is full (51/50)"]


def test_it_gives_a_rule_without_a_hint_its_message_when_the_copy_breaks_it(monkeypatch):
    """A rule declared without a hint still blocks the copy that breaks it, in its check's words."""
    from dataclasses import replace

    from decks.rules import hints, registry

    copies = registry.rule_get("max_copies")
    assert copies is not None
    rules = {rule.code: rule for rule in registry.RULES} | {"max_copies": replace(copies, hint=None)}
    monkeypatch.setattr(hints, "rule_get", rules.get)
    deck = deck_of((card("Quad", EVENT), 4))

    assert addition_blockers(deck, APPRENTICE, card("Quad", EVENT), None) == [
        "5 copies of Quad; Apprentice allows at most 4."
    ]
    assert addition_blockers(deck, APPRENTICE, card("Other", EVENT), None) == []


def test_it_accepts_the_report_of_the_deck_and_gives_the_same_answer():
    deck = deck_of((card("Quad", EVENT), 4))
    report = validate_deck(deck, APPRENTICE)

    assert addition_blockers(deck, APPRENTICE, card("Quad", EVENT), None, report=report) == [
        "5th copy; Apprentice allows 4"
    ]


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
        (21, "21st"),
        (22, "22nd"),
        (101, "101st"),
        (111, "111th"),
    ],
)
def test_it_writes_ordinals(n, text):
    assert ordinal(n) == text


def test_it_puts_energy_in_the_resources_and_the_rest_in_the_deck():
    assert natural_section(ENERGY_CARD) == "resources"
    assert natural_section(card("Unit", UNIT)) == "main"
    one = card("Unit", UNIT)
    assert with_one_more(deck_of(), one, "GR01-1", "main").main == (DeckEntry(one, 1, "GR01-1"),)
    assert with_one_more(deck_of(), ENERGY_CARD, None, "resources").resources == (DeckEntry(ENERGY_CARD, 1),)


# ---- attribute proposal


def dragons_and_machines(dragons: int, machines: int, both: int = 0) -> DeckSnapshot:
    entries = []
    if dragons:
        entries.append((card("Drake", UNIT, attributes=["Dragon"]), dragons))
    if machines:
        entries.append((card("Robot", UNIT, attributes=["Machine"]), machines))
    if both:
        entries.append((card("Mecha Drake", UNIT, attributes=["Dragon", "Machine"]), both))
    entries.append((card("Spell", EVENT), 4))
    return deck_of(*entries)


def test_it_proposes_the_attribute_every_unit_has():
    proposal = propose_attribute(dragons_and_machines(0, 4, both=4), CENTURION)

    assert proposal is not None
    assert (proposal.attribute, proposal.removals, proposal.lacking) == ("Machine", 0, ())
    assert proposal.keeps_units


def test_it_proposes_the_attribute_needing_the_fewest_removals():
    proposal = propose_attribute(dragons_and_machines(4, 3, both=1), CENTURION)

    assert proposal is not None
    assert (proposal.attribute, proposal.removals, proposal.lacking) == ("Dragon", 3, ("Robot",))
    assert not proposal.keeps_units


def test_it_keeps_the_chosen_attribute_on_a_tie():
    deck = dragons_and_machines(4, 4)
    chosen = DeckSnapshot(deck.main, deck.resources, attribute="Machine")

    assert propose_attribute(deck, CENTURION).attribute == "Dragon"  # by name
    assert propose_attribute(chosen, CENTURION).attribute == "Machine"


def test_it_proposes_nothing_when_the_ruler_chooses_no_attribute_or_there_are_no_units():
    assert propose_attribute(dragons_and_machines(4, 0), APPRENTICE) is None
    assert propose_attribute(deck_of((card("Spell", EVENT), 4)), CENTURION) is None


def test_it_considers_extra_candidates():
    deck = dragons_and_machines(4, 0)

    proposal = propose_attribute(deck, CENTURION, candidates=["Angel"])

    assert proposal.attribute == "Dragon"


def test_its_proposal_makes_the_unit_attribute_violation_go_away():
    deck = dragons_and_machines(0, 4, both=4)
    proposal = propose_attribute(deck, CENTURION)

    report = validate_deck(DeckSnapshot(deck.main, deck.resources, proposal.attribute), CENTURION)

    assert "unit_attribute" not in report.rules_broken()


def test_its_facts_are_plain_values():
    # The hints work on the engine's frozen values; nothing here may touch Django.
    assert isinstance(ENERGY_CARD, CardFacts)
