"""Draw odds: the exact chance of having seen at least k cards of a group by each of your turns.

Driven by the ruler object in force (its `setup` and `start_of_turn` numbers, after any geas),
never by its name. "Seen" means taken from the deck into the hand or into play: drawn, or
driven (a drive takes cards from the deck to play or set this turn; the rest go to the
cemetery, so each driven card is seen once). Cards a ruler puts face down into its resource
zone without looking (Raider) leave the deck unseen.

The model, which the odds panel's help repeats to players:
1. The deck is shuffled once; nothing returns to it or is searched out of it, and card effects,
   ruler abilities (Dreadnaught's or Explorer's drives) and mulligans are left out.
2. Setup takes `setup.draw + setup.drive` cards; each of your turns takes `start_of_turn`'s,
   face-down resource cards first (Raider's order: resources, then draw).
3. `start_of_turn.first_turn` changes the numbers on the game's very first turn only, which is
   the first turn of the player going first; the player going second never has it.
4. "By turn t" is after the start of your t-th turn, before you play anything.
5. When the deck runs out, a step takes what is left (the game is lost then, but the odds of
   what was seen are still exact).

A game that sets its own draw pattern in its data (data/games/<slug>.json, `draw`) is read by
game_draw_pattern: `opening_hand` cards seen at setup after `set_aside` cards put aside unseen
(GateRunners' Shields), `per_turn` each turn, none on the game's first turn when
`first_player_skips_first_draw`; mulligans are left out as above.

Whatever was taken face down, the seen cards are a uniformly random subset of the shuffled deck,
so the count of group cards among them is hypergeometric: P(X >= k) = sum over i >= k of
C(K, i) C(N - K, n - i) / C(N, n), computed with integers (math.comb) into a Fraction.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Any

from .games import GameDefinition
from .ruleset import RulesDataError
from .types import UNIT, CardFacts, DeckSnapshot
from .wording import Wording, gettext_noop

TURNS = 6


@dataclass(frozen=True, slots=True)
class Take:
    """Cards one step takes from the top of the deck."""

    seen: int
    # Put face down without looking (Raider's resource zone); taken before the seen ones.
    hidden: int = 0

    @property
    def total(self) -> int:
        return self.seen + self.hidden


@dataclass(frozen=True, slots=True)
class DrawPattern:
    """What a ruler takes from its deck at setup, on each turn, and on the game's first turn."""

    setup: Take
    turn: Take
    first_turn: Take

    @property
    def first_turn_differs(self) -> bool:
        return self.first_turn != self.turn

    def summary(self) -> str:
        """The pattern in a few words: "sees 4 at setup, then 2 a turn"."""
        values = {"setup": self.setup.seen, "turn": self.turn.seen, "first": self.first_turn.seen}
        if self.first_turn.seen != self.turn.seen:
            return Wording(
                gettext_noop("sees %(setup)s at setup, then %(turn)s a turn (%(first)s on the game's first turn)"),
                values,
            )
        return Wording(gettext_noop("sees %(setup)s at setup, then %(turn)s a turn"), values)

    def describe(self) -> list[str]:
        """The pattern in words, for the odds panel's help."""
        lines: list[str] = [Wording(gettext_noop("Setup: sees %(cards)s."), {"cards": _cards(self.setup.seen)})]
        if self.setup.hidden:
            template = gettext_noop("Setup: puts %(hidden)s aside unseen, then sees %(cards)s.")
            lines = [Wording(template, {"hidden": _cards(self.setup.hidden), "cards": _cards(self.setup.seen)})]
        lines.append(Wording(gettext_noop("Each of your turns: %(take)s."), {"take": _take_words(self.turn)}))
        if self.first_turn_differs:
            template = gettext_noop("The game's first turn (only when going first): %(take)s instead.")
            lines.append(Wording(template, {"take": _take_words(self.first_turn)}))
        return lines


def _cards(n: int) -> str:
    return Wording(gettext_noop("1 card") if n == 1 else gettext_noop("%(n)s cards"), {"n": n})


