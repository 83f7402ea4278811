"""Decks made to order for the pure rules engine: synthetic cards, no Django, no database.

`DeckMaker(rules).deck` is a legal deck for the rules in force that sits exactly AT every
boundary it can: level total == level cap, CNT cards == CNT cap, distinct legends ==
legendary cap (each at its copy limit), factions == faction limit, one card at the copy
limit (and every copy-limit exception at its own limit), one faction at the per-faction
quota, the exact resource count, and a negative-level card where those are allowed.

`DeckMaker(rules).breaches()` derives, for every constraint the rules actually have, a
deck that breaks it by the smallest step and nothing else: changes are swaps of one
"filler" card (level 0, no CNT, not legendary) for one other card, so the deck size,
level total, CNT count and factions stay where they were unless the breach is about them.

The maker computes its own expectations (which rule codes a breach must break, what the
summary must read) from the rules' numbers, never by asking the engine.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

from decks.rules.ruleset import RulesInForce, rules_in_force
from decks.rules.types import ENERGY, EVENT, FIELD, UNIT, CardFacts, DeckEntry, DeckSnapshot

RULES_PATH = Path(__file__).resolve().parents[3] / "data" / "rules.json"

CHOSEN_ATTRIBUTE = "Dragon"
OTHER_ATTRIBUTE = "Machine"
FACTION_NAMES = (
    "Crimson",
    "Azure",
    "Verdant",
    "Amber",
    "Obsidian",
    "Ivory",
    "Scarlet",
    "Cobalt",
)
PLAIN_PREFIX = "GR01"  # a collector number no card pool asks for

# Rule code -> the DeckRules field it enforces (max_copies also covers its exceptions).
RULE_FIELDS = {
    "deck_size": ("deck_size",),
    "max_factions": ("max_factions",),
    "unit_attribute": ("unit_attribute_choice",),
    "max_copies": ("max_copies", "max_copies_exceptions"),
    "legend_cap": ("legend_cap",),
    "legend_copies": ("legend_max_copies",),
    "level_cap": ("level_cap",),
    "cnt_cap": ("cnt_cap",),
    "negative_level": ("allow_negative_levels",),
    "card_pool": ("card_pool",),
    "faction_quota": ("faction_quota",),
    "banned_card": ("banned_cards",),
    "resource_cards": ("resource_cards",),
}


# --------------------------------------------------------------------------- rules data


@cache
def rules_data() -> dict[str, Any]:
    return json.loads(RULES_PATH.read_text(encoding="utf-8"))


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower().replace("'", "")).strip("-")


@dataclass(frozen=True)
class Case:
    """One ruler revision, possibly under a geas: what a deck is judged by."""

    id: str
    document: str
    effective_from: date
    ruler: Mapping[str, Any] = field(compare=False, repr=False)
    geas: Mapping[str, Any] | None = field(default=None, compare=False, repr=False)

    @property
    def rules(self) -> RulesInForce:
        return rules_in_force(self.ruler, self.geas)


def _year(document: Mapping[str, Any]) -> str:
    return document["effective_from"][:4]


def ruler_revisions() -> list[Case]:
    """Every ruler of every document, oldest document first."""
    cases = []
    for doc in rules_data()["documents"]:
        for ruler in doc["rulers"]:
            cases.append(
                Case(
                    id=f"{slug(ruler['name'])}-{_year(doc)}",
                    document=doc["key"],
                    effective_from=date.fromisoformat(doc["effective_from"]),
                    ruler=ruler,
                )
            )
    return cases


def latest_revision(name: str) -> Case:
    matches = [c for c in ruler_revisions() if c.ruler["name"] == name]
    if not matches:
        raise LookupError(name)
    return max(matches, key=lambda c: c.effective_from)


def geases() -> list[Mapping[str, Any]]:
    return [g for doc in rules_data()["documents"] for g in doc["geases"]]


def geas_named(name: str) -> Mapping[str, Any]:
    return next(g for g in geases() if g["name"] == name)


def geas_cases() -> list[Case]:
    """Every geas applied to its target's latest (Appendix A) revision."""
    cases = []
    for geas in geases():
        target = latest_revision(geas["target_ruler"])
        short = slug(geas["name"]).removeprefix("oath-of-the-")
        cases.append(replace(target, id=f"{target.id}+{short}", geas=geas))
    return cases


