"""The draw-odds panel's context (decks/_odds.html), for its own view and for the editor's answers.

The editor draws the panel with its page and again, out of band, in the answer to each change
(one request per click): it passes the judgement the change has just made, so the odds cost no
query. The panel's choices (k, group, picked cards) come along with every change (the editor's
hx-include names #draw-odds).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from functools import lru_cache
from typing import Any, NamedTuple

from django.http import QueryDict
from django.utils.translation import get_language, gettext

from cards.catalog import catalog_token
from decks.drafts import DraftJudgement
from decks.models import DeckDraft
from decks.rules.odds import CardGroup, DrawPattern
from decks.rules.wording import Wording
from decks.wording import game_name, word
from gatesite.errors import ApplicationError

from .forms import MAX_PICKED, DrawOddsForm, plainly_asked
from .selectors import DeckDrawOdds, deck_draw_odds


@dataclass(frozen=True, slots=True)
class Chance:
    """A probability as the panel shows it: a rounded percent, the exact fraction, a bar height.

    Worked out once (Chance.of), not per template lookup: the panel is drawn with every change.
    """

    percent: str
    exact: str
    # The bar's height in percent, as CSS wants it whatever the locale.
    height: str
    # "exactly 3/10", in the player's language (the cell's title): worded here, not per cell in the template.
    title: str

    @classmethod
    def of(cls, p: Fraction) -> Chance:
        value = float(p) * 100
        exact = f"{p.numerator}/{p.denominator}"
        return cls(_percent(p, value), exact, f"{value:.2f}", gettext("exactly %(exact)s") % {"exact": exact})


def _percent(p: Fraction, value: float) -> str:
    # Never round an uncertain chance to 0% or 100%.
    if p in (0, 1):
        return f"{int(p) * 100}%"
    if value < 0.05:
        return "<0.1%"
    if value >= 99.95:
        return ">99.9%"
    return f"{value:.1f}%"


@dataclass(frozen=True)
class ChanceRow:
    turn: int
    seen_first: int
    seen_second: int
    first: Chance
    second: Chance

    @property
    def seen_first_text(self) -> str:
        return gettext("%(n)s seen") % {"n": self.seen_first}

    @property
    def seen_second_text(self) -> str:
        return gettext("%(n)s seen") % {"n": self.seen_second}

    @property
    def same(self) -> bool:
        """Going first or second makes no difference on this turn (one cell says it, not two equal ones)."""
        return self.first.exact == self.second.exact and self.seen_first == self.seen_second


def _label_words(group: CardGroup) -> str:
    """A group's label in the player's language: a card's own group (and a picked set of one card) is labelled by the
    card's name, shown as the player reads it (cards.names); any other label is a Wording or a catalog message."""
    if type(group.label) is not Wording and group.label in group.names:
        return game_name(group.label)
    return word(group.label)


class GroupOption(NamedTuple):
    """An option of the group picker. A plain tuple: the picker is drawn once per distinct options
    (partial_memo), keyed by them all, and a tuple of strings hashes and compares without Python code."""

    key: str
    # "Label (count)", as the option shows it.
    text: str
    selected: bool


# What a panel shows of its numbers, remembered by value (at most MAX_REMEMBERED of each, then cleared
# whole): the rows by the numbers they are worked out from, an option by its group's words and count. A player's
# change moves a group's count or the deck's size by one, so the same few rows and options come back
# change after change, in any deck, and need not be worded again (gettext per cell, per option). Each holds
# only immutable values, shared safely between requests.
MAX_REMEMBERED = 4_096
_rows_made: dict[Hashable, tuple[ChanceRow, ...]] = {}
_options_made: dict[Hashable, GroupOption] = {}


def _remember(memo: dict[Hashable, Any], key: Hashable, value: Any) -> None:
    if len(memo) >= MAX_REMEMBERED:
        memo.clear()
    memo[key] = value


def _rows(odds: DeckDrawOdds) -> tuple[ChanceRow, ...]:
    """The table's rows, worded in the active language (a cell's title): the same for every deck with the
    same draw pattern, size, group count and k (odds.rows is worked out from these alone)."""
    key = (get_language(), odds.pattern, odds.deck_size, odds.group.count if odds.group else 0, odds.k, len(odds.rows))
    rows = _rows_made.get(key)
    if rows is None:
        rows = tuple(
            ChanceRow(r.turn, r.seen_first, r.seen_second, Chance.of(r.first), Chance.of(r.second)) for r in odds.rows
        )
        _remember(_rows_made, key, rows)
    return rows


def _group_options(odds: DeckDrawOdds) -> dict[str, list[GroupOption]]:
    """The group picker's options, split into groups and single cards once (not two template loops over all)."""
    chosen = odds.group.key if odds.group else None
    # The catalog's version too: a name is worded in Japanese as the catalog has it (cards.names).
    language = (get_language(), catalog_token())
    groups: list[GroupOption] = []
    cards: list[GroupOption] = []
    for g in odds.groups:
        label = g.label
        # A Wording by its template and values (two wordings of one English text may read differently in
        # another language), a plain label by its text; the key by its text too (the group it picks).
        said = (label.template, tuple(label.values.items())) if type(label) is Wording else (str, label)
        key = (language, g.key, said, g.count, g.key == chosen)
        option = _options_made.get(key)
        if option is None:
            option = GroupOption(g.key, f"{_label_words(g)} ({g.count})", g.key == chosen)
            _remember(_options_made, key, option)
        (cards if g.single_card else groups).append(option)
    return {"groups": groups, "cards": cards}