def _take_words(take: Take) -> str:
    if take.hidden:
        template = gettext_noop("puts %(hidden)s face down into the resource zone unseen, then sees %(seen)s")
        return Wording(template, {"hidden": _cards(take.hidden), "seen": _cards(take.seen)})
    return Wording(gettext_noop("sees %(seen)s"), {"seen": _cards(take.seen)})


def _count(data: Mapping[str, Any], key: str, path: str) -> int:
    if key not in data:
        raise RulesDataError(f"{path}: missing field '{key}'")
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RulesDataError(f"{path}.{key}: expected a whole number of cards, got {value!r}")
    return value


def draw_pattern(profile: Mapping[str, Any]) -> DrawPattern:
    """The draw pattern of a ruler object (as rules_in_force's `profile`, geas applied).

    Raises RulesDataError naming the field when setup or start_of_turn lack the numbers.
    """
    setup = profile.get("setup")
    start = profile.get("start_of_turn")
    if not isinstance(setup, Mapping):
        raise RulesDataError("ruler.setup: expected an object")
    if not isinstance(start, Mapping):
        raise RulesDataError("ruler.start_of_turn: expected an object")

    def take(data: Mapping[str, Any], path: str, hidden: bool) -> Take:
        return Take(
            seen=_count(data, "draw", path) + _count(data, "drive", path),
            hidden=_count(data, "resources_from_deck", path) if hidden else 0,
        )

    first = start.get("first_turn")
    if first is not None and not isinstance(first, Mapping):
        raise RulesDataError("ruler.start_of_turn.first_turn: expected an object or null")
    # first_turn holds only the numbers that differ on the game's first turn.
    first_numbers = {**start, **(first or {})}
    return DrawPattern(
        setup=take(setup, "ruler.setup", hidden=False),
        turn=take(start, "ruler.start_of_turn", hidden=True),
        first_turn=take(first_numbers, "ruler.start_of_turn.first_turn", hidden=True),
    )


def game_draw_pattern(draw: Mapping[str, Any], profile: Mapping[str, Any] | None = None) -> DrawPattern:
    """The draw pattern of a game's data (its `draw`); for `{"kind": "ruler_setup"}`, the ruler's (draw_pattern).

    RulesDataError when a ruler-set pattern is asked for without the ruler's profile, or the
    data lacks the numbers (parse_game has checked them for a game file).
    """
    if draw.get("kind") == "ruler_setup":
        if profile is None:
            raise RulesDataError("draw: the pattern comes from the ruler; give the ruler's profile")
        return draw_pattern(profile)
    per_turn = _count(draw, "per_turn", "draw") if "per_turn" in draw else 0
    first = 0 if draw.get("first_player_skips_first_draw") else per_turn
    return DrawPattern(
        setup=Take(
            seen=_count(draw, "opening_hand", "draw"),
            hidden=_count(draw, "set_aside", "draw") if "set_aside" in draw else 0,
        ),
        turn=Take(seen=per_turn),
        first_turn=Take(seen=first),
    )


def seen_by_turn(pattern: DrawPattern, *, deck_size: int, going_first: bool, turns: int = TURNS) -> tuple[int, ...]:
    """Cards seen in all after the start of each of your turns 1..turns (capped by the deck)."""
    if deck_size < 0:
        raise ValueError(f"deck size cannot be negative ({deck_size})")
    left = deck_size
    seen = 0

    def take(step: Take) -> None:
        nonlocal left, seen
        left -= min(step.hidden, left)
        drawn = min(step.seen, left)
        left -= drawn
        seen += drawn

    take(pattern.setup)
    out = []
    for turn in range(1, turns + 1):
        take(pattern.first_turn if going_first and turn == 1 else pattern.turn)
        out.append(seen)
    return tuple(out)