def all_cases() -> list[Case]:
    return ruler_revisions() + geas_cases()


def case(case_id: str) -> Case:
    return next(c for c in all_cases() if c.id == case_id)


def rules_for(name: str, year: int | None = None, geas: str | None = None) -> RulesInForce:
    """rules_for("Apprentice", 2020), rules_for("Dreadnaught", geas="Oath of the Unstoppable Advance")."""
    if year is None:
        chosen = latest_revision(name)
    else:
        chosen = next(c for c in ruler_revisions() if c.ruler["name"] == name and c.effective_from.year == year)
    return rules_in_force(chosen.ruler, geas_named(geas) if geas else None)


# --------------------------------------------------------------------------- cards and decks

_serial = itertools.count(1)
_DEFAULT: Any = object()


def card(
    name: str,
    type: str = EVENT,
    *,
    faction: str | None = _DEFAULT,
    level: int | None = _DEFAULT,
    cnt: bool = False,
    legend: bool = False,
    text: str = "",
    attributes: Iterable[str] = (),
    collector_numbers: tuple[str, ...] | None = None,
) -> CardFacts:
    """A synthetic card: faction Crimson and level 0 unless said, none of either for energy."""
    if faction is _DEFAULT:
        faction = None if type == ENERGY else "Crimson"
    if level is _DEFAULT:
        level = None if type == ENERGY else 0
    if collector_numbers is None:
        collector_numbers = (f"{PLAIN_PREFIX}-{next(_serial):03d}",)
    return CardFacts(
        name=name,
        type=type,
        faction=faction,
        attributes=frozenset(attributes),
        level=level,
        cnt=cnt,
        legend=legend,
        text=text,
        collector_numbers=collector_numbers,
    )


def deck_of(
    *entries: tuple[CardFacts, int] | DeckEntry,
    resources: Iterable[tuple[CardFacts, int] | DeckEntry] = (),
    attribute: str | None = None,
) -> DeckSnapshot:
    def entry(e: tuple[CardFacts, int] | DeckEntry) -> DeckEntry:
        return e if isinstance(e, DeckEntry) else DeckEntry(e[0], e[1])

    return DeckSnapshot(
        main=tuple(entry(e) for e in entries),
        resources=tuple(entry(e) for e in resources),
        attribute=attribute,
    )


def name_counts(deck: DeckSnapshot) -> Counter[str]:
    counts: Counter[str] = Counter()
    for entry in deck.main:
        counts[entry.card.name] += entry.count
    return counts


def cards_by_name(deck: DeckSnapshot) -> dict[str, CardFacts]:
    return {e.card.name: e.card for e in deck.main}


def faction_counts(deck: DeckSnapshot) -> Counter[str]:
    counts: Counter[str] = Counter()
    for entry in deck.main:
        if entry.card.faction is not None:
            counts[entry.card.faction] += entry.count
    return counts


def level_total(deck: DeckSnapshot) -> int:
    return sum((e.card.level or 0) * e.count for e in deck.main)


def cnt_total(deck: DeckSnapshot) -> int:
    return sum(e.count for e in deck.main if e.card.cnt)


def remove_copies(deck: DeckSnapshot, name: str, n: int = 1) -> DeckSnapshot:
    """The deck with n copies of a name taken out (last entries first)."""
    main = list(deck.main)
    for i in range(len(main) - 1, -1, -1):
        if n == 0:
            break
        if main[i].card.name != name:
            continue
        take = min(n, main[i].count)
        n -= take
        if main[i].count == take:
            del main[i]
        else:
            main[i] = replace(main[i], count=main[i].count - take)
    if n:
        raise ValueError(f"not enough copies of {name}")
    return replace(deck, main=tuple(main))


def add_copies(deck: DeckSnapshot, facts: CardFacts, n: int = 1, printing: str | None = None) -> DeckSnapshot:
    """The deck with n more copies of a card (merged into its entry when there is one)."""
    main = list(deck.main)
    for i, entry in enumerate(main):
        if entry.card == facts and entry.printing == printing:
            main[i] = replace(entry, count=entry.count + n)
            return replace(deck, main=tuple(main))
    return replace(deck, main=(*main, DeckEntry(facts, n, printing)))


