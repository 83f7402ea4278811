"""Every deck-construction rule, declared once (pure, no Django).

Like Django's system-check registry, each rule is one entry: its code (in violations, data-rule
attributes and the API), the rules field it reads and what players call that field, its check,
its add-ability hint, its meter and its words on a flagged deck line. The engine, the hints,
the meters and the deck lines iterate this registry, so adding a rule is one entry here plus
its functions (checks.py, rule_hints.py, rule_meters.py) and, if it reads a new field, that
field in ruleset.DeckRules. The codes are stable: saved verdicts, scripts and the API use them.
RULES is Gate Ruler's; another game would declare its own tuple of the same Rule entries.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import checks, rule_hints, rule_meters
from . import tally as t
from .rule_hints import Addition
from .rule_meters import Meter
from .ruleset import DeckRules, RulesInForce
from .tally import Tally
from .types import Violation
from .wording import gettext_noop

Check = Callable[[Tally, RulesInForce], list[Violation]]
# (does the rule's violation name the card?, the addition) -> the reason in a few words, or None.
Hint = Callable[[bool, Addition], str | None]
MeterReading = Callable[[Tally, RulesInForce], list[Meter]]


@dataclass(frozen=True, slots=True)
class Rule:
    """One deck-construction rule and everything said or shown about it."""

    code: str
    # The DeckRules field the rule reads, and its name for players ("<ruler>'s own copy limit is 4");
    # no field for a rule of the game itself (card types).
    field: str | None
    label: str
    check: Check
    hint: Hint | None = None
    meter: MeterReading | None = None
    # Where the rule's meters go on the panel (lowest first); its place in RULES orders its violations.
    meter_rank: int = 0
    # What a flagged deck line says; None for a rule about the whole deck, said once in the validation panel.
    line_label: str | None = None
    # Further fields the rule reads, with their names for players.
    more_fields: tuple[tuple[str, str], ...] = ()
    # What of the deck its check reads (tally.py's aspects: SIZE, NAMES, …): the card browser's hints
    # run the check again only after a copy that changes one of these. Every aspect unless declared,
    # so a rule added without it is always run again (tests/decks/rules/test_rule_reads.py checks each).
    reads: frozenset[str] = t.ASPECTS
    # The facts of a card (CardFacts fields) that alone decide what the rule says against one more copy
    # of it, besides whether its name is new to the deck and its copies there (which the hints key by
    # too): cards alike in these get the same reasons, worked out once per deck. None: the card as a
    # whole, its name and printing too (never shared), the safe default.
    shared_by: tuple[str, ...] | None = None
    # Whether rules make its check say nothing of any deck (no card pool, no banned card, no cap): the
    # card browser's hints then leave the rule out. None: never (tests/decks/rules/test_rule_reads.py
    # holds each to its check).
    silent: Callable[[DeckRules], bool] | None = None
    # Whether its hint says nothing against a copy its violation does not name (a per-card rule): the card
    # browser's hints then ask it nothing of such a violation, and need not count the deck with the copy to
    # ask (tests/decks/rules/test_rule_reads.py holds each hint to it).
    named_only: bool = False
    # Whether its hint alone says if one more copy breaks it (it speaks only of a copy that makes the deck break
    # the rule, and reads nothing of the violation): the card browser's hints then ask the hint without running
    # the check again on the deck with the copy (tests/decks/rules/test_rule_reads.py holds each to its check).
    hint_alone: bool = False

    def fields(self) -> dict[str, str]:
        """Every rules field the rule reads, with its name for players."""
        own = {self.field: self.label} if self.field is not None else {}
        return {**own, **dict(self.more_fields)}


# The order players read violations in: the deck's shape first, then per-card problems.
RULES: tuple[Rule, ...] = (
    Rule(
        code="deck_size",
        field="deck_size",
        label=gettext_noop("deck size"),
        check=checks.check_deck_size,
        reads=frozenset({t.SIZE}),
        shared_by=(),
        hint=rule_hints.hint_deck_size,
        hint_alone=True,
        meter=rule_meters.meter_deck_size,
        meter_rank=0,
    ),
    Rule(
        code="card_type",
        field=None,
        label=gettext_noop("card types"),
        check=checks.check_card_type,
        reads=frozenset({t.ENERGY_NAMES, t.RESOURCE_CARDS}),
        hint=rule_hints.hint_card_type,
        named_only=True,
        line_label=gettext_noop("Wrong section for its type"),
    ),
    Rule(
        code="max_factions",
        field="max_factions",
        label=gettext_noop("faction limit"),
        check=checks.check_max_factions,
        reads=frozenset({t.FACTIONS}),
        shared_by=("faction", "type"),
        silent=lambda d: all(limit is None for limit in d.max_factions.values()),
        hint=rule_hints.hint_max_factions,
        hint_alone=True,
        meter=rule_meters.meter_max_factions,
        meter_rank=3,
        line_label=gettext_noop("Over the faction limit"),
    ),
    Rule(
        code="unit_attribute",
        field="unit_attribute_choice",
        label=gettext_noop("unit attribute requirement"),
        check=checks.check_unit_attribute,
        reads=frozenset({t.UNIT_NAMES}),
        shared_by=("type", "attributes"),
        silent=lambda d: not d.unit_attribute_choice,
        hint=rule_hints.hint_unit_attribute,
        named_only=True,
        meter=rule_meters.meter_unit_attribute,
        meter_rank=4,
        line_label=gettext_noop("Lacks the chosen unit attribute"),
    ),
    Rule(
        code="max_copies",
        field="max_copies",
        label=gettext_noop("copy limit"),
        more_fields=(("max_copies_exceptions", gettext_noop("copy limit exceptions")),),
        check=checks.check_max_copies,
        reads=frozenset({t.PAST_LOWEST_LIMIT}),
        # The copy limit a card has (copy_limit reads its text); its copies are in the key.
        shared_by=("text",),
        hint=rule_hints.hint_max_copies,
        named_only=True,
        line_label=gettext_noop("Too many copies"),
    ),
    Rule(
        code="legend_cap",
        field="legend_cap",
        label=gettext_noop("legendary card cap"),
        check=checks.check_legend_cap,
        reads=frozenset({t.LEGENDS}),
        shared_by=("legend",),
        silent=lambda d: d.legend_cap is None,
        hint=rule_hints.hint_legend_cap,
        meter=rule_meters.meter_legend_cap,
        meter_rank=5,
        line_label=gettext_noop("Over the legendary card cap"),
    ),
    Rule(
        code="legend_copies",
        field="legend_max_copies",
        label=gettext_noop("copy limit for legendary cards"),
        check=checks.check_legend_copies,
        reads=frozenset({t.LEGENDS}),
        shared_by=("legend",),
        silent=lambda d: d.legend_max_copies is None,
        hint=rule_hints.hint_legend_copies,
        named_only=True,
        line_label=gettext_noop("Too many copies of a legendary card"),
    ),
    Rule(
        code="level_cap",
        field="level_cap",
        label=gettext_noop("level cap"),
        check=checks.check_level_cap,
        reads=frozenset({t.LEVELS}),
        shared_by=("level",),
        silent=lambda d: d.level_cap is None,
        hint=rule_hints.hint_level_cap,
        meter=rule_meters.meter_level_cap,
        meter_rank=1,
    ),
    Rule(
        code="cnt_cap",
        field="cnt_cap",
        label=gettext_noop("CNT cap"),
        check=checks.check_cnt_cap,
        reads=frozenset({t.CNT_CARDS}),
        shared_by=("cnt",),
        silent=lambda d: d.cnt_cap is None,
        hint=rule_hints.hint_cnt_cap,
        meter=rule_meters.meter_cnt_cap,
        meter_rank=2,
        line_label=gettext_noop("Over the CNT cap"),
    ),
    Rule(
        code="negative_level",
        field="allow_negative_levels",
        label=gettext_noop("negative-level rule"),
        check=checks.check_negative_level,
        reads=frozenset({t.NEGATIVE_LEVELS}),
        shared_by=("level",),
        silent=lambda d: d.allow_negative_levels,
        hint=rule_hints.hint_negative_level,
        named_only=True,
        line_label=gettext_noop("Negative level not allowed"),
    ),
    Rule(
        code="card_pool",
        field="card_pool",
        label=gettext_noop("card pool"),
        check=checks.check_card_pool,
        reads=frozenset({t.NAMES, t.PRINTINGS}),
        silent=lambda d: d.card_pool is None,
        hint=rule_hints.hint_card_pool,
        named_only=True,
        meter=rule_meters.meter_card_pool,
        meter_rank=8,
        line_label=gettext_noop("Outside the ruler's card pool"),
    ),
    Rule(
        code="faction_quota",
        field="faction_quota",
        label=gettext_noop("per-faction quota"),
        check=checks.check_faction_quota,
        reads=frozenset({t.FACTIONS}),
        shared_by=("faction",),
        silent=lambda d: d.faction_quota is None,
        hint=rule_hints.hint_faction_quota,
        named_only=True,
        meter=rule_meters.meter_faction_quota,
        meter_rank=7,
        line_label=gettext_noop("Over the per-faction quota"),
    ),
    Rule(
        code="banned_card",
        field="banned_cards",
        label=gettext_noop("list of banned cards"),
        check=checks.check_banned_card,
        reads=frozenset({t.NAMES}),
        silent=lambda d: not d.banned_cards,
        hint=rule_hints.hint_banned_card,
        named_only=True,
        line_label=gettext_noop("Banned for this ruler"),
    ),
    Rule(
        code="resource_cards",
        field="resource_cards",
        label=gettext_noop("number of resource cards"),
        check=checks.check_resource_cards,
        reads=frozenset({t.RESOURCE_CARDS}),
        shared_by=(),
        hint=rule_hints.hint_resource_cards,
        hint_alone=True,
        meter=rule_meters.meter_resource_cards,
        meter_rank=6,
        line_label=gettext_noop("Wrong number of resource cards"),
    ),
)

_BY_CODE = {rule.code: rule for rule in RULES}
_FIELD_LABELS = {name: label for rule in RULES for name, label in rule.fields().items()}


def rule_get(code: str) -> Rule | None:
    """The rule with this code; None for a code the registry does not know."""
    return _BY_CODE.get(code)


def line_label(code: str) -> str | None:
    """What a flagged deck line says of a rule; None for deck-wide rules and unknown codes."""
    rule = _BY_CODE.get(code)
    return rule.line_label if rule is not None else None


def field_label(name: str) -> str:
    """What players call a rules field ("copy limit"); raises KeyError for a field no rule reads."""
    return _FIELD_LABELS[name]