def at_least(*, deck_size: int, group: int, seen: int, k: int) -> Fraction:
    """P(at least k of `group` cards among `seen` cards drawn from `deck_size`), exactly."""
    if deck_size < 0 or group < 0 or seen < 0:
        raise ValueError("deck size, group size and cards seen cannot be negative")
    if group > deck_size:
        raise ValueError(f"a group of {_cards(group)} cannot be in a deck of {_cards(deck_size)}")
    if seen > deck_size:
        raise ValueError(f"cannot see {_cards(seen)} of a deck of {_cards(deck_size)}")
    if k <= 0:
        return Fraction(1)
    favourable = sum(comb(group, i) * comb(deck_size - group, seen - i) for i in range(k, min(group, seen) + 1))
    return Fraction(favourable, comb(deck_size, seen))


@dataclass(frozen=True, slots=True)
class OddsRow:
    turn: int
    seen_first: int
    seen_second: int
    first: Fraction
    second: Fraction


# Remembered by its numbers: a change to a deck moves its size or a group's count by one, so the panel
# asks the same few tables again and again, of any deck (the rows are immutable, safe to share).
@lru_cache(maxsize=1024)
def draw_odds(pattern: DrawPattern, *, deck_size: int, group: int, k: int, turns: int = TURNS) -> tuple[OddsRow, ...]:
    """Per turn 1..turns: cards seen and P(at least k of the group seen), going first and second."""
    if group > deck_size:
        raise ValueError(f"a group of {_cards(group)} cannot be in a deck of {_cards(deck_size)}")
    first = seen_by_turn(pattern, deck_size=deck_size, going_first=True, turns=turns)
    second = seen_by_turn(pattern, deck_size=deck_size, going_first=False, turns=turns)
    return tuple(
        OddsRow(
            turn=t,
            seen_first=f,
            seen_second=s,
            first=at_least(deck_size=deck_size, group=group, seen=f, k=k),
            second=at_least(deck_size=deck_size, group=group, seen=s, k=k),
        )
        for t, f, s in zip(range(1, turns + 1), first, second, strict=True)
    )


# ---------------------------------------------------------------- groups of cards in a deck


@dataclass(frozen=True, slots=True)
class CardGroup:
    """Cards of the main deck the odds are about: a key the form sends back, words, copies."""

    key: str
    label: Wording | str
    count: int
    names: tuple[str, ...]

    @property
    def single_card(self) -> bool:
        return self.key.startswith("card:")


PICKED = "picked"
# The key of a game's card type group ("type:unit"): game_default_group looks for these.
TYPE_GROUP = "type:"


def _group(key: str, label: Wording | str, copies: Mapping[str, int], names: Iterable[str]) -> CardGroup:
    chosen = tuple(sorted(set(names)))
    return CardGroup(key, label, sum(copies[n] for n in chosen), chosen)


def deck_groups(deck: DeckSnapshot) -> list[CardGroup]:
    """The groups worth asking about in this main deck (each with at least one card).

    CNT cards, legends, units of level <= n for each unit level the deck has, each faction,
    then each card name. A named set of cards is `picked_group`.
    """
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
    unit_levels = sorted({c.level for c in cards if c.type == UNIT and c.level is not None})
    for level in unit_levels:
        groups.append(
            _group(
                f"units-level-{level}",
                Wording(gettext_noop("Units of level %(level)s or less"), {"level": level}),
                copies,
                (c.name for c in cards if c.type == UNIT and c.level is not None and c.level <= level),
            )
        )
    # Each faction's names in one pass over the cards (not one pass per faction).
    by_faction: dict[str, list[str]] = {}
    for c in cards:
        if c.faction:
            by_faction.setdefault(c.faction, []).append(c.name)
    for faction in sorted(by_faction):
        groups.append(
            _group(
                f"faction:{faction}",
                Wording(gettext_noop("%(faction)s cards"), {"faction": faction}),
                copies,
                by_faction[faction],
            )
        )
    # A group of one name, as _group would make it (its names: the name alone; its count: the name's copies).
    groups.extend(CardGroup(f"card:{name}", _card_label(name), copies[name], (name,)) for name in sorted(copies))
    return [g for g in groups if g.count]


@lru_cache(maxsize=4096)
def _card_label(name: str) -> Wording:
    """A card's group label: its name, worded as a name (in Japanese, the card's Japanese name)."""
    return Wording("%(name)s", {"name": name})