def with_resources(deck: DeckSnapshot, *entries: tuple[CardFacts, int]) -> DeckSnapshot:
    return replace(deck, resources=tuple(DeckEntry(c, n) for c, n in entries if n > 0))


# --------------------------------------------------------------------------- the maker


@dataclass(frozen=True)
class Breach:
    """A deck that breaks one constraint by the smallest step."""

    id: str  # "level_cap", "deck_size-49", "max_copies-rock-paper-scissors", ...
    code: str  # the rule code the breach is about
    deck: DeckSnapshot = field(repr=False)
    # Rule codes the deck must break: {code}, unless the rules make the constraint
    # inseparable from another (see `overlaps`).
    expected: frozenset[str]
    # Names the violation for `code` must list among its cards.
    cards: tuple[str, ...] = ()
    # Numbers the violation message for `code` must contain.
    numbers: tuple[int, ...] = ()
    # Summary fields as they must read (plus "n_factions": len(summary.factions)).
    summary: Mapping[str, int] = field(default_factory=dict)

    @property
    def overlaps(self) -> frozenset[str]:
        return self.expected - {self.code}


@dataclass
class _Spec:
    stem: str
    type: str
    count: int
    role: str  # legend, exception, max, negative, cnt, levelled, filler
    level: int = 0
    cnt: bool = False
    legend: bool = False
    text: str = ""
    faction: str | None = None


