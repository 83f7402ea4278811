"""Property-based tests of the pure engine (hypothesis): random decks, every ruler ± geas.

Decks come from two sources: entirely random decks drawn from a random synthetic card pool,
and DeckMaker's legal boundary deck with a few random edits (so that legal decks and decks
just over one limit are common, not only hopeless ones).

The central property compares validate_deck with an independent oracle written here from
the rules' numbers.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from decks.rules.engine import validate_deck
from decks.rules.ruleset import RulesInForce, rules_in_force
from decks.rules.types import (
    CARD_TYPES,
    ENERGY,
    UNIT,
    CardFacts,
    DeckEntry,
    DeckSnapshot,
    Report,
)

from .deckmaker import RULE_FIELDS, Case, DeckMaker, all_cases, card

pytestmark = pytest.mark.slow


CASES = all_cases()
# The number of examples comes from the Hypothesis profile (tests/conftest.py).
PROPERTY_SETTINGS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

NAMES = [f"Card {i:02d}" for i in range(16)] + ["Sludge Zombie"]
FACTIONS = ["Crimson", "Azure", "Verdant", "Amber", "Exvader"]
ATTRIBUTES = ["Dragon", "Machine", "Betrayal", "Desecrate"]
NUMBERS = ["MD01-001", "2020-002", "GR01-003", "GR02-004", "MD02-005", "PR-006"]
TEXTS = [
    "",
    "Draw 1 card.",
    "Play a round of Rock-Paper-Scissors.",
    "rock-paper-scissors, lower case",
]
ENERGY_CARD = card("Basic Energy", ENERGY)


@cache
def maker(case_id: str) -> DeckMaker:
    return DeckMaker(next(c for c in CASES if c.id == case_id).rules)


@cache
def rules_of(case_id: str) -> RulesInForce:
    return next(c for c in CASES if c.id == case_id).rules


# --------------------------------------------------------------------------- strategies


# Every strategy is built once, here (building strategies per example is slow), and the
# card pool comes from one drawn seed (drawing each card's facts is slow too). Indices are
# drawn as plain integers and taken modulo the list they pick from.
POOL_SEEDS = st.integers(0, 2**32 - 1)
INDEX = st.integers(0, 63)
# (which card, how many copies, which printing: -1 = none named)
ENTRY_PICKS = st.tuples(INDEX, st.integers(1, 7), st.integers(-1, 3))
MAIN_PICKS = st.lists(ENTRY_PICKS, max_size=10)
RESOURCE_PICKS = st.lists(st.tuples(INDEX, st.integers(1, 4), st.just(-1)), max_size=3)
ATTRIBUTE_CHOICE = st.sampled_from([None, "", "Dragon", "Machine"])
EDITS = st.lists(
    st.tuples(
        st.sampled_from(["bump", "drop", "replace", "add", "attribute", "resources", "level", "printing"]),
        INDEX,
        ENTRY_PICKS,
        st.integers(-1, 3),
        ATTRIBUTE_CHOICE,
    ),
    max_size=4,
)


def make_pool(seed: int) -> list[CardFacts]:
    """A random synthetic card pool (1 to 6 cards), the same for the same seed."""
    rnd = random.Random(seed)
    pool = []
    for name in rnd.sample(NAMES, rnd.randint(1, 6)):
        type = rnd.choice(CARD_TYPES)
        energy = type == ENERGY
        level = rnd.choice([rnd.randint(-2, 9), rnd.randint(0, 3), None])
        pool.append(
            CardFacts(
                name=name,
                type=type,
                faction=None if energy else rnd.choice([*FACTIONS, None]),
                attributes=frozenset(rnd.sample(ATTRIBUTES, rnd.randint(0, 2))),
                level=None if energy else level,
                cnt=rnd.random() < 0.5,
                legend=rnd.random() < 0.4,
                text=rnd.choice(TEXTS),
                collector_numbers=tuple(rnd.sample(NUMBERS, rnd.randint(1, 3))),
            )
        )
    return pool


def pick(pool: list[CardFacts], picks: tuple[int, int, int]) -> DeckEntry:
    index, count, printing = picks
    facts = pool[index % len(pool)]
    numbers = facts.collector_numbers
    named = None if printing < 0 or not numbers else numbers[printing % len(numbers)]
    return DeckEntry(facts, count, named)


@st.composite
def card_pools(draw: st.DrawFn) -> list[CardFacts]:
    return make_pool(draw(POOL_SEEDS))


@st.composite
def random_decks(draw: st.DrawFn) -> DeckSnapshot:
    pool = draw(card_pools())
    return DeckSnapshot(
        main=tuple(pick(pool, p) for p in draw(MAIN_PICKS)),
        resources=tuple(pick([*pool, ENERGY_CARD], p) for p in draw(RESOURCE_PICKS)),
        attribute=draw(ATTRIBUTE_CHOICE),
    )


@st.composite
def edited_legal_decks(draw: st.DrawFn, case_id: str) -> DeckSnapshot:
    """The boundary deck with a few random edits (often legal, often one step over)."""
    deck = maker(case_id).deck
    pool = draw(card_pools())
    for op, index, entry, level, attribute in draw(EDITS):
        main = list(deck.main)
        i = index % len(main) if main else None
        if op == "bump" and i is not None:
            main[i] = replace(main[i], count=main[i].count + 1)
        elif op == "drop" and i is not None:
            if main[i].count == 1:
                del main[i]
            else:
                main[i] = replace(main[i], count=main[i].count - 1)
        elif op == "replace" and i is not None:
            main[i] = replace(main[i], card=pool[index % len(pool)], printing=None)
        elif op == "add":
            new = pick(pool, entry)
            main.append(replace(new, count=min(new.count, 2)))
        elif op == "level" and i is not None:
            facts = replace(main[i].card, level=level)
            main = [replace(e, card=facts) if e.card.name == facts.name else e for e in main]
        elif op == "printing" and i is not None:
            # One copy of an entry named by some printing (maybe not one of the card's).
            named = [None, "GR01-999", "MD01-999", "2020-999", *main[i].card.collector_numbers]
            split = replace(main[i], count=1, printing=named[index % len(named)])
            if main[i].count == 1:
                main[i] = split
            else:
                main[i : i + 1] = [replace(main[i], count=main[i].count - 1), split]
        elif op == "attribute":
            deck = replace(deck, attribute=attribute)
        elif op == "resources":
            resources = [pick([ENERGY_CARD, *pool], entry)]
            if index % 2:
                resources.append(DeckEntry(ENERGY_CARD, index % 4))
            deck = replace(deck, resources=tuple(e for e in resources if e.count))
        deck = replace(deck, main=tuple(main))
    return deck


CASE_CHOICE = st.sampled_from(CASES)
# Rulers whose rarer rules (card pool, per-faction quota, banned cards, copy-limit
# exceptions, the chosen attribute, no negative levels) random decks seldom reach.
SPECIAL_CASES = [
    c
    for c in CASES
    if (d := c.rules.deck).card_pool
    or d.faction_quota is not None
    or d.banned_cards
    or d.max_copies_exceptions
    or d.unit_attribute_choice
    or not d.allow_negative_levels
]


@st.composite
def scenarios(draw: st.DrawFn) -> tuple[Case, RulesInForce, DeckSnapshot]:
    case = draw(CASE_CHOICE)
    edited = draw(st.booleans())
    deck = draw(edited_legal_decks(case.id) if edited else random_decks())
    return case, rules_of(case.id), deck


# --------------------------------------------------------------------------- the oracle


def _name_counts(deck: DeckSnapshot) -> Counter[str]:
    counts: Counter[str] = Counter()
    for e in deck.main:
        counts[e.card.name] += e.count
    return counts


def _cards(deck: DeckSnapshot) -> dict[str, CardFacts]:
    out: dict[str, CardFacts] = {}
    for e in deck.main:
        out.setdefault(e.card.name, e.card)
    return out


def _starts(number: str | None, prefixes: Iterable[str]) -> bool:
    return number is not None and any(number.startswith(p) for p in prefixes)


def oracle(deck: DeckSnapshot, rules: RulesInForce) -> set[str]:
    """The rule codes a deck breaks, written from the rules' numbers, independently of checks.py."""
    d = rules.deck
    counts = _name_counts(deck)
    cards = _cards(deck)
    broken = set()
    if sum(e.count for e in deck.main) != d.deck_size:
        broken.add("deck_size")
    if any(e.card.type == ENERGY for e in deck.main) or any(e.card.type != ENERGY for e in deck.resources):
        broken.add("card_type")
    for scope, limit in d.max_factions.items():
        factions = {
            c.faction
            for c in cards.values()
            if c.faction is not None
            and (scope == "all" or (scope == "units" and c.type == UNIT) or (scope == "non_units" and c.type != UNIT))
        }
        if limit is not None and len(factions) > limit:
            broken.add("max_factions")
    if d.unit_attribute_choice and (
        not deck.attribute or any(c.type == UNIT and deck.attribute not in c.attributes for c in cards.values())
    ):
        broken.add("unit_attribute")
    for name, c in cards.items():
        limit = next(
            (x.max_copies for x in d.max_copies_exceptions if x.text_contains in c.text),
            d.max_copies,
        )
        if counts[name] > limit:
            broken.add("max_copies")
        if c.legend and d.legend_max_copies is not None and counts[name] > d.legend_max_copies:
            broken.add("legend_copies")
    if d.legend_cap is not None and sum(c.legend for c in cards.values()) > d.legend_cap:
        broken.add("legend_cap")
    level = sum((e.card.level or 0) * e.count for e in deck.main)
    if d.level_cap is not None and level > d.level_cap:
        broken.add("level_cap")
    if d.cnt_cap is not None and sum(e.count for e in deck.main if e.card.cnt) > d.cnt_cap:
        broken.add("cnt_cap")
    if not d.allow_negative_levels and any(c.level is not None and c.level < 0 for c in cards.values()):
        broken.add("negative_level")
    pool = d.card_pool
    if pool is not None:
        prefixes = pool.collector_number_prefixes
        for name, c in cards.items():
            if c.faction in pool.factions or c.attributes & pool.attributes:
                continue
            any_printing = any(_starts(n, prefixes) for n in c.collector_numbers)
            if pool.same_name:
                ok = any_printing
            else:
                ok = all(
                    any_printing if e.printing is None else _starts(e.printing, prefixes)
                    for e in deck.main
                    if e.card.name == name
                )
            if not ok:
                broken.add("card_pool")
    if d.faction_quota is not None:
        per_faction: Counter[str] = Counter()
        for e in deck.main:
            if e.card.faction is not None:
                per_faction[e.card.faction] += e.count
        if any(n > d.faction_quota for n in per_faction.values()):
            broken.add("faction_quota")
    if d.banned_cards & set(cards):
        broken.add("banned_card")
    if sum(e.count for e in deck.resources) != d.resource_cards:
        broken.add("resource_cards")
    return broken


