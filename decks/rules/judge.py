"""judge: a deck of any game and that game's data in, every violation out (pure, no Django).

The game's rules run in the order its data lists them, each by its kind (kinds.py). For a
game whose rules come from a ruler (kind ruler_rules, Gate Ruler), the rules in force are
passed in and the report is validate_deck's, unchanged. The hints and meters read the deck
counted once (GameTally), so a card browser asks `addition_hints` of each card cheaply.
"""

from __future__ import annotations

from .game_tally import Blocker, Judging
from .games import GameDefinition
from .hints import natural_section
from .kinds import RULER_RULES, kind_get
from .rule_meters import Meter
from .ruleset import RulesInForce
from .types import MAIN, CardFacts, DeckSnapshot, Report, Violation


def judging(game: GameDefinition, deck: DeckSnapshot, rules: RulesInForce | None = None) -> Judging:
    """The deck counted once for this game: pass it to judge, addition_hints and game_meters."""
    return Judging(game, deck, rules)


def _by_ruler(game: GameDefinition) -> bool:
    return any(rule.kind == RULER_RULES for rule in game.rules)


def judge(
    game: GameDefinition, deck: DeckSnapshot, rules: RulesInForce | None = None, *, counted: Judging | None = None
) -> Report:
    """Judge a deck by its game's rules; returns every violation at once, never raises for a bad deck.

    `rules` (the rules in force) is needed only by a game whose rules come from a ruler;
    ValueError if such a game is judged without them.
    """
    j = counted if counted is not None else judging(game, deck, rules)
    violations: list[Violation] = []
    for rule in game.rules:
        violations.extend(kind_get(rule.kind).check(j, rule))
    summary = j.ruler_report().summary if _by_ruler(game) else j.tally.summary()
    return Report(tuple(violations), summary, j.rules)


def game_natural_section(game: GameDefinition, card: CardFacts) -> str:
    """Where a card goes when a player adds it: the first section whose section_types rule takes its type.

    The main deck when no rule says (or for a game whose rules come from a ruler: the ruler's
    natural section, resources for energy cards).
    """
    if _by_ruler(game):
        return natural_section(card)
    for rule in game.rules:
        if rule.kind != "section_types":
            continue
        for section in game.section_keys():
            if card.type in rule.params["allowed"].get(section, ()):
                return section
    return MAIN


def addition_hints(
    j: Judging, card: CardFacts, *, section: str | None = None, printing: str | None = None
) -> list[Blocker]:
    """Why one more copy of `card` cannot go into `section` (default: its natural one); [] if it can.

    Each rule's kind tests the card against the deck's tally; a violation the deck already has
    and the copy does not worsen is no reason.
    """
    where = section or game_natural_section(j.game, card)
    out: list[Blocker] = []
    for rule in j.game.rules:
        for blocker in kind_get(rule.kind).hint(j, rule, card, where, printing):
            if blocker not in out:
                out.append(blocker)
    return out


def game_meters(j: Judging) -> list[Meter]:
    """The deck's meters, rule by rule in the data's order (main deck n/39, copies, cards outside the Kingdom…)."""
    return [meter for rule in j.game.rules for meter in kind_get(rule.kind).meter(j, rule)]


def main_size_meter(j: Judging) -> Meter | None:
    """The main deck's size against its size rule (the section_size rule of the main section), as its meter
    shows it: what the editor's phone tab counts ("12/39"); None when the game's data sets no such size."""
    for rule in j.game.rules:
        if rule.kind == "section_size" and rule.params.get("section") == MAIN:
            return next(iter(kind_get(rule.kind).meter(j, rule)), None)
    return None