class DeckMaker:
    """A legal deck at the boundaries of `rules`, and decks one step past each boundary."""

    FILLERS = 6

    def __init__(self, rules: RulesInForce) -> None:
        self.rules = rules
        self.d = rules.deck
        self._names = itertools.count(1)
        self._numbers = itertools.count(1)
        self.roles: dict[str, str] = {}
        self.energy = self.fit(card("Basic Energy", ENERGY))
        self.deck = self._build()

    # -- cards -------------------------------------------------------------------------

    def new_name(self, stem: str) -> str:
        return f"{stem} {next(self._names):02d}"

    def fit(self, facts: CardFacts) -> CardFacts:
        """The card adjusted to the deck's card pool and chosen unit attribute."""
        attributes = set(facts.attributes)
        if facts.type == UNIT and self.d.unit_attribute_choice:
            attributes.add(CHOSEN_ATTRIBUTE)
        pool = self.d.card_pool
        n = next(self._numbers)
        if pool is not None and pool.collector_number_prefixes:
            prefixes = pool.collector_number_prefixes
            numbers = (f"{prefixes[n % len(prefixes)]}-{n:03d}",)
        else:
            numbers = (f"{PLAIN_PREFIX}-{n:03d}",)
        if (
            pool is not None
            and facts.faction not in pool.factions
            and not pool.collector_number_prefixes
            and pool.attributes
        ):
            attributes.add(sorted(pool.attributes)[0])
        return replace(facts, attributes=frozenset(attributes), collector_numbers=numbers)

    # -- factions ----------------------------------------------------------------------

    def _faction_plan(self) -> tuple[list[str], list[str]]:
        """(factions units may use, factions other cards may use), each as many as allowed."""
        d = self.d
        pool_factions = sorted(d.card_pool.factions) if d.card_pool else []
        base = pool_factions + [f for f in FACTION_NAMES if f not in pool_factions]
        quota = d.faction_quota
        unlimited = max(3, math.ceil(d.deck_size / quota) + 1) if quota is not None else 3

        def how_many(scope: str) -> int:
            limit = d.max_factions.get(scope, d.max_factions.get("all"))
            return unlimited if limit is None else limit

        return base[: how_many("units")], base[: how_many("non_units")]

    # -- the legal deck ----------------------------------------------------------------

    def _build(self) -> DeckSnapshot:
        d = self.d
        specs: list[_Spec] = []
        copies = d.max_copies

        legend_count = min(d.legend_max_copies if d.legend_max_copies is not None else copies, copies)
        legends = d.legend_cap if d.legend_cap is not None else 2
        if legend_count > 0:
            specs += [_Spec("Legend", UNIT, legend_count, "legend", legend=True) for _ in range(legends)]
        for exception in d.max_copies_exceptions:
            specs.append(
                _Spec(
                    "Janken Card",
                    EVENT,
                    exception.max_copies,
                    "exception",
                    text=f"Play a round of {exception.text_contains} with your opponent.",
                )
            )
        specs.append(_Spec("Staple", EVENT, copies, "max"))
        if d.allow_negative_levels:
            specs.append(_Spec("Debt Imp", UNIT, 1, "negative", level=-1))
        cnt_left = d.cnt_cap if d.cnt_cap is not None else 4
        kinds = itertools.cycle((EVENT, UNIT))
        while cnt_left:
            n = min(copies, cnt_left)
            specs.append(_Spec("Counter", next(kinds), n, "cnt", level=1, cnt=True))
            cnt_left -= n
        kinds = itertools.cycle((UNIT, EVENT, FIELD))
        specs += [_Spec("Filler", next(kinds), 1, "filler") for _ in range(self.FILLERS)]

        slots = d.deck_size - sum(s.count for s in specs)
        if slots < 1:
            raise ValueError(f"{self.rules.ruler}: no room for levelled cards")

        def fixed() -> int:
            return sum(s.level * s.count for s in specs)

        need = 3 * slots if d.level_cap is None else d.level_cap - fixed()
        if need < 0:
            for s in specs:
                if s.role == "cnt":
                    s.level = 0
            need = d.level_cap - fixed()
        if need < 0:
            raise ValueError(f"{self.rules.ruler}: level cap too low for the plan")
        base, extra = divmod(need, slots)
        kinds = itertools.cycle((UNIT, UNIT, EVENT, FIELD))
        specs += [_Spec("Levelled", next(kinds), 1, "levelled", level=base + (i < extra)) for i in range(slots)]

        self._assign_factions(specs)

        main = []
        for s in specs:
            facts = self.fit(
                CardFacts(
                    name=self.new_name(s.stem),
                    type=s.type,
                    faction=s.faction,
                    level=s.level,
                    cnt=s.cnt,
                    legend=s.legend,
                    text=s.text,
                )
            )
            self.roles[facts.name] = s.role
            main.append(DeckEntry(facts, s.count))
        rc = d.resource_cards
        return DeckSnapshot(
            main=tuple(main),
            resources=(DeckEntry(self.energy, rc),) if rc else (),
            attribute=CHOSEN_ATTRIBUTE if d.unit_attribute_choice else None,
        )

    def _assign_factions(self, specs: list[_Spec]) -> None:
        unit_factions, other_factions = self._faction_plan()
        self.unit_factions, self.other_factions = unit_factions, other_factions
        quota = self.d.faction_quota
        load: Counter[str] = Counter()
        names: Counter[str] = Counter()

        def eligible(s: _Spec) -> list[str]:
            return unit_factions if s.type == UNIT else other_factions

        rest = list(specs)
        self.full_faction = None
        if quota is not None:
            # One faction filled exactly to the quota, with cards that are not fillers.
            full = other_factions[0]
            if full not in unit_factions:
                raise ValueError("quota plan needs a faction open to every card type")
            self.full_faction = full
            candidates = sorted(
                (s for s in specs if s.role in ("cnt", "levelled", "legend")),
                key=lambda s: -s.count,
            )
            for s in candidates:
                if load[full] + s.count <= quota:
                    s.faction = full
                    load[full] += s.count
                    rest.remove(s)
            if load[full] != quota:
                raise ValueError("could not fill a faction exactly to its quota")
        for s in rest:
            options = [f for f in eligible(s) if f != self.full_faction] or eligible(s)
            s.faction = min(options, key=lambda f: (names[f], load[f]))
            names[s.faction] += 1
            load[s.faction] += s.count
            if quota is not None and load[s.faction] > quota:
                raise ValueError("faction over quota in the legal deck")

    # -- picking cards of the legal deck -------------------------------------------------

    def with_role(self, role: str, deck: DeckSnapshot | None = None) -> list[CardFacts]:
        deck = deck or self.deck
        seen: dict[str, CardFacts] = {}
        for e in deck.main:
            if self.roles.get(e.card.name) == role:
                seen.setdefault(e.card.name, e.card)
        return list(seen.values())

    def filler(
        self,
        *,
        type: str | None = None,
        faction: str | None = None,
        where: Any = None,
    ) -> CardFacts:
        options = [
            c
            for c in self.with_role("filler")
            if (type is None or c.type == type)
            and (faction is None or c.faction == faction)
            and (where is None or where(c))
        ]
        if not options:
            raise LookupError(f"no filler with type={type} faction={faction}")
        return options[0]

    def swap_in(self, new: CardFacts, n: int = 1, printing: str | None = None) -> DeckSnapshot:
        """Take out n fillers (same faction and type first) and put n copies of `new` in."""
        deck = self.deck
        fillers = sorted(
            self.with_role("filler"),
            key=lambda c: (c.faction != new.faction, c.type != new.type),
        )
        for out in fillers[:n]:
            deck = remove_copies(deck, out.name)
        if len(fillers) < n:
            raise LookupError("not enough fillers")
        return add_copies(deck, new, n, printing)

    def variant(self, of: CardFacts, stem: str | None = None, **changes: Any) -> CardFacts:
        """A new card like `of` (a new name), with some facts changed."""
        name = self.new_name(stem or of.name.rsplit(" ", 1)[0])
        return replace(of, name=name, **changes)

    # -- expectations ---------------------------------------------------------------

    def boundary_summary(self) -> dict[str, int]:
        """What the legal deck's summary must read (only where the rules fix a number)."""
        d = self.d
        out = {"size": d.deck_size, "resources": d.resource_cards}
        if d.level_cap is not None:
            out["level"] = d.level_cap
        if d.cnt_cap is not None:
            out["cnt"] = d.cnt_cap
        if d.legend_cap is not None:
            legend_count = min(
                d.legend_max_copies if d.legend_max_copies is not None else d.max_copies,
                d.max_copies,
            )
            out["legends"] = d.legend_cap if legend_count > 0 else 0
        limit = d.max_factions.get("all", "absent")
        if isinstance(limit, int):
            out["n_factions"] = limit
        return out

    def _legend_codes(self, distinct: int, count: int) -> frozenset[str]:
        d = self.d
        codes = set()
        if d.legend_cap is not None and distinct > d.legend_cap:
            codes.add("legend_cap")
        if d.legend_max_copies is not None and count > d.legend_max_copies:
            codes.add("legend_copies")
        if count > d.max_copies:
            codes.add("max_copies")
        return frozenset(codes)

    # -- the breaches -----------------------------------------------------------------

    def breaches(self) -> list[Breach]:
        d = self.d
        out: list[Breach] = []
        one = frozenset
        base = self.boundary_summary()

        def add(
            id: str,
            code: str,
            deck: DeckSnapshot,
            *,
            expected: frozenset[str] | None = None,
            cards: tuple[str, ...] = (),
            numbers: tuple[int, ...] = (),
            **summary: int,
        ) -> None:
            out.append(
                Breach(
                    id,
                    code,
                    deck,
                    expected if expected is not None else one({code}),
                    cards,
                    numbers,
                    {**base, **summary},
                )
            )

        # Deck size, one card short and one card over.
        short = self.filler()
        add(
            "deck_size-49",
            "deck_size",
            remove_copies(self.deck, short.name),
            numbers=(d.deck_size - 1, d.deck_size),
            size=d.deck_size - 1,
        )
        extra = self.variant(self.filler())
        add(
            "deck_size-51",
            "deck_size",
            add_copies(self.deck, extra),
            numbers=(d.deck_size + 1, d.deck_size),
            size=d.deck_size + 1,
        )

        # Card types: an energy card in the main deck, a non-energy card among resources.
        stray = self.fit(card(self.new_name("Stray Energy"), ENERGY))
        add(
            "card_type-energy_in_main",
            "card_type",
            self.swap_in(stray),
            cards=(stray.name,),
            size=d.deck_size,
        )
        if d.resource_cards > 0:
            unit = self.fit(card(self.new_name("Resource Unit"), UNIT))
            add(
                "card_type-unit_in_resources",
                "card_type",
                with_resources(self.deck, (self.energy, d.resource_cards - 1), (unit, 1)),
                cards=(unit.name,),
                resources=d.resource_cards,
            )

        # Factions: one card of one faction too many, in each limited scope.
        used = set(faction_counts(self.deck))
        new_faction = next(f for f in FACTION_NAMES if f not in used)
        for scope, limit in d.max_factions.items():
            if limit is None:
                continue
            if scope == "units":
                template = self.filler(type=UNIT)
            elif scope == "non_units":
                template = self.filler(where=lambda c: c.type != UNIT)
            else:
                template = self.filler()
            stranger = self.fit(self.variant(template, faction=new_faction))
            summary = {"n_factions": limit + 1} if scope == "all" else {}
            add(
                "max_factions" if scope == "all" else f"max_factions-{scope}",
                "max_factions",
                self.swap_in(stranger),
                cards=(stranger.name,),
                numbers=(limit + 1 if scope == "all" else limit,),
                **summary,
            )

        # The chosen unit attribute: a unit without it, and no attribute chosen at all.
        if d.unit_attribute_choice:
            template = self.filler(type=UNIT)
            outsider = self.variant(
                template,
                attributes=(template.attributes - {CHOSEN_ATTRIBUTE}) | {OTHER_ATTRIBUTE},
            )
            add(
                "unit_attribute-missing",
                "unit_attribute",
                self.swap_in(outsider),
                cards=(outsider.name,),
            )
            add(
                "unit_attribute-none_chosen",
                "unit_attribute",
                replace(self.deck, attribute=None),
            )

        # Copies: one copy over the limit, and over each exception's own limit.
        staple = self.with_role("max")[0]
        add(
            "max_copies",
            "max_copies",
            self.swap_in(staple),
            cards=(staple.name,),
            numbers=(d.max_copies + 1, d.max_copies),
        )
        for exception, special in zip(d.max_copies_exceptions, self.with_role("exception"), strict=True):
            add(
                f"max_copies-{slug(exception.text_contains)}",
                "max_copies",
                self.swap_in(special),
                cards=(special.name,),
                numbers=(exception.max_copies + 1, exception.max_copies),
            )

        # Legends: one distinct legend too many; one copy of a legend too many.
        legends = self.with_role("legend")
        unit_filler = self.filler(type=UNIT)
        if d.legend_cap is not None:
            newcomer = self.variant(unit_filler, stem="Legend", legend=True)
            add(
                "legend_cap",
                "legend_cap",
                self.swap_in(newcomer),
                expected=self._legend_codes(len(legends) + 1, 1),
                cards=(newcomer.name,),
                numbers=(len(legends) + 1,),
                legends=len(legends) + 1,
            )
        if d.legend_max_copies is not None:
            over = d.legend_max_copies + 1
            if legends and name_counts(self.deck)[legends[0].name] == over - 1:
                hero, distinct, deck = (
                    legends[0],
                    len(legends),
                    self.swap_in(legends[0]),
                )
            else:
                hero = self.variant(unit_filler, stem="Legend", legend=True)
                distinct, deck = len(legends) + 1, self.swap_in(hero, over)
            add(
                "legend_copies",
                "legend_copies",
                deck,
                expected=self._legend_codes(distinct, over),
                cards=(hero.name,),
                numbers=(over, d.legend_max_copies),
                legends=distinct,
            )

        # Level and CNT: one over the cap.
        if d.level_cap is not None:
            climber = self.variant(self.filler(), level=1)
            add(
                "level_cap",
                "level_cap",
                self.swap_in(climber),
                cards=(climber.name,),
                numbers=(d.level_cap + 1, d.level_cap),
                level=d.level_cap + 1,
            )
        if d.cnt_cap is not None:
            counter = self.variant(self.filler(), stem="Counter", cnt=True)
            add(
                "cnt_cap",
                "cnt_cap",
                self.swap_in(counter),
                cards=(counter.name,),
                numbers=(d.cnt_cap + 1, d.cnt_cap),
                cnt=d.cnt_cap + 1,
            )
        if not d.allow_negative_levels:
            debtor = self.variant(self.filler(), stem="Debt Imp", level=-1)
            add(
                "negative_level",
                "negative_level",
                self.swap_in(debtor),
                cards=(debtor.name,),
                **({"level": d.level_cap - 1} if d.level_cap is not None else {}),
            )

        # The card pool: a card from outside it; a non-pool printing named explicitly.
        pool = d.card_pool
        if pool is not None:
            template = self.filler(where=lambda c: c.faction not in pool.factions)
            alien = self.variant(
                template,
                attributes=template.attributes - pool.attributes,
                collector_numbers=(f"{PLAIN_PREFIX}-900",),
            )
            add(
                "card_pool",
                "card_pool",
                self.swap_in(alien),
                cards=(alien.name,),
            )
            if pool.collector_number_prefixes and not pool.same_name:
                twin = self.reprinted(self.filler())
                plain, pooled = twin.collector_numbers
                add(
                    "card_pool-printing",
                    "card_pool",
                    self.swap_in(twin, printing=plain),
                    cards=(twin.name,),
                )
                deck = remove_copies(self.swap_in(twin, 2, printing=pooled), twin.name)
                add(
                    "card_pool-mixed_printings",
                    "card_pool",
                    add_copies(deck, twin, 1, plain),
                    cards=(twin.name,),
                )

        # The per-faction quota: one card over it.
        if d.faction_quota is not None:
            template = self.filler(where=lambda c: c.faction != self.full_faction)
            crowd = self.variant(template, faction=self.full_faction)
            add(
                "faction_quota",
                "faction_quota",
                self.swap_in(crowd),
                cards=(crowd.name,),
                numbers=(d.faction_quota + 1, d.faction_quota),
            )

        for banned in sorted(d.banned_cards):
            outlaw = replace(self.filler(), name=banned)
            add(
                f"banned_card-{slug(banned)}",
                "banned_card",
                self.swap_in(outlaw),
                cards=(banned,),
            )

        # Resource cards: one too few and one too many; any for a ruler preparing none.
        rc = d.resource_cards
        if rc > 0:
            add(
                "resource_cards-too_few",
                "resource_cards",
                with_resources(self.deck, (self.energy, rc - 1)),
                numbers=(rc, rc - 1),
                resources=rc - 1,
            )
            add(
                "resource_cards-too_many",
                "resource_cards",
                with_resources(self.deck, (self.energy, rc + 1)),
                numbers=(rc, rc + 1),
                resources=rc + 1,
            )
        else:
            add(
                "resource_cards-unwanted",
                "resource_cards",
                with_resources(self.deck, (self.energy, 1)),
                cards=(self.energy.name,),
                numbers=(1,),
                resources=1,
            )
        return out

    def reprinted(self, template: CardFacts) -> CardFacts:
        """A card like `template` with two printings: a plain one first, then one in the pool."""
        pool = self.d.card_pool
        assert pool is not None
        assert pool.collector_number_prefixes
        n = next(self._numbers)
        return self.variant(
            template,
            stem="Reprint",
            collector_numbers=(
                f"{PLAIN_PREFIX}-{n:03d}",
                f"{pool.collector_number_prefixes[0]}-{n:03d}",
            ),
        )

    # -- legal variations -------------------------------------------------------------

    def legal_variants(self) -> list[tuple[str, DeckSnapshot]]:
        """Decks that look risky but that the rules allow."""
        d = self.d
        out = [("boundary", self.deck)]
        if d.level_cap is None:
            giant = self.variant(self.filler(), stem="Titan", level=99)
            out.append(("no_level_cap", self.swap_in(giant)))
        if d.cnt_cap is None:
            counter = self.variant(self.filler(), stem="Counter", cnt=True)
            out.append(("no_cnt_cap", self.swap_in(counter)))
        if "units" in d.max_factions and d.max_factions["units"] is None:
            used = set(faction_counts(self.deck))
            wanderer = self.fit(
                self.variant(
                    self.filler(type=UNIT),
                    faction=next(f for f in FACTION_NAMES if f not in used),
                )
            )
            out.append(("units_of_any_faction", self.swap_in(wanderer)))
        if d.max_factions.get("all", 0) is None and d.faction_quota is None:
            used = set(faction_counts(self.deck))
            wanderer = self.fit(
                self.variant(
                    self.filler(),
                    faction=next(f for f in FACTION_NAMES if f not in used),
                )
            )
            out.append(("any_number_of_factions", self.swap_in(wanderer)))
        pool = d.card_pool
        if pool is not None and pool.collector_number_prefixes:
            twin = self.reprinted(self.filler())
            plain, pooled = twin.collector_numbers
            out.append(("printing_not_named", self.swap_in(twin)))
            out.append(("pool_printing_named", self.swap_in(twin, printing=pooled)))
            if pool.same_name:
                out.append(("same_name_as_pool_card", self.swap_in(twin, printing=plain)))
        return out
