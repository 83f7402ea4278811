"""Draw odds of a deck: the chances by turn for a group of its cards (the maths: decks.rules.odds)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from cards.catalog import catalog_remembered
from cards.models import RulerRevision
from decks.drafts import DraftJudgement, deck_draft_judge
from decks.models import DeckDraft
from decks.rules import odds
from decks.rules.ruleset import RulesDataError
from gatesite.errors import ApplicationError


@dataclass(frozen=True)
class DeckDrawOdds:
    """A deck's draw odds for one group of cards, by the rules in force on the deck's date."""

    judgement: DraftJudgement
    pattern: odds.DrawPattern
    deck_size: int
    groups: list[odds.CardGroup]
    # None when the main deck is empty (nothing to ask about).
    group: odds.CardGroup | None
    # The card names of the main deck, for a picked set.
    names: list[str]
    picked: tuple[str, ...]
    k: int
    rows: tuple[odds.OddsRow, ...]
    # Rulers (in force on the deck's date) whose first turn of the game differs from the others.
    first_turn_rulers: list[tuple[str, str]]


def deck_draw_odds(
    *,
    draft: DeckDraft,
    group: str = "",
    picked: Sequence[str] = (),
    k: int = 1,
    today: date | None = None,
    judgement: DraftJudgement | None = None,
) -> DeckDrawOdds:
    """The odds of having seen at least k cards of a group by turns 1..6 (see decks.rules.odds).

    `group` is a key of decks.rules.odds.deck_groups, or "picked" for the `picked` card names;
    an unknown key (a card since removed) falls back to the default group (_pattern_and_groups). k is kept
    within 1..the group's copies. Given the draft's `judgement` (the editor's change has just made it),
    no query; else the judgement's 3-4. The rulers' revisions come from the catalog memory.
    """
    if judgement is None:
        judgement = deck_draft_judge(draft=draft, today=today)
    pattern, groups, default = _pattern_and_groups(judgement)
    deck = judgement.deck
    chosen: odds.CardGroup | None = None
    if group == odds.PICKED:
        chosen = odds.picked_group(deck, picked)
    else:
        chosen = next((g for g in groups if g.key == group), default)
    size = odds.deck_size_of(deck)
    k = max(1, min(k, chosen.count if chosen and chosen.count else 1))
    rows = odds.draw_odds(pattern, deck_size=size, group=chosen.count if chosen else 0, k=k)
    return DeckDrawOdds(
        judgement=judgement,
        pattern=pattern,
        deck_size=size,
        groups=groups,
        group=chosen,
        names=sorted({entry.card.name for entry in deck.main}),
        picked=tuple(picked) if group == odds.PICKED else (),
        k=k,
        rows=rows,
        first_turn_rulers=rulers_with_first_turn_exception(on=judgement.on) if judgement.choice else [],
    )


def _pattern_and_groups(
    judgement: DraftJudgement,
) -> tuple[odds.DrawPattern, list[odds.CardGroup], odds.CardGroup | None]:
    """The deck's draw pattern, card groups and the group shown before one is asked for: its ruler's (Gate
    Ruler: the first group, CNT cards or legends, what its players count), or its game's data's (another game:
    odds.game_default_group, never a type that fills the deck and reads 100 % every turn)."""
    if judgement.choice is None:
        game, deck = judgement.game, judgement.deck
        groups = odds.game_deck_groups(game, deck)
        return odds.game_draw_pattern(game.draw), groups, odds.game_default_group(groups, odds.deck_size_of(deck))
    try:
        pattern = odds.draw_pattern(judgement.choice.rules.profile)
    except RulesDataError as exc:
        raise ApplicationError(f"The rules data is broken: {exc}") from exc
    groups = odds.deck_groups(judgement.deck)
    return pattern, groups, groups[0] if groups else None


def rulers_with_first_turn_exception(*, on: date) -> list[tuple[str, str]]:
    """Rulers whose revision in force on a date sees a different number of cards on the game's first turn.

    Remembered per date with the catalog (cards.catalog): every odds panel asks it, and only a
    rules import changes it.
    """
    return list(catalog_remembered(("first-turn-rulers", on), lambda: _first_turn_rulers(on)))


def _first_turn_rulers(on: date) -> tuple[tuple[str, str], ...]:
    """(code, name) of each ruler whose first turn differs under the rules in force on `on`."""
    latest: dict[int, RulerRevision] = {}
    for revision in RulerRevision.objects.filter(effective_from__lte=on).select_related("ruler"):
        if revision.ruler_id not in latest or revision.effective_from > latest[revision.ruler_id].effective_from:
            latest[revision.ruler_id] = revision
    names = []
    for revision in latest.values():
        try:
            differs = odds.draw_pattern(revision.data).first_turn_differs
        except RulesDataError:
            continue  # a broken revision says nothing about turns; the deck's own rules report it
        if differs:
            names.append((revision.ruler.code, revision.ruler.name))
    return tuple(names)