# --------------------------------------------------------------------------- properties


@PROPERTY_SETTINGS
@given(scenarios())
def test_the_engine_agrees_with_the_oracle(scenario) -> None:
    _, rules, deck = scenario
    report = validate_deck(deck, rules)  # never raises
    assert isinstance(report, Report)
    assert report.rules_broken() == oracle(deck, rules)
    assert report.legal is (not report.violations)
    assert report.legal is (not oracle(deck, rules))


@PROPERTY_SETTINGS
@given(st.sampled_from(SPECIAL_CASES), st.data())
def test_special_rulers_agree_with_the_oracle(case: Case, data) -> None:
    rules = rules_of(case.id)
    deck = data.draw(edited_legal_decks(case.id))
    assert validate_deck(deck, rules).rules_broken() == oracle(deck, rules)


@PROPERTY_SETTINGS
@given(scenarios())
def test_validation_is_deterministic(scenario) -> None:
    _, rules, deck = scenario
    first, second = validate_deck(deck, rules), validate_deck(deck, rules)
    assert first.violations == second.violations
    assert first.summary == second.summary


@PROPERTY_SETTINGS
@given(scenarios(), st.randoms(use_true_random=False))
def test_entry_order_does_not_matter(scenario, rnd: random.Random) -> None:
    _, rules, deck = scenario
    main, resources = list(deck.main), list(deck.resources)
    rnd.shuffle(main)
    rnd.shuffle(resources)
    shuffled = replace(deck, main=tuple(main), resources=tuple(resources))
    before, after = validate_deck(deck, rules), validate_deck(shuffled, rules)
    assert Counter(before.violations) == Counter(after.violations)
    assert before.summary == after.summary