def game_deck_groups(game: GameDefinition, deck: DeckSnapshot) -> list[CardGroup]:
    """The groups worth asking about in a main deck of a game with its own card fields.

    Each card type, each value of each choices field ("Colour: Blue"), "<field> n or less" for
    each value of each whole-number field, then each card name; only groups with a card.
    """
    copies: dict[str, int] = {}
    facts: dict[str, CardFacts] = {}
    for entry in deck.main:
        copies[entry.card.name] = copies.get(entry.card.name, 0) + entry.count
        facts[entry.card.name] = entry.card
    cards = list(facts.values())
    groups = [
        _group(
            f"{TYPE_GROUP}{t.key}",
            Wording(gettext_noop("%(type)s cards"), {"type": t.label}),
            copies,
            (c.name for c in cards if c.type == t.key),
        )
        for t in game.card_types
    ]
    for field in game.card_fields:
        if field.kind == "choices":
            groups += [
                _group(
                    f"{field.key}:{choice.key}",
                    Wording(gettext_noop("%(field)s: %(value)s"), {"field": field.label, "value": choice.label}),
                    copies,
                    (c.name for c in cards if _has(c, field.key, choice.key)),
                )
                for choice in field.choices
            ]
        elif field.kind == "int":
            values = sorted(
                {v for c in cards if isinstance(v := c.fields.get(field.key), int) and not isinstance(v, bool)}
            )
            groups += [
                _group(
                    f"{field.key}-{n}",
                    Wording(gettext_noop("%(field)s %(n)s or less"), {"field": field.label, "n": n}),
                    copies,
                    (c.name for c in cards if _at_most(c, field.key, n)),
                )
                for n in values
            ]
    groups.extend(_group(f"card:{name}", name, copies, (name,)) for name in sorted(copies))
    return [g for g in groups if g.count]


def game_default_group(groups: Sequence[CardGroup], deck_size: int) -> CardGroup | None:
    """The group a game's odds panel shows before the player picks one (`groups`: game_deck_groups').

    The card type with the most copies among those filling at most half the main deck, else the card
    with the most copies (the first by name). A type filling most of the deck (a deck of units) is in
    nearly every opening hand, so its odds read 100 % on every turn and say nothing; a minority type
    or one card's copies is what a player counts on drawing.
    """
    types = [g for g in groups if g.key.startswith(TYPE_GROUP) and 2 * g.count <= deck_size]
    # max() keeps the first of equals: the data's order of types, the cards' order by name.
    if types:
        return max(types, key=lambda g: g.count)
    cards = [g for g in groups if g.single_card]
    if cards:
        return max(cards, key=lambda g: g.count)
    return groups[0] if groups else None


def _has(card: CardFacts, field: str, value: str) -> bool:
    held = card.fields.get(field)
    return held == value or (isinstance(held, (list, tuple, set, frozenset)) and value in held)


def _at_most(card: CardFacts, field: str, n: int) -> bool:
    value = card.fields.get(field)
    return isinstance(value, int) and not isinstance(value, bool) and value <= n


def picked_group(deck: DeckSnapshot, names: Sequence[str]) -> CardGroup:
    """The named cards (those in the main deck; others are ignored) as one group."""
    copies: dict[str, int] = {}
    for entry in deck.main:
        copies[entry.card.name] = copies.get(entry.card.name, 0) + entry.count
    chosen = sorted({n for n in names if n in copies})
    label: Wording | str = Wording(gettext_noop("No cards picked"))
    if len(chosen) == 1:
        label = chosen[0]  # worded as its card's group is: the name as the player reads it
    elif chosen:
        # "A, B or C", the names worded as the player reads them (their values' keys are names: decks.wording).
        label = Wording(gettext_noop("%(cards)s or %(name)s"), {"cards": tuple(chosen[:-1]), "name": chosen[-1]})
    return _group(PICKED, label, copies, chosen)


def deck_size_of(deck: DeckSnapshot) -> int:
    """Cards in the main deck (the resource cards are not drawn from it)."""
    return sum(entry.count for entry in deck.main)
