"""The checks, the tally's summary and count, the meters and the odds' groups, made faster for the editor's click, say exactly what
their straightforward forms said (kept here as the reference), on random decks under every ruler."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from decks.rules import checks
from decks.rules.checks import copy_limit, in_scope
from decks.rules.meters import _METERED, deck_meters
from decks.rules.odds import CardGroup, _group, deck_groups
from decks.rules.ruleset import RulesInForce
from decks.rules.tally import Tally
from decks.rules.types import ALL, UNIT, DeckSnapshot, Violation
from decks.rules.wording import Wording, gettext_noop

from .test_properties import CASE_CHOICE, PROPERTY_SETTINGS, random_decks, scenarios


def straightforward_max_copies(t: Tally, r: RulesInForce) -> list[Violation]:
    out = []
    floor = min([r.deck.max_copies, *(e.max_copies for e in r.deck.max_copies_exceptions)])
    for name, count in t.counts.items():
        if count <= floor:
            continue
        limit = copy_limit(t.cards[name], r)
        if count > limit:
            template = (
                gettext_noop("%(count)s copy of %(name)s; %(ruler)s allows at most %(limit)s.")
                if count == 1
                else gettext_noop("%(count)s copies of %(name)s; %(ruler)s allows at most %(limit)s.")
            )
            wording = Wording(template, {"count": count, "name": name, "ruler": r.ruler, "limit": limit})
            source = r.source_of("max_copies_exceptions" if limit != r.deck.max_copies else "max_copies")
            out.append(Violation.worded("max_copies", wording, (name,), source))
    out.sort(key=lambda v: v.cards)
    return out


def straightforward_max_factions(t: Tally, r: RulesInForce) -> list[Violation]:
    out = []
    for scope, limit in r.deck.max_factions.items():
        if limit is None:
            continue
        if scope == ALL:
            counts = t.faction_counts
        else:
            counts = {}
            for name, card in t.cards.items():
                if card.faction is not None and in_scope(card, scope):
                    counts[card.faction] = counts.get(card.faction, 0) + t.counts[name]
        if len(counts) <= limit:
            continue
        ranked = sorted(counts, key=lambda f: (-counts[f], f))
        extra = set(ranked[limit:])
        cards = sorted(
            n for n, card in t.cards.items() if card.faction in extra and (scope == ALL or in_scope(card, scope))
        )
        values = {"count": len(counts), "factions": tuple(sorted(counts)), "ruler": r.ruler, "limit": limit}
        wording = Wording(checks._SCOPE_WORDS[scope], values)
        out.append(Violation.worded("max_factions", wording, tuple(cards), r.source_of("max_factions")))
    return out


def straightforward_deck_groups(deck: DeckSnapshot) -> list[CardGroup]:
    copies: dict[str, int] = {}
    facts = {}
    for entry in deck.main:
        copies[entry.card.name] = copies.get(entry.card.name, 0) + entry.count
        facts[entry.card.name] = entry.card
    cards = list(facts.values())
    groups = [
        _group("cnt", gettext_noop("CNT cards"), copies, (c.name for c in cards if c.cnt)),
        _group("legend", gettext_noop("Legendary cards"), copies, (c.name for c in cards if c.legend)),
    ]
    for level in sorted({c.level for c in cards if c.type == UNIT and c.level is not None}):
        groups.append(
            _group(
                f"units-level-{level}",
                Wording(gettext_noop("Units of level %(level)s or less"), {"level": level}),
                copies,
                (c.name for c in cards if c.type == UNIT and c.level is not None and c.level <= level),
            )
        )
    for faction in sorted({c.faction for c in cards if c.faction}):
        groups.append(
            _group(
                f"faction:{faction}",
                Wording(gettext_noop("%(faction)s cards"), {"faction": faction}),
                copies,
                (c.name for c in cards if c.faction == faction),
            )
        )
    groups.extend(
        _group(f"card:{name}", Wording("%(name)s", {"name": name}), copies, (name,)) for name in sorted(copies)
    )
    return [g for g in groups if g.count]


def _said(violations: list[Violation]) -> list[tuple[object, ...]]:
    # Everything a violation carries, its wording's template and values too (not compared by ==).
    return [(v, v.message, v.source, v.wording.template, dict(v.wording.values)) for v in violations]


@PROPERTY_SETTINGS
@given(scenarios())
def test_the_copy_and_faction_limits_say_what_they_said(case):
    _case, rules, deck = case
    tally = Tally.of(deck, rules)

    assert _said(checks.check_max_copies(tally, rules)) == _said(straightforward_max_copies(tally, rules))
    assert _said(checks.check_max_factions(tally, rules)) == _said(straightforward_max_factions(tally, rules))


@PROPERTY_SETTINGS
@given(random_decks(), CASE_CHOICE, st.booleans())
def test_the_summary_counts_the_legendary_names_as_before(deck, case, with_rules):
    tally = Tally.of(deck, case.rules if with_rules else None)

    assert tally.summary().legends == sum(1 for card in tally.cards.values() if card.legend)


@PROPERTY_SETTINGS
@given(random_decks())
def test_the_odds_groups_are_the_straightforward_ones(deck):
    made, reference = deck_groups(deck), straightforward_deck_groups(deck)

    assert made == reference
    assert [type(g.label) for g in made] == [type(g.label) for g in reference]
    assert [getattr(g.label, "values", None) for g in made] == [getattr(g.label, "values", None) for g in reference]


@PROPERTY_SETTINGS
@given(scenarios())
def test_the_meters_read_the_judgements_count_as_they_read_their_own(case):
    """deck_meters counts the deck as the judgement does (printings only under a card pool) and gets the same
    meters as from its own count of every printing."""
    _case, rules, deck = case
    own = Tally._counted(deck, None)

    assert deck_meters(deck, rules) == [
        meter for rule in _METERED if rule.meter is not None for meter in rule.meter(own, rules)
    ]


@PROPERTY_SETTINGS
@given(scenarios())
def test_the_last_count_is_the_same_decks_under_the_same_rules(case):
    _case, rules, deck = case
    counted = Tally.of(deck, rules)

    assert Tally.of(deck, rules) is counted
    assert counted == Tally._counted(deck, rules)
    # Another deck object, or other rules: counted again (never another deck's tally).
    again = Tally.of(replace(deck), rules)
    assert again is not counted
    assert again == counted
    assert Tally.of(deck, None) == Tally._counted(deck, None)
    assert Tally.of(deck, None) is not counted
