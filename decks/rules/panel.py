"""The rules panel's data: a game's rules in plain words with their numbers and sources, and the
readings the site chose where the source documents are silent (pure, no Django).

The later UI renders this; nothing here is markup. Each assumption is shown under the rule it
is about (its `rule` code in the data), or with the game when it is about no one rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .games import Assumption, GameDefinition
from .kinds import kind_get
from .odds import DrawPattern, game_draw_pattern
from .wording import Label, Wording


@dataclass(frozen=True, slots=True)
class PanelRule:
    """One rule as the panel lists it."""

    code: str | None
    kind: str
    wording: Wording
    # The rule's numbers as the data gives them ({"section": "main", "exactly": 39}).
    params: Mapping[str, Any]
    source: Label
    assumptions: tuple[Assumption, ...] = ()


@dataclass(frozen=True, slots=True)
class RulesPanel:
    game: str
    name: Label
    source: Label
    rules: tuple[PanelRule, ...]
    # Assumptions about no one rule (copies in GateRunners, Shields in the draw odds).
    assumptions: tuple[Assumption, ...]
    # The draw pattern in words; () for a game whose pattern comes from a ruler.
    draw: tuple[str, ...] = ()
    draw_source: Label | str = ""


def rules_panel(game: GameDefinition) -> RulesPanel:
    """A game's rules, in the data's order, each with its words, numbers, source and assumptions."""
    codes = {rule.code for rule in game.rules if rule.code}
    rules = tuple(
        PanelRule(
            code=rule.code,
            kind=rule.kind,
            wording=kind_get(rule.kind).describe(game, rule),
            params=dict(rule.params),
            source=rule.source,
            assumptions=tuple(a for a in game.assumptions if a.rule is not None and a.rule == rule.code),
        )
        for rule in game.rules
    )
    loose = tuple(a for a in game.assumptions if a.rule is None or a.rule not in codes)
    pattern = _pattern(game)
    return RulesPanel(
        game=game.slug,
        name=game.name,
        source=game.source,
        rules=rules,
        assumptions=loose,
        draw=tuple(pattern.describe()) if pattern is not None else (),
        draw_source=game.draw.get("source", ""),
    )


def _pattern(game: GameDefinition) -> DrawPattern | None:
    if game.draw.get("kind") is not None:
        # Set by each ruler: the odds panel shows the ruler's pattern.
        return None
    return game_draw_pattern(game.draw)