@PROPERTY_SETTINGS
@given(scenarios(), st.data())
def test_splitting_an_entry_changes_nothing_but_the_pool(scenario, data) -> None:
    _, rules, deck = scenario
    splittable = [i for i, e in enumerate(deck.main) if e.count >= 2]
    if not splittable:
        return
    i = data.draw(st.sampled_from(splittable))
    entry = deck.main[i]
    k = data.draw(st.integers(1, entry.count - 1))
    printing = data.draw(st.one_of(st.none(), st.sampled_from(entry.card.collector_numbers or ("X",))))
    same = (replace(entry, count=k), replace(entry, count=entry.count - k))
    other = (replace(entry, count=k), replace(entry, count=entry.count - k, printing=printing))
    main = list(deck.main)
    before = validate_deck(deck, rules)
    same_split = validate_deck(replace(deck, main=(*main[:i], *same, *main[i + 1 :])), rules)
    assert same_split.violations == before.violations
    assert same_split.summary == before.summary
    other_split = validate_deck(replace(deck, main=(*main[:i], *other, *main[i + 1 :])), rules)
    assert [v for v in other_split.violations if v.rule != "card_pool"] == [
        v for v in before.violations if v.rule != "card_pool"
    ]
    assert other_split.summary == before.summary


@PROPERTY_SETTINGS
@given(scenarios())
def test_the_summary_adds_up(scenario) -> None:
    _, rules, deck = scenario
    summary = validate_deck(deck, rules).summary
    assert summary.size == sum(e.count for e in deck.main)
    assert summary.level == sum((e.card.level or 0) * e.count for e in deck.main)
    assert summary.cnt == sum(e.count for e in deck.main if e.card.cnt)
    assert summary.resources == sum(e.count for e in deck.resources)
    assert summary.legends == len({e.card.name for e in deck.main if e.card.legend})
    assert summary.factions == tuple(sorted({e.card.faction for e in deck.main if e.card.faction is not None}))


