"""Every ruler revision and every geas: a legal deck at the boundaries, and one breach per rule.

Pure engine tests (no Django): `pytest tests/decks/rules -p no:django`.

For each ruler of every document in data/rules.json, and for each geas applied to its
target's Appendix A revision, DeckMaker builds a legal deck sitting exactly on every limit
(level total == cap, CNT == cap, legends == cap, factions == limit, ...) and, for every
constraint the rules have, a deck one step past that limit and no other.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest

from decks.rules.engine import validate_deck
from decks.rules.ruleset import RulesInForce
from decks.rules.types import UNIT, Report

from .deckmaker import (
    RULE_FIELDS,
    Breach,
    Case,
    DeckMaker,
    all_cases,
    faction_counts,
    name_counts,
)

CASES = all_cases()


@cache
def maker(case_id: str) -> DeckMaker:
    return DeckMaker(next(c for c in CASES if c.id == case_id).rules)


def breach_params() -> list:
    return [
        pytest.param(case, breach, id=f"{case.id}-{breach.id}")
        for case in CASES
        for breach in maker(case.id).breaches()
    ]


def variant_params() -> list:
    return [
        pytest.param(case, name, id=f"{case.id}-{name}")
        for case in CASES
        for name, _ in maker(case.id).legal_variants()
    ]


def constraints_of(rules: RulesInForce) -> set[str]:
    """The rule codes the rules in force can be broken on, read off the numbers."""
    d = rules.deck
    codes = {"deck_size", "card_type", "max_copies", "resource_cards"}
    if any(limit is not None for limit in d.max_factions.values()):
        codes.add("max_factions")
    if d.unit_attribute_choice:
        codes.add("unit_attribute")
    if d.legend_cap is not None:
        codes.add("legend_cap")
    if d.legend_max_copies is not None:
        codes.add("legend_copies")
    if d.level_cap is not None:
        codes.add("level_cap")
    if d.cnt_cap is not None:
        codes.add("cnt_cap")
    if not d.allow_negative_levels:
        codes.add("negative_level")
    if d.card_pool is not None:
        codes.add("card_pool")
    if d.faction_quota is not None:
        codes.add("faction_quota")
    if d.banned_cards:
        codes.add("banned_card")
    return codes


def why_inseparable(rules: RulesInForce, breach: Breach) -> str | None:
    """Why a breach cannot help breaking more than its own rule, or None if it can."""
    d = rules.deck
    legendary = {"legend_cap", "legend_copies"}
    if (
        breach.code in legendary
        and d.legend_cap == 0
        and d.legend_max_copies == 0
        and breach.overlaps == legendary - {breach.code}
    ):
        return "no legendary cards at all: any legend breaks both legendary rules"
    if (
        breach.code == "legend_copies"
        and d.legend_max_copies is not None
        and d.legend_max_copies >= d.max_copies
        and breach.overlaps == {"max_copies"}
    ):
        return "a second copy of a legend is also over the copy limit of every card"
    return None


def touched_by_geas(case: Case, field: str) -> bool:
    """Whether the geas's JSON patches this deck-construction field (read off the data)."""
    if case.geas is None:
        return False
    prefix = f"deck_construction.{field}"
    for section in ("modifications", "additions"):
        for entry in case.geas[section]:
            for op in ("set", "append"):
                for path in entry.get(op, {}):
                    if path == prefix or path.startswith(prefix + "."):
                        return True
    return False


def summary_reads(report: Report, expected: dict[str, int]) -> dict[str, int]:
    actual = {}
    for key in expected:
        if key == "n_factions":
            actual[key] = len(report.summary.factions)
        else:
            actual[key] = getattr(report.summary, key)
    return actual


# --------------------------------------------------------------------------- legal decks


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_boundary_deck_is_legal(case: Case) -> None:
    report = validate_deck(maker(case.id).deck, case.rules)
    assert report.violations == ()
    assert report.legal


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_boundary_deck_sits_on_every_limit(case: Case) -> None:
    m = maker(case.id)
    d = case.rules.deck
    report = validate_deck(m.deck, case.rules)
    expected = m.boundary_summary()
    assert summary_reads(report, expected) == expected

    counts = name_counts(m.deck)
    cards = {e.card.name: e.card for e in m.deck.main}
    plain = [n for n in counts if not any(x.text_contains in cards[n].text for x in d.max_copies_exceptions)]
    assert max(counts[n] for n in plain) == d.max_copies
    for exception in d.max_copies_exceptions:
        special = [n for n in counts if exception.text_contains in cards[n].text]
        assert max(counts[n] for n in special) == exception.max_copies
    legends = [n for n in counts if cards[n].legend]
    if legends and d.legend_max_copies is not None:
        assert {counts[n] for n in legends} == {min(d.legend_max_copies, d.max_copies)}
    if d.faction_quota is not None:
        assert max(faction_counts(m.deck).values()) == d.faction_quota
    for scope, limit in d.max_factions.items():
        if limit is None or scope == "all":
            continue
        in_scope = {c.faction for c in cards.values() if c.faction and (c.type == UNIT) == (scope == "units")}
        assert len(in_scope) == limit
    if d.allow_negative_levels:
        assert any((c.level or 0) < 0 for c in cards.values())
    assert all(e.card.type == "energy" for e in m.deck.resources)