@dataclass(frozen=True, slots=True)
class OddsHelp:
    """What the panel's help says of the rules (decks/_odds.html#odds-help-items): the same for every
    change of a deck under the same rules, so it is drawn once for them (partial_memo), not per change."""

    # Gate Ruler: the date of the rules in force and the geas; another game: its name and rules source.
    on: date | None
    geas: str
    describe: tuple[Wording | str, ...]
    first_turn_rulers: tuple[tuple[str, str], ...]
    game: str = ""
    source: str = ""

    @classmethod
    def of(cls, odds: DeckDrawOdds) -> OddsHelp:
        choice, game = odds.judgement.choice, odds.judgement.game
        describe = _described(odds.pattern)
        if choice is not None:
            return cls(choice.on, choice.rules.geas or "", describe, tuple(odds.first_turn_rulers))
        source = game.draw.get("source", "")
        return cls(None, "", describe, tuple(odds.first_turn_rulers), word(game.name), word(source))


@dataclass(frozen=True, slots=True)
class OddsSummary:
    """The panel's summary of the group asked about (decks/_odds.html#odds-summary), ready to print: the
    same for every change that leaves the group's count, the deck's size and the rules as they were, so it
    is drawn once for them (partial_memo, in the player's language) rather than looked up deep per change."""

    # Gate Ruler (the ruler's rules) or another game (its data's draw pattern).
    gate_ruler: bool
    # The group's label and the draw pattern's summary, worded in the player's language.
    label: str
    pattern: str
    count: int
    deck_size: int
    # Gate Ruler: the deck size the rules want, the ruler (in the player's language) and the geas.
    want: int | None = None
    ruler: str = ""
    geas: str | None = None
    # Another game: its name.
    game: str = ""

    @classmethod
    def of(cls, odds: DeckDrawOdds) -> OddsSummary | None:
        group = odds.group
        if group is None:
            return None
        label, pattern = _label_words(group), _summary_words(get_language(), odds.pattern)
        choice = odds.judgement.choice
        if choice is None:
            return cls(False, label, pattern, group.count, odds.deck_size, game=word(odds.judgement.game.name))
        rules = choice.rules
        return cls(
            True, label, pattern, group.count, odds.deck_size, rules.deck.deck_size, game_name(rules.ruler), rules.geas
        )


@lru_cache(maxsize=256)
def _described(pattern: DrawPattern) -> tuple[str, ...]:
    """A draw pattern in words (Wordings, worded by the template): the same for every deck of a ruler."""
    return tuple(pattern.describe())


@lru_cache(maxsize=256)
def _summary_words(language: str | None, pattern: DrawPattern) -> str:
    """A draw pattern's summary in the active language `language` (numbers only: no name the catalog words)."""
    return word(pattern.summary())


def odds_panel_context(
    *, draft: DeckDraft, params: QueryDict, judgement: DraftJudgement | None = None, odds_key: str | None = None
) -> dict[str, Any]:
    """What decks/_odds.html shows of a draft, for the group, k and cards asked in `params` (`odds_key`:
    the draft's, when the caller has worked it out already)."""
    errors = []
    asked = plainly_asked(params)
    if asked is not None:
        group, k = asked[0], asked[1] or 1
    else:
        form = DrawOddsForm(params)
        if form.is_valid():
            group, k = form.cleaned_data["group"], form.cleaned_data["k"] or 1
        else:
            errors = [f"{field}: {' '.join(messages)}" for field, messages in form.errors.items()]
            group, k = "", 1
    picked = [name[:200] for name in params.getlist("card")[:MAX_PICKED]]
    # The deck's key, worked out once (the panel shows it twice).
    context: dict[str, Any] = {"odds_errors": errors, "odds_loaded": True, "odds_key": odds_key or draft.odds_key()}
    try:
        odds = deck_draw_odds(draft=draft, group=group, picked=picked, k=k, judgement=judgement)
    except ApplicationError as exc:
        context["odds_errors"] = [*errors, exc.message]
        context["odds"] = None
    else:
        most = min(odds.group.count, 10) if odds.group else 1
        # A tuple: the table and chart are drawn once per distinct rows (partial_memo), their key.
        rows = tuple(_rows(odds))
        context.update(odds=odds, odds_rows=rows, k_choices=range(1, max(1, most) + 1))
        # Every turn the same going first or second: one column, said once.
        context["odds_same"] = all(row.same for row in rows)
        context["odds_options"] = _group_options(odds)
        context["odds_help"] = OddsHelp.of(odds)
        context["odds_summary"] = OddsSummary.of(odds)
    return context