@PROPERTY_SETTINGS
@given(scenarios(), st.data())
def test_adding_a_copy_never_cures_anything_but_size_and_level(scenario, data) -> None:
    _, rules, deck = scenario
    if not deck.main:
        return
    i = data.draw(st.integers(0, len(deck.main) - 1))
    main = list(deck.main)
    main[i] = replace(main[i], count=main[i].count + 1)
    before = validate_deck(deck, rules)
    after = validate_deck(replace(deck, main=tuple(main)), rules)
    over = {v.cards for v in before.violations if v.rule == "max_copies"}
    assert over <= {v.cards for v in after.violations if v.rule == "max_copies"}
    curable = {"deck_size"} | ({"level_cap"} if (main[i].card.level or 0) < 0 else set())
    assert before.rules_broken() - curable <= after.rules_broken()


@PROPERTY_SETTINGS
@given(scenarios())
def test_violations_name_cards_of_the_deck_and_their_source(scenario) -> None:
    _, rules, deck = scenario
    report = validate_deck(deck, rules)
    names = {e.card.name for e in (*deck.main, *deck.resources)}
    for v in report.violations:
        assert set(v.cards) <= names, v
        assert len(set(v.cards)) == len(v.cards)
        assert v.message
        if v.rule == "card_type":
            assert v.source == "card types"
        elif v.rule == "banned_card" and "banned_cards" in rules.changed:
            assert v.source == f"banned by {rules.geas}"
        elif set(RULE_FIELDS[v.rule]) & rules.changed:
            assert v.source.startswith(f"set by {rules.geas}; {rules.ruler}'s own ")
        else:
            assert v.source == f"{rules.ruler}'s rule"


@PROPERTY_SETTINGS
@given(scenarios())
def test_messages_carry_the_numbers(scenario) -> None:
    _, rules, deck = scenario
    d = rules.deck
    report = validate_deck(deck, rules)
    s = report.summary
    for v in report.violations:
        if v.rule == "level_cap":
            assert v.message == f"Deck level {s.level} is over {rules.ruler}'s cap of {d.level_cap}."
        elif v.rule == "cnt_cap":
            assert f"{s.cnt} CNT cards" in v.message
            assert f"CNT cap is {d.cnt_cap}" in v.message
        elif v.rule == "deck_size":
            assert str(s.size) in v.message
            assert f"exactly {d.deck_size}" in v.message
        elif v.rule == "resource_cards":
            assert str(s.resources) in v.message
            if d.resource_cards:
                assert f"exactly {d.resource_cards}" in v.message
        elif v.rule == "legend_cap":
            assert f"{s.legends} legendary card" in v.message
        elif v.rule == "max_copies":
            (name,) = v.cards
            assert v.message.startswith(f"{_name_counts(deck)[name]} copies of {name};")


@PROPERTY_SETTINGS
@given(st.sampled_from([c for c in CASES if c.geas is not None]), st.data())
def test_a_geas_touches_only_the_rules_it_changes(case: Case, data) -> None:
    rules = rules_of(case.id)
    own = rules_in_force(case.ruler)
    deck = data.draw(st.one_of(random_decks(), edited_legal_decks(case.id)))
    with_geas, without = validate_deck(deck, rules), validate_deck(deck, own)
    for code, fields in RULE_FIELDS.items():
        if set(fields) & rules.changed:
            continue
        assert [v for v in with_geas.violations if v.rule == code] == [v for v in without.violations if v.rule == code]


@PROPERTY_SETTINGS
@given(st.sampled_from(CASES), st.data())
def test_breaches_stay_broken_whatever_the_order(case: Case, data) -> None:
    breaches = maker(case.id).breaches()
    breach = data.draw(st.sampled_from(breaches))
    rnd = data.draw(st.randoms(use_true_random=False))
    main = list(breach.deck.main)
    rnd.shuffle(main)
    report = validate_deck(replace(breach.deck, main=tuple(main)), rules_of(case.id))
    assert report.rules_broken() == breach.expected
