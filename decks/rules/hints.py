"""Add-ability hints: why one more copy of a card cannot go into a deck (pure, no Django).

The card browser shows, for every result, whether one more copy can be added and, if not,
why. The answer comes from the engine itself: judge the deck with one more copy and keep
the violations that the addition creates or makes worse, each said in a few words by its
rule's hint ("5th copy; Apprentice allows 4", "level total would be 52/50"). A violation the
deck already has and the copy does not worsen (the deck is still short of 50 cards, a level
total already over the cap and a level-0 card) is no reason not to add it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from operator import attrgetter

from .registry import RULES, Rule, rule_get
from .rule_hints import Addition, nothing_fits
from .ruleset import RulesInForce
from .tally import Tally, with_one_more
from .types import ENERGY, MAIN, RESOURCES, UNIT, CardFacts, DeckSnapshot, Report, Violation

__all__ = [
    "MAIN",
    "RESOURCES",
    "Additions",
    "AttributeProposal",
    "addition_blockers",
    "judge_tally",
    "natural_section",
    "nothing_fits",
    "propose_attribute",
    "with_one_more",
]


def natural_section(card: CardFacts) -> str:
    """Where a card goes when a player adds it: energy cards to the resources, the rest to the deck."""
    return RESOURCES if card.type == ENERGY else MAIN


def judge_tally(tally: Tally, rules: RulesInForce) -> Report:
    """validate_deck for a deck already counted (engine.validate_deck counts, then does this)."""
    violations = [violation for rule in RULES for violation in rule.check(tally, rules)]
    return Report(tuple(violations), tally.summary(), rules)


# Each rule that may have something to say against a copy: whether its check runs again (not when
# the copy changes nothing the rule reads: its violations are then the deck's own), and the facts of
# a card its answer is shared by (None: not shared).
_Plan = tuple[tuple[Rule, bool, Callable[[CardFacts], object] | None], ...]


def _no_facts(card: CardFacts) -> object:
    return ()


@lru_cache(maxsize=1024)
def _plan(moved: frozenset[str]) -> _Plan:
    """Each rule, whether a copy that changes these aspects makes its check run again, and its sharing."""
    # A rule without a hint blames a copy in its check's own words, which may name the card: not shared.
    return tuple(
        (
            rule,
            bool(rule.reads & moved),
            None
            if rule.shared_by is None or rule.hint is None
            else attrgetter(*rule.shared_by)
            if rule.shared_by
            else _no_facts,
        )
        for rule in RULES
    )


@dataclass(frozen=True, slots=True)
class Additions:
    """A deck counted and judged once, against which many cards are tested one more copy at a time.

    The card browser asks this of every result shown after every change (about 30 cards). Each
    card's test runs again only the checks that read what its copy changes (each rule's `reads`
    in the registry, Tally.moved_by), on the deck's tally with the copy (Tally.plus_one); every
    other rule's violations are the deck's own (`report`: the deck's judgement under `rules`).
    What a rule says against a card is worked out once for all the cards alike in what the rule
    reads of them (its `shared_by`: any card adds one to the deck's size; every level-2 card makes
    the level total the same; every name new to the deck with the same text has the same copy limit). The answers are those of judging the whole deck with the copy
    (tests/decks/rules/test_hints_incremental.py).
    """

    rules: RulesInForce
    tally: Tally
    report: Report
    # The report's violations rule by rule (what a rule the copy leaves alone says after it too).
    said: dict[str, tuple[Violation, ...]] = field(default_factory=dict)
    # The rules that may have something to say, by the aspects a copy moves.
    plans: dict[frozenset[str], _Plan] = field(default_factory=dict)
    # What a rule says against a card, by rule, section, whether the name is new and its copies in the deck,
    # and the facts it is shared by.
    shared: dict[tuple[object, ...], tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def of(cls, deck: DeckSnapshot, rules: RulesInForce, report: Report | None = None) -> Additions:
        tally = Tally.of(deck, rules)
        return cls(rules, tally, report if report is not None else judge_tally(tally, rules))

    def __post_init__(self) -> None:
        said: dict[str, list[Violation]] = {}
        for violation in self.report.violations:
            said.setdefault(violation.rule, []).append(violation)
        self.said.update((code, tuple(violations)) for code, violations in said.items())

    def blockers(self, card: CardFacts, printing: str | None, section: str | None = None) -> list[str]:
        """Why one more copy of `card` (as `printing`, if named) cannot be added; [] if it can."""
        section = section or natural_section(card)
        copy = _Copy(self, card, printing, section)
        moved = self.tally.moved_by(card, printing, section, self.rules)
        plan = self.plans.get(moved)
        if plan is None:
            # A rule that does not run again and that the deck does not break says nothing: left out; so
            # is a rule the rules make silent (it says nothing of any deck: no card pool, no cap).
            deck = self.rules.deck
            plan = self.plans[moved] = tuple(
                p
                for p in _plan(moved)
                if (p[1] or p[0].code in self.said) and (p[0].silent is None or not p[0].silent(deck))
            )
        # A card is alike another in what a rule reads of it only if its facts are its name's in the
        # deck (the deck's copies count with the facts of their own line).
        known = self.tally.cards.get(card.name)
        new = known is None
        shares = copy.alike = new or known is card or known == card
        # Whether the name is new and its copies in the deck: cards share a rule's answer only alike in these.
        copies = (new, self.tally.counts.get(card.name, 0))
        shared = self.shared
        reasons: list[str] = []
        # RULES' order, and each rule's violations in its check's order: judge_tally's report on the
        # deck with the copy, violation for violation.
        for rule, runs, facts in plan:
            if shares and facts is not None:
                key = (rule.code, section, copies, facts(card))
                said = shared.get(key)
                if said is None:
                    said = shared[key] = copy.reasons(rule, runs)
            else:
                said = copy.reasons(rule, runs)
            for reason in said:
                if reason not in reasons:
                    reasons.append(reason)
        return reasons


class _Copy:
    """One more copy of a card tested against an Additions: the tally with it and the Addition the
    hints read, each made when first needed (a copy most rules say nothing of needs neither)."""

    __slots__ = ("_addition", "_after", "additions", "alike", "card", "printing", "section")

    def __init__(self, additions: Additions, card: CardFacts, printing: str | None, section: str) -> None:
        self.additions, self.card, self.printing, self.section = additions, card, printing, section
        self._after: Tally | None = None
        self._addition: Addition | None = None
        # Whether the card's facts are its name's in the deck (Additions.blockers): a hint alone speaks for a
        # check only of such a copy (the check reads the names' facts, the hint the deck's lines).
        self.alike = False

    def after(self) -> Tally:
        if self._after is None:
            a = self.additions
            self._after = a.tally.plus_one(self.card, self.printing, self.section, a.rules)
        return self._after

    def addition(self) -> Addition:
        if self._addition is None:
            a = self.additions
            before, after = a.report.summary, a.tally.summary_with_one_more(self.card, self.section)
            self._addition = Addition(a.tally.deck, a.rules, self.card, self.printing, self.section, before, after)
        return self._addition

    def reasons(self, rule: Rule, runs: bool) -> tuple[str, ...]:
        """What one rule's violations of the deck with the copy say against the copy, each reason once."""
        a = self.additions
        if runs and rule.hint_alone and self.alike and rule.hint is not None:
            # The hint says whether the copy breaks the rule: no need to count the deck with it and check.
            reason = rule.hint(False, self.addition())
            return (reason,) if reason else ()
        violations = rule.check(self.after(), a.rules) if runs else a.said.get(rule.code, ())
        if not violations:
            return ()
        out: list[str] = []
        for violation in violations:
            known = rule_get(violation.rule)
            if known is None or known.hint is None:
                # A rule without a hint yet: blame the copy if the violation is new.
                reason = None if violation in a.report.violations else violation.message
            else:
                named = self.card.name in violation.cards
                reason = known.hint(named, self.addition()) if named or not known.named_only else None
            if reason and reason not in out:
                out.append(reason)
        return tuple(out)


def addition_blockers(
    deck: DeckSnapshot,
    rules: RulesInForce,
    card: CardFacts,
    printing: str | None,
    *,
    section: str | None = None,
    report: Report | None = None,
) -> list[str]:
    """Why one more copy of `card` (as `printing`, if named) cannot be added; [] if it can.

    `section` defaults to where the card naturally goes (natural_section). To test many cards
    against one deck, use Additions.of(deck, rules).blockers: the deck is then counted once.
    """
    return Additions.of(deck, rules, report).blockers(card, printing, section)


@dataclass(frozen=True, slots=True)
class AttributeProposal:
    """The unit attribute to choose, and the units (by name) that would then have to go."""

    attribute: str
    removals: int
    lacking: tuple[str, ...]

    @property
    def keeps_units(self) -> bool:
        return self.removals == 0


def propose_attribute(
    deck: DeckSnapshot,
    rules: RulesInForce,
    candidates: Iterable[str] = (),
) -> AttributeProposal | None:
    """For rulers whose units share a chosen attribute (Centurion, Vanquisher): the attribute
    that keeps the deck's units legal, or else needs the fewest unit copies removed.

    Candidates are the attributes of the deck's units plus any given; ties go to the
    attribute already chosen, then by name. None when the ruler chooses no attribute or
    the deck has no units yet.
    """
    if not rules.deck.unit_attribute_choice:
        return None
    units: dict[str, tuple[CardFacts, int]] = {}
    for entry in deck.main:
        if entry.card.type == UNIT:
            card, count = units.get(entry.card.name, (entry.card, 0))
            units[entry.card.name] = (card, count + entry.count)
    if not units:
        return None
    options = set(candidates)
    for card, _count in units.values():
        options |= card.attributes

    def removals(attribute: str) -> int:
        return sum(count for card, count in units.values() if attribute not in card.attributes)

    best = min(sorted(options), key=lambda a: (removals(a), a != deck.attribute))
    lacking = tuple(sorted(name for name, (card, _) in units.items() if best not in card.attributes))
    return AttributeProposal(best, removals(best), lacking)