@pytest.mark.parametrize(("case", "variant"), variant_params())
def test_legal_variants(case: Case, variant: str) -> None:
    deck = dict(maker(case.id).legal_variants())[variant]
    report = validate_deck(deck, case.rules)
    assert report.violations == ()


# --------------------------------------------------------------------------- breaches


@pytest.mark.parametrize(("case", "breach"), breach_params())
def test_breach_breaks_only_its_rule(case: Case, breach: Breach) -> None:
    report = validate_deck(breach.deck, case.rules)
    assert report.rules_broken() == breach.expected
    if breach.overlaps:
        assert why_inseparable(case.rules, breach), f"{breach.id} also breaks {sorted(breach.overlaps)}"
    else:
        assert report.rules_broken() == {breach.code}


@pytest.mark.parametrize(("case", "breach"), breach_params())
def test_breach_is_one_step_past_the_limit(case: Case, breach: Breach) -> None:
    report = validate_deck(breach.deck, case.rules)
    assert summary_reads(report, dict(breach.summary)) == dict(breach.summary)


@pytest.mark.parametrize(("case", "breach"), breach_params())
def test_breach_violation_names_cards_numbers_and_source(case: Case, breach: Breach) -> None:
    rules = case.rules
    report = validate_deck(breach.deck, rules)
    mine = [v for v in report.violations if v.rule == breach.code]
    assert mine
    named = {name for v in mine for name in v.cards}
    assert set(breach.cards) <= named
    text = " ".join(v.message for v in mine)
    for number in breach.numbers:
        assert str(number) in text
    for v in mine:
        assert v.message.endswith(".")
        if v.rule == "card_type":
            assert v.source == "card types"
            continue
        fields = RULE_FIELDS[v.rule]
        if v.rule == "banned_card" and touched_by_geas(case, "banned_cards"):
            assert v.source == f"banned by {rules.geas}"
        elif any(touched_by_geas(case, f) for f in fields):
            assert v.source.startswith(f"set by {rules.geas}; {rules.ruler}'s own ")
        else:
            assert v.source == f"{rules.ruler}'s rule"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_every_constraint_has_a_breach(case: Case) -> None:
    breaches = maker(case.id).breaches()
    assert {b.code for b in breaches} == constraints_of(case.rules)
    ids = {b.id for b in breaches}
    assert {"deck_size-49", "deck_size-51", "card_type-energy_in_main"} <= ids
    if case.rules.deck.resource_cards:
        assert {
            "resource_cards-too_few",
            "resource_cards-too_many",
            "card_type-unit_in_resources",
        } <= ids
    else:
        assert "resource_cards-unwanted" in ids
    if case.rules.deck.unit_attribute_choice:
        assert {"unit_attribute-missing", "unit_attribute-none_chosen"} <= ids


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_breaches_differ_from_the_legal_deck_by_one_card(case: Case) -> None:
    """Each breach moves at most a couple of cards (the smallest step)."""
    m = maker(case.id)
    before = name_counts(m.deck)
    for breach in m.breaches():
        after = name_counts(breach.deck)
        moved = sum(((after - before) + (before - after)).values())
        assert moved <= 4, breach.id


def test_overlapping_constraints_are_only_the_known_ones() -> None:
    overlapping = Counter()
    for case in CASES:
        for breach in maker(case.id).breaches():
            if breach.overlaps:
                overlapping[(case.ruler["name"], breach.code)] += 1
    assert set(overlapping) == {
        ("World Master Alpha 2020", "legend_cap"),
        ("World Master Alpha 2020", "legend_copies"),
        ("World Master Beta 2020", "legend_cap"),
        ("World Master Beta 2020", "legend_copies"),
        ("Highlander", "legend_copies"),
        ("Legion", "legend_copies"),
    }


def test_every_ruler_and_geas_is_covered() -> None:
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))
    assert sum(1 for c in CASES if c.geas is None) == 5 + 21
    assert sum(1 for c in CASES if c.geas is not None) == 6
    assert "apprentice-2023" in ids
    assert "apprentice-2020" in ids
    assert "dreadnaught-2023+unstoppable-advance" in ids
